import pytest


@pytest.fixture
def window(qtbot, monkeypatch):
    """The real main window on the default scene, shown offscreen.

    Error dialogs are captured instead of shown: a modal dialog would hang a test.
    """
    from PySide6.QtWidgets import QMessageBox

    from attn_desktop.ui.app import build_window, configure_pyqtgraph

    configure_pyqtgraph()
    errors: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: errors.append((title, text)))
    win = build_window()
    win.shown_errors = errors
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(20)  # let the first layout pass settle before a test measures the canvas
    return win
