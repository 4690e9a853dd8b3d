"""A check box that stands for a checkable QAction in a toolbar.

A checkable tool button looks like plain text when it is off; a check box
shows on and off at a glance, which matters on a projector.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QWidget


class ActionCheckBox(QCheckBox):
    def __init__(self, action: QAction, parent: QWidget | None = None) -> None:
        super().__init__(action.text(), parent)
        self.action = action
        self.clicked.connect(lambda checked: action.setChecked(checked))
        action.changed.connect(self.follow_action)
        self.follow_action()

    def follow_action(self) -> None:
        with QSignalBlocker(self):
            self.setChecked(self.action.isChecked())
        self.setEnabled(self.action.isEnabled())
        self.setToolTip(self.action.toolTip())
