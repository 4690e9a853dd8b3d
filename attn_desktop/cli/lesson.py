"""`attn-desktop lesson`: lesson files (*.attn-lesson) headless, no Qt.

    lesson export ID -o FILE        write a built-in lesson as a lesson file, in the --lang language
    lesson check FILE [-o REPORT]   validate a lesson file and run each exercise's and challenge's reference
                                    and one wrong answer through its check (lesson_check.py); the report is
                                    JSON, to REPORT or standard output. Exit 0 when all pass, 1 when some do
                                    not, 2 (one line) for a file or command line that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys

from attn_desktop.cli.errors import OneLineErrorParser, cannot_write, fail
from attn_desktop.cli.language_option import add_language_option, speak_chosen_language
from attn_desktop.cli.output_checks import (
    STANDARD_OUTPUT_CLOSED,
    json_output_problem,
    output_is_an_input,
    write_standard_output,
)
from attn_desktop.language import N_, tr

EXIT_SOME_FAIL = 1
LESSON_REPLACED_BY_REPORT = N_("that is the lesson file itself; the report would replace it. Choose another name")


def lesson_main(argv: list[str]) -> int:
    language_problem = speak_chosen_language(argv)
    if language_problem:
        return fail(language_problem)
    args = _parser().parse_args(argv)
    if args.action == "export":
        return _export(args.lesson_id, args.output)
    return _check(args.file, args.output)


def _parser() -> argparse.ArgumentParser:
    from attn_desktop.model.teaching.lessons import LESSONS  # no NumPy: the lessons are plain data

    parser = OneLineErrorParser(
        prog="attn-desktop lesson",
        description=tr("Lesson files (.attn-lesson): write a built-in lesson as one, or check one."))
    actions = parser.add_subparsers(dest="action", metavar="export|check", required=True,
                                    parser_class=OneLineErrorParser)
    export = actions.add_parser("export", help=tr("write a built-in lesson as a lesson file, the start of a variant"))
    export.add_argument("lesson_id", metavar="ID", choices=[lesson.id for lesson in LESSONS],
                        help=tr("the lesson: {lessons}").format(lessons=", ".join(lesson.id for lesson in LESSONS)))
    export.add_argument("-o", "--output", required=True, help=tr("the lesson file to write (.attn-lesson)"))
    add_language_option(export)
    check = actions.add_parser("check", help=tr(
        "check a lesson file: run each exercise's and challenge's reference and one wrong answer through its check; "
        "exit 0 when all pass, 1 when some do not, 2 when the file cannot be read"))
    check.add_argument("file", metavar="FILE", help=tr("the lesson file (.attn-lesson)"))
    check.add_argument("-o", "--output", default="-", help=tr(
        "where to write the report (JSON); - or none writes it to standard output"))
    add_language_option(check)
    return parser


def _export(lesson_id: str, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
    from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file

    problem = json_output_problem(output)
    if problem:
        return fail(tr("{file}: {problem}").format(file=shown_path(output), problem=problem))
    try:
        write_lesson_file(builtin_lesson_file(lesson_id), output)
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    return 0


def _check(path: str, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_text_atomically
    from attn_desktop.model.teaching.lesson_check import check_lesson
    from attn_desktop.model.teaching.lesson_file import LessonFileError
    from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file

    problem = _report_output_problem(path, output)
    if problem:
        return fail(problem)
    try:
        report = check_lesson(read_lesson_file(path))
    except LessonFileError as error:
        return fail(str(error))
    text = json.dumps(report.to_document(), ensure_ascii=False, indent=1) + "\n"
    if output == "-":
        written = write_standard_output([text])
        if written:
            return written
    else:
        try:
            write_text_atomically(output, text)
        except OSError as error:
            return fail(cannot_write(shown_path(output), error))
    return 0 if report.passed else EXIT_SOME_FAIL


def _report_output_problem(path: str, output: str) -> str | None:
    from attn_desktop.model.files.json_reading import shown_path

    if output == "-":
        return tr(STANDARD_OUTPUT_CLOSED) if sys.stdout is None else None
    problem = output_is_an_input(output, [(path, LESSON_REPLACED_BY_REPORT)]) or json_output_problem(output)
    return tr("{file}: {problem}").format(file=shown_path(output), problem=problem) if problem else None
