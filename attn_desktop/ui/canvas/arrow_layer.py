"""One item that draws every arrow of a plot, in a single paint.

All arrows start at the origin, so a drag move that changes any of them leaves a dirty region
every other arrow crosses, and Qt repaints them all anyway. As separate items, each costs Qt
a bounding-rect query, a painter set-up and a call into Python for its paint: at 64 tokens
(192 arrows) that overhead was about half of the canvas's paint time. The layer pays it once:
the arrows stay items of their own for everything else (the mouse, hover, tooltips, label
placement), but draw nothing themselves (ItemHasNoContents); a change to one asks the layer to
repaint, and the layer draws them all, in their z order, the shafts and heads of each z level
in a few batched calls (shape_batch.py), then every label on top, where a shaft can no longer
cross one. On screen, the arrows a move did not change come from pictures drawn once
(layer_picture.py); exports and snapshots draw every arrow afresh, to the same pixels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from attn_desktop.ui.canvas.layer_picture import LayerPicture
from attn_desktop.ui.canvas.plot_grid import draw_zero_lines
from attn_desktop.ui.canvas.shape_batch import Parts, ShapeBatch

if TYPE_CHECKING:
    from attn_desktop.ui.canvas.arrow_item import ArrowItem

ANTIALIASING = QPainter.RenderHint.Antialiasing


class ArrowLayer(QGraphicsItem):
    """Draws the arrows it is given; its area is the plot's view (what lies outside is clipped anyway,
    and a label for a tip out of view is drawn at the view's edge), so no arrow's change changes it."""

    def __init__(self, view_box: pg.ViewBox) -> None:
        super().__init__()
        self._arrows: list[ArrowItem] = []  # in drawing order: by z value, then as added
        self._view_box = view_box
        self._bounds = QRectF(view_box.viewRect())
        self._picture = LayerPicture()  # the arrows a move did not change, drawn once (layer_picture.py)
        # The view's pixels as last painted, and each arrow's area in them (see arrow_changed).
        self._to_screen: QTransform | None = None
        self._from_screen = QTransform()
        self._areas: dict[ArrowItem, QRectF] = {}
        # Each arrow's area_version when arrow_changed last worked its area out, for the areas as they were then
        # (the dict): while it has not moved on, the area kept is where it paints.
        self._area_versions: tuple[dict[ArrowItem, QRectF], dict[ArrowItem, int]] = (self._areas, {})
        # The arrows drawn live over the pictures at the last paint, and whether their areas are already to be
        # repainted for the next (see arrow_changed).
        self._drawn_live: list[ArrowItem] = []
        self._live_areas_asked = False
        # While held (see holding_repaints), the arrows that changed, and whether their looks did: each reports
        # once, when the hold ends, instead of at every step of a sync (a drag move restyles, relabels and
        # places an arrow in turn, and only where it was painted and where it ends up need a repaint).
        self._holds = 0
        self._held: dict[ArrowItem, bool] = {}
        view_box.sigTransformChanged.connect(self.view_changed)

    def add(self, arrow: ArrowItem) -> None:
        self._forget_areas()
        self._arrows.append(arrow)
        self._arrows.sort(key=lambda item: item.zValue())  # a stable sort: equal z keeps the order added
        arrow.join_layer(self)
        self.update()

    def remove(self, arrow: ArrowItem) -> None:
        if arrow in self._arrows:
            self._forget_areas()
            self._arrows.remove(arrow)
            arrow.join_layer(None)
            self.update()

    @property
    def pictures_drawn(self) -> int:
        """How often the pictures of the unchanged arrows were drawn anew (see layer_picture.py)."""
        return self._picture.pictures_drawn

    def tips_outside(self) -> bool:
        """Whether an arrow's tip lies out of the plot's view (training or an undo moved it there)."""
        view = self._view_box.viewRect()
        return any(arrow.isVisible() and not view.contains(arrow.tip) for arrow in self._arrows)

    def view_changed(self, *_: object) -> None:
        """A zoom, a pan or a resize: the layer covers the new view, and every arrow is drawn anew."""
        view = QRectF(self._view_box.viewRect())
        if view != self._bounds:
            self.prepareGeometryChange()
            self._bounds = view
        self._forget_areas()
        self.update()

    def holding_repaints(self) -> RepaintsHeld:
        """Changes made inside ask for their repaints when it ends, once per arrow changed."""
        return RepaintsHeld((self,))

    def _hold(self) -> None:
        self._holds += 1

    def _release(self) -> None:
        self._holds -= 1
        if not self._holds:
            held, self._held = self._held, {}
            for arrow, looks_changed in held.items():
                self._ask_for_repaint(arrow, looks_changed)

    def arrow_changed(self, arrow: ArrowItem, looks_changed: bool = True) -> None:
        """ARROW (or only its label, not LOOKS_CHANGED) looks different: repaint where it was and where it now
        is, not the whole plot.

        Every arrow crosses the origin, but a move changes two or three of them: the plot's grid, axes and
        other arrows under the rest of it need not be drawn again."""
        if self._holds:
            self._held[arrow] = self._held.get(arrow, False) or looks_changed
        else:
            self._ask_for_repaint(arrow, looks_changed)

    def _ask_for_repaint(self, arrow: ArrowItem, looks_changed: bool) -> None:
        to_screen = self._to_screen
        previous = self._areas.get(arrow)
        if to_screen is None or previous is None:
            self.update()  # not painted in this view yet: where it was is not known
            return
        if self._area_versions[0] is not self._areas:  # the areas were all worked out again since (a new view)
            self._area_versions = (self._areas, {})
        versions = self._area_versions[1]
        if versions.get(arrow) == arrow.area_version:
            area = previous  # it paints where it did (a label given a new percentage in the same width)
        else:
            area = arrow.painted_area(to_screen)
            self._areas[arrow] = area
            versions[arrow] = arrow.area_version
        self.update(self._from_screen.mapRect(area.united(previous)))
        if looks_changed and not self._live_areas_asked and arrow not in self._drawn_live:
            self._repaint_live_areas()

    def _repaint_live_areas(self) -> None:
        """An arrow drawn from the pictures changed: they are drawn anew, and the arrows drawn live over them
        until now go back to their places among the others, some under a neighbour (a faint head's outline
        under another's fill, say). Repaint where those lie, or their old stacking stays on screen there."""
        self._live_areas_asked = True
        for live in self._drawn_live:
            area = self._areas.get(live)
            if area is not None:
                self.update(self._from_screen.mapRect(area))

    def _forget_areas(self) -> None:
        self._to_screen = None
        self._areas.clear()

    def _remember_areas(self, to_screen: QTransform, shown: list[ArrowItem]) -> None:
        """Where each arrow was painted, for arrow_changed: worked out again only when the view's pixels moved."""
        if self._to_screen is not None and self._to_screen == to_screen and len(self._areas) == len(shown):
            return
        self._to_screen = QTransform(to_screen)
        self._from_screen = to_screen.inverted()[0]
        self._areas = {arrow: arrow.painted_area(to_screen) for arrow in shown}

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        # The axes through 0 first, under every arrow: drawn here, not by the plot's two InfiniteLines at 0 (which
        # draw nothing), their paints cost a drag move twice as much Python as their two lines.
        draw_zero_lines(painter, self._bounds)
        to_screen = painter.transform()
        painter.resetTransform()  # the arrows draw in pixels
        painter.setRenderHint(ANTIALIASING)
        shown = [arrow for arrow in self._arrows if arrow.isVisible()]
        if widget is None:  # an export or a snapshot (QGraphicsScene.render): every arrow drawn afresh
            draw_arrows(painter, to_screen, shown)
        else:
            self._picture.paint(painter, to_screen, to_screen.mapRect(self._bounds), shown, draw_arrows)
            self._remember_areas(to_screen, shown)
            self._drawn_live = [shown[index] for index in self._picture.live_indices()]
            self._live_areas_asked = False
        for arrow in shown:
            arrow.draw_label(painter, to_screen)


class RepaintsHeld:
    """Repaints held by LAYERS while the block runs (see ArrowLayer.holding_repaints): a plain context manager, as
    the canvas holds every plot's on every move (contextlib's generator and ExitStack cost it a few µs more)."""

    __slots__ = ("_layers",)

    def __init__(self, layers: Iterable[ArrowLayer]) -> None:
        self._layers = tuple(layers)

    def __enter__(self) -> None:
        for layer in self._layers:
            layer._hold()

    def __exit__(self, *exc: object) -> None:
        for layer in self._layers:
            layer._release()


def draw_arrows(painter: QPainter, to_screen: QTransform, arrows: Sequence[ArrowItem], parts: Parts = Parts.ALL) -> None:
    """The shafts and heads of ARROWS (sorted by z), each z level's in one batch, its grab rings on top;
    or only the PARTS asked for (see LayerPicture)."""
    batch = ShapeBatch()
    rings: list[tuple[ArrowItem, QPointF]] = []
    with_heads = Parts.HEADS in parts
    levels: list[float | None] = [arrow.zValue() for arrow in arrows]
    levels.append(None)  # (after the last arrow)
    for index, arrow in enumerate(arrows):
        tip = arrow.draw_arrow(painter, to_screen, batch, parts)
        if tip is not None:
            rings.append((arrow, tip))
        if levels[index + 1] != levels[index]:  # the last of its z level: one batch per level, queries above keys
            batch.flush(painter, parts)
            if with_heads:
                for ringed, ring_tip in rings:
                    ringed.draw_ring(painter, ring_tip)
            rings.clear()
