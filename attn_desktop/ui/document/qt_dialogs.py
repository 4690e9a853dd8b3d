"""The Qt face of the document controller: its file dialogs and questions, and the Open Recent menu."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from attn_desktop.language import N_, tr
from attn_desktop.ui.document.document_controller import SaveChanges

SCENE_FILTER = N_("Attention scenes (*.json);;All files (*)")  # shown with tr()
Buttons = QMessageBox.StandardButton


class QtDocumentDialogs:
    """Implements document_controller.DocumentDialogs with Qt's standard dialogs, over WINDOW."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window

    def ask_open_path(self, folder: Path) -> Path | None:
        path, _ = QFileDialog.getOpenFileName(self.window, tr("Open Scene"), str(folder), tr(SCENE_FILTER))
        return Path(path) if path else None

    def ask_save_path(self, suggested: Path) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self.window, tr("Save Scene As"), str(suggested), tr(SCENE_FILTER))
        return Path(path) if path else None

    def ask_save_changes(self) -> SaveChanges:
        answer = QMessageBox.question(
            self.window, tr("Unsaved changes"), tr("The scene has changes that are not saved. Save them first?"),
            Buttons.Save | Buttons.Discard | Buttons.Cancel, Buttons.Save,
        )
        return {Buttons.Save: SaveChanges.SAVE, Buttons.Discard: SaveChanges.DISCARD}.get(answer, SaveChanges.CANCEL)

    def ask_copy_elsewhere(self, question: str) -> bool:
        answer = QMessageBox.question(self.window, tr("Cannot save scene"), question,
                                      Buttons.Save | Buttons.Cancel, Buttons.Save)
        return answer == Buttons.Save

    def ask_restore(self, question: str) -> bool:
        return QMessageBox.question(self.window, tr("Restore unsaved work?"), question,
                                    Buttons.Yes | Buttons.No, Buttons.Yes) == Buttons.Yes

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self.window, title, message)

    def show_status(self, message: str, milliseconds: int) -> None:
        self.window.statusBar().showMessage(message, milliseconds)

    def set_title(self, title: str) -> None:
        self.window.setWindowTitle(title)


def fill_recent_menu(menu: QMenu, paths: list[Path], open_path: Callable[[Path], object]) -> None:
    """The Open Recent menu as it opens: a file's name, its full path on hover."""
    menu.clear()
    for path in paths:
        action = menu.addAction(path.name)
        action.setToolTip(str(path))
        action.triggered.connect(lambda checked=False, path=path: open_path(path))
    if not paths:
        menu.addAction(tr("(no recent scenes)")).setEnabled(False)
