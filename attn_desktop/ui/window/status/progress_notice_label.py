"""A warning that stays in the status bar while progress is not being saved, or could not be read."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget
from shiboken6 import isValid

from attn_desktop.language import tr
from attn_desktop.model.teaching.progress import ProgressStore


class ProgressNoticeLabel(QLabel):
    """Shows the store's notice (ProgressStore.notice) while there is one, as the recovery copy's warning does.

    A permanent status-bar widget: drag read-outs over the status bar do not hide it. The store is shared by
    every window of a run, so each window's label watches it until the label goes.
    """

    def __init__(self, progress: ProgressStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("progressNoticeLabel")
        self.setStyleSheet("QLabel { color: #a40000; font-weight: bold; }")
        self.progress = progress
        progress.watch(self.show_notice)
        self.destroyed.connect(lambda: progress.unwatch(self.show_notice))
        self.show_notice()

    def show_notice(self) -> None:
        if not isValid(self):
            return  # its window is gone, and with it this label: the others still show the notice
        notice = self.progress.notice
        self.setText(f"⚠ {notice}" if notice else "")
        self.setToolTip(tr("{notice}\nThe progress file: {path}").format(notice=notice, path=self.progress.path)
                        if notice else "")
        self.setVisible(bool(notice))
