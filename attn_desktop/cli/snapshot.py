"""`attn-desktop snapshot`: the real window as a screen of a given size and scale shows it, drawn
with no display into a PNG, optionally with the layout audit as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attn_desktop.cli.errors import OneLineErrorParser, fail
from attn_desktop.cli.language_option import add_language_option, speak_chosen_language
from attn_desktop.cli.offscreen import hide_offscreen_notes, use_user_folder
from attn_desktop.language import N_, current_language, tr
from attn_desktop.model.ascii_numbers import ascii_decimal, ascii_whole_number
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from attn_desktop.model import Scene, ViewState
    from attn_desktop.model.teaching.lesson_file import LessonFile
    from attn_desktop.ui.tools.walk_steps import Step

SNAPSHOT_SIZE_RANGE = (320, 8192)  # pixels, each side: from a tiny window to an 8K screen
SNAPSHOT_SCALE_RANGE = (1.0, 4.0)


def snapshot_main(argv: list[str]) -> int:
    language_problem = speak_chosen_language(argv)
    if language_problem:
        return fail(language_problem)
    args = _snapshot_parser().parse_args(argv)
    problem = _snapshot_input_problem(args)
    if problem:
        return fail(problem)
    from attn_desktop.ui.tools.walk_steps import StepError, parse_steps

    try:
        steps = parse_steps(args.steps) if args.steps is not None else None
    except StepError as error:
        return fail(str(error))
    from attn_desktop.model import SceneFileError, ViewState

    scene_path = Path(args.scene) if args.scene else None
    view = ViewState()  # the window's, choosing the query the file had chosen
    try:
        scene = open_scene(scene_path, view) if scene_path else None
        lesson_file = read_lesson_file(args.lesson_file) if args.lesson_file else None  # whole, before any window
    except SceneFileError as error:  # a lesson file's problem too (LessonFileError), naming the file
        return fail(str(error))
    try:
        picture, audit = _take_snapshot(scene, view, scene_path, args, steps, lesson_file)
    except StepError as error:  # a step the window could not take: nothing is written
        return fail(str(error))
    return _write_snapshot(picture, audit, args.output, args.audit)


def _snapshot_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="attn-desktop snapshot",
        description=tr("Draw the real window as a screen of the given size shows it (no display needed), "
        "optionally with an audit of what a person would check: score rows visible, matrix numbers, "
        "labels apart and at their arrows, panels whole."),
    )
    parser.add_argument("scene", nargs="?", help=tr("a scene file (JSON); default: The cat sat on the mat"))
    parser.add_argument("-o", "--output", required=True, help=tr("the picture to write (.png)"))
    parser.add_argument("--size", required=True, metavar="WxH", help=tr("the screen's resolution, e.g. 1024x768"))
    # Translators: %% is how this help writes a percent sign: keep it doubled.
    parser.add_argument("--scale", default="1", metavar="FACTOR", help=tr(
        "the desktop's scale factor, 1 to 4 (2 for a 4K screen at 200%%); default 1"))
    parser.add_argument("--presentation", action="store_true", help=tr("in presentation mode (F11)"))
    parser.add_argument("--lesson", metavar="ID", help=tr("open this lesson first: {lessons}").format(
        lessons=", ".join(_lesson_ids())))
    parser.add_argument("--lesson-file", metavar="FILE.attn-lesson", help=tr(
        "open this lesson file first, as a student does (its scene, text and exercises, its hidden controls gone)"))
    parser.add_argument("--audit", metavar="AUDIT.json", help=tr(
        "also write the layout audit as JSON; - writes it to standard output"))
    # Translators: the steps' names (lesson:ID, present, ...) are typed as they are: do not translate them.
    parser.add_argument("--steps", metavar="STEPS", help=tr(
        "walk through these steps in one window first, audited after each, comma-separated: "
        "lesson:ID, present, unpresent, restart, train:TASK:N, heads, induction, lab, positions-lab, "
        "predict, reset-layout, drag:ROLE:INDEX:X:Y, undo"))
    add_language_option(parser)
    return parser


def _lesson_ids() -> list[str]:
    from attn_desktop.model.teaching import lessons

    return [lesson.id for lesson in lessons.LESSONS]


def _snapshot_size(text: str) -> tuple[int, int] | None:
    width_text, _, height_text = text.strip().lower().partition("x")
    width, height = ascii_whole_number(width_text, 5), ascii_whole_number(height_text, 5)  # not "１０２４"
    if width is None or height is None:
        return None
    low, high = SNAPSHOT_SIZE_RANGE
    return (width, height) if low <= width <= high and low <= height <= high else None


def _snapshot_input_problem(args: argparse.Namespace) -> str | None:
    """One line saying what is wrong with the command line, checked before any window is built."""
    if _snapshot_size(args.size) is None:
        low, high = SNAPSHOT_SIZE_RANGE
        return tr("--size: expected WIDTHxHEIGHT with each side {low} to {high} pixels, e.g. 1024x768; found {found}").format(
            low=low, high=high, found=repr(args.size))
    scale = ascii_decimal(args.scale.strip())  # not "２", "1_5" or nan
    if scale is None or not SNAPSHOT_SCALE_RANGE[0] <= scale <= SNAPSHOT_SCALE_RANGE[1]:
        return tr("--scale: expected a number from 1 to 4, found {found}").format(found=repr(args.scale))
    if args.lesson and args.lesson not in _lesson_ids():
        return tr("--lesson: no lesson called {lesson}; choose one of {lessons}").format(
            lesson=repr(args.lesson), lessons=", ".join(_lesson_ids()))
    if args.lesson and args.scene:
        return tr("give a scene file or --lesson, not both (a lesson opens its own scene)")
    if args.lesson_file and (args.lesson or args.scene):
        return tr("--lesson-file: a lesson file opens its own scene; give no scene file or --lesson with it")
    for given in filter(None, (args.scene, args.lesson_file)):
        if not Path(given).is_file():
            return tr("{file}: no such file").format(file=given)
    if Path(args.output).suffix.lower() != ".png":
        return tr("{file}: a snapshot is a PNG picture; use a name ending in .png").format(file=args.output)
    for path in filter(None, (args.output, args.audit)):
        if path == "-":  # --audit -: standard output, as export's -o -
            continue
        folder = Path(path).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK) or Path(path).is_dir():
            return tr("{file}: cannot write there (no such folder, not writable, or a folder)").format(file=path)
    return _outputs_problem(args)


def _outputs_problem(args: argparse.Namespace) -> str | None:
    """Why the picture or the audit cannot be written, before any window is built: one of them is the scene
    the snapshot reads (by any name), the audit is the picture, or one is a device or a read-only file."""
    from attn_desktop.cli.output_checks import (
        PICTURE_REPLACED_BY_AUDIT,
        SCENE_REPLACED_BY_SNAPSHOT,
        STANDARD_OUTPUT_CLOSED,
        json_output_problem,
        output_is_an_input,
    )
    from attn_desktop.model.files.json_reading import shown_path

    scenes = [(scene, SCENE_REPLACED_BY_SNAPSHOT) for scene in _scenes_read(args)]
    if args.lesson_file:  # the lesson file by another name (a link): never replaced by the picture or the audit
        scenes.append((args.lesson_file, LESSON_REPLACED_BY_SNAPSHOT))
    for path, inputs in ((args.output, scenes), (args.audit, [*scenes, (args.output, PICTURE_REPLACED_BY_AUDIT)])):
        if path == "-":
            problem = tr(STANDARD_OUTPUT_CLOSED) if sys.stdout is None else None
        else:
            problem = path and (output_is_an_input(path, inputs) or json_output_problem(path))
        if problem:
            return tr("{file}: {problem}").format(file=shown_path(path), problem=problem)
    return None


LESSON_REPLACED_BY_SNAPSHOT = N_(
    "that is the lesson file itself; the snapshot would replace it. Choose another name")


def _scenes_read(args: argparse.Namespace) -> list[str | Path]:
    """Every scene file the snapshot may read: the one given, and the app's own (the default scene, and each
    lesson's, which --lesson and a walk's lesson:ID steps open)."""
    from attn_desktop.model.teaching import lessons
    from attn_desktop.paths import DEFAULT_SCENE, scene_path

    names = dict.fromkeys([DEFAULT_SCENE, *(item.scene for item in lessons.LESSONS)])
    built_in: list[str | Path] = [scene_path(name) for name in names]
    return [args.scene, *built_in] if args.scene else built_in


def _take_snapshot(scene: Scene | None, view: ViewState, scene_path: Path | None, args: argparse.Namespace,
                   steps: list[Step] | None = None, lesson_file: LessonFile | None = None
                   ) -> tuple[bytes, dict[str, Any]]:
    """The PNG and the audit of the window on SCENE (None: the default scene), on the screen ARGS describe,
    with LESSON_FILE open as a student has it; with STEPS, after walking through them, and an audit per step."""
    from attn_desktop.ui.tools.snapshot import (
        ScreenSpec,
        take_snapshot,
        take_walk,
        temporary_user_folder,
        use_offscreen_screen,
    )

    size = _snapshot_size(args.size)
    assert size is not None, "checked by _snapshot_input_problem"
    width, height = size
    from attn_desktop.ui.tools.interruption import interrupt_at_safe_points

    with temporary_user_folder() as folder, interrupt_at_safe_points():  # Ctrl+C stops between steps
        use_user_folder(folder)
        use_offscreen_screen(ScreenSpec(width, height, float(args.scale)), folder)
        hide_offscreen_notes()
        _app = _start_application()  # held for as long as the window lives
        if scene is None:
            from attn_desktop.ui.window.startup.app import default_scene

            scene = default_scene(view)
        if steps is None:
            return take_snapshot(scene, scene_path, args.lesson, args.presentation, view, lesson_file)
        return take_walk(scene, scene_path, args.lesson, steps, args.presentation, view, lesson_file)


def _start_application() -> QApplication:
    """The application, in the language chosen (its screen set first); take_snapshot's window lives in it."""
    from attn_desktop.ui.window.language_switch import start_in_language
    from attn_desktop.ui.window.startup.app import make_application

    app = make_application()
    start_in_language(app, current_language())
    return app


def _write_snapshot(picture: bytes, audit: dict[str, Any], output: str, audit_output: str | None) -> int:
    """The picture and the audit written together (safe_write.write_files_together): both, or neither
    replaced, so an audit that cannot be written never leaves a new picture over the user's old one. An audit
    of "-" goes to standard output once the picture is written."""
    from attn_desktop.cli.output_checks import write_standard_output
    from attn_desktop.model.files.safe_write import write_files_together

    audit_text = json.dumps(audit, indent=2) + "\n"
    files = [(output, picture)]
    if audit_output and audit_output != "-":
        files.append((audit_output, audit_text.encode("utf-8")))
    try:
        write_files_together(files)
    except OSError as error:
        return fail(tr("{file}: cannot write ({reason})").format(file=error.filename or output,
                                                             reason=error.strerror or error))
    return write_standard_output([audit_text]) if audit_output == "-" else 0
