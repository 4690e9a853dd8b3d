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
    win.resize(1320, 880)  # the offscreen screen is 800 × 600; test the size a classroom screen gives
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    settle_layout(qtbot, win)
    return win


def settle_layout(qtbot, window) -> None:
    """Wait until the canvas stops changing size: a drag test measures pixels on it."""
    previous = None
    for _ in range(50):
        qtbot.wait(10)
        size = (window.canvas.size(), window.canvas.qk_plot.viewRange())
        if size == previous:
            return
        previous = size
