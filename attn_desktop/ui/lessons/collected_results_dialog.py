"""File → Collect Results…: a folder of hand-ins as a table, a row per student, a column per exercise and per
challenge, for one lesson at a time; what else the folder held said in a line each; Export CSV…."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import ntr, tr
from attn_desktop.model.teaching.lesson_results import Verdict, suggested_results_name
from attn_desktop.model.teaching.lesson_results_csv import write_results_csv
from attn_desktop.model.teaching.lesson_results_reading import CollectedResults, ResultsOfOneLesson

MAX_NOTES = 20  # lines about other lessons and skipped files; the rest are counted


def verdict_text(verdict: Verdict) -> str:
    return {Verdict.RIGHT: tr("✓ right"), Verdict.WRONG: tr("✗ wrong"), Verdict.NOT_TRIED: tr("– not tried")}[verdict]


class CollectedResultsDialog(QDialog):
    def __init__(self, collected: CollectedResults, folder: Path, show_error: Callable[[str, str], object],
                 preferred_sha256: str = "", parent: QWidget | None = None) -> None:
        """PREFERRED_SHA256: the lesson open in the window, shown first when the folder has its results."""
        super().__init__(parent)
        self.collected, self.folder, self.show_error = collected, folder, show_error
        self.setWindowTitle(tr("Collected Results"))
        self.lesson_picker = QComboBox()
        self.lesson_picker.setAccessibleName(tr("Lesson"))
        titles = [group.lesson.title for group in collected.lessons]
        for group in collected.lessons:
            # Two versions of one lesson: told apart by the start of their hashes.
            title = group.lesson.title if titles.count(group.lesson.title) == 1 else (
                f"{group.lesson.title} · {group.lesson.sha256[:8]}")
            self.lesson_picker.addItem(ntr("{title} ({count} student)", "{title} ({count} students)",
                                           len(group.results)).format(title=title, count=len(group.results)))
        self.table = QTableWidget()
        self.table.setAccessibleName(tr("Results: a row per student"))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table for the buttons; the arrows move in it
        self.notes_label = QLabel()
        self.notes_label.setTextFormat(Qt.TextFormat.PlainText)  # names and titles from students' files
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes_label.setAccessibleName(tr("Notes on the folder"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = buttons.addButton(tr("Export CSV…"), QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.clicked.connect(self.export_csv)
        buttons.rejected.connect(self.reject)
        picker_row = QHBoxLayout()
        picker_label = QLabel(tr("&Lesson:"))
        picker_label.setBuddy(self.lesson_picker)
        picker_row.addWidget(picker_label)
        picker_row.addWidget(self.lesson_picker, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(picker_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes_label)
        layout.addWidget(buttons)
        self.lesson_picker.currentIndexChanged.connect(self._show_lesson)
        preferred = [index for index, group in enumerate(collected.lessons) if group.lesson.sha256 == preferred_sha256]
        self.lesson_picker.setCurrentIndex(preferred[0] if preferred else 0)
        self._show_lesson()
        self.table.setFocus()
        self.resize(760, 480)

    @property
    def shown_lesson(self) -> ResultsOfOneLesson | None:
        index = self.lesson_picker.currentIndex()
        return self.collected.lessons[index] if 0 <= index < len(self.collected.lessons) else None

    def _show_lesson(self) -> None:
        group = self.shown_lesson
        self.export_button.setEnabled(group is not None)
        if group is None:
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
        else:
            self._fill_table(group)
        self.notes_label.setText("\n".join(self._notes(group)))

    def _fill_table(self, group: ResultsOfOneLesson) -> None:
        exercise_ids, challenge_ids = group.exercise_ids, group.challenge_ids
        headers = [tr("Student"), tr("Handed in"), *exercise_ids, *challenge_ids]
        self.table.clear()
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(group.results))
        for row, results in enumerate(group.results):
            exercises = {exercise.id: exercise for exercise in results.exercises}
            done = set(results.challenges_done)
            cells = [_item(results.student), _item(results.handed_in.astimezone().strftime("%Y-%m-%d %H:%M"))]
            for exercise_id in exercise_ids:
                exercise = exercises.get(exercise_id)
                cells.append(_item(verdict_text(exercise.verdict), tip=exercise.answer) if exercise else _item(""))
            cells += [_item(tr("✓ done") if challenge_id in done else tr("○ not done")) for challenge_id in challenge_ids]
            for column, cell in enumerate(cells):
                self.table.setItem(row, column, cell)
        self.table.resizeColumnsToContents()

    def _notes(self, shown: ResultsOfOneLesson | None) -> list[str]:
        notes: list[str] = []
        if shown is None:
            notes.append(tr("No results in this folder."))
        else:
            notes += [tr("{name} handed in more than once; the latest counts.").format(name=name)
                      for name in shown.handed_in_again]
            for group in self.collected.lessons:
                if group is not shown:
                    notes.append(_other_lesson_note(group, shown))
        notes += [tr("Skipped: {reason}").format(reason=reason) for reason in self.collected.skipped]
        if len(notes) > MAX_NOTES:
            notes = notes[:MAX_NOTES] + [tr("… and {count} more.").format(count=len(notes) - MAX_NOTES)]
        if self.collected.unread:
            notes.append(tr("{count} more results files were not read: collect them from a folder of their own.")
                         .format(count=self.collected.unread))
        return notes

    def export_csv(self) -> None:
        group = self.shown_lesson
        if group is None:
            return
        suggested = self.folder / suggested_results_name(tr("Results"), group.lesson.title).replace(
            ".attn-results", ".csv")
        path, _ = QFileDialog.getSaveFileName(self, tr("Export CSV"), str(suggested), tr("CSV (*.csv)"))
        if not path:
            return
        try:
            write_results_csv(group, path)
        except (OSError, UnicodeEncodeError) as error:
            self.show_error(tr("Cannot export"), tr("{file}: {reason}").format(file=path, reason=error))
            return
        self.notes_label.setText("\n".join([tr("Exported to {file}").format(file=path), *self._notes(group)]))


def _other_lesson_note(group: ResultsOfOneLesson, shown: ResultsOfOneLesson) -> str:
    count, title = len(group.results), group.lesson.title
    if title == shown.lesson.title:
        return ntr("{count} result of another version of “{title}”: choose it above to see it.",
                   "{count} results of another version of “{title}”: choose it above to see them.",
                   count).format(count=count, title=title)
    return ntr("{count} result of another lesson, “{title}”: choose it above to see it.",
               "{count} results of another lesson, “{title}”: choose it above to see them.",
               count).format(count=count, title=title)


def _item(text: str, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if tip:
        item.setToolTip(tip)
    return item
