"""The toolbar: the query to look at, and a check box for each switch of the command table."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QToolBar

from attn_desktop.language import tr
from attn_desktop.model import HeadReading
from attn_desktop.ui.panels.query_picker import QueryPicker
from attn_desktop.ui.widgets.action_check_box import ActionCheckBox
from attn_desktop.ui.window.actions.table import BuiltActions, fill_toolbar


class MainToolBar(QToolBar):
    def __init__(self, shown: HeadReading, built: BuiltActions, parent: QMainWindow) -> None:
        """SHOWN: a reading through the window's view, whose chosen query the picker shows and sets."""
        super().__init__(tr("Query and settings"), parent)
        self.setObjectName("mainToolBar")
        self.setMovable(False)
        query_label = QLabel(tr("Query:"))
        query_label.setContentsMargins(4, 0, 4, 0)  # a space's room each side, outside the translated text
        self.addWidget(query_label)
        self.query_picker = QueryPicker(shown, self)
        self.addWidget(self.query_picker)
        self.addSeparator()
        self.boxes: dict[QAction, ActionCheckBox] = fill_toolbar(built, self)  # each switch's box, by its action
