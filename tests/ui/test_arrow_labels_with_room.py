"""Arrow labels stay on screen when presenting wherever there is free room by their tips (issue: at
1024 × 768 presenting, lesson 2's k·sat vanished although the plot had room for its name beside the tip,
also after an arrow was moved with the keyboard; lesson 7's x·because in the same way).

Measured from what the canvas paints: each label drawn whole in its plot and in view (the walk audit's
key_labels_missing, asked about these names), still within two lines of its tip, and the rules every label
keeps (over no other label, no arrow head, not cut).
"""

import pytest
from PySide6.QtCore import Qt

from attn_desktop.ui.tools.label_audit import audit_labels
from attn_desktop.ui.tools.walk_audit import drawn_canvases, key_labels_missing, max_label_distance

from tests.support.in_the_window import on_a_1024_by_768_screen, settle_layout, wait_until_arranged

pytestmark = pytest.mark.slow  # the real main window

# The labels the issue saw vanish presenting, by lesson (lesson 1's v·pear, seen on another run, too).
SEEN_VANISHING = {"soft-lookup": "v·pear", "projections": "k·sat", "two-heads": "x·because"}


def _present(window, qtbot, monkeypatch, lesson: str) -> None:
    on_a_1024_by_768_screen(window, monkeypatch, True)
    wait_until_arranged(qtbot, window)
    window.open_lesson(lesson)
    wait_until_arranged(qtbot, window)
    settle_layout(qtbot, window)
    qtbot.wait(200)  # the labels are placed again once the plots' ranges have settled


def _names(canvas) -> set[str]:
    reading = canvas.reading
    return {reading.arrow_name(role, index) for role in reading.roles for index in range(len(canvas.arrows[role]))}


def _assert_shown(window, name: str, where: str) -> None:
    canvases = [canvas for _, canvas in drawn_canvases(window) if name in _names(canvas)]
    assert canvases, f"{where}: no canvas on screen has {name}"
    for canvas in canvases:
        assert key_labels_missing(canvas, name) == [], f"{where}: {name} is not drawn, or not whole in view"
        line = canvas.label_line_height()
        assert max_label_distance(canvas) <= 2 * line, f"{where}: a label sits far from its tip"
        figures = audit_labels(canvas)
        assert figures["label_overlaps"] == 0 and figures["labels_over_heads"] == 0 and figures["labels_cut"] == 0, \
            f"{where}: {figures}"


@pytest.mark.parametrize("lesson", list(SEEN_VANISHING))
def test_presenting_at_1024_the_labels_with_room_by_their_tips_are_drawn(projector_window, qtbot, monkeypatch, lesson):
    window = projector_window
    _present(window, qtbot, monkeypatch, lesson)
    _assert_shown(window, SEEN_VANISHING[lesson], f"{lesson} presenting at 1024x768")


def test_k_sat_stays_drawn_after_an_arrow_is_moved_with_the_keyboard(projector_window, qtbot, monkeypatch):
    window = projector_window
    _present(window, qtbot, monkeypatch, "projections")
    canvas = window.canvas
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)  # the first arrow the keys move
    assert canvas.drags.focused_arrow is not None
    before = window.reading().vectors(canvas.drags.focused_arrow[0]).copy()
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    qtbot.wait(200)
    assert (window.reading().vectors(canvas.drags.focused_arrow[0]) != before).any()  # the key moved it
    _assert_shown(window, "k·sat", "lesson 2 presenting, after a keyboard move")
