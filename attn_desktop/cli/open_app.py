"""`attn-desktop [SCENE | LESSON]`: open the app's window, on a scene file, a lesson file (*.attn-lesson) or the
default scene.

A scene that cannot be read, a missing system library Qt's platform plugin needs, or no display
is one error line and exit 2 (and, for the scene, a dialog: a desktop entry has no terminal to read)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from attn_desktop import APP_NAME
from attn_desktop.cli.app_checks import add_check_options, prepare_for_checks, run_self_test
from attn_desktop.cli.errors import OneLineErrorParser, fail
from attn_desktop.cli.language_option import add_language_option, speak_chosen_language
from attn_desktop.language import current_language, tr
from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.lesson_file import LESSON_SUFFIX, LessonFile
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.view_state import ViewState

if TYPE_CHECKING:
    from attn_desktop.ui.window.main_window import MainWindow

TEST_EDIT_VARIABLE = "ATTN_DESKTOP_TEST_EDIT"  # set: one edit at start, its recovery copy's name on stdout


def gui_main(argv: list[str]) -> int:
    language_problem = speak_chosen_language(argv, remembered=_saved_language)
    if language_problem:
        return fail(language_problem)
    args = _app_parser().parse_args(argv)
    prepare_for_checks(args)

    view = ViewState()  # the window's view, choosing the query the file had chosen
    try:
        scene, lesson = opened_file(args.scene, view)
    except Exception as error:  # noqa: BLE001 - whatever the file holds: one line and a dialog, no traceback
        return _cannot_open_scene(args.scene, error, lesson_file=is_lesson_file(args.scene))

    if not args.self_test:
        from attn_desktop.platform_check import check_platform_plugin, display_problem

        problem = check_platform_plugin()  # Qt's own message would name the wrong package, then abort
        if problem is not None:
            return fail(problem.message())
        no_display = display_problem()  # so would Qt's with no display to connect to
        if no_display is not None:
            return fail(no_display)

    from attn_desktop.ui.window.language_switch import start_in_language
    from attn_desktop.ui.window.startup.app import make_application, start_window

    app = make_application()
    start_in_language(app, current_language())
    if args.self_test:
        return run_self_test()
    from attn_desktop.ui.window.startup.interrupt import close_windows_on_interrupt

    close_windows_on_interrupt(app)  # before the first question a start may ask
    window = start_window(scene, Path(args.scene) if scene is not None else None, view)
    if lesson is not None:  # on the lesson the last run was on, then the lesson file over it
        # Read again through the opener, which keeps the hash of the bytes it read: a hand-in names the file.
        window.lesson_files.open_path(Path(args.scene))
    _show(window, quit_after_paint=args.quit_after_paint)
    return app.exec()


def opened_file(argument: str | None, view: ViewState) -> tuple[Scene | None, LessonFile | None]:
    """What the window opens on: the scene file ARGUMENT (read through VIEW), or the lesson file it names (by
    its ending, *.attn-lesson), or neither (None, None: the last lesson). Raises for a file that cannot be read."""
    if not argument:
        return None, None
    if is_lesson_file(argument):
        return None, read_lesson_file(argument)
    return open_scene(argument, view), None


def is_lesson_file(path: str | None) -> bool:
    """Whether PATH names a lesson file, by its ending (as the file manager's glob does)."""
    return bool(path) and str(path).lower().endswith(LESSON_SUFFIX)


def _saved_language() -> str | None:
    from attn_desktop.ui.settings import saved_language

    return saved_language()


def _app_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="attn-desktop",
        description=tr("{app}: drag queries, keys and values and watch attention recompute.").format(app=APP_NAME),
        # Translators: the command lines stay as they are; translate only "Also:", "and" and "(no display needed)".
        epilog=tr("Also: attn-desktop export SCENE.json -o OUT.json|.csv|.png|.svg [--lang CODE]  and  attn-desktop "
        "snapshot [SCENE] -o OUT.png --size WxH [--presentation] [--lesson ID] [--audit AUDIT.json] [--steps STEPS] "
        "[--lang CODE]  and  attn-desktop train TASK [--steps N] [--seed S] [--lr X] -o OUT.json  and  attn-desktop "
        "heads \"SENTENCE\" [--model PATH] -o OUT.json  (no display needed)"),
    )
    # (A lesson file, *.attn-lesson, opens as a lesson: see opened_file.)
    parser.add_argument("scene", nargs="?", help=tr("a scene file to open (JSON); default: The cat sat on the mat"))
    add_language_option(parser, remembered=True)
    add_check_options(parser)
    return parser


def _cannot_open_scene(scene_file: str, error: Exception, lesson_file: bool = False) -> int:
    """Say why the scene (or LESSON_FILE) cannot be opened, on standard error and in a dialog; the exit code."""
    from attn_desktop.model import SceneFileError

    message = str(error) if isinstance(error, SceneFileError) else tr("{file}: {reason}").format(
        file=scene_file, reason=error)
    exit_code = fail(message)
    from attn_desktop.ui.window.startup.startup_error import show_startup_error

    show_startup_error(tr("Cannot open lesson") if lesson_file else tr("Cannot open scene"), message)  # a desktop entry has no terminal to read
    return exit_code


def _show(window: MainWindow, quit_after_paint: bool) -> None:
    """Show the window where its docks were last time, and offer back work a crashed session left unsaved."""
    if quit_after_paint:
        from attn_desktop.ui.window.startup.first_paint import quit_after_first_paint

        quit_after_first_paint(window.canvas.viewport())
    from attn_desktop.ui.window.startup.app import show_as_started

    show_as_started(window)
    if not quit_after_paint:
        window.documents.offer_to_restore()
    if os.environ.get(TEST_EDIT_VARIABLE):  # for a test that kills running instances: work to recover
        _make_an_unsaved_edit(window)


def _make_an_unsaved_edit(window: MainWindow) -> None:
    """Switch scaling off, write the recovery copy at once and print its path."""
    window.scale_action.trigger()
    window.autosaver.write_now()
    print(window.autosaver.path, flush=True)
