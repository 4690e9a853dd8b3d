"""The command line: open the app, export a scene headless, --version, --self-test."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from attn_desktop import APP_NAME, __version__

EXIT_BAD_INPUT = 2


def _fail(message: str) -> int:
    print(f"attn-desktop: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


EXPORT_FORMATS = (".json", ".csv", ".png", ".svg")
PNG_SCALE_RANGE = (0.25, 8.0)
PICTURE_WINDOW_SIZE = (1400, 900)  # the window a picture is taken from; canvas and matrix keep their docked sizes


def export_main(argv: list[str]) -> int:
    parser = _OneLineErrorParser(
        prog="attn-desktop export",
        description="Compute a scene's attention and write it out: every number as JSON, the weights "
        "as CSV, or the canvas and the attention matrix as a picture for a handout.",
    )
    parser.add_argument("scene", help="the scene file (JSON)")
    parser.add_argument(
        "-o", "--output", required=True,
        help="where to write; its extension picks the format: .json (every number), .csv (the weights matrix "
        "with token labels), .png or .svg (canvas and matrix side by side). - writes JSON (only) to standard output",
    )
    parser.add_argument(
        "--scale", default="2", metavar="FACTOR",
        help="for .png: the picture's size as a multiple of the on-screen size, 0.25 to 8 (default 2); "
        "ignored by the other formats",
    )
    args = parser.parse_args(argv)
    # Only the model is imported: JSON and CSV exports work on a machine with no display.
    from attn_desktop.model.files.scene_file import shown_path

    output = shown_path(args.output)  # for messages: one line, whatever the name holds
    kind = _output_format(args.output)
    if kind is None:
        return _fail(f"{output}: unknown output format; use a name ending in {', '.join(EXPORT_FORMATS)} "
                     "(or - for JSON on standard output)")
    scale = _png_scale(args.scale)
    if scale is None:
        low, high = PNG_SCALE_RANGE
        return _fail(f"--scale: expected a number from {low:g} to {high:g}, found {args.scale!r}")
    if args.output == "-" and sys.stdout is None:
        return _fail("cannot write to standard output (it is closed)")
    problem = _export_output_problem(args.scene, args.output)
    if problem:
        return _fail(f"{output}: {problem}")
    from attn_desktop.model import Scene, SceneFileError

    try:
        scene = Scene.from_file(args.scene)
    except SceneFileError as error:
        return _fail(str(error))
    try:
        if args.output == "-":
            _write_standard_output(scene)
        elif kind in (".png", ".svg"):
            _export_picture(scene, Path(args.scene), args.output, kind, scale)
        else:
            _export_text(scene, args.output, kind)
    except _StandardOutputError as error:
        return _fail(f"cannot write to standard output ({error})")
    except OSError as error:
        return _fail(f"{output}: cannot write ({error.strerror or error})")
    except MemoryError as error:
        return _fail(f"{output}: {error}")
    return 0


class _OneLineErrorParser(argparse.ArgumentParser):
    """A mistake on the command line reads like every other error: one line, exit 2."""

    def error(self, message: str):
        print(f"attn-desktop: error: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)


def _output_format(output: str) -> str | None:
    """The format OUT names by its extension (- is JSON), or None for one we cannot write."""
    if output == "-":
        return ".json"
    suffix = Path(output).suffix.lower()
    return suffix if suffix in EXPORT_FORMATS else None


def _export_output_problem(scene: str, output: str) -> str | None:
    """Why OUTPUT cannot take the export, checked before any work: the scene itself
    (by any name: a symlink or a hard link to it), a read-only file, a folder or device, no folder."""
    if output == "-":
        return None
    from attn_desktop.model.files.safe_write import file_kind, is_read_only

    if _same_file(scene, output):
        return "that is the scene file itself; the export would replace the scene. Choose another name"
    target = Path(os.path.realpath(output))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None if target.parent.is_dir() else "cannot write there (no such folder)"
    except OSError as error:
        return f"cannot write there ({error.strerror or error})"
    if not stat.S_ISREG(info.st_mode):
        return f"it is {file_kind(info.st_mode)}, not a file (use - for standard output)"
    if is_read_only(target, info):
        return "the file is marked read-only; it was left as it was"
    return None


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)  # also through symlinks and hard links
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(first) == os.path.realpath(second)


class _StandardOutputError(Exception):
    pass


def _write_standard_output(scene) -> None:
    """The JSON as UTF-8 bytes straight to file descriptor 1, whatever the locale.

    Written with os.write, not through sys.stdout's buffer: a write that fails
    (a full disk, a closed pipe) is reported here, and leaves nothing buffered
    for Python to fail on again, with a traceback, as it exits.
    """
    from attn_desktop.model.exports.export import export_json_text

    data = memoryview(export_json_text(scene).encode("utf-8"))
    try:
        sys.stdout.flush()
        descriptor = sys.stdout.fileno()
        while data:
            data = data[os.write(descriptor, data):]
    except BrokenPipeError:
        raise _StandardOutputError("the reader closed it before the end") from None
    except (OSError, ValueError) as error:  # ValueError: stdout's file object is closed or has no descriptor
        raise _StandardOutputError(getattr(error, "strerror", None) or error) from None


def _png_scale(text: str) -> float | None:
    try:
        scale = float(text)
    except ValueError:
        return None
    low, high = PNG_SCALE_RANGE
    return scale if low <= scale <= high else None  # also refuses nan and inf


def _export_text(scene, output: str, kind: str) -> None:
    from attn_desktop.model.exports.csv_export import weights_csv
    from attn_desktop.model.exports.export import export_json_text
    from attn_desktop.model.files.safe_write import write_text_atomically

    write_text_atomically(output, weights_csv(scene) if kind == ".csv" else export_json_text(scene))


def _export_picture(scene, scene_file: Path, output: str, kind: str, scale: float) -> None:
    """Build the real window offscreen on the scene and draw its canvas and matrix into OUT."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    saved_data_dir = os.environ.get("ATTN_DESKTOP_DATA_DIR")
    # Its own empty folder for data and settings: a headless export must neither read nor
    # disturb the user's progress, autosave or window layout (the window saves it on close).
    with tempfile.TemporaryDirectory(prefix="attn-desktop-export-", ignore_cleanup_errors=True) as data_dir:
        os.environ["ATTN_DESKTOP_DATA_DIR"] = data_dir
        try:
            _draw_window(scene, scene_file, output, kind, scale, data_dir)
        finally:
            _restore_environment("ATTN_DESKTOP_DATA_DIR", saved_data_dir)


