"""Labels while an arrow of a crowded scene (64 tokens) is dragged: a drag move places again only the labels
whose arrow or surroundings changed (geometry/label_update.py). What a student sees: the labels away from
the dragged arrow keep still, those a class reads stay shown, and mid-drag the labels obey the same rules as
labels placed afresh (measured from what the arrows paint, see label_audit)."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role, Scene
from attn_desktop.model.files.scene_types import DirectScene
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.tools.label_audit import find_label_problems
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press

from tests.support.in_the_window import tip_on_canvas

TOKENS = 64


@pytest.fixture
def crowded_canvas(qtbot):
    from attn_desktop.ui.window.startup.app import configure_pyqtgraph

    configure_pyqtgraph()
    rng = np.random.default_rng(0)
    scene = Scene(DirectScene(tokens=[f"t{i}" for i in range(TOKENS)], queries=rng.uniform(-2, 2, (TOKENS, 2)).tolist(),
                              keys=rng.uniform(-2, 2, (TOKENS, 2)).tolist(),
                              values=rng.uniform(-2, 2, (TOKENS, 2)).tolist(), scale=True, selected=0, title="crowd"))
    canvas = AttentionCanvas(scene)
    qtbot.addWidget(canvas)
    canvas.resize(1100, 600)
    canvas.show()
    qtbot.waitExposed(canvas)
    qtbot.waitUntil(lambda: not canvas.arranging)
    return canvas


def _all_arrows(canvas):
    return [*(arrow for arrows in canvas.arrows.values() for arrow in arrows), canvas.output_arrow]


def _shown_boxes(canvas) -> dict[str, QRectF]:
    """Each shown label's box as drawn, in the canvas's pixels."""
    to_view = canvas.viewportTransform()
    boxes = {}
    for arrow in _all_arrows(canvas):
        box = arrow.shown_label_box(arrow.deviceTransform(to_view))
        if box is not None:
            boxes[arrow.label] = box
    return boxes


def _essential(canvas) -> set[str]:
    """The labels a class reads the answer from: the chosen query, the output, the two heaviest keys and values."""
    weights = canvas.shown_weights()
    heaviest = np.argsort(-weights, kind="stable")[:2]
    arrows = [canvas.arrows[Role.QUERY][canvas.reading.selected], canvas.output_arrow,
              *(canvas.arrows[role][index] for role in (Role.KEY, Role.VALUE) for index in heaviest)]
    return {arrow.label for arrow in arrows if arrow.label}


def _assert_readable(canvas, where: str) -> None:
    problems = find_label_problems(canvas)
    assert problems.overlaps == [], f"{where}: labels cover each other"
    assert problems.over_heads == [], f"{where}: labels hide arrow heads"
    assert problems.cut == [], f"{where}: labels cut by the plot's edge"
    over_shafts = {label for label, _ in problems.over_shafts}
    assert over_shafts <= _essential(canvas), f"{where}: labels a class need not read lie over shafts"
    assert _essential(canvas) <= set(_shown_boxes(canvas)), f"{where}: labels a class reads are missing"


def _drag_in_a_circle(canvas, role: Role, index: int, moves: int, after_each_move) -> None:
    """Press on the arrow's tip and move round a circle 100 px across, holding the button (not released)."""
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, role, index)
    press(viewport, start)
    QApplication.processEvents()
    for step in range(1, moves + 1):
        angle = 2 * math.pi * step / 30
        move_holding(viewport, start + QPointF(50 * math.cos(angle) - 50, 50 * math.sin(angle)))
        QApplication.processEvents()
        after_each_move(step)


def _distance_to_arrow(box: QRectF, origin: QPointF, tip: QPointF) -> float:
    """How near the box comes to the arrow from origin to tip (sampled along it), in pixels."""
    nearest = math.inf
    for step in range(41):
        x = origin.x() + (tip.x() - origin.x()) * step / 40
        y = origin.y() + (tip.y() - origin.y()) * step / 40
        nearest = min(nearest, math.hypot(max(box.left() - x, 0, x - box.right()), max(box.top() - y, 0, y - box.bottom())))
    return nearest


