"""The lesson's challenges in the editor: a list with Add and Remove, and the chosen one's title, its condition
(a quantity, a comparison and a value; or the key a query should weigh most) and its hint.

A challenge from a file may hold several conditions: the editor shows and edits the first, and keeps the others.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QComboBox,
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

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.teaching.lesson_drafts import fresh_id
from attn_desktop.model.teaching.lesson_file import LessonChallenge
from attn_desktop.model.teaching.lesson_quantities import COMPARISONS, Condition, Quantity
from attn_desktop.ui.lessons.editor.quantity_fields import (
    LIST_HEIGHT,
    QUANTITY_NAMES,
    QuantityFields,
    labelled_row,
    narrow,
)

SHOWN_COMPARISONS = {">=": "≥", "<=": "≤", ">": ">", "<": "<"}


class ChallengesBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Challenges"), parent)
        self.challenges: list[LessonChallenge] = []
        self.list_widget = QListWidget()
        self.list_widget.setMaximumHeight(LIST_HEIGHT)
        self.list_widget.setAccessibleName(tr("Challenges"))
        self.add_button, self.remove_button = QPushButton(tr("A&dd Challenge")), QPushButton(tr("Re&move Challenge"))
        self.title_edit, self.hint_edit = QLineEdit(), QLineEdit()
        self.quantity_fields = QuantityFields(QUANTITY_NAMES, key_for_heaviest=True)
        self.compare_combo = QComboBox()
        narrow(self.compare_combo)
        for compare in COMPARISONS:
            self.compare_combo.addItem(SHOWN_COMPARISONS[compare], compare)
        self.value_spin = QDoubleSpinBox()
        self.value_spin.setDecimals(3)
        self.value_spin.setRange(-1_000_000.0, 1_000_000.0)
        self.value_spin.setSingleStep(0.05)
        self._lay_out()
        self.add_button.clicked.connect(self._add_new)
        self.remove_button.clicked.connect(self._remove_chosen)
        self.list_widget.currentRowChanged.connect(self._show_chosen)
        for edit in (self.title_edit, self.hint_edit):
            edit.textEdited.connect(self._rebuild_chosen)
        self.compare_combo.currentIndexChanged.connect(self._rebuild_chosen)
        self.value_spin.valueChanged.connect(self._rebuild_chosen)
        self.quantity_fields.changed.connect(self._rebuild_chosen)
        self._show_chosen(-1)

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        form = QFormLayout()
        labelled_row(form, tr("T&itle:"), self.title_edit, tr("Challenge title"))
        form.addRow(self.quantity_fields)
        self.compare_label = labelled_row(form, tr("&Until it is:"), self.compare_combo, tr("Comparison"))
        self.value_label = labelled_row(form, tr("&Value:"), self.value_spin, tr("Value"))
        labelled_row(form, tr("Hin&t:"), self.hint_edit, tr("Challenge hint"))
        self.form = QWidget()
        self.form.setLayout(form)
        column = QVBoxLayout(self)
        column.addWidget(self.list_widget)
        column.addLayout(buttons)
        column.addWidget(self.form)

    def set_scene(self, scene: SceneData) -> None:
        self.quantity_fields.set_scene(scene)

    def set_challenges(self, challenges: tuple[LessonChallenge, ...]) -> None:
        self.challenges = list(challenges)
        self.list_widget.clear()
        self.list_widget.addItems([challenge.title or challenge.id for challenge in challenges])
        self.list_widget.setCurrentRow(0 if challenges else -1)
        self._show_chosen(self.list_widget.currentRow())

    def _add_new(self) -> None:
        query, key = self.quantity_fields.query_combo.itemText(0), self.quantity_fields.key_combo.itemText(0)
        condition = Condition(Quantity("weight", query=query, key=key), compare=">=", value=0.9)
        challenge = LessonChallenge(id=fresh_id("challenge", [item.id for item in self.challenges]),
                                    title=tr("Make {query} give {key} at least 0.9").format(query=query, key=key),
                                    conditions=(condition,))
        self.challenges.append(challenge)
        self.list_widget.addItem(challenge.title)
        self.list_widget.setCurrentRow(len(self.challenges) - 1)
        self.title_edit.setFocus()

    def _remove_chosen(self) -> None:
        row = self.list_widget.currentRow()
        if row >= 0:
            del self.challenges[row]
            self.list_widget.takeItem(row)
            self._show_chosen(self.list_widget.currentRow())

    def _show_chosen(self, row: int) -> None:
        self.form.setEnabled(row >= 0)
        self.remove_button.setEnabled(row >= 0)
        if not 0 <= row < len(self.challenges):
            return
        challenge = self.challenges[row]
        condition = challenge.conditions[0]
        fields = (self.title_edit, self.hint_edit, self.compare_combo, self.value_spin)
        for field in fields:
            field.blockSignals(True)
        self.title_edit.setText(challenge.title)
        self.hint_edit.setText(challenge.hint)
        if condition.quantity.is_number:
            self.compare_combo.setCurrentIndex(self.compare_combo.findData(condition.compare))
            self.value_spin.setValue(condition.value)
        for field in fields:
            field.blockSignals(False)
        quantity = condition.quantity
        self.quantity_fields.show_quantity(quantity if quantity.is_number else replace(quantity, key=condition.equals))
        self._follow_kind()

    def _follow_kind(self) -> None:
        number = self.quantity_fields.kind != "heaviest_key"
        for widget in (self.compare_label, self.compare_combo, self.value_label, self.value_spin):
            widget.setVisible(number)

    def _rebuild_chosen(self) -> None:
        row = self.list_widget.currentRow()
        if not 0 <= row < len(self.challenges):
            return
        self._follow_kind()
        before = self.challenges[row]
        quantity = self.quantity_fields.quantity()
        if quantity.is_number:
            condition = Condition(quantity, compare=str(self.compare_combo.currentData()), value=self.value_spin.value())
        else:
            condition = Condition(quantity, equals=self.quantity_fields.key_combo.currentText())
        challenge = replace(before, title=self.title_edit.text(), hint=self.hint_edit.text(),
                            conditions=(condition, *before.conditions[1:]))
        self.challenges[row] = challenge
        self.list_widget.item(row).setText(challenge.title or challenge.id)
