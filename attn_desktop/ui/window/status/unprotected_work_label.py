"""A warning that stays in the status bar while unsaved work has no recovery copy."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from attn_desktop.language import tr
from attn_desktop.ui.language_link import follow_language


class UnprotectedWorkLabel(QLabel):
    """Hidden while autosave works; after a failed write, says so until a later write succeeds.

    A permanent status-bar widget, not a passing message: the drag read-outs that come and go
    over the status bar must not hide it, and it must not need the user to be looking at one moment.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unprotectedWorkLabel")
        self.setStyleSheet("QLabel { color: #a40000; font-weight: bold; }")
        self.hide()
        self._problem = ""
        follow_language(self, lambda: self.show_problem(self._problem))

    def show_problem(self, problem: str) -> None:
        """problem: why the work is not protected, or "" once it is again."""
        self._problem = problem
        if not problem:
            self.clear()
            self.setToolTip("")
            self.hide()
            return
        self.setText(tr("⚠ Unsaved work is not being protected: {problem}").format(problem=problem))
        self.setToolTip(tr(
            "The recovery copy that brings unsaved work back after a crash cannot be written. "
            "Save the scene (Ctrl+S, or Save As to another place) to keep your work."
        ))
        self.show()
