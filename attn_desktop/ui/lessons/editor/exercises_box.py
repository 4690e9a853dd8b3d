"""The lesson's exercises in the editor: a list with Add and Remove, and the chosen one's prompt, what it asks
for (a quantity the app computes from the lesson's scene, or an answer stated), its tolerance and its hint.

Every edit of a field rebuilds the chosen exercise at once, so the list always holds what would be saved;
fields a file may have and the editor does not show (labels, choices, an explanation, a Show me) are kept.
"""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.lesson_drafts import STATED, computed_exercise, kind_of
from attn_desktop.model.teaching.lesson_file import LessonExercise
from attn_desktop.model.teaching.lesson_quantities import Quantity
from attn_desktop.ui.lessons.editor.quantity_fields import LIST_HEIGHT, QUANTITY_NAMES, QuantityFields, labelled_row

EXERCISE_KINDS = {**QUANTITY_NAMES, STATED: N_("An answer I state")}


class ExercisesBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Exercises"), parent)
        self.exercises: list[LessonExercise] = []
        self.list_widget = QListWidget()
        self.list_widget.setMaximumHeight(LIST_HEIGHT)
        self.list_widget.setAccessibleName(tr("Exercises"))
        self.add_button, self.remove_button = QPushButton(tr("&Add Exercise")), QPushButton(tr("&Remove Exercise"))
        self.prompt_edit, self.answer_edit, self.hint_edit = QLineEdit(), QLineEdit(), QLineEdit()
        self.quantity_fields = QuantityFields(EXERCISE_KINDS)
        self.kind_combo, self.query_combo = self.quantity_fields.kind_combo, self.quantity_fields.query_combo
        self.key_combo = self.quantity_fields.key_combo
        self.tolerance_spin = QDoubleSpinBox()
        self.tolerance_spin.setDecimals(3)
        self.tolerance_spin.setRange(0.0, 1000.0)
        self.tolerance_spin.setSingleStep(0.005)
        self._lay_out()
        self.add_button.clicked.connect(self._add_new)
        self.remove_button.clicked.connect(self._remove_chosen)
        self.list_widget.currentRowChanged.connect(self._show_chosen)
        for edit in (self.prompt_edit, self.answer_edit, self.hint_edit):
            edit.textEdited.connect(self._rebuild_chosen)
        self.tolerance_spin.valueChanged.connect(self._rebuild_chosen)
        self.quantity_fields.changed.connect(self._rebuild_chosen)
        self._show_chosen(-1)

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        form = QFormLayout()
        self.prompt_label = labelled_row(form, tr("&Prompt:"), self.prompt_edit, tr("Exercise prompt"))
        form.addRow(self.quantity_fields)
        self.answer_label = labelled_row(form, tr("A&nswer:"), self.answer_edit, tr("Stated answer, numbers apart by spaces"))
        self.tolerance_label = labelled_row(form, tr("&Tolerance:"), self.tolerance_spin, tr("Tolerance"))
        self.hint_label = labelled_row(form, tr("H&int:"), self.hint_edit, tr("Hint"))
        self.form = QWidget()
        self.form.setLayout(form)
        column = QVBoxLayout(self)
        column.addWidget(self.list_widget)
        column.addLayout(buttons)
        column.addWidget(self.form)

    def set_scene(self, scene: SceneData) -> None:
        self.scene = scene
        self.quantity_fields.set_scene(scene)

    def set_exercises(self, exercises: tuple[LessonExercise, ...]) -> None:
        self.exercises = list(exercises)
        self.list_widget.clear()
        self.list_widget.addItems([exercise.prompt or exercise.id for exercise in exercises])
        self.list_widget.setCurrentRow(0 if exercises else -1)
        self._show_chosen(self.list_widget.currentRow())

    def add_exercise(self, exercise: LessonExercise) -> None:
        """Add EXERCISE at the end of the list and choose it, its prompt ready to be reworded."""
        self.exercises.append(exercise)
        self.list_widget.addItem(exercise.prompt or exercise.id)
        self.list_widget.setCurrentRow(len(self.exercises) - 1)

    @property
    def ids(self) -> list[str]:
        return [exercise.id for exercise in self.exercises]

    def _add_new(self) -> None:
        """A new exercise on the first query's weights, until the teacher chooses what it asks for."""
        query, key = self.query_combo.itemText(0), self.key_combo.itemText(0)
        self.add_exercise(computed_exercise(Quantity("weight", query=query, key=key), self.ids))
        self.prompt_edit.setFocus()

    def _remove_chosen(self) -> None:
        row = self.list_widget.currentRow()
        if row >= 0:
            del self.exercises[row]
            self.list_widget.takeItem(row)
            self._show_chosen(self.list_widget.currentRow())

    def _show_chosen(self, row: int) -> None:
        self.form.setEnabled(row >= 0)
        self.remove_button.setEnabled(row >= 0)
        if not 0 <= row < len(self.exercises):
            return
        exercise = self.exercises[row]
        fields = (self.prompt_edit, self.answer_edit, self.hint_edit, self.tolerance_spin)
        for field in fields:
            field.blockSignals(True)
        self.prompt_edit.setText(exercise.prompt)
        self.hint_edit.setText(exercise.hint)
        self.tolerance_spin.setValue(exercise.tolerance)
        stated_choice = not exercise.computed and exercise.kind is AnswerKind.CHOICE
        self.answer_edit.setText(" / ".join(exercise.choices) if stated_choice else
                                 " ".join(f"{value:g}" for value in exercise.answer))
        self.answer_edit.setReadOnly(stated_choice)  # a file's choices are kept as they are
        for field in fields:
            field.blockSignals(False)
        self.quantity_fields.show_quantity(exercise.quantities[0] if exercise.computed else None, STATED)
        self._follow_kind()

    def _follow_kind(self) -> None:
        stated = self.quantity_fields.kind == STATED
        self.answer_label.setVisible(stated)
        self.answer_edit.setVisible(stated)

    def _rebuild_chosen(self) -> None:
        row = self.list_widget.currentRow()
        if not 0 <= row < len(self.exercises):
            return
        self._follow_kind()
        exercise = self._from_fields(self.exercises[row])
        self.exercises[row] = exercise
        self.list_widget.item(row).setText(exercise.prompt or exercise.id)

    def _from_fields(self, before: LessonExercise) -> LessonExercise:
        """BEFORE as the fields now say (what they do not show kept)."""
        worded = replace(before, prompt=self.prompt_edit.text(), hint=self.hint_edit.text(),
                         tolerance=self.tolerance_spin.value())
        if self.quantity_fields.kind != STATED:
            quantity = self.quantity_fields.quantity()
            kind = kind_of(quantity.name)
            return replace(worded, kind=kind, quantities=(quantity,), answer=(), labels=(), choices=(),
                           correct_choice=-1, tolerance=0.0 if kind is AnswerKind.CHOICE else worded.tolerance)
        if not before.computed and before.kind is AnswerKind.CHOICE:
            return worded  # a file's stated choices, kept as they are
        answer = tuple(_numbers(self.answer_edit.text()))
        several = len(answer) > 1
        labels = before.labels if several and len(before.labels) == len(answer) else \
            tuple(str(number) for number in range(1, len(answer) + 1)) if several else ()
        return replace(worded, kind=AnswerKind.NUMBERS if several else AnswerKind.NUMBER, quantities=(),
                       answer=answer, labels=labels, choices=(), correct_choice=-1)

def _numbers(text: str) -> list[float]:
    """The numbers typed, apart by spaces, commas or semicolons; anything not a number left out (the lesson's
    check on saving says an answer is missing)."""
    found = []
    for part in re.split(r"[\s,;]+", text.strip()):
        try:
            found.append(float(part))
        except ValueError:
            continue
    return found
