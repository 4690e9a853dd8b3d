"""The one export path, without the main window: a bare parent that records its messages."""

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from attn_desktop.ui.document.export_actions import export_file


class BareParent(QWidget):
    def __init__(self, scene_path=None) -> None:
        super().__init__()
        self.scene_path = scene_path
        self.errors: list[tuple[str, str]] = []

    def show_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))


def export(parent: BareParent, *args) -> bool:
    """export_file with the bare parent's own file and messages."""
    return export_file(parent, *args, own_file=parent.scene_path, show_error=parent.show_error)


def answer_save_dialog(monkeypatch, answer: str, asked: list | None = None) -> None:
    def dialog(parent, title, suggestion, file_filter):
        if asked is not None:
            asked.append((title, suggestion, file_filter))
        return answer, ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)


def test_a_name_without_extension_gets_the_suggested_one(qtbot, tmp_path, monkeypatch):
    parent, asked = BareParent(), []
    qtbot.addWidget(parent)
    answer_save_dialog(monkeypatch, str(tmp_path / "handout"), asked)
    written = []
    assert export(parent, "CSV", tmp_path / "scene-weights.csv", "CSV (*.csv)", written.append)
    assert asked == [("Export CSV", str(tmp_path / "scene-weights.csv"), "CSV (*.csv)")]
    assert written == [str(tmp_path / "handout.csv")] and parent.errors == []


def test_cancelling_writes_nothing_and_says_nothing(qtbot, tmp_path, monkeypatch):
    parent = BareParent()
    qtbot.addWidget(parent)
    answer_save_dialog(monkeypatch, "")
    written = []
    assert not export(parent, "Results", tmp_path / "r.json", "JSON (*.json)", written.append)
    assert written == [] and parent.errors == []


def test_the_scenes_own_file_is_never_written(qtbot, tmp_path, monkeypatch):
    scene_file = tmp_path / "lesson.json"
    scene_file.write_text("{}", encoding="utf-8")
    parent = BareParent(scene_file)
    qtbot.addWidget(parent)
    answer_save_dialog(monkeypatch, str(scene_file))
    written = []
    assert not export(parent, "Results", tmp_path / "r.json", "JSON (*.json)", written.append)
    assert written == [] and [title for title, _ in parent.errors] == ["Cannot export"]
    assert "this scene's own file" in parent.errors[0][1]


def test_a_failing_writer_becomes_one_message(qtbot, tmp_path, monkeypatch):
    parent = BareParent()
    qtbot.addWidget(parent)
    target = tmp_path / "out.svg"
    answer_save_dialog(monkeypatch, str(target))

    def full_disk(path: str) -> None:
        raise OSError(28, "No space left on device")

    assert not export(parent, "SVG", Path("x.svg"), "SVG (*.svg)", full_disk)
    assert parent.errors == [("Cannot export", f"{target}: No space left on device")]
