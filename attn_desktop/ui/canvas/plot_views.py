"""Where each plot's view lies among the canvas's pixels, and how its data maps to them, for placing labels.

Worked out again only when the view moved, changed size or showed another range (a zoom, a resize, a new
layout): a drag move changes none of those, and working them out (the view's scene rectangle goes through
pyqtgraph's Python boundingRect) cost a default-scene move some 20 µs.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QTransform

from attn_desktop.geometry.label_obstacles import Box

Mapping = tuple[float, float, float, float]  # a plot's data-to-view scale and offset: m11, m22, m31, m32


class PlotViews:
    """Each view box's area in the canvas's view and its data-to-view mapping, with what they were worked out for."""

    def __init__(self) -> None:
        # By view box: (the canvas's scene-to-view transform, the box's scene transform, its geometry, its range),
        # then the answer for them.
        self._seen: dict[pg.ViewBox, tuple[tuple[object, ...], tuple[Box, Mapping] | None]] = {}

    def seen(self, view_box: pg.ViewBox, to_view: QTransform) -> tuple[Box, Mapping] | None:
        """The view box's area (left, top, right, bottom) in the view TO_VIEW maps the canvas's scene to, and its
        data-to-view mapping; None for a plot not laid out yet (or hidden)."""
        # What the area and the mapping follow from: where the box is in the scene and its size (the scene
        # rectangle is the geometry's, mapped to the scene), where the scene lies in the view, and the range.
        # (The range as pyqtgraph keeps it, not a copy: compared with the copy kept, which it may change in place.)
        known = self._seen.get(view_box)
        if known is not None:
            kept_to_view, scene_transform, geometry, view_range = known[0]
            if view_box.state["viewRange"] == view_range and to_view == kept_to_view and \
                    view_box.sceneTransform() == scene_transform and view_box.geometry() == geometry:
                return known[1]
        answer = _view_of(view_box, to_view)
        made_of = (QTransform(to_view), view_box.sceneTransform(), view_box.geometry(), view_box.viewRange())
        self._seen[view_box] = (made_of, answer)
        return answer


def _view_of(view_box: pg.ViewBox, to_view: QTransform) -> tuple[Box, Mapping] | None:
    area = to_view.mapRect(view_box.sceneBoundingRect())
    left, top, width, height = area.getRect()
    if width < 1 or height < 1:
        return None
    return (left, top, left + width, top + height), _data_to_view(view_box, left, top, width, height)


def _data_to_view(view_box: pg.ViewBox, left: float, top: float, width: float, height: float) -> Mapping:
    """The plot's data coordinates to the view's pixels, as the plot will draw its range, for the plot's area
    (LEFT, TOP, WIDTH, HEIGHT) in the view: the scale and offset (m11, m22, m31, m32) of that transform.

    Worked out from the range rather than read from the items: the plot updates their transform
    only when it next paints, so just after a zoom or a resize the items' own one is stale.
    """
    (x0, x1), (y0, y1) = view_box.viewRange()
    m11, m22 = width / (x1 - x0), -height / (y1 - y0)
    return m11, m22, left - x0 * m11, top - y1 * m22