def _draw_window(scene, scene_file: Path, output: str, kind: str, scale: float, settings_dir: str) -> None:
    from PySide6.QtCore import QSettings

    from attn_desktop.ui.tools.image_export import render_png, render_svg
    from attn_desktop.ui.tools.snapshot import dispose_of
    from attn_desktop.ui.window.app import make_application, settle
    from attn_desktop.ui.window.main_window import MainWindow

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    _app = make_application()  # held for as long as the window lives
    _hide_offscreen_notes()
    window = MainWindow(scene, scene_path=scene_file)
    try:
        window.resize(*PICTURE_WINDOW_SIZE)
        window.show()
        settle(window)
        if kind == ".png":
            render_png(window, output, scale)
        else:
            render_svg(window, output)
    finally:
        window.history.reset()  # nothing was edited: close without asking about unsaved changes
        dispose_of(window)


def _hide_offscreen_notes() -> None:
    """The offscreen platform warns about window-manager features it lacks; a successful export stays quiet."""
    from PySide6.QtCore import qInstallMessageHandler

    def handle(mode, context, message: str) -> None:
        if not message.startswith("This plugin does not support"):
            print(message, file=sys.stderr)

    qInstallMessageHandler(handle)


def _restore_environment(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


SNAPSHOT_SIZE_RANGE = (320, 8192)  # pixels, each side: from a tiny window to an 8K screen
SNAPSHOT_SCALE_RANGE = (1.0, 4.0)


def snapshot_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="attn-desktop snapshot",
        description="Draw the real window as a screen of the given size shows it (no display needed), "
        "optionally with an audit of what a person would check: score rows visible, matrix numbers, "
        "labels apart and at their arrows, panels whole.",
    )
    parser.add_argument("scene", nargs="?", help="a scene file (JSON); default: The cat sat on the mat")
    parser.add_argument("-o", "--output", required=True, help="the picture to write (.png)")
    parser.add_argument("--size", required=True, metavar="WxH", help="the screen's resolution, e.g. 1024x768")
    parser.add_argument("--scale", default="1", metavar="FACTOR",
                        help="the desktop's scale factor, 1 to 4 (2 for a 4K screen at 200%%); default 1")
    parser.add_argument("--presentation", action="store_true", help="in presentation mode (F11)")
    parser.add_argument("--lesson", metavar="ID", help="open this lesson first: " + ", ".join(_lesson_ids()))
    parser.add_argument("--audit", metavar="AUDIT.json", help="also write the layout audit as JSON")
    args = parser.parse_args(argv)
    problem = _snapshot_input_problem(args)
    if problem:
        return _fail(problem)
    from attn_desktop.model import Scene, SceneFileError
    from attn_desktop.ui.tools.snapshot import ScreenSpec, take_snapshot, temporary_user_folder, use_offscreen_screen

    scene_path = Path(args.scene) if args.scene else None
    try:
        scene = Scene.from_file(scene_path) if scene_path else None
    except SceneFileError as error:
        return _fail(str(error))
    width, height = _snapshot_size(args.size)
    with temporary_user_folder() as folder:
        _use_user_folder(folder)
        use_offscreen_screen(ScreenSpec(width, height, float(args.scale)), folder)
        _hide_offscreen_notes()
        if scene is None:
            from attn_desktop.ui.window.app import default_scene

            scene = default_scene()
        picture, audit = take_snapshot(scene, scene_path, args.lesson, args.presentation)
    from attn_desktop.model.files.safe_write import write_bytes_atomically, write_text_atomically

    try:
        write_bytes_atomically(args.output, picture)
        if args.audit:
            write_text_atomically(args.audit, json.dumps(audit, indent=2) + "\n")
    except OSError as error:
        return _fail(f"{error.filename or args.output}: cannot write ({error.strerror or error})")
    return 0


