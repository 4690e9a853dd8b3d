"""Hand in and collect, with no network: File → Hand In… writes the student's results for the lesson file open
(a small *.attn-results file to pass on as any file is); File → Collect Results… reads a folder of them into
a table for the teacher, and exports it as CSV.

What is handed in is the Lesson panel as it stands: each exercise's answer as typed or picked, judged as
Check would judge it (an exercise with nothing typed or picked is "not tried"), and each challenge met at
some time since the lesson opened.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QFileDialog, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model.teaching.lesson_file import LESSON_VERSION
from attn_desktop.model.teaching.lesson_results import (
    RESULTS_SUFFIX,
    ChallengeResult,
    ExerciseResult,
    LessonOfResults,
    LessonResults,
    Verdict,
    one_line,
    suggested_results_name,
    write_results_file,
)
from attn_desktop.model.teaching.lesson_results_reading import MAX_ANSWER_CHARS, MAX_STUDENT_CHARS, collect_results
from attn_desktop.ui.lessons.collected_results_dialog import CollectedResultsDialog
from attn_desktop.ui.lessons.exercise_widget import ExerciseWidget
from attn_desktop.ui.lessons.hand_in_dialog import HandInDialog
from attn_desktop.ui.lessons.lesson_file_opener import LessonFileOpener
from attn_desktop.ui.lessons.lesson_panel import LessonPanel

RESULTS_FILTER = N_("Results (*.attn-results);;All files (*)")  # shown with tr()
STATUS_MILLISECONDS = 8000


class ResultsDocument(Protocol):
    """Where file dialogs open, remembered between them (DocumentController)."""

    last_folder: Path

    def dialog_folder(self) -> Path: ...


class LessonResultsController:
    def __init__(self, opener: LessonFileOpener, panel: LessonPanel, document: ResultsDocument,
                 show_error: Callable[[str, str], object], show_status: Callable[[str, int], object],
                 parent: QWidget) -> None:
        self.opener, self.panel, self.document = opener, panel, document
        self.show_error, self.show_status, self.parent = show_error, show_status, parent
        self.dialog: HandInDialog | CollectedResultsDialog | None = None  # the one open (kept alive while it is)

    # ----- the student's side ----------------------------------------------------------------------------
    def hand_in(self) -> None:
        lesson = self.opener.lesson
        if lesson is None:
            return
        exercises = [exercise_result(widget) for widget in self.panel.exercise_widgets]
        answered = sum(result.verdict is not Verdict.NOT_TRIED for result in exercises)
        dialog = HandInDialog(lesson.title, answered, len(exercises), self.parent)
        dialog.accepted.connect(lambda: self._save(dialog.student))
        self._show(dialog)

    def results_now(self, student: str) -> LessonResults:
        """The student's results for the lesson file open, as the Lesson panel shows them now."""
        lesson = self.opener.lesson
        assert lesson is not None  # (only asked while a lesson file is open)
        challenges = self.panel.lesson_file_challenges
        done = challenges.challenges_done() if challenges is not None else []
        return LessonResults(
            student=one_line(student, MAX_STUDENT_CHARS),
            lesson=LessonOfResults(lesson.title, self.opener.lesson_sha256, LESSON_VERSION),
            exercises=tuple(exercise_result(widget) for widget in self.panel.exercise_widgets),
            challenges=tuple(ChallengeResult(challenge_id, met) for challenge_id, met in done),
            started=self.opener.opened_at, handed_in=max(self.opener.opened_at, datetime.now(timezone.utc)))

    def _save(self, student: str) -> None:
        if self.opener.lesson is None:  # (closed while the dialog was open)
            return
        results = self.results_now(student)
        suggested = self.document.dialog_folder() / suggested_results_name(results.student, results.lesson.title)
        chosen, _ = QFileDialog.getSaveFileName(self.parent, tr("Hand In"), str(suggested), tr(RESULTS_FILTER))
        if not chosen:
            return
        path = Path(chosen) if Path(chosen).suffix else Path(chosen + RESULTS_SUFFIX)
        try:
            write_results_file(results, path)
        except (OSError, UnicodeEncodeError) as error:
            self.show_error(tr("Cannot hand in"), tr("{file}: {reason}").format(file=path, reason=error))
            return
        self.document.last_folder = path.parent
        self.show_status(tr("Handed in: {file}. Give this file to your teacher.").format(file=path),
                         STATUS_MILLISECONDS)

    # ----- the teacher's side ----------------------------------------------------------------------------
    def collect(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.parent, tr("Collect Results"), str(self.document.dialog_folder()))
        if not folder:
            return
        self.document.last_folder = Path(folder)
        preferred = self.opener.lesson_sha256 if self.opener.lesson is not None else ""
        self._show(CollectedResultsDialog(collect_results(folder), Path(folder), self.show_error, preferred,
                                          self.parent))

    def _show(self, dialog: HandInDialog | CollectedResultsDialog) -> None:
        """Window-modal, without a nested event loop (open(), not exec()): the window keeps drawing."""
        if self.dialog is not None:
            self.dialog.deleteLater()
        self.dialog = dialog
        dialog.open()


def exercise_result(widget: ExerciseWidget) -> ExerciseResult:
    """An exercise's answer as it stands (typed, or the choice picked, in the lesson's words) and its verdict."""
    exercise, response = widget.exercise, widget.response()
    if isinstance(response, int):
        answer = exercise.choices[response] if 0 <= response < len(exercise.choices) else ""
    else:
        answer = response
    answer = one_line(answer, MAX_ANSWER_CHARS)
    if not answer:
        return ExerciseResult(exercise.id, "", Verdict.NOT_TRIED)
    verdict = Verdict.RIGHT if exercise.check(response).correct else Verdict.WRONG
    return ExerciseResult(exercise.id, answer, verdict)
