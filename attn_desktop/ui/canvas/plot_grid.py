"""A canvas plot's grid: the lines pyqtgraph's axes draw across the view, drawn straight onto the screen.

pyqtgraph draws a grid as its axes' tick lines stretched across the plot's view, in each axis's own
picture, and the axes are drawn after the view: the faint lines (a quarter of black) lie over the arrows
and their labels. The axes' pictures were kept as cached pixmaps the size of the view
(plot_style.cache_axes_and_grid), and every drag move blended both of them over every pixel it repainted,
for a score of one-pixel lines: a fifth of the canvas's paint. Here each axis keeps a cached picture of
its own strip only (the axis line and the numbers: a drag inside the view never repaints it), and a
PlotGrid, drawn after the axes as they were, draws their grid lines: the very lines and pens the axis
worked out for its picture (pyqtgraph's tick spacing and fading), in the axes' order, with the painter the
axis would have had. Lines this faint, drawn once onto the screen, give the pixels a line drawn into a
transparent picture and blended there gives.
"""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen, QPicture
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from attn_desktop.ui.plot_style import cache_axes_and_grid, write_ticks_in_the_language

# The axes through 0, from which every arrow starts: 4.4 : 1 on the plot's white (a translucent grey fell just
# short of WCAG 1.4.11's 3 : 1). A pixel wide at any zoom, as pyqtgraph's InfiniteLine drew them.
ZERO_LINE_COLOR = QColor(120, 120, 120)
ZERO_LINE_PEN = pg.mkPen(ZERO_LINE_COLOR, width=1)
GRIDDED_AXES = ("bottom", "left")  # the order pyqtgraph stacks them in (as it adds them to the plot)
GridLines = list[tuple[QPen, list[QLineF]]]  # the lines of each pen, in the axis's coordinates


def _nothing() -> None:
    pass


class AxisBesideGrid(pg.AxisItem):
    """An axis whose grid lines the plot's PlotGrid draws: its own picture holds the axis line and the numbers,
    and its area is its strip beside the view (pyqtgraph's area for an axis without a grid)."""

    def __init__(self, orientation: str) -> None:
        self.lines_changed: Callable[[], None] = _nothing  # the grid's, told when the lines are to be worked out anew
        self._grid_lines: GridLines = []
        self._making_picture = False
        self._strip: QRectF | None = None  # its area, worked out once for each picture (see boundingRect)
        super().__init__(orientation)
        self.geometryChanged.connect(self._forget_strip)

    @property
    def picture(self) -> QPicture | None:
        """pyqtgraph's picture of the axis, None when to be made anew: its range, size, pens or fonts changed (it
        throws the picture away for each), and with it the grid lines."""
        return self._picture

    @picture.setter
    def picture(self, picture: QPicture | None) -> None:
        self._picture = picture
        if picture is None:
            self._strip = None  # (the view's size, or where it lies beside the axis, may have changed too)
            self.lines_changed()

    def _forget_strip(self) -> None:
        self._strip = None

    def boundingRect(self) -> QRectF:
        if self.grid is False or self._making_picture:  # (the picture's numbers are kept within all of it)
            return super().boundingRect()
        if self._strip is None:  # asked on every paint of the canvas, and the same until the picture changes
            self._strip = self._strip_area()
        return QRectF(self._strip)

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


class PlotGrid(QGraphicsItem):
    """Draws the grid lines of PLOT's axes (AxisBesideGrid) over its view, where the axes drew them, into one
    picture kept by Qt (drawn anew when an axis's lines change or the plot's size does)."""

    def __init__(self, plot: pg.PlotItem) -> None:
        super().__init__(plot)
        self._plot = plot
        self._axes: list[AxisBesideGrid] = [plot.getAxis(name) for name in GRIDDED_AXES]
        self.setZValue(max(axis.zValue() for axis in self._axes))  # drawn after the axes, as their grids were
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        for axis in self._axes:
            axis.lines_changed = self.update
        self._bounds = QRectF()
        plot.geometryChanged.connect(self._follow_plot)
        self._follow_plot()

    def _follow_plot(self) -> None:
        bounds = QRectF(self._plot.rect())  # the grid stays within its plot: the view and the axes beside it
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # as the axes draw their lines
        to_screen = painter.transform()
        for axis in self._axes:
            if not axis.isVisible():
                continue
            painter.setTransform(to_screen)
            painter.translate(axis.pos())  # the lines are in the axis's coordinates (the plot holds both)
            for pen, lines in axis.grid_lines():
                painter.setPen(pen)
                painter.drawLines(lines)


def gridded_axes() -> dict[str, pg.AxisItem]:
    """The axes a canvas plot is made with (PlotItem's axisItems): their grids drawn by a PlotGrid."""
    return {name: AxisBesideGrid(name) for name in GRIDDED_AXES}


def draw_grid_over_view(plot: pg.PlotItem, alpha: float) -> PlotGrid:
    """Show PLOT's grid at ALPHA (PlotItem.showGrid) over its view, drawn by a PlotGrid; a plot made with
    gridded_axes(). The axes keep cached pictures of their strips and write numbers in the language."""
    plot.showGrid(x=True, y=True, alpha=alpha)
    cache_axes_and_grid(plot)
    for name in GRIDDED_AXES:
        write_ticks_in_the_language(plot.getAxis(name))
    return PlotGrid(plot)


def draw_zero_lines(painter: QPainter, view: QRectF) -> None:
    """The axes through 0 across VIEW (the plot's range, in data units, PAINTER drawing in them), as the two
    pyqtgraph InfiniteLines at 0 drew them: edge to edge, without antialiasing (the plot's way for lines)."""
    painter.setPen(ZERO_LINE_PEN)
    painter.drawLines([QLineF(view.left(), 0.0, view.right(), 0.0), QLineF(0.0, view.top(), 0.0, view.bottom())])
