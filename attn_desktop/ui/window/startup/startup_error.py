"""A message for a scene the app was asked to open but cannot, shown where the user will see it.

Started from a desktop entry or a file manager, the app has no terminal: a line on stderr alone
would look like an app that never started. The line is printed first; the dialog follows when
there is a screen to show it on.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import QMessageBox

HEADLESS_PLATFORMS = ("offscreen", "minimal")


def can_show_a_dialog() -> bool:
    """False with no screen: a headless platform, or Linux with no X or Wayland display that answers."""
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in HEADLESS_PLATFORMS:
        return False  # nobody could see it or close it: it would wait for ever
    from attn_desktop.platform_check import display_problem

    return display_problem() is None  # Qt would abort on a display that is not there


def show_startup_error(title: str, message: str) -> None:
    if not can_show_a_dialog():
        return
    from attn_desktop.ui.window.startup.app import make_application

    make_application()
    QMessageBox.critical(None, title, message)