def _lesson_ids() -> list[str]:
    from attn_desktop.model.teaching import lessons

    return [lesson.id for lesson in lessons.LESSONS]


def _snapshot_size(text: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d{1,5})x(\d{1,5})", text.strip().lower())
    if not match:
        return None
    width, height = int(match[1]), int(match[2])
    low, high = SNAPSHOT_SIZE_RANGE
    return (width, height) if low <= width <= high and low <= height <= high else None


def _snapshot_input_problem(args) -> str | None:
    """One line saying what is wrong with the command line, checked before any window is built."""
    if _snapshot_size(args.size) is None:
        low, high = SNAPSHOT_SIZE_RANGE
        return f"--size: expected WIDTHxHEIGHT with each side {low} to {high} pixels, e.g. 1024x768; found {args.size!r}"
    try:
        scale = float(args.scale)
    except ValueError:
        scale = float("nan")
    if not SNAPSHOT_SCALE_RANGE[0] <= scale <= SNAPSHOT_SCALE_RANGE[1]:  # also refuses nan
        return f"--scale: expected a number from 1 to 4, found {args.scale!r}"
    if args.lesson and args.lesson not in _lesson_ids():
        return f"--lesson: no lesson called {args.lesson!r}; choose one of {', '.join(_lesson_ids())}"
    if args.lesson and args.scene:
        return "give a scene file or --lesson, not both (a lesson opens its own scene)"
    if args.scene and not Path(args.scene).is_file():
        return f"{args.scene}: no such file"
    if Path(args.output).suffix.lower() != ".png":
        return f"{args.output}: a snapshot is a PNG picture; use a name ending in .png"
    for path in filter(None, (args.output, args.audit)):
        folder = Path(path).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK) or Path(path).is_dir():
            return f"{path}: cannot write there (no such folder, not writable, or a folder)"
    return None


def _use_user_folder(folder: str) -> None:
    from PySide6.QtCore import QSettings

    os.environ["ATTN_DESKTOP_DATA_DIR"] = folder
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)


def _use_temporary_user_files() -> None:
    _use_user_folder(tempfile.mkdtemp(prefix="attn-desktop-check-"))


MAX_TRAINING_STEPS = 1_000_000  # about half an hour on a laptop; a typo of extra zeros is refused, not run for days
MAX_SEED = 2**63 - 1


