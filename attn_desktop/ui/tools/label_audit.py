"""What a viewer would check about the arrow labels on the canvas, measured from what is painted.

It reads each arrow's geometry as drawn (its label box, leader line, shaft, head and
tip, in view pixels) and knows nothing of how the labels were placed, so it checks
the placement rather than repeating it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF
from PySide6.QtGui import QPainterPath, QTransform

if TYPE_CHECKING:  # the canvas's parts the audit reads; the canvas never needs the audit
    from attn_desktop.ui.canvas.arrow_item import ArrowItem
    from attn_desktop.ui.canvas.canvas import AttentionCanvas

from attn_desktop.geometry.label_spots import span_inside


@dataclass
class LabelProblems:
    """Each problem named, so a failing check can say which labels it saw."""

    overlaps: list[tuple[str, str]] = field(default_factory=list)  # two labels that cover each other
    over_heads: list[tuple[str, str]] = field(default_factory=list)  # a label and the arrow whose head or tip it hides
    # A label and the arrow whose shaft alone it lies over: allowed to a label a class reads when its tip
    # has no free room near it (see label_layout), drawn over the shaft on its pale backdrop.
    over_shafts: list[tuple[str, str]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)  # labels not wholly inside their plot
    offsets: dict[str, float] = field(default_factory=dict)  # tip to label, in pixels, for labels without a leader


def audit_labels(canvas: AttentionCanvas) -> dict:
    """Counts of what is wrong with the canvas's labels, and how far the farthest sits from its tip."""
    problems = find_label_problems(canvas)
    return {
        "label_overlaps": len(problems.overlaps),
        "labels_over_heads": len(problems.over_heads),
        "labels_over_shafts": len(problems.over_shafts),
        "labels_cut": len(problems.cut),
        "max_label_offset_px": round(max(problems.offsets.values(), default=0.0), 1),
    }


def find_label_problems(canvas: AttentionCanvas) -> LabelProblems:
    problems = LabelProblems()
    to_view = canvas.viewportTransform()
    for area, arrows in _plots(canvas, to_view):
        labels = []
        for arrow, transform in arrows:
            box = arrow.shown_label_box(transform)
            if box is None:
                continue
            labels.append((arrow.label, box))
            if not area.contains(box):
                problems.cut.append(arrow.label)
            if arrow.leader_line(transform) is None:
                problems.offsets[arrow.label] = _distance(arrow.tip_position(transform), box)
            for other, other_transform in arrows:
                pair = (arrow.label, other.label or "an unlabelled arrow")
                if _over_head(box, other, other_transform):
                    problems.over_heads.append(pair)
                elif _over_shaft(box, other, other_transform):
                    problems.over_shafts.append(pair)
        for index, (text, box) in enumerate(labels):
            problems.overlaps += [(other, text) for other, other_box in labels[:index] if box.intersects(other_box)]
    return problems


def _plots(canvas: AttentionCanvas, to_view: QTransform) -> list[tuple[QRectF, list[tuple[ArrowItem, QTransform]]]]:
    """For each plot on the canvas: its area in view pixels, and its arrows with their data-to-view transforms.

    The transforms as the next paint draws them: a plot brings its items' transform up to date with its
    range only just before it paints (a resized plot not yet repainted still holds the old one)."""
    scene = canvas.scene()
    if scene is not None:
        scene.prepareForPaint()
    items = [*(arrow for arrows in canvas.arrows.values() for arrow in arrows), canvas.output_arrow]
    plots: dict[int, tuple[QRectF, list]] = {}
    for item in items:
        view_box = item.getViewBox() if item.scene() is not None and item.isVisible() else None
        if view_box is None:
            continue
        area = to_view.mapRect(view_box.sceneBoundingRect())
        plots.setdefault(id(view_box), (area, []))[1].append((item, item.deviceTransform(to_view)))
    return list(plots.values())


def _over_head(box: QRectF, arrow: ArrowItem, transform: QTransform) -> bool:
    """Whether the arrow's head or tip, as painted, touches the box: where the arrow points is hidden."""
    if box.contains(arrow.tip_position(transform)):
        return True
    head = QPainterPath()
    head.addPolygon(arrow.head_polygon(transform))
    return head.intersects(box)


def _over_shaft(box: QRectF, arrow: ArrowItem, transform: QTransform) -> bool:
    """Whether the arrow's shaft, as painted, passes through the box."""
    shaft = arrow.shaft_line(transform)
    return shaft is not None and _line_meets_rect(shaft, box)


def _line_meets_rect(line: QLineF, rect: QRectF) -> bool:
    """Whether the segment meets the rectangle (the placer's own clipping, so the audit cannot disagree with it)."""
    box = (rect.left(), rect.top(), rect.right(), rect.bottom())
    return span_inside((line.x1(), line.y1()), (line.x2(), line.y2()), box) is not None


def _distance(point: QPointF, box: QRectF) -> float:
    dx = max(box.left() - point.x(), 0.0, point.x() - box.right())
    dy = max(box.top() - point.y(), 0.0, point.y() - box.bottom())
    return math.hypot(dx, dy)
