"""Arrow labels on classroom screens: each by its own tip, over no arrow and no other label, never cut off.

Each test builds the window on a screen of a classroom's size (the window fits itself to the screen it
opens on), in the normal window and in presentation mode, and drags arrows with real mouse events.
What it checks is measured from what the arrows paint (see label_audit), not from the placement.
"""

import pytest
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QMessageBox

from attn_desktop.geometry.label_layout import Placement
from attn_desktop.model import Role
from attn_desktop.ui.tools.label_audit import audit_labels, find_label_problems
from attn_desktop.ui.tools.walk_audit import key_labels_missing, lesson_text, max_label_distance

from tests.support.in_the_window import drag_arrow, drag_arrow_to, settle_layout

pytestmark = pytest.mark.slow  # every test builds the real main window (open_window)

SCREENS = [(1024, 768), (1280, 720), (1366, 768), (1920, 1080)]
LESSONS = [None, "soft-lookup", "projections", "self-attention", "trained-heads"]  # None: the demo, which is also lesson 4


@pytest.fixture
def open_window(qtbot, monkeypatch):
    """Opens the real main window on a screen of the given size, optionally in presentation mode."""
    from attn_desktop.ui.window.startup.app import build_window, configure_pyqtgraph

    configure_pyqtgraph()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    windows = []

    def open_at(width: int, height: int, presentation: bool = False):
        monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, width, height))
        win = build_window()
        qtbot.addWidget(win)
        win.show()
        win.resize(width, height)
        qtbot.waitExposed(win)
        if presentation:
            win.presentation_action.setChecked(True)
            # The panels are arranged again until the window manager has settled (a busy machine can take
            # longer than settle_layout waits): drags start once that is over, as a teacher's would.
            qtbot.waitUntil(lambda: not win.presentation_mode.settling, timeout=5000)
        settle_layout(qtbot, win)
        windows.append(win)
        return win

    yield open_at
    for win in windows:
        if win.presentation_action.isChecked():
            win.presentation_action.setChecked(False)
        win.history.reset()


def _assert_labels_by_their_tips(window, where: str) -> None:
    canvas = window.canvas
    figures = audit_labels(canvas)
    problems = find_label_problems(canvas)
    assert figures["label_overlaps"] == 0, f"{where}: labels cover each other: {problems.overlaps}"
    assert figures["labels_over_heads"] == 0, f"{where}: labels hide arrow heads: {problems.over_heads}"
    # Only a label a class reads the answer from may lie over a thin shaft, and only where its tip has no free
    # room (a crowded plot mid-drag): led off, it would read as another arrow's.
    over_shafts = {label for label, _shaft in problems.over_shafts}
    assert over_shafts <= essential_labels(canvas), f"{where}: labels lie over shafts: {problems.over_shafts}"
    assert figures["labels_cut"] == 0, f"{where}: labels cut by the plot's edge: {problems.cut}"
    assert figures["max_label_offset_px"] <= canvas.label_line_height(), f"{where}: far from their tips: {problems.offsets}"


def essential_labels(canvas) -> set[str]:
    """The labels a class reads the answer from: the chosen query's, the output's, and those of the two
    heaviest keys and values (not at 0 %)."""
    reading = canvas.reading
    weights = canvas.shown_weights()
    heaviest = [index for index in sorted(range(len(weights)), key=lambda index: -weights[index])[:2]
                if weights[index] >= 0.005]
    arrows = [canvas.arrows[Role.QUERY][reading.selected], canvas.output_arrow,
              *(canvas.arrows[role][index] for role in (Role.KEY, Role.VALUE) for index in heaviest
                if index < len(canvas.arrows[role]))]
    return {arrow.label for arrow in arrows}