def train_main(argv: list[str]) -> int:
    """Train one attention head headless (the model only: no Qt is imported) and write it as JSON."""
    from attn_desktop.model.training.tasks import TASKS

    parser = _OneLineErrorParser(
        prog="attn-desktop train",
        description="Train one attention head on a task with Adam, headless, printing the loss and accuracy "
        "every 10%%, and write the trained head, its accuracy on 1,000 fresh sequences and one example "
        "sentence's queries, keys, values and weights as JSON.",
    )
    parser.add_argument("task", help="the task: " + ", ".join(TASKS))
    parser.add_argument("--steps", metavar="N", help="training steps (default: the task's own, e.g. 400)")
    parser.add_argument("--seed", metavar="S", default="0", help="the random seed, a whole number (default 0)")
    parser.add_argument("--lr", metavar="X", help="Adam's learning rate (default: the task's own, e.g. 0.02)")
    parser.add_argument("-o", "--output", required=True, help="the JSON file to write")
    args = parser.parse_args(argv)
    settings = _training_settings(args)
    if isinstance(settings, str):
        return _fail(settings)
    task_name, steps, seed, lr = settings
    return _train_and_write(TASKS[task_name], steps, seed, lr, args.output)


def _training_settings(args) -> tuple[str, int, int, float | None] | str:
    """(task, steps, seed, lr) from the command line, or one line saying what is wrong with it."""
    from attn_desktop.model.files.scene_file import shown_path
    from attn_desktop.model.training.tasks import TASKS

    if args.task not in TASKS:
        return f"unknown task {args.task!r}; choose one of {', '.join(TASKS)}"
    task = TASKS[args.task]
    steps = task.default_steps if args.steps is None else _whole_number(args.steps)
    if steps is None or not 1 <= steps <= MAX_TRAINING_STEPS:
        return f"--steps: expected a whole number from 1 to {MAX_TRAINING_STEPS:,}, found {args.steps!r}"
    seed = _whole_number(args.seed)
    if seed is None or not 0 <= seed <= MAX_SEED:
        return f"--seed: expected a whole number from 0 to {MAX_SEED}, found {args.seed!r}"
    lr = None
    if args.lr is not None:
        lr = _positive_number(args.lr)
        if lr is None:
            return f"--lr: expected a positive number such as 0.02, found {args.lr!r}"
    problem = json_output_problem(args.output)
    if problem:
        return f"{shown_path(args.output)}: {problem}"
    return args.task, steps, seed, lr


def _whole_number(text: str) -> int | None:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d{1,20}", text):  # no 1e3, 4.0, or a thousand digits to convert
        return None
    return int(text)


def _positive_number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) and number > 0 else None


def json_output_problem(output: str) -> str | None:
    """Why OUTPUT cannot take the JSON a long job writes (a trained head, a model's heads), checked before it starts."""
    from attn_desktop.model.files.safe_write import file_kind, is_read_only

    target = Path(os.path.realpath(output))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        return f"cannot write there ({error.strerror or error})"
    if info is not None and not stat.S_ISREG(info.st_mode):
        return f"it is {file_kind(info.st_mode)}, not a file"
    if info is not None and is_read_only(target, info):
        return "the file is marked read-only; it was left as it was"
    if not target.parent.is_dir():
        return "cannot write there (no such folder)"
    if not os.access(target.parent, os.W_OK | os.X_OK):  # the new file is made beside it, then renamed
        return "cannot write there (the folder is not writable)"
    return None


