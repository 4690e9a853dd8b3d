"""The command line: open the app, export a scene headless, --version, --self-test."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import APP_NAME, __version__

EXIT_BAD_INPUT = 2


def _fail(message: str) -> int:
    print(f"attn-desktop: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


EXPORT_FORMATS = (".json", ".csv", ".png", ".svg")
PNG_SCALE_RANGE = (0.25, 8.0)
PICTURE_WINDOW_SIZE = (1400, 900)  # the window a picture is taken from; canvas and matrix keep their docked sizes


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
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
    kind = _output_format(args.output)
    if kind is None:
        return _fail(f"{args.output}: unknown output format; use a name ending in {', '.join(EXPORT_FORMATS)} "
                     "(or - for JSON on standard output)")
    scale = _png_scale(args.scale)
    if scale is None:
        low, high = PNG_SCALE_RANGE
        return _fail(f"--scale: expected a number from {low:g} to {high:g}, found {args.scale!r}")
    # Only the model is imported: JSON and CSV exports work on a machine with no display.
    from .model import Scene, SceneFileError
    from .model.export import export_json_text

    try:
        scene = Scene.from_file(args.scene)
    except SceneFileError as error:
        return _fail(str(error))
    if args.output == "-":
        sys.stdout.write(export_json_text(scene))
        return 0
    try:
        if kind in (".png", ".svg"):
            _export_picture(scene, Path(args.scene), args.output, kind, scale)
        else:
            _export_text(scene, args.output, kind)
    except OSError as error:
        return _fail(f"{args.output}: cannot write ({error.strerror or error})")
    except MemoryError as error:
        return _fail(f"{args.output}: {error}")
    return 0


def _output_format(output: str) -> str | None:
    """The format OUT names by its extension (- is JSON), or None for one we cannot write."""
    if output == "-":
        return ".json"
    suffix = Path(output).suffix.lower()
    return suffix if suffix in EXPORT_FORMATS else None


def _png_scale(text: str) -> float | None:
    try:
        scale = float(text)
    except ValueError:
        return None
    low, high = PNG_SCALE_RANGE
    return scale if low <= scale <= high else None  # also refuses nan and inf


def _export_text(scene, output: str, kind: str) -> None:
    from .model.csv_export import weights_csv
    from .model.export import export_json_text
    from .model.scene_file import write_text_atomically

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

    from .ui.app import make_application, settle
    from .ui.image_export import render_png, render_svg
    from .ui.main_window import MainWindow

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
        window.close()


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


def _use_temporary_user_files() -> None:
    from PySide6.QtCore import QSettings

    folder = tempfile.mkdtemp(prefix="attn-desktop-check-")
    os.environ["ATTN_DESKTOP_DATA_DIR"] = folder
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)


def gui_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="attn-desktop",
        description=f"{APP_NAME}: drag queries, keys and values and watch attention recompute.",
        epilog="Also: attn-desktop export SCENE.json -o OUT.json|.csv|.png|.svg  (no display needed)",
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
    from .model import Scene, SceneFileError

    scene = None
    if args.scene:
        try:
            scene = Scene.from_file(args.scene)
        except SceneFileError as error:
            exit_code = _fail(str(error))
            from .ui.startup_error import show_startup_error

            show_startup_error("Cannot open scene", str(error))  # a desktop entry has no terminal to read
            return exit_code

    from .ui.app import default_scene, make_application
    from .ui.main_window import MainWindow

    app = make_application()
    if args.self_test:
        from .ui.self_test import run_self_test

        return 0 if run_self_test() else 1
    window = MainWindow(scene or default_scene(), scene_path=Path(args.scene) if args.scene else None)
    window.restore_window_state()  # where the docks were last time
    if args.quit_after_paint:
        from .ui.first_paint import quit_after_first_paint

        quit_after_first_paint(window.canvas.viewport())
    window.show()
    if not args.quit_after_paint:
        window.offer_to_restore()  # work a crashed session left unsaved
    return app.exec()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "export":
        return export_main(argv[1:])
    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())
