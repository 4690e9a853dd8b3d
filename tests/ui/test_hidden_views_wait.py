"""A canvas out of sight (its part unticked) does no work for changes to the numbers, and shows the scene as it
is the moment it is shown again: training that redrew hidden canvases took the time training needs."""

from PySide6.QtCore import Qt

from attn_desktop.model import Role

from tests.support.in_the_window import wait_until_arranged


def test_an_unticked_canvas_waits_and_is_up_to_date_when_ticked_again(qtbot, window, monkeypatch):
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # two heads, 2-D: canvases shown
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    wait_until_arranged(qtbot, window)
    column = window.heads_view.columns[0]
    box = window.heads_view.part_boxes["Canvas"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not column.canvas.isVisible())
    syncs = []
    real = type(column.canvas)._sync_vectors
    monkeypatch.setattr(type(column.canvas), "_sync_vectors", lambda self, *a, **k: (syncs.append(self), real(self, *a, **k))[1])
    scene = window.scene
    for step in range(5):  # as an undo, a typed number or training would change them
        scene.set_vector(Role.EMBEDDING, 1, [0.5 + step, -1.0, 0.0, 0.0])
    assert column.canvas not in syncs  # nothing drawn for a canvas nobody sees
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(column.canvas.isVisible)
    assert syncs.count(column.canvas) >= 1  # once, on being shown, with everything that changed meanwhile
    tip = column.canvas.arrows[Role.EMBEDDING][1].tip
    assert (round(tip.x(), 9), round(tip.y(), 9)) == (4.5, -1.0)  # head 1 draws numbers 1 and 2 of x
