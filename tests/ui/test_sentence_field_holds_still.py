"""The Model heads panel's sentence field stays where it is when a message about the sentence appears: its clear
button (a real click) leaves an empty sentence, the model refuses it and says so, and neither the field nor
anything under it moves (the message used to be a line inserted over the field, pushing it down from under
the pointer). The message is read in full, and goes once a sentence runs again."""

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QToolButton

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged
from tests.support.model_heads_window import loaded_heads, type_sentence, wait_for_run

pytestmark = pytest.mark.slow


def in_window(widget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


def places(panel) -> dict[str, QRect]:
    return {name: in_window(widget) for name, widget in (
        ("sentence field", panel.sentence_box), ("tokens", panel.token_strip), ("next token", panel.next_strip),
        ("tabs", panel.tabs))}


def clear_button(box) -> QToolButton:
    return next(button for button in box.findChildren(QToolButton) if button.isVisible())


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_a_message_about_the_sentence_moves_nothing(qtbot, window, monkeypatch, pack_is_tiny, presenting):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    panel = loaded_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    before = places(panel)

    button = clear_button(panel.sentence_box)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
    assert panel.sentence_box.text() == ""
    qtbot.waitUntil(lambda: panel.message_label.isVisible(), timeout=5000)
    qtbot.wait(50)  # the layout takes in what it was asked
    message = panel.message_label
    assert "empty" in message.text()
    assert places(panel) == before
    # Read in full: as tall as its wrapped text, inside the panel, the field itself uncovered.
    assert message.height() >= message.heightForWidth(message.width())
    assert panel.rect().contains(QRect(message.mapTo(panel, QPoint(0, 0)), message.size()))
    assert not in_window(message).intersects(before["sentence field"])

    type_sentence(qtbot, panel, "The cat")
    wait_for_run(qtbot, panel, "The cat")
    assert not panel.message_label.isVisible()
    assert places(panel)["sentence field"] == before["sentence field"]
