"""`attn-desktop snapshot`: the real window as a screen of a given size and scale shows it, drawn
with no display into a PNG, optionally with the layout audit as JSON."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attn_desktop.cli.errors import fail
from attn_desktop.cli.offscreen import hide_offscreen_notes, use_user_folder
from attn_desktop.model.scene_files import open_scene

if TYPE_CHECKING:
    from attn_desktop.model import Scene
    from attn_desktop.ui.tools.walk_steps import Step

SNAPSHOT_SIZE_RANGE = (320, 8192)  # pixels, each side: from a tiny window to an 8K screen
SNAPSHOT_SCALE_RANGE = (1.0, 4.0)


def snapshot_main(argv: list[str]) -> int:
    args = _snapshot_parser().parse_args(argv)
    problem = _snapshot_input_problem(args)
    if problem:
        return fail(problem)
    from attn_desktop.ui.tools.walk_steps import StepError, parse_steps

    try:
        steps = parse_steps(args.steps) if args.steps is not None else None
    except StepError as error:
        return fail(str(error))
    from attn_desktop.model import SceneFileError

    scene_path = Path(args.scene) if args.scene else None
    try:
        scene = open_scene(scene_path) if scene_path else None
    except SceneFileError as error:
        return fail(str(error))
    try:
        picture, audit = _take_snapshot(scene, scene_path, args, steps)
    except StepError as error:  # a step the window could not take: nothing is written
        return fail(str(error))
    return _write_snapshot(picture, audit, args.output, args.audit)


def _snapshot_parser() -> argparse.ArgumentParser:
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
    parser.add_argument("--steps", metavar="STEPS",
                        help="walk through these steps in one window first, audited after each, comma-separated: "
                        "lesson:ID, present, unpresent, restart, train:TASK:N, heads, induction, lab, positions-lab, "
                        "predict, reset-layout, drag:ROLE:INDEX:X:Y, undo")
    return parser


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


def _snapshot_input_problem(args: argparse.Namespace) -> str | None:
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


def _take_snapshot(scene: Scene | None, scene_path: Path | None, args: argparse.Namespace,
                   steps: list[Step] | None = None) -> tuple[bytes, dict[str, Any]]:
    """The PNG and the audit of the window on SCENE (None: the default scene), on the screen ARGS describe;
    with STEPS, after walking through them, and an audit per step."""
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
    with temporary_user_folder() as folder:
        use_user_folder(folder)
        use_offscreen_screen(ScreenSpec(width, height, float(args.scale)), folder)
        hide_offscreen_notes()
        if scene is None:
            from attn_desktop.ui.window.app import default_scene

            scene = default_scene()
        if steps is None:
            return take_snapshot(scene, scene_path, args.lesson, args.presentation)
        return take_walk(scene, scene_path, args.lesson, steps, args.presentation)


def _write_snapshot(picture: bytes, audit: dict[str, Any], output: str, audit_output: str | None) -> int:
    from attn_desktop.model.files.safe_write import write_bytes_atomically, write_text_atomically

    try:
        write_bytes_atomically(output, picture)
        if audit_output:
            write_text_atomically(audit_output, json.dumps(audit, indent=2) + "\n")
    except OSError as error:
        return fail(f"{error.filename or output}: cannot write ({error.strerror or error})")
    return 0