def _assert_near_and_named(window, where: str) -> None:
    """Every label drawn within two lines of its tip (a leader's length further reads as another arrow's),
    and the labels a class reads the answer from drawn: the two heaviest keys and values, and those the
    lesson names."""
    canvas = window.canvas
    line = canvas.label_line_height()
    assert max_label_distance(canvas) <= 2 * line, f"{where}: a label sits far from its tip ({line:.0f} px a line)"
    assert key_labels_missing(canvas, lesson_text(window)) == [], f"{where}: labels a class must read are missing"


def _shown_labels(window) -> set[str]:
    canvas = window.canvas
    return {arrow.label for arrows in canvas.arrows.values() for arrow in arrows if arrow.label_shown} | (
        {canvas.output_arrow.label} if canvas.output_arrow.label_shown else set())


def _tip_of(window, role: Role, index: int) -> tuple[float, float]:
    tip = window.canvas.arrows[role][index].tip
    return tip.x(), tip.y()


@pytest.mark.parametrize("presentation", [False, True], ids=["window", "presentation"])
@pytest.mark.parametrize("size", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_every_lesson_keeps_its_labels_by_their_tips_while_a_key_is_dragged(qtbot, open_window, size, presentation):
    window = open_window(*size, presentation=presentation)
    where = f"{size[0]}x{size[1]}{' presentation' if presentation else ''}"
    for lesson in LESSONS:
        if lesson is not None:
            window.open_lesson(lesson)
            settle_layout(qtbot, window)
        _assert_labels_by_their_tips(window, f"{where}, {lesson}")
        draggable = window.canvas.drags.draggable_arrows()  # projections: the word vectors, not the keys they make
        role, index = next((arrow for arrow in draggable if arrow[0] is Role.KEY), draggable[0])
        drag_arrow(window, role, index, QPointF(-40, 25), steps=3,
                   after_each_move=lambda step, lesson=lesson: _assert_labels_by_their_tips(window, f"{where}, {lesson}, mid-drag"))
        _assert_labels_by_their_tips(window, f"{where}, {lesson}, after a drag")


def test_the_plots_frame_the_arrows_closely_and_show_the_labels_the_lesson_talks_about(open_window):
    """Arrows within ±2.5 fill their plot in one direction at least: no wide empty margins."""
    for size in ((1920, 1080), (1024, 768)):
        window = open_window(*size)
        assert {"q·sat", "k·cat 76%", "v·cat 76%", "out·sat"} <= _shown_labels(window)
        canvas = window.canvas
        (x0, x1), (y0, y1) = canvas.qk_plot.viewRange()
        tips = [_tip_of(window, role, i) for role in (Role.QUERY, Role.KEY) for i in range(6)]
        xs, ys = [0.0, *(x for x, _ in tips)], [0.0, *(y for _, y in tips)]
        spare = min((x1 - x0) / (max(xs) - min(xs)), (y1 - y0) / (max(ys) - min(ys)))
        assert spare < 1.6, f"{size}: the arrows fill only 1/{spare:.1f} of the plot"
        assert x0 <= min(xs) and max(xs) <= x1 and y0 <= min(ys) and max(ys) <= y1


def test_a_tip_dragged_out_of_view_keeps_its_label_at_the_edge_pointing_after_it(qtbot, open_window):
    window = open_window(1024, 768)
    canvas = window.canvas
    view_range = canvas.qk_plot.viewRange()
    right_edge = view_range[0][1]
    drag_arrow_to(window, Role.KEY, 1, right_edge + 1.5, 1.0)  # k·cat, well past the right edge
    assert window.reading().vectors(Role.KEY)[1][0] > right_edge
    assert canvas.qk_plot.viewRange() == view_range  # the view did not follow the drag
    arrow = canvas.arrows[Role.KEY][1]
    assert arrow.label_shown and arrow.has_pointer
    to_view = canvas.viewportTransform()
    transform = arrow.deviceTransform(to_view)
    area = to_view.mapRect(canvas.qk_plot.getViewBox().sceneBoundingRect())
    box, leader = arrow.shown_label_box(transform), arrow.leader_line(transform)
    assert area.contains(box) and box.right() > area.right() - box.width() - 30  # at the right edge
    assert leader is not None and area.right() - 5 <= leader.x2() <= area.right()  # pointing on past it
    _assert_labels_by_their_tips(window, "k·cat out of view")


def _key_sat(canvas):
    """The default scene's key arrow of "sat", and its data-to-view transform."""
    arrow = canvas.arrows[Role.KEY][1]
    return arrow, arrow.deviceTransform(canvas.viewportTransform())


def test_the_audit_sees_a_label_put_over_an_arrow_or_past_the_edge(open_window):
    """The check can fail: it measures what is painted, wherever the label was put."""
    window = open_window(1280, 720)
    canvas = window.canvas
    arrow, transform = _key_sat(canvas)
    box = arrow.shown_label_box(transform)
    arrow.set_label_placement(Placement(-box.width() / 2, -box.height() / 2), transform)  # centred on its own tip
    assert audit_labels(canvas)["labels_over_heads"] >= 1
    arrow.set_label_placement(Placement(5000.0, 0.0), transform)  # far off the plot
    figures = audit_labels(canvas)
    assert figures["labels_cut"] == 1 and figures["max_label_offset_px"] > 4000


def test_a_label_with_no_room_for_its_weight_is_drawn_as_the_arrows_name_alone(open_window):
    """Where a projector's small plot has no room by a key's tip for "k·sat 7%", "k·sat" is drawn there."""
    window = open_window(1280, 720)
    canvas = window.canvas
    arrow, transform = _key_sat(canvas)
    whole = arrow.shown_label_box(transform)
    name = window.reading().arrow_name(Role.KEY, 1)
    assert arrow.label.startswith(name + " ") and arrow.label.endswith("%")
    mapping = (transform.m11(), transform.m22(), transform.m31(), transform.m32())
    request = arrow.label_request(mapping)
    assert request.width == pytest.approx(whole.width()) and request.short_width < request.width
    arrow.set_label_placement(Placement(6.0, -whole.height() / 2, short=True), transform)
    assert arrow.shown_label == name
    assert arrow.shown_label_box(transform).width() == pytest.approx(request.short_width)
    arrow.set_label_placement(Placement(6.0, -whole.height() / 2), transform)  # room again: the whole label
    assert arrow.shown_label == arrow.label and arrow.shown_label_box(transform).width() == pytest.approx(whole.width())


CROWDED_LESSONS = ["scaled-attention", "trained-heads", "predict-then-see"]


@pytest.mark.parametrize("presentation", [False, True], ids=["window", "presentation"])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)], ids=["1024x768", "1280x720"])
def test_on_a_projector_each_label_stays_within_two_lines_of_its_tip_and_the_heaviest_are_named(
        qtbot, open_window, size, presentation):
    """Six keys round the origin, a trained head's tips in a knot: a label that finds no room near its tip
    is left out, unless a class needs it, rather than led across the plot."""
    window = open_window(*size, presentation=presentation)
    for lesson in CROWDED_LESSONS:
        window.open_lesson(lesson)
        settle_layout(qtbot, window)
        _assert_near_and_named(window, f"{size[0]}x{size[1]}{' presentation' if presentation else ''}, {lesson}")


def test_after_a_drag_and_its_undo_the_labels_are_back_beside_their_tips(qtbot, open_window):
    window = open_window(1280, 720, presentation=True)
    window.open_lesson("scaled-attention")
    settle_layout(qtbot, window)
    before = window.reading().vectors(Role.KEY).copy()
    drag_arrow_to(window, Role.KEY, 1, 1.0, 1.0)  # k·cat, across the other keys
    settle_layout(qtbot, window)
    _assert_near_and_named(window, "k·cat dragged")
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle_layout(qtbot, window)
    assert (window.reading().vectors(Role.KEY) == before).all()  # the undo took k·cat back
    _assert_near_and_named(window, "after the undo")
    _assert_labels_by_their_tips(window, "after the undo")
