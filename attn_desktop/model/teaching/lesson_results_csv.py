"""One lesson's collected results as CSV: a row per student, for a teacher's spreadsheet.

Columns: student, handed in, started, then for each exercise its verdict and the answer given, then each
challenge (done or not), then how many challenges were done. The words in cells are the results file's
own (right, wrong, not tried), like the app's other CSV exports: a script or a spreadsheet reads them the
same in every language.

The names and answers come from students' files: a cell a spreadsheet would take for a formula (starting
with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, so it shows as the text it is and
never runs; a plain number such as -0.5 stays a number.
"""

from __future__ import annotations

import csv
import io
import os
import re

from attn_desktop.model.files.safe_write import write_text_atomically
from attn_desktop.model.teaching.lesson_results import utc_text
from attn_desktop.model.teaching.lesson_results_reading import ResultsOfOneLesson

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?\Z")
DONE, NOT_DONE = "done", "not done"


def results_rows(group: ResultsOfOneLesson) -> list[list[str]]:
    exercise_ids, challenge_ids = group.exercise_ids, group.challenge_ids
    header = ["student", "handed in (UTC)", "started (UTC)"]
    for exercise_id in exercise_ids:
        header += [f"{exercise_id} verdict", f"{exercise_id} answer"]
    header += [*challenge_ids, "challenges done"]
    rows = [header]
    for results in group.results:
        exercises = {exercise.id: exercise for exercise in results.exercises}
        row = [results.student, utc_text(results.handed_in), utc_text(results.started)]
        for exercise_id in exercise_ids:
            exercise = exercises.get(exercise_id)
            row += [exercise.verdict.value, exercise.answer] if exercise else ["", ""]
        done = set(results.challenges_done)
        row += [DONE if challenge_id in done else NOT_DONE for challenge_id in challenge_ids]
        row.append(str(len(done)))
        rows.append(row)
    return [[spreadsheet_safe(cell) for cell in row] for row in rows]


def spreadsheet_safe(cell: str) -> str:
    """CELL as a spreadsheet shows it without running it: "=HYPERLINK(…)" → "'=HYPERLINK(…)"."""
    if cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.match(cell):
        return "'" + cell
    return cell


def results_csv(group: ResultsOfOneLesson) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(results_rows(group))
    return buffer.getvalue()


def write_results_csv(group: ResultsOfOneLesson, path: str | os.PathLike[str]) -> None:
    """Written atomically, as every file the app writes: a crash leaves the old file or the new, whole."""
    write_text_atomically(path, results_csv(group))
