"""Typed numbers for the canvas, with a bare scene and history: each typed move is one undoable step."""

import pytest
from PySide6.QtWidgets import QInputDialog, QWidget

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.canvas.coordinate_dialog import CoordinateDialog
from attn_desktop.ui.document.edit_history import EditHistory


class Dims:
    def __init__(self) -> None:
        self.dims = (0, 1)

    def set_dims(self, first: int, second: int) -> None:
        self.dims = (first, second)

    def plane_for(self, role):
        return None  # two chosen numbers drawn, no PCA plane


@pytest.fixture
def typing(qtbot, monkeypatch):
    """The dialog over a bare scene; `answers` feeds the input box, `asked` records what it offered."""
    parent = QWidget()
    qtbot.addWidget(parent)
    reading = open_reading(scene_path(DEFAULT_SCENE))
    history = EditHistory(reading.scene, reading.view)
    errors, statuses, asked, answers = [], [], [], []

    def get_text(parent, title, label, *args, **kwargs):
        asked.append((label, kwargs.get("text")))
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    dialog = CoordinateDialog(parent, reading, history, Dims(), lambda *error: errors.append(error),
                              lambda text, ms: statuses.append(text))
    dialog.history, dialog.errors, dialog.statuses, dialog.asked, dialog.answers = history, errors, statuses, asked, answers
    yield dialog
    history.stack.clear()


def test_typed_coordinates_are_one_step_named_after_the_arrow(typing):
    typing.answers.append(("0.5, -0.25", True))
    typing.type_coordinates(Role.KEY, 1)
    assert typing.asked == [("New coordinates for k·cat (2 numbers, e.g. 1.5, -0.2):", "2.2, 1")]
    assert typing.reading.vectors(Role.KEY)[1].tolist() == [0.5, -0.25]
    assert [typing.history.stack.text(i) for i in range(typing.history.stack.count())] == ["Move k·cat"]
    typing.history.stack.undo()
    assert typing.reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]


def test_refused_numbers_come_back_with_the_reason_and_change_nothing(typing):
    typing.answers.extend([("1e400, 0", True), ("1e400, 0", True)])  # OK twice on the same refused text
    typing.type_coordinates(Role.VALUE, 0)
    reason = typing.asked[1][0].split("\n")[0]
    assert reason.startswith("v·The: ") and typing.asked[1][1] == "1e400, 0"
    assert typing.errors == [("Exact coordinates", reason)]
    assert typing.reading.vectors(Role.VALUE)[0].tolist() == [0.2, -1.0] and typing.history.stack.count() == 0


def test_too_few_numbers_are_counted_and_cancel_stops(typing):
    typing.answers.extend([("3", True), ("", False)])
    typing.type_coordinates(Role.KEY, 4)
    assert typing.asked[1][0].startswith('k·the needs 2 numbers; "3" has 1.')
    assert typing.errors == [] and typing.history.stack.count() == 0


def test_two_numbers_a_vector_has_are_all_the_canvas_can_show(typing):
    typing.choose_dims()
    assert typing.asked == [] and typing.statuses == [
        "Every vector here has at most two numbers; the canvas shows them all."]