def _train_and_write(task, steps: int, seed: int, lr: float | None, output: str) -> int:
    import time

    from attn_desktop.model.files.safe_write import write_json_atomically
    from attn_desktop.model.files.scene_file import shown_path
    from attn_desktop.model.training.head_document import trained_head_document
    from attn_desktop.model.training.training import Trainer

    trainer = Trainer(task, seed, lr=lr)
    _say(f"training {task.name}: {steps:,} steps of {trainer.optimiser}, learning rate {trainer.lr:g}, "
         f"batch {trainer.batch_size}, seed {seed}")
    report_at = sorted({math.ceil(steps * tenth / 10) for tenth in range(1, 11)})
    losses: list[float] = []
    accuracies: list[float] = []
    started = time.perf_counter()
    try:
        for _ in range(steps):
            metrics = trainer.step()
            losses.append(metrics.loss)
            accuracies.append(metrics.accuracy)
            if metrics.step in report_at:
                _say(f"{100 * metrics.step // steps:3d}%  step {metrics.step:,}/{steps:,}  "
                     f"loss {sum(losses) / len(losses):.4f}  accuracy {100 * sum(accuracies) / len(accuracies):.1f}%")
                losses.clear()
                accuracies.clear()
    except KeyboardInterrupt:
        print(f"attn-desktop: training stopped at step {trainer.steps:,}; nothing written", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - started
    document = trained_head_document(trainer)
    document["metrics"]["seconds"] = round(seconds, 3)
    try:
        write_json_atomically(output, document)
    except OSError as error:
        return _fail(f"{shown_path(output)}: cannot write ({error.strerror or error})")
    metrics = document["metrics"]
    _say(f"wrote {shown_path(output)}: accuracy {100 * metrics['accuracy']:.1f}% on {metrics['evaluated_on']:,} "
         f"fresh sequences, loss {metrics['loss']:.4f}, {steps:,} steps in {seconds:.1f} s")
    return 0


def _say(line: str) -> None:
    """A progress line; a reader that went away (| head) stops the lines, not the training."""
    try:
        print(line, flush=True)
    except (BrokenPipeError, ValueError, AttributeError):  # closed pipe, closed or missing stdout
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


TEST_EDIT_VARIABLE = "ATTN_DESKTOP_TEST_EDIT"  # set: one edit at start, its recovery copy's name on stdout


def gui_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="attn-desktop",
        description=f"{APP_NAME}: drag queries, keys and values and watch attention recompute.",
        epilog="Also: attn-desktop export SCENE.json -o OUT.json|.csv|.png|.svg  and  attn-desktop snapshot "
        "[SCENE] -o OUT.png --size WxH [--presentation] [--lesson ID] [--audit AUDIT.json]  and  attn-desktop train "
        "TASK [--steps N] [--seed S] [--lr X] -o OUT.json  and  attn-desktop heads \"SENTENCE\" [--model PATH] "
        "-o OUT.json  (no display needed)",
    )
    parser.add_argument("scene", nargs="?", help="a scene file to open (JSON); default: The cat sat on the mat")
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    parser.add_argument("--self-test", action="store_true", help="build the window offscreen, drag once, check the numbers")
    parser.add_argument("--quit-after-paint", action="store_true", help=argparse.SUPPRESS)  # for bench/latency.py
    args = parser.parse_args(argv)

    if args.self_test:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        _hide_offscreen_notes()  # a passing self-test prints its checks and nothing else
    if args.self_test or args.quit_after_paint:
        # Checks and timings run on their own empty folders: they must neither read nor
        # disturb the student's progress, autosave or window layout.
        _use_temporary_user_files()
    from attn_desktop.model import Scene, SceneFileError

    scene = None
    if args.scene:
        try:
            scene = Scene.from_file(args.scene)
        except Exception as error:  # noqa: BLE001 - whatever the file holds: one line and a dialog, no traceback
            message = str(error) if isinstance(error, SceneFileError) else f"{args.scene}: {error}"
            exit_code = _fail(message)
            from attn_desktop.ui.window.startup_error import show_startup_error

            show_startup_error("Cannot open scene", message)  # a desktop entry has no terminal to read
            return exit_code

    if not args.self_test:
        from attn_desktop.platform_check import check_platform_plugin

        problem = check_platform_plugin()  # Qt's own message would name the wrong package, then abort
        if problem is not None:
            return _fail(problem.message())

    from attn_desktop.ui.window.app import default_scene, make_application
    from attn_desktop.ui.window.main_window import MainWindow

    app = make_application()
    if args.self_test:
        from attn_desktop.ui.tools.self_test import run_self_test

        return 0 if run_self_test() else 1
    window = MainWindow(scene or default_scene(), scene_path=Path(args.scene) if args.scene else None)
    window.restore_window_state()  # where the docks were last time
    if args.quit_after_paint:
        from attn_desktop.ui.window.first_paint import quit_after_first_paint

        quit_after_first_paint(window.canvas.viewport())
    window.show()
    if not args.quit_after_paint:
        window.documents.offer_to_restore()  # work a crashed session left unsaved
    if os.environ.get(TEST_EDIT_VARIABLE):  # for a test that kills running instances: work to recover
        window.scale_action.trigger()
        window.autosaver.write_now()
        print(window.autosaver.path, flush=True)
    return app.exec()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "export":
        return export_main(argv[1:])
    if argv and argv[0] == "snapshot":
        return snapshot_main(argv[1:])
    if argv and argv[0] == "train":
        return train_main(argv[1:])
    if argv and argv[0] == "heads":
        from attn_desktop.heads_command import heads_main

        return heads_main(argv[1:])
    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())
