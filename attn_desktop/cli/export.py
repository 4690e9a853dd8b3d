"""`attn-desktop export`: compute a scene's attention headless and write it out: every number as
JSON (to a file or standard output), the weights as CSV, or the canvas and matrix as a picture."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from attn_desktop.cli.errors import OneLineErrorParser, cannot_write, fail
from attn_desktop.cli.export_picture import export_picture
from attn_desktop.cli.language_option import add_language_option, speak_chosen_language
from attn_desktop.cli.output_checks import STANDARD_OUTPUT_CLOSED, export_output_problem
from attn_desktop.language import tr
from attn_desktop.model.ascii_numbers import ascii_decimal
from attn_desktop.model.scene_files import open_reading

if TYPE_CHECKING:
    from attn_desktop.model import HeadReading

EXPORT_FORMATS = (".json", ".csv", ".png", ".svg")
PNG_SCALE_RANGE = (0.25, 8.0)


@dataclass(frozen=True)
class ExportRequest:
    """What the command line asked for, checked."""

    scene_file: str
    output: str  # as given: a file name, or - for standard output
    kind: str  # one of EXPORT_FORMATS
    scale: float  # for .png: the picture's size as a multiple of the on-screen size


def export_main(argv: list[str]) -> int:
    language_problem = speak_chosen_language(argv)
    if language_problem:
        return fail(language_problem)
    args = _export_parser().parse_args(argv)
    # Only the model is imported: JSON and CSV exports work on a machine with no display.
    request = _export_request(args)
    if isinstance(request, str):
        return fail(request)
    from attn_desktop.model import SceneFileError

    try:
        shown = _open_reading(request.scene_file)  # with the query the file had chosen, which the export names
    except SceneFileError as error:  # a lesson file's LessonFileError is one too
        return fail(str(error))
    return _write_export(shown, request)


def _open_reading(path: str) -> HeadReading:
    """The first head of a scene file's scene, or of a lesson file's (*.attn-lesson) scene."""
    from attn_desktop.model.teaching.lesson_file import LESSON_SUFFIX

    if not path.lower().endswith(LESSON_SUFFIX):
        return open_reading(path)
    from attn_desktop.model import HeadReading, ViewState
    from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file

    view = ViewState()
    return HeadReading(read_lesson_file(path).new_scene(view), view, at=(0, 0))


def _export_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="attn-desktop export",
        description=tr("Compute a scene's attention and write it out: every number as JSON, the weights "
        "as CSV, or the canvas and the attention matrix as a picture for a handout."),
    )
    parser.add_argument("scene", help=tr("the scene file (JSON)"))  # or a lesson file (.attn-lesson): its scene
    parser.add_argument(
        "-o", "--output", required=True,
        help=tr("where to write; its extension picks the format: .json (every number), .csv (the weights matrix "
        "with token labels), .png or .svg (canvas and matrix side by side). - writes JSON (only) to standard output"),
    )
    parser.add_argument(
        "--scale", default="2", metavar="FACTOR",
        help=tr("for .png: the picture's size as a multiple of the on-screen size, 0.25 to 8 (default 2); "
        "ignored by the other formats"),
    )
    add_language_option(parser)
    parser.epilog = tr("--lang sets the language of the pictures' texts (.png, .svg); JSON and CSV stay "
                       "in English, with dot decimals, whatever the language.")
    return parser


def _export_request(args: argparse.Namespace) -> ExportRequest | str:
    """The checked request, or one line saying what is wrong with it (before the scene is read)."""
    from attn_desktop.model.files.json_reading import shown_path

    output = shown_path(args.output)  # for messages: one line, whatever the name holds
    kind = _output_format(args.output)
    if kind is None:
        return tr("{file}: unknown output format; use a name ending in {formats} "
                  "(or - for JSON on standard output)").format(file=output, formats=", ".join(EXPORT_FORMATS))
    scale = _png_scale(args.scale)
    if scale is None:
        low, high = PNG_SCALE_RANGE
        return tr("--scale: expected a number from {low} to {high}, found {found}").format(
            low=f"{low:g}", high=f"{high:g}", found=repr(args.scale))
    if args.output == "-" and sys.stdout is None:
        return tr(STANDARD_OUTPUT_CLOSED)
    problem = export_output_problem(args.scene, args.output)
    if problem:
        return tr("{file}: {problem}").format(file=output, problem=problem)
    return ExportRequest(args.scene, args.output, kind, scale)


def _output_format(output: str) -> str | None:
    """The format OUTPUT names by its extension (- is JSON), or None for one we cannot write."""
    if output == "-":
        return ".json"
    suffix = Path(output).suffix.lower()
    return suffix if suffix in EXPORT_FORMATS else None


def _png_scale(text: str) -> float | None:
    scale = ascii_decimal(text.strip())  # not "２", "1_5", nan or inf
    low, high = PNG_SCALE_RANGE
    return scale if scale is not None and low <= scale <= high else None


def _write_export(shown: HeadReading, request: ExportRequest) -> int:
    from attn_desktop.model.files.json_reading import shown_path

    try:
        if request.output == "-":
            _write_standard_output(shown)
        elif request.kind in (".png", ".svg"):
            export_picture(shown, Path(request.scene_file), request.output, request.kind, request.scale)
        else:
            _write_text_file(shown, request.output, request.kind)
    except _StandardOutputError as error:
        return fail(tr("cannot write to standard output ({reason})").format(reason=error))
    except OSError as error:
        return fail(cannot_write(shown_path(request.output), error))
    except MemoryError as error:
        return fail(tr("{file}: {problem}").format(file=shown_path(request.output), problem=error))
    return 0


class _StandardOutputError(Exception):
    pass


def _write_standard_output(shown: HeadReading) -> None:
    """The JSON as UTF-8 bytes straight to file descriptor 1, whatever the locale.

    Written with os.write, not through sys.stdout's buffer: a write that fails
    (a full disk, a closed pipe) is reported here, and leaves nothing buffered
    for Python to fail on again, with a traceback, as it exits.
    """
    from attn_desktop.model.exports.export import export_json_text

    data = memoryview(export_json_text(shown).encode("utf-8"))
    try:
        sys.stdout.flush()
        descriptor = sys.stdout.fileno()
        while data:
            data = data[os.write(descriptor, data):]
    except BrokenPipeError:
        raise _StandardOutputError(tr("the reader closed it before the end")) from None
    except (OSError, ValueError) as error:  # ValueError: stdout's file object is closed or has no descriptor
        raise _StandardOutputError(getattr(error, "strerror", None) or error) from None


def _write_text_file(shown: HeadReading, output: str, kind: str) -> None:
    from attn_desktop.model.exports.csv_export import weights_csv
    from attn_desktop.model.exports.export import export_json_text
    from attn_desktop.model.files.safe_write import write_text_atomically

    write_text_atomically(output, weights_csv(shown) if kind == ".csv" else export_json_text(shown))
