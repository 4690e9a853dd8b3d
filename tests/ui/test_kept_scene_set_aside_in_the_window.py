"""The window starting on a lesson whose kept scene a newer version wrote (issue 44): the lesson opens on its
own scene, the kept one is set aside beside progress.json (not dropped), and the status bar says where."""

import json

import pytest
from PySide6.QtWidgets import QMessageBox

from attn_desktop.model.scene_files import read_scene_data, scene_document
from attn_desktop.paths import scene_path
from attn_desktop.ui.window.startup.app import configure_pyqtgraph, start_window

pytestmark = pytest.mark.slow


def newer_scene():
    document = scene_document(read_scene_data(scene_path("lessons/1_soft_lookup.json")))
    return dict(document, version=7, title="made in version 7", tokens=["ask", "for", "more"])


def test_a_newer_versions_kept_scene_is_set_aside_and_the_lesson_opens(qtbot, private_data_dir, monkeypatch,
                                                                        no_tracebacks):
    configure_pyqtgraph()
    errors = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: errors.append(text))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    scene = newer_scene()
    private_data_dir.mkdir()
    progress = private_data_dir / "progress.json"
    progress.write_text(json.dumps({"format": "attention-desktop-progress", "version": 2, "done": {},
                                    "lessons": {"open": "soft-lookup", "scenes": {"soft-lookup": scene}}}),
                        encoding="utf-8")
    window = start_window(None, None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert errors == [] and window.lessons.current == "soft-lookup"
    assert window.scene.tokens == read_scene_data(scene_path("lessons/1_soft_lookup.json")).tokens
    copy = private_data_dir / "progress.json.soft-lookup.scene.json"
    assert json.loads(copy.read_text(encoding="utf-8")) == scene
    label = window.progress_notice_label
    assert label.isVisible() and "progress.json.soft-lookup.scene.json" in label.text()
    window.history.reset()
    assert window.close()
    assert json.loads(copy.read_text(encoding="utf-8")) == scene  # still there after the lesson was left


def test_a_kept_scene_that_is_text_survives_the_students_first_edit(qtbot, private_data_dir, monkeypatch,
                                                                    no_tracebacks):
    """Round-4 finding F1: a kept scene that is not an object vanished from progress.json on the first edit."""
    configure_pyqtgraph()
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: pytest.fail("no error box for a kept scene"))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    marker = "a later version keeps its scenes as text 5e1c"
    private_data_dir.mkdir()
    progress = private_data_dir / "progress.json"
    progress.write_text(json.dumps({"format": "attention-desktop-progress", "version": 2,
                                    "done": {"challenges": ["twin-keys"]},
                                    "lessons": {"open": "soft-lookup", "scenes": {"soft-lookup": marker}}}),
                        encoding="utf-8")
    window = start_window(None, None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.lessons.current == "soft-lookup"
    window.scale_action.trigger()  # the student's first edit: scaling off
    window.history.reset()
    assert window.close()
    copy = private_data_dir / "progress.json.soft-lookup.scene.json"
    assert json.loads(copy.read_text(encoding="utf-8")) == marker
    saved = json.loads(progress.read_text(encoding="utf-8"))
    assert isinstance(saved["lessons"]["scenes"]["soft-lookup"], dict)  # the edited scene, kept
    assert saved["done"] == {"challenges": ["twin-keys"]}
