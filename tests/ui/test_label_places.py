"""The weights chart's percentages are placed on plain numbers (label_places.py) for speed on a drag move; they
must land exactly where the same rules on QRectF put them (the chart's rules before): the same labels shown,
with the same anchors, for any weights, text sizes and chart sizes — near-equal weights and touching boxes
included."""

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF
from PySide6.QtGui import QStaticText

from attn_desktop.ui.panels.bar_labels import BarLabel
from attn_desktop.ui.panels.label_places import LABEL_GAP_PX, ViewInPixels, place_labels


class _Layer:
    """What a label asks of its layer: its text laid out (its size is set by each example instead), a repaint."""

    def lay_out(self, text: str) -> tuple[QStaticText, float, float]:
        return QStaticText(text), 0.0, 0.0

    def update(self) -> None:
        pass


def placed_with_qrectf(labels: list[BarLabel], view: ViewInPixels) -> list[tuple[bool, float, float]]:
    """The rules as they were written on QRectF: each label's (shown, anchor x, anchor y)."""
    places: dict[int, tuple[bool, float, float]] = {}
    shown: list[QRectF] = []
    for label in sorted(labels, key=lambda item: -item.y):
        above = QRectF(label.x * view.x_scale - label.width / 2, -label.y * view.y_scale - label.height,
                       label.width, label.height)
        inside = above.translated(0, above.height())
        candidates = [inside] if above.top() < view.top else [above]
        if candidates[0] is above and inside.bottom() <= 0.0:
            candidates.append(inside)
        keep, anchor = False, (label.anchor_x, label.anchor_y)
        for rect in candidates:
            shift = max(view.left - rect.left(), 0.0) + min(view.right - rect.right(), 0.0)
            rect.translate(shift, 0)
            apart = rect.adjusted(-LABEL_GAP_PX, -LABEL_GAP_PX, LABEL_GAP_PX, LABEL_GAP_PX)
            keep = not any(apart.intersects(other) for other in shown)
            if keep or rect is candidates[-1]:
                anchor = (0.5 - shift / rect.width(), 0.0 if rect is inside else 1.0)
            if keep:
                shown.append(rect)
                break
        places[id(label)] = (keep, *anchor)
    return [places[id(label)] for label in labels]


weights = st.one_of(st.floats(0.0, 1.0), st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0]))  # ties, and bars at the top
# A text's box in pixels (width, height); with 100 pixels a bar, boxes 98 wide just touch their neighbour's, grown by
# the gap (QRectF.intersects: touching edges do not overlap), 100 wide just overlap.
boxes = st.tuples(st.one_of(st.floats(4.0, 90.0), st.sampled_from([96.0, 98.0, 100.0])), st.floats(8.0, 40.0))


@settings(max_examples=400, deadline=None)
@given(bars=st.lists(st.tuples(weights, boxes), min_size=1, max_size=12), offset=st.sampled_from([0.0, 0.19, -0.19]),
       x_scale=st.one_of(st.floats(10.0, 300.0), st.just(100.0)), y_scale=st.floats(30.0, 600.0))
def test_the_labels_land_where_the_same_rules_on_qrectf_put_them(bars, offset, x_scale, y_scale):
    n = len(bars)
    (x0, x1), y1 = (-0.6, n - 0.4), 1.12  # the chart's view
    view = ViewInPixels(x_scale, y_scale, top=-y1 * y_scale, left=x0 * x_scale, right=x1 * x_scale)
    labels = []
    for index, (weight, (width, height)) in enumerate(bars):
        label = BarLabel(_Layer(), index + offset)  # type: ignore[arg-type]
        label.y, label.width, label.height = weight, width, height
        labels.append(label)
    expected = placed_with_qrectf(labels, view)

    place_labels(labels, view)

    assert [(label.visible, label.anchor_x, label.anchor_y) for label in labels] == expected
