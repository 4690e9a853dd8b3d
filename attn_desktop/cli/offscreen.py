"""For the commands that build the real window without a display (export's pictures, snapshot,
--self-test, --quit-after-paint): quiet offscreen notes and user folders of their own."""

from __future__ import annotations

import os
import sys
import tempfile


def hide_offscreen_notes() -> None:
    """The offscreen platform warns about window-manager features it lacks; a successful command stays quiet."""
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    def handle(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if not message.startswith("This plugin does not support"):
            print(message, file=sys.stderr)

    qInstallMessageHandler(handle)


def use_user_folder(folder: str) -> None:
    """Data (progress, autosave) and settings (window layout) in FOLDER, not the user's own."""
    from PySide6.QtCore import QSettings

    from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE

    os.environ[DATA_DIR_VARIABLE] = folder
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)


def use_temporary_user_files() -> None:
    """A new empty user folder: checks and timings neither read nor disturb the student's files."""
    use_user_folder(tempfile.mkdtemp(prefix="attn-desktop-check-"))
