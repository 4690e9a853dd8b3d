"""What a lesson takes away from the student: the controls it hides (lesson_file.HIDEABLE_CONTROLS) and the
parts it locks (every arrow of a role, the grids' numbers), one check box each, named as the window names them.

A file may lock single arrows by name ("k·cat"); the editor has no box for those and keeps them as they are.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.scene_files import new_scene
from attn_desktop.model.teaching.lesson_file import HIDEABLE_CONTROLS, LOCKABLE_PARTS

CONTROL_NAMES = {
    "scale-switch": N_("Scale by √d_k switch"),
    "causal-switch": N_("Causal mask switch"),
    "grids-switch": N_("No grids switch"),
    "sentence-editing": N_("Editing the sentence"),
    "code-panel": N_("Code panel"),
    "model-heads": N_("Heads of a real model"),
    "training": N_("Train a head"),
    "predict-switch": N_("Predict, then see switch"),
    "grid-editing": N_("Typing into the grids"),
}
PART_NAMES = {
    "query": N_("Query arrows"),
    "key": N_("Key arrows"),
    "value": N_("Value arrows"),
    "embedding": N_("Word vectors x"),
    "grids": N_("Numbers of the grids"),
}
COLUMNS = 2


class ControlsBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Hidden and locked"), parent)
        self.hidden_boxes = {name: QCheckBox(tr(CONTROL_NAMES[name])) for name in HIDEABLE_CONTROLS}
        self.locked_boxes: dict[str, QCheckBox] = {}
        self.kept_locks: tuple[str, ...] = ()  # single arrows a file locks, kept as they are
        self.locked_before: tuple[str, ...] = ()  # in the file's order, which saving keeps
        hidden_grid = QGridLayout()
        for position, box in enumerate(self.hidden_boxes.values()):
            box.setAccessibleName(tr("Hide from the student: {control}").format(control=box.text()))
            hidden_grid.addWidget(box, position // COLUMNS, position % COLUMNS)
        self.locked_grid = QGridLayout()
        column = QVBoxLayout(self)
        column.addWidget(QLabel(tr("Hide from the student:")))
        column.addLayout(hidden_grid)
        column.addWidget(QLabel(tr("Lock, so nothing moves:")))
        column.addLayout(self.locked_grid)

    def set_scene(self, scene: SceneData) -> None:
        """One Lock box for each role whose arrows the scene's student drags, and one for the grids."""
        for box in self.locked_boxes.values():
            self.locked_grid.removeWidget(box)
            box.deleteLater()
        roles = [role.value for role in new_scene(scene).input_roles]
        self.locked_boxes = {name: QCheckBox(tr(PART_NAMES[name])) for name in (*roles, *LOCKABLE_PARTS)}
        previous = list(self.hidden_boxes.values())[-1]
        for position, box in enumerate(self.locked_boxes.values()):
            box.setAccessibleName(tr("Lock: {part}").format(part=box.text()))
            self.locked_grid.addWidget(box, position // COLUMNS, position % COLUMNS)
            QWidget.setTabOrder(previous, box)  # made after the rest: Tab reaches them after the boxes above
            previous = box

    @property
    def last_box(self) -> QWidget:
        """The last of its boxes Tab reaches (the next field's place in the tab order follows it)."""
        return list(self.locked_boxes.values() or self.hidden_boxes.values())[-1]

    def set_chosen(self, hidden: tuple[str, ...], locked: tuple[str, ...]) -> None:
        for name, box in self.hidden_boxes.items():
            box.setChecked(name in hidden)
        for name, box in self.locked_boxes.items():
            box.setChecked(name in locked)
        self.kept_locks = tuple(name for name in locked if name not in self.locked_boxes)
        self.locked_before = locked

    def hidden(self) -> tuple[str, ...]:
        return tuple(name for name, box in self.hidden_boxes.items() if box.isChecked())

    def locked(self) -> tuple[str, ...]:
        chosen = {name for name, box in self.locked_boxes.items() if box.isChecked()} | set(self.kept_locks)
        before = tuple(name for name in self.locked_before if name in chosen)
        return (*before, *(name for name in self.locked_boxes if name in chosen and name not in before))