def test_labels_away_from_a_dragged_value_do_not_move_and_the_stranded_ones_stay_put(crowded_canvas):
    """Dragging a value changes no weight: only the output moves with it, and only labels by the two arrows may
    move. The chosen query's label, which has no free room by its tip here, keeps its spot; so does every label
    of the queries and keys."""
    canvas = crowded_canvas
    value = next(index for index in range(TOKENS) if not canvas.arrows[Role.VALUE][index].label)
    before = _shown_boxes(canvas)
    stranded = {label for label, _ in find_label_problems(canvas).over_shafts}
    chosen_query = canvas.arrows[Role.QUERY][canvas.reading.selected].label
    assert chosen_query in stranded  # the scene's crowd leaves it no free room by its tip
    line = canvas.label_line_height()
    moving = [canvas.arrows[Role.VALUE][value], canvas.output_arrow]
    sweeps = [[], []]  # each moving arrow's (origin, tip) as drawn, move by move

    def remember_where_they_are() -> None:
        to_view = canvas.viewportTransform()
        for arrow, sweep in zip(moving, sweeps):
            transform = arrow.deviceTransform(to_view)
            sweep.append((transform.map(QPointF(0, 0)), arrow.tip_position(transform)))

    def check(step: int) -> None:
        remember_where_they_are()
        now = _shown_boxes(canvas)
        assert now.get(chosen_query) == before[chosen_query], f"move {step}: the stranded {chosen_query} moved"
        for label, box in before.items():
            if min(_distance_to_arrow(box, *ends) for sweep in sweeps for ends in sweep) > 3 * line:
                assert now.get(label) == box, f"move {step}: {label} moved while arrows far from it moved"
        _assert_readable(canvas, f"move {step}")

    remember_where_they_are()
    _drag_in_a_circle(canvas, Role.VALUE, value, 12, check)
    assert canvas.drags.dragged_arrow() is moving[0]
    assert sum(box == before.get(label) for label, box in _shown_boxes(canvas).items()) >= len(before) - 4


def test_mid_drag_the_labels_are_as_good_as_labels_placed_afresh(crowded_canvas):
    """Dragging a key changes every weight, the output and the heaviest. Its tip is dragged over each label of
    the queries and keys in turn: the labels placed again round what changed get out of its way and obey the
    rules a full placement does, and show what it shows of the labels a class reads."""
    canvas = crowded_canvas
    dragged = canvas.arrows[Role.KEY][1]
    targets = [box.center() for label, box in _shown_boxes(canvas).items()
               if label[0] in "qk" and label != dragged.label]
    assert len(targets) >= 3
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, Role.KEY, 1)
    press(viewport, start)
    QApplication.processEvents()
    for target in targets:
        for step in range(1, 5):  # a few moves on the way, the last onto the label
            move_holding(viewport, start + (target - start) * (step / 4))
            QApplication.processEvents()
            _assert_readable(canvas, f"on the way to {target}")
        start = target
    assert canvas.drags.dragged_arrow() is dragged
    kept = _shown_boxes(canvas)
    canvas.labels.forget()  # as after a zoom: every label chooses afresh
    canvas.labels.place(canvas.reading, canvas.shown_weights(), canvas.viewportTransform())
    afresh = _shown_boxes(canvas)
    _assert_readable(canvas, "placed afresh")
    assert _essential(canvas) <= set(kept) & set(afresh)
    assert len(kept) >= len(afresh) - 1  # at most one label fewer shown than a full placement shows


def test_an_arrow_is_restyled_exactly_when_the_look_the_canvas_compares_changes(qapp):
    """The canvas restyles only the keys whose look (weight_style.looks) changed: that look must change exactly
    when the arrow's drawn width or emphasis does, or a drag would leave an arrow drawn at an old weight."""
    from attn_desktop.geometry.weight_style import looks, weighted_styles
    from attn_desktop.ui.canvas.arrow_item import ArrowItem
    from attn_desktop.ui.palette import ROLE_COLORS

    weights = np.random.default_rng(3).uniform(0, 1, 400)
    for line_scale in (1.0, 1.7):
        visible = np.arange(len(weights)) % 7 != 0
        rows = looks(weights, visible, line_scale, crowded=True, veiled=False)
        item = ArrowItem("k", ROLE_COLORS[Role.KEY])
        drawn = []
        for width, emphasis, dashed in weighted_styles(weights, visible, line_scale):
            item.set_style(width=width, emphasis=emphasis, dashed=dashed)
            drawn.append((item._width, item.emphasis, item._dashed))
        for index in range(1, len(weights)):
            assert (drawn[index] == drawn[index - 1]) == bool((rows[index, :3] == rows[index - 1, :3]).all())
        assert [width for width, _, _ in drawn] == rows[:, 0].tolist()
        assert [emphasis for _, emphasis, _ in drawn] == rows[:, 1].tolist()
