"""The canvas as a screen reader meets it, in the real window: every arrow an accessible child named by its label
and described by where it is; Tab's choice is the focused child; one step of the arrow keys changes the arrow's
description and brings exactly one announcement, whose numbers are the model's; a drag is announced once, at
the release."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAccessible

from attn_desktop.language import percent
from attn_desktop.model import Role
from attn_desktop.model.shown_numbers import shown_vector

from tests.support.in_the_window import drag_on_canvas

NAME, DESCRIPTION = QAccessible.Text.Name, QAccessible.Text.Description


def _children(canvas):
    interface = QAccessible.queryAccessibleInterface(canvas)
    return interface, [interface.child(index) for index in range(interface.childCount())]


def _tab_to(qtbot, canvas, target):
    canvas.setFocus()
    for _ in range(20):
        if canvas.drags.focused_arrow == target:
            return
        qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never chose {target}")


def test_every_arrow_is_a_named_and_described_child_of_the_canvas(window):
    reading = window.shown
    interface, children = _children(window.canvas)
    assert interface.role() == QAccessible.Role.Canvas and interface.text(NAME) == "Canvas"
    names = [child.text(NAME) for child in children]
    expected = [reading.arrow_name(role, index) for role in reading.roles for index in range(len(reading.labels(role)))]
    assert names == [*expected, "out·sat"]
    cat = children[names.index("k·cat")]
    x, y = reading.vectors(Role.KEY)[1]
    assert cat.text(DESCRIPTION) == f"key of 'cat', x {x:.2f}, y {y:.2f}"
    assert interface.indexOfChild(cat) == names.index("k·cat") and cat.parent() is interface
    assert cat.rect().isValid() and window.canvas.rect().contains(window.canvas.mapFromGlobal(cat.rect().center()))
    assert _children(window.canvas)[1][0] is children[0]  # one interface per arrow, asked for again


def test_tab_makes_the_chosen_arrow_the_focused_child(window, qtbot):
    interface = QAccessible.queryAccessibleInterface(window.canvas)
    _tab_to(qtbot, window.canvas, (Role.KEY, 1))
    focused = interface.focusChild()
    assert focused is not None and focused.text(NAME) == "k·cat" and focused.state().focused


def test_one_arrow_key_press_changes_the_description_and_brings_one_announcement_of_the_models_numbers(window, qtbot):
    reading, log = window.shown, window.announcer.log
    interface = QAccessible.queryAccessibleInterface(window.canvas)
    _tab_to(qtbot, window.canvas, (Role.KEY, 4))  # k·the, far below k·cat's weight
    the = interface.focusChild()
    before, said_before = the.text(DESCRIPTION), len(log)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    x, y = reading.vectors(Role.KEY)[4]
    assert the.text(DESCRIPTION) != before and the.text(DESCRIPTION) == f"key of 'the', x {x:.2f}, y {y:.2f}"
    assert len(log) == said_before + 1
    weight = reading.result.weights[reading.selected, 4]
    assert log[-1] == f"k·the: {percent(weight)}. Output {shown_vector(reading.selected_output.tolist())}."


def test_a_drag_is_announced_once_at_the_release(window, qtbot):
    log, said_before = window.announcer.log, len(window.announcer.log)
    moves = []
    drag_on_canvas(window.canvas, Role.KEY, 1, QPointF(-40, -30), steps=8, after_each_move=lambda step: moves.append(len(log)))
    assert moves == [said_before] * 8  # nothing said while the arrow moves ...
    assert len(log) == said_before + 1 and log[-1].startswith("k·cat: ")  # ... and once when it is let go


def test_names_and_descriptions_follow_a_switch_of_language(window, qtbot):
    window.switch_language("es")
    interface, children = _children(window.canvas)
    assert interface.text(NAME) == "Lienzo"  # the canvas's own name, worded again with the window's texts
    assert window.weights_chart.accessibleName() == "Pesos"
    assert children[0].text(DESCRIPTION).startswith("consulta de «") and "; y " in children[0].text(DESCRIPTION)
    window.switch_language("en")
    assert interface.text(NAME) == "Canvas"


def test_a_step_on_a_heads_canvas_is_announced_once_too(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # two heads, side by side
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    canvas = window.heads_view.columns[0].canvas
    qtbot.waitUntil(canvas.isVisible)
    interface, children = _children(canvas)
    assert children and all(child.text(NAME) and child.text(DESCRIPTION) for child in children)
    log = window.announcer.log
    _tab_to(qtbot, canvas, canvas.drags.draggable_arrows()[0])
    said_before = len(log)
    qtbot.keyClick(canvas, Qt.Key.Key_Up)
    assert len(log) == said_before + 1 and log[-1].startswith(interface.focusChild().text(NAME) + ": ")


def test_a_screen_reader_is_told_of_a_drag_once_at_the_release_not_per_move(window, qtbot, monkeypatch):
    """With a screen reader listening: the dragged arrow's description changes once and one announcement comes,
    at the release; none of the moves before it sends anything."""
    sent = []
    monkeypatch.setattr(QAccessible, "isActive", staticmethod(lambda: True))
    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(lambda event: sent.append(
        (event.type(), QAccessible.queryAccessibleInterface(event.object()).text(NAME)))))
    during = []
    drag_on_canvas(window.canvas, Role.KEY, 1, QPointF(-40, -30), steps=8, after_each_move=lambda step: during.append(len(sent)))
    assert during == [1] * 8  # the press chose k·cat for the keys (its focus), then nothing while it moved
    assert sent == [(QAccessible.Event.Focus, "k·cat"), (QAccessible.Event.DescriptionChanged, "k·cat"),
                    (QAccessible.Event.Announcement, "k·cat")]


def test_new_tokens_reuse_the_accessible_objects_of_the_arrows_before(window, qtbot):
    """Qt's cache and PySide keep every interface made: arrows made anew take the objects already made."""
    interface, before = _children(window.canvas)
    window.scene.add_token("dog")
    qtbot.waitUntil(lambda: interface.childCount() == len(before) + 3)  # a query, a key and a value more
    after = [interface.child(index) for index in range(interface.childCount())]
    assert all(any(old is new for new in after) for old in before)
    assert "k·dog" in [child.text(NAME) for child in after]
    window.scene.remove_token(6)
    qtbot.waitUntil(lambda: interface.childCount() == len(before))
    assert all(interface.child(index) is old for index, old in enumerate(before))
