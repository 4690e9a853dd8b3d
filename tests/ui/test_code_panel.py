"""The code panel on its own: live script, Copy, and the PyTorch check."""

import importlib.util
import shlex
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from attn_desktop import paths
from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.ui.panels.code_panel import CodePanel


@pytest.fixture
def reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(paths.scene_path(paths.DEFAULT_SCENE))


@pytest.fixture
def scene(reading):
    return reading.scene


@pytest.fixture
def panel(qtbot, reading):
    panel = CodePanel(reading)
    qtbot.addWidget(panel)
    panel.resize(520, 260)  # short enough that the script needs scrolling
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def shown_lines(panel) -> list[str]:
    return panel.editor.toPlainText().splitlines()


def test_the_panel_shows_the_scene_as_numpy(panel):
    lines = shown_lines(panel)
    assert "K = np.array([[-1.2, 0.6], [2.2, 1.0], [0.4, 2.2], [-0.8, 1.6], [-1.4, -0.2], [1.8, -0.9]])" in lines
    assert 'i = tokens.index("sat")' in lines
    assert panel.editor.isReadOnly()
    # Monospace, so the comments line up: a narrow and a wide letter take the same room.
    metrics = panel.editor.fontMetrics()
    assert metrics.horizontalAdvance("iiii") == metrics.horizontalAdvance("WWWW")


def test_the_script_follows_every_change(panel, reading, scene):
    scene.set_vector(Role.KEY, 1, [1.0, 2.0])
    assert "K = np.array([[-1.2, 0.6], [1.0, 2.0], [0.4, 2.2], [-0.8, 1.6], [-1.4, -0.2], [1.8, -0.9]])" in shown_lines(panel)
    reading.select_query(5)
    assert 'i = tokens.index("mat")' in shown_lines(panel)
    scene.set_scale(False)
    assert "scores = Q @ K.T            # every query against every key" in shown_lines(panel)
    scene.set_causal(True)  # more lines: the whole text is replaced
    assert "scores[later] = -np.inf" in shown_lines(panel)


def test_a_drag_keeps_the_reader_where_they_were(panel, scene):
    bar = panel.editor.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum())
    for step in range(5):
        scene.set_vector(Role.KEY, 1, [2.2 + step / 10, 1.0])
    assert bar.value() == bar.maximum()
    assert "[2.6, 1.0]" in panel.editor.toPlainText()
    # Switching the mask on adds lines and rewrites the script; the view still stays put.
    bar.setValue(5)
    scene.set_causal(True)
    assert "scores[later] = -np.inf" in panel.editor.toPlainText()
    assert bar.value() == 5


def test_copy_puts_the_script_on_the_clipboard_and_says_so(panel, qtbot):
    QApplication.clipboard().clear()
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied.splitlines() == shown_lines(panel)
    assert copied.startswith("# The cat sat on the mat") and copied.endswith("\n")
    assert panel.copy_button.text() == "Copied"
    qtbot.waitUntil(lambda: panel.copy_button.text() == "Copy", timeout=3000)


def test_without_pytorch_the_check_says_how_to_get_it(panel, qtbot, monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real_find_spec(name, *a))
    qtbot.mouseClick(panel.torch_button, Qt.MouseButton.LeftButton)
    assert panel.torch_result.text().endswith(f"{shlex.quote(sys.executable)} -m pip install torch")  # this Python's pip
    assert panel.torch_result.isVisible()


def test_a_new_drag_clears_an_old_comparison(panel, reading, scene, monkeypatch, qtbot):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    qtbot.mouseClick(panel.torch_button, Qt.MouseButton.LeftButton)
    reading.select_query(1)  # the check compares every query: choosing another one leaves it valid
    assert panel.torch_result.text()
    scene.set_vector(Role.VALUE, 0, [0.0, 0.0])
    assert panel.torch_result.text() == ""
