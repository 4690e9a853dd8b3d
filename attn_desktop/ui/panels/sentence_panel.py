"""The Sentence panel: add, remove, rename and reorder the tokens of the scene; in a cross-attention scene,
rename the words of the target sentence too."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.model import Change, Scene, ViewState, commands
from attn_desktop.model.commands import Editor, RunNow
from attn_desktop.ui.scene_link import follow_scene


class SentencePanel(QWidget):
    def __init__(self, scene: Scene, editor: Editor | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.editor = editor if editor is not None else RunNow(scene, ViewState())  # in the window, its edit history (undoable)
        self._refreshing = False  # True while the list is being written from the scene
        self.list = QListWidget()
        self.list.setAccessibleName(tr("Tokens"))
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.list.itemChanged.connect(self._on_renamed)
        self.list.model().rowsMoved.connect(self._on_rows_moved)
        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText(tr("new token"))
        self.new_name.setAccessibleName(tr("Name of a new token"))  # the placeholder is gone once typing starts
        self.new_name.returnPressed.connect(self.add)
        self.add_button = QPushButton(tr("Add"))
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton(tr("Remove"))
        self.remove_button.clicked.connect(self.remove)
        # Arrows, named in their tooltips: two worded buttons beside Remove held the whole left column (this
        # panel's tab group) wider than the lesson needs, and wider still in a longer language.
        self.up_button = _arrow_button(Qt.ArrowType.UpArrow, tr("Move up"))
        self.up_button.clicked.connect(lambda: self.move_token(-1))
        self.down_button = _arrow_button(Qt.ArrowType.DownArrow, tr("Move down"))
        self.down_button.clicked.connect(lambda: self.move_token(+1))
        self.message_label = QLabel(tr("Double-click a token to rename it; drag to reorder."))
        self.message_label.setWordWrap(True)
        # A cross-attention scene's target sentence, whose words make the queries: renamed here, shown only then.
        self.target_label = QLabel(tr("Target words (they make the queries):"))
        self.target_label.setWordWrap(True)
        self.target_list = QListWidget()
        self.target_list.setAccessibleName(tr("Target words"))
        self.target_list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.target_list.itemChanged.connect(self._on_target_renamed)

        add_row = QHBoxLayout()
        add_row.addWidget(self.new_name, 1)
        add_row.addWidget(self.add_button)
        edit_row = QHBoxLayout()
        edit_row.addWidget(self.remove_button, 1)
        for button in (self.up_button, self.down_button):
            edit_row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.list, 1)
        layout.addLayout(add_row)
        layout.addLayout(edit_row)
        layout.addWidget(self.message_label)
        layout.addWidget(self.target_label)
        layout.addWidget(self.target_list, 1)
        follow_scene(self, scene, self._on_scene_changed, follows=Change.STRUCTURE)
        self.refresh()

    def refresh(self) -> None:
        """Show the scene's tokens, one row each, in the scene's order.

        The list's model keeps its signals: the view lays its rows out from them (a view that
        is not told about new rows keeps showing the old ones). The flag below is what tells
        our own handlers that these changes are the scene's, not the teacher's. Rows are
        updated in place, so a refresh during a drop (the scene follows the moved row) does
        not pull the rows out from under the drop.
        """
        self._refreshing = True
        try:
            current = self.list.currentRow()
            while self.list.count() > self.scene.n_tokens:
                self.list.takeItem(self.list.count() - 1)
            while self.list.count() < self.scene.n_tokens:
                item = QListWidgetItem()
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.list.addItem(item)
            for row, token in enumerate(self.scene.tokens):
                if self.list.item(row).text() != token:
                    self.list.item(row).setText(token)
            self.list.setCurrentRow(min(max(current, 0), self.list.count() - 1))
        finally:
            self._refreshing = False
        self._refresh_targets()

    def _refresh_targets(self) -> None:
        """The target's words, or nothing shown for a scene without a target sentence."""
        cross = self.scene.target_vectors is not None
        self.target_label.setVisible(cross)
        self.target_list.setVisible(cross)
        words = self.scene.query_tokens if cross else []
        self._refreshing = True
        try:
            while self.target_list.count() > len(words):
                self.target_list.takeItem(self.target_list.count() - 1)
            while self.target_list.count() < len(words):
                item = QListWidgetItem()
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.target_list.addItem(item)
            for row, word in enumerate(words):
                if self.target_list.item(row).text() != word:
                    self.target_list.item(row).setText(word)
        finally:
            self._refreshing = False

    def _try(self, command: commands.Command) -> bool:
        """Run an edit; if the scene refuses it, say why under the list and show the scene as it is."""
        try:
            self.editor.do(command)
        except ValueError as error:
            self.message_label.setText(str(error).capitalize() + ".")
            self.refresh()
            return False
        return True

    def add(self) -> None:
        if self._try(commands.AddToken(self.new_name.text())):
            self.message_label.setText(tr("Added \u201c{token}\u201d with new vectors; drag them into place.").format(
                token=self.scene.tokens[-1]))
            self.new_name.clear()
            self.list.setCurrentRow(self.list.count() - 1)

    def remove(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            name = self.scene.tokens[row]
            if self._try(commands.remove_token(self.scene, row)):
                self.message_label.setText(tr("Removed \u201c{token}\u201d (Ctrl+Z brings it back).").format(token=name))

    def move_token(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if 0 <= row and 0 <= target < self.scene.n_tokens and self._try(commands.MoveToken(row, target)):
            self.list.setCurrentRow(target)

    def _on_renamed(self, item: QListWidgetItem) -> None:
        if self._refreshing:
            return
        row = self.list.row(item)
        if item.text() != self.scene.tokens[row]:
            self._try(commands.rename_token(self.scene, row, item.text()))

    def _on_target_renamed(self, item: QListWidgetItem) -> None:
        if self._refreshing:
            return
        row = self.target_list.row(item)
        if item.text() != self.scene.query_tokens[row]:
            self._try(commands.rename_target_word(self.scene, row, item.text()))

    def _on_rows_moved(self, parent: QModelIndex, start: int, end: int, destination: QModelIndex, row: int) -> None:
        if self._refreshing:
            return
        # Qt reports the row the item was dropped before; after removal it lands one higher.
        target = row - 1 if row > start else row
        self._try(commands.MoveToken(start, target))

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.refresh()


def _arrow_button(arrow: Qt.ArrowType, name: str) -> QToolButton:
    """A small button showing an arrow, its NAME in its tooltip and for screen readers."""
    button = QToolButton()
    button.setArrowType(arrow)
    button.setToolTip(name)
    button.setAccessibleName(name)
    return button
