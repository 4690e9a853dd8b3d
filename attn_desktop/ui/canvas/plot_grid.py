"""A canvas plot's grid: the lines pyqtgraph's axes draw across the view, in pictures of their own.

pyqtgraph draws a grid as its axes' tick lines stretched across the plot's view, in each axis's own
picture, and the axes are drawn after the view: the faint lines (a quarter of black) lie over the arrows
and their labels. The axes' pictures were kept as cached pixmaps (plot_style.cache_axes_and_grid), each the
size of the view with the axis's strip: every drag move blended them over every pixel it repainted, and asked
each axis (through Python) where it lay. Here each axis (AxisBesideGrid) keeps a cached picture of its strip
only, the axis line and the numbers, which a drag inside the view never repaints; its grid lines are drawn by
an AxisGrid, an item of the axis's own, into a cached picture of the area the axis's picture had: the very
lines and pens the axis worked out (pyqtgraph's tick spacing and fading), in the same coordinates, so Qt lays
them on the same pixels, blended the same way.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPicture
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget

from attn_desktop.ui.plot_style import cache_axes_and_grid, write_ticks_in_the_language

# The axes through 0, from which every arrow starts: 4.4 : 1 on the plot's white (a translucent grey fell just
# short of WCAG 1.4.11's 3 : 1). A pixel wide at any zoom, as pyqtgraph's InfiniteLine drew them.
ZERO_LINE_COLOR = QColor(120, 120, 120)
ZERO_LINE_PEN = pg.mkPen(ZERO_LINE_COLOR, width=1)
GRIDDED_AXES = ("bottom", "left")
NO_PEN = QPen(Qt.PenStyle.NoPen)
GridLines = list[tuple[QPen, list[QLineF]]]  # the lines of each pen, in the axis's coordinates


class AxisBesideGrid(pg.AxisItem):
    """An axis whose grid lines its AxisGrid draws: its own picture holds the axis line and the numbers, and its
    area is its strip beside the view."""

    def __init__(self, orientation: str) -> None:
        self._grid_lines: GridLines = []
        self._making_picture = False
        # Its areas, worked out once for each picture (Qt asks on every paint of the canvas).
        self._strip: QRectF | None = None
        self._grid_area: QRectF | None = None
        self._grid: AxisGrid | None = None
        super().__init__(orientation)
        self._grid = AxisGrid(self)
        self.geometryChanged.connect(self._geometry_changed)

    @property
    def picture(self) -> QPicture | None:
        """pyqtgraph's picture of the axis, None when to be made anew: its range, size, pens or fonts changed (it
        throws the picture away for each), and with it the grid lines."""
        return self._picture

    @picture.setter
    def picture(self, picture: QPicture | None) -> None:
        self._picture = picture
        if picture is None:
            self._forget_areas()  # (the view's size, or where it lies beside the axis, may have changed too)
            if self._grid is not None:
                self._grid.lines_changed()

    def _forget_areas(self) -> None:
        self._strip = None
        self._grid_area = None

    def _geometry_changed(self) -> None:
        self._forget_areas()
        if self._grid is not None:
            self._grid.lines_changed()

    def boundingRect(self) -> QRectF:
        if self.grid is False or self._making_picture:  # (the picture's numbers are kept within all of it)
            return super().boundingRect()
        if self._strip is None:
            self._strip = self._strip_area()
        return QRectF(self._strip)

    def grid_area(self) -> QRectF:
        """What pyqtgraph's picture of the axis and its grid covers: the strip and the view."""
        if self._grid_area is None:
            self._grid_area = super().boundingRect()
        return QRectF(self._grid_area)

    def _strip_area(self) -> QRectF:
        """pyqtgraph's area for the axis (with a grid, the view's area too) cut at the view's edge. Nothing but the
        grid lay beyond, and where the strip ends along the view (half a pixel past the axis) stays where the
        picture ended."""
        area = super().boundingRect()
        strip = self.mapRectFromParent(self.geometry())
        if self.orientation == "bottom":
            area.setTop(strip.top())
        elif self.orientation == "top":
            area.setBottom(strip.bottom())
        elif self.orientation == "left":
            area.setRight(strip.right())
        else:
            area.setLeft(strip.left())
        return area

    def paint(self, p: QPainter, opt: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        self._making_picture = True  # (when it is made now: see boundingRect)
        try:
            super().paint(p, opt, widget)
        finally:
            self._making_picture = False

    def drawPicture(self, p: QPainter, axisSpec: tuple, tickSpecs: list, textSpecs: list) -> None:
        if self.grid is False:  # its ticks are short marks of its own
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
            return
        self._grid_lines = _by_pen(tickSpecs)
        super().drawPicture(p, axisSpec, [], textSpecs)

    def grid_lines(self) -> GridLines:
        """The grid lines of the axis's picture, made now if the axis has not painted since its range or size
        changed (as its paint would: the same picture then serves it)."""
        if self.picture is None:
            self._make_picture()
        return self._grid_lines if self.grid is not False else []

    def _make_picture(self) -> None:
        # AxisItem.paint's first half: the picture it would make and then play.
        self._grid_lines = []
        self._making_picture = True
        picture = QPicture()
        painter = QPainter(picture)
        try:
            if self.style["tickFont"]:
                painter.setFont(self.style["tickFont"])
            specs = self.generateDrawSpecs(painter)
            if specs is not None:
                self.drawPicture(painter, *specs)
        finally:
            painter.end()
            self._making_picture = False
        self.picture = picture


def _by_pen(tick_specs: list[tuple[QPen, pg.Point, pg.Point]]) -> GridLines:
    """Consecutive lines of one pen (each tick level has its own fading) grouped for one drawLines call each:
    in the order drawn, so where lines of two levels cross, the later still lies on top."""
    groups: GridLines = []
    for pen, start, end in tick_specs:
        if not groups or groups[-1][0] is not pen:
            groups.append((pen, []))
        groups[-1][1].append(QLineF(start, end))
    return groups


class AxisGrid(QGraphicsRectItem):
    """The grid lines of an AxisBesideGrid, drawn over the plot's view after the axis, as its picture drew them.

    An item of the axis's own, over the area the axis's picture covered (its rectangle, kept by Qt: a paint
    asks no Python where it lies): Qt maps the lines to the screen, and keeps their cached picture, exactly as
    it did the axis's, so they fall on the same pixels (a line ending on the view's edge rounds to the same
    row). Drawn anew when the axis throws its picture away."""

    def __init__(self, axis: AxisBesideGrid) -> None:
        super().__init__(axis)
        self._axis = axis
        self.setPen(NO_PEN)  # (the rectangle is the area only: no outline widens it)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # over the view: the arrows and the view take the mouse

    def lines_changed(self) -> None:
        self.setRect(self._axis.grid_area())  # (the view may have another size; the same area changes nothing)
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # as the axis draws its lines
        for pen, lines in self._axis.grid_lines():
            painter.setPen(pen)
            painter.drawLines(lines)


def gridded_axes() -> dict[str, pg.AxisItem]:
    """The axes a canvas plot is made with (PlotItem's axisItems): their grids drawn by AxisGrids."""
    return {name: AxisBesideGrid(name) for name in GRIDDED_AXES}


def draw_grid_over_view(plot: pg.PlotItem, alpha: float) -> None:
    """Show PLOT's grid at ALPHA (PlotItem.showGrid) over its view, drawn by its axes' AxisGrids; a plot made with
    gridded_axes(). The axes keep cached pictures of their strips and write numbers in the language."""
    plot.showGrid(x=True, y=True, alpha=alpha)
    cache_axes_and_grid(plot)
    for name in GRIDDED_AXES:
        write_ticks_in_the_language(plot.getAxis(name))


def draw_zero_lines(painter: QPainter, view: QRectF) -> None:
    """The axes through 0 across VIEW (the plot's range, in data units, PAINTER drawing in them), as the two
    pyqtgraph InfiniteLines at 0 drew them: edge to edge, without antialiasing (the plot's way for lines)."""
    painter.setPen(ZERO_LINE_PEN)
    painter.drawLines([QLineF(view.left(), 0.0, view.right(), 0.0), QLineF(0.0, view.top(), 0.0, view.bottom())])
