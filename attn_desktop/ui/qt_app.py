"""The running QApplication, typed as one (QApplication.instance() may be any QCoreApplication, or None)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def gui_app() -> QApplication:
    """The application the widgets live in; an error if there is none yet (a widget needs one anyway)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise TypeError("no QApplication has been made")
    return app
