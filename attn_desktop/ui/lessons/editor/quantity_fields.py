"""The fields that name a quantity of the lesson's scene (lesson_quantities.py): which quantity, of which query,
for which key or which number of the output. An exercise asks for one; a challenge sets a condition on one.

The queries and keys are offered by the names a lesson file gives them ("the#2" where a word comes twice), so
whatever is chosen here is a name the file reader accepts.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QSpinBox, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.head_reading import read
from attn_desktop.model.scene_files import new_scene
from attn_desktop.model.teaching.lesson_quantities import WITH_KEY, Quantity, key_names, query_names

# What each quantity is called in the editor (shown with tr()).
QUANTITY_NAMES = {
    "weight": N_("Weight: how much a query gives a key"),
    "score": N_("Score: q · k"),
    "output": N_("One number of a query's output"),
    "heaviest_key": N_("The key a query weighs most"),
    "entropy": N_("Entropy of a query's weights, in bits"),
}


LIST_HEIGHT = 110  # the exercises' and challenges' lists: five rows or so, the chosen one's fields below


class QuantityFields(QWidget):
    changed = Signal()  # the teacher chose another quantity, query, key or number

    def __init__(self, kinds: dict[str, str], key_for_heaviest: bool = False, parent: QWidget | None = None) -> None:
        """KINDS: the choices of the first box, by their data ("weight", …, or "stated"), their texts marked N_().
        KEY_FOR_HEAVIEST: the key box stays for the heaviest key (a challenge names the key it should be)."""
        super().__init__(parent)
        self.key_for_heaviest = key_for_heaviest
        self.at: tuple[int, int] = (0, 0)  # the head the quantity reads (pointing at the matrix chooses it)
        self.kind_combo = QComboBox()
        for data, text in kinds.items():
            self.kind_combo.addItem(tr(text), data)
        self.query_combo, self.key_combo = QComboBox(), QComboBox()
        self.component_spin = QSpinBox()
        self.component_spin.setMinimum(1)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.kind_label = labelled_row(form, tr("&Asks for:"), self.kind_combo, tr("What it asks for"))
        self.query_label = labelled_row(form, tr("&Query:"), self.query_combo, tr("Query"))
        self.key_label = labelled_row(form, tr("&Key:"), self.key_combo, tr("Key"))
        self.component_label = labelled_row(form, tr("&Number:"), self.component_spin,
                                          tr("Which number of the output, from 1"))
        for combo in (self.kind_combo, self.query_combo, self.key_combo):
            narrow(combo)
            combo.currentIndexChanged.connect(self._on_edit)
        self.component_spin.valueChanged.connect(self._on_edit)
        self._follow_kind()

    def set_scene(self, scene: SceneData, at: tuple[int, int] = (0, 0)) -> None:
        """Offer the names of SCENE's queries and keys (head AT)."""
        self.at = at
        reading = read(new_scene(scene), *at)
        for combo, names in ((self.query_combo, query_names(reading)), (self.key_combo, key_names(reading))):
            combo.blockSignals(True)
            combo.clear()
            for name in names:
                combo.addItem(name, name)
            combo.blockSignals(False)
        self.component_spin.setMaximum(max(1, reading.result.output.shape[1]))

    @property
    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def quantity(self) -> Quantity:
        name = self.kind
        return Quantity(name, query=self.query_combo.currentText(),
                        key=self.key_combo.currentText() if name in WITH_KEY else "",
                        component=self.component_spin.value() - 1 if name == "output" else 0, at=self.at)

    def show_quantity(self, quantity: Quantity | None, kind: str = "") -> None:
        """Fill the fields from QUANTITY (None: KIND, a choice without a quantity, such as a stated answer)."""
        for widget in (self.kind_combo, self.query_combo, self.key_combo, self.component_spin):
            widget.blockSignals(True)
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(quantity.name if quantity else kind))
        if quantity is not None:
            self.at = quantity.at
            self.query_combo.setCurrentIndex(self.query_combo.findText(quantity.query))
            if quantity.key:
                self.key_combo.setCurrentIndex(self.key_combo.findText(quantity.key))
            self.component_spin.setValue(quantity.component + 1)
        for widget in (self.kind_combo, self.query_combo, self.key_combo, self.component_spin):
            widget.blockSignals(False)
        self._follow_kind()

    def _on_edit(self) -> None:
        self._follow_kind()
        self.changed.emit()

    def _follow_kind(self) -> None:
        """Only the fields the chosen quantity uses are shown (a stated answer uses none of them)."""
        name = self.kind
        uses_key = name in WITH_KEY or (name == "heaviest_key" and self.key_for_heaviest)
        for label, field, used in ((self.query_label, self.query_combo, name in QUANTITY_NAMES),
                                   (self.key_label, self.key_combo, uses_key),
                                   (self.component_label, self.component_spin, name == "output")):
            label.setVisible(used)
            field.setVisible(used)


def labelled_row(form: QFormLayout, text: str, field: QWidget, name: str) -> QLabel:
    """A row of FORM: FIELD named NAME for a screen reader, its label's letter (Alt+letter) taking the keys to it."""
    label = QLabel(text)
    label.setBuddy(field)
    field.setAccessibleName(name)
    form.addRow(label, field)
    return label


def narrow(combo: QComboBox) -> None:
    """A box as wide as the editor lets it be, not as its longest choice: the editor fits beside the window."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)
