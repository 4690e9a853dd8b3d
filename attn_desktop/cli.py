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


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="attn-desktop export",
        description="Compute a scene's attention with no display and write every number as JSON.",
    )
    parser.add_argument("scene", help="the scene file (JSON)")
    parser.add_argument("-o", "--output", required=True, help="where to write the JSON; - for standard output")
    args = parser.parse_args(argv)
    # Only the model is imported: export works on a machine with no display.
    from .model import Scene, SceneFileError
    from .model.export import export_json_text
    from .model.scene_file import write_text_atomically

    try:
        scene = Scene.from_file(args.scene)
    except SceneFileError as error:
        return _fail(str(error))
    text = export_json_text(scene)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        write_text_atomically(args.output, text)
    except OSError as error:
        return _fail(f"{args.output}: cannot write ({error.strerror or error})")
    return 0


def gui_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="attn-desktop",
        description=f"{APP_NAME}: drag queries, keys and values and watch attention recompute.",
        epilog="Also: attn-desktop export SCENE.json -o OUT.json  (no display needed)",
    )
    parser.add_argument("scene", nargs="?", help="a scene file to open (JSON); default: The cat sat on the mat")
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    parser.add_argument("--self-test", action="store_true", help="build the window offscreen, drag once, check the numbers")
    parser.add_argument("--quit-after-paint", action="store_true", help=argparse.SUPPRESS)  # for bench/latency.py
    args = parser.parse_args(argv)

    if args.self_test:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        # Its own empty data folder: the test must neither read nor disturb the student's progress or autosave.
        os.environ["ATTN_DESKTOP_DATA_DIR"] = tempfile.mkdtemp(prefix="attn-desktop-self-test-")
    from .model import Scene, SceneFileError

    scene = None
    if args.scene:
        try:
            scene = Scene.from_file(args.scene)
        except SceneFileError as error:
            return _fail(str(error))

    from .ui.app import default_scene, make_application
    from .ui.main_window import MainWindow

    app = make_application()
    if args.self_test:
        from .ui.self_test import run_self_test

        return 0 if run_self_test() else 1
    window = MainWindow(scene or default_scene(), scene_path=Path(args.scene) if args.scene else None)
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
