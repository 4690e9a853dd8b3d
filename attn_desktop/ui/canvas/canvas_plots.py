"""The canvas's plots: queries and keys in one, values and the output in another, word vectors in a third
(and a cross-attention scene's target words in a fourth).

Queries and keys must share a space (their dot product is the score); values
and the output share another (the output is a blend of the values). The plots
have linked axes so one unit is the same length in both and zooming one zooms
the other. A head that makes q, k and v from word vectors x draws them in a
third plot on the left, and the target sentence's word vectors y that make a cross-attention head's queries
in a fourth beside it (each plot shows when its head draws one of its roles);
a scene taken from a model has a notice above them. Here they are made, laid out in as many columns as draw the arrows
largest (the rule is geometry/plot_arrangement.py's), framed round their
arrows and titled with the plane they draw (plot_titles.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsItem

from attn_desktop.geometry.plot_arrangement import (
    CANVAS_MARGIN_PX,
    LABEL_ROOM_LINES,
    MIN_PLOT_WIDTH_PX,
    PLOT_SPACING_PX,
    columns_that_draw_largest,
    grid_places,
    number_line_range,
)
from attn_desktop.language import N_, tr
from attn_desktop.model import HeadReading, Role
from attn_desktop.model.pretrained.head_scene import taken_from_notice
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.arrow_layer import ArrowLayer, RepaintsHeld
from attn_desktop.ui.canvas.canvas_notice import CanvasNotice
from attn_desktop.ui.canvas.drag_controller import DragController
from attn_desktop.ui.canvas.plot_framing import frame_tips
from attn_desktop.ui.canvas.plot_grid import ZERO_LINE_PEN, draw_grid_over_view, gridded_axes
from attn_desktop.ui.canvas.plot_titles import TITLE_ROW_PX, fit_title_row, fit_titles, plot_title
from attn_desktop.ui.language.plot_direction import plot_left_to_right

SCALES_APART = 3.0  # extents this many times apart get a scale each: on one, the shorter kind would be tiny


def lengths_far_apart(first: float, second: float) -> bool:
    """Whether two extents differ threefold or more (both given; nothing drawn has no extent). Threefold: at
    eight times apart training's q and k were a tenth of their plot, and at 3.7 times apart lesson 7's values
    filled a quarter of theirs, too little room for their labels to keep off the shafts."""
    if first <= 0 or second <= 0:
        return False
    return max(first, second) / min(first, second) >= SCALES_APART


def draw_nothing_of_their_own(*items: QGraphicsItem) -> None:
    """Tell Qt that ITEMS paint nothing themselves (a layout, a plot, a view and its border (the canvas gives it no
    pen), a title's frame: their children draw), so that a paint does not ask each of them where it lies (through
    Python, for pyqtgraph's) nor set its painter up."""
    for item in items:
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)


class CanvasPlots:
    """The plots of one canvas, laid out in LAYOUT (the canvas's own). FOLLOW_VIEW connects a new plot's
    view to the canvas (zooms, resizes); every plot's arrows are drawn by one ArrowLayer at LAYER_Z."""

    def __init__(self, layout: pg.GraphicsLayout, reading: HeadReading, drags: DragController,
                 follow_view: Callable[[pg.ViewBox], None], layer_z: float) -> None:
        self.layout = layout
        # Thin margins round the plots: pyqtgraph's default 9 px a side and between plots cost a projector's
        # three plots about 15 px of their 200.
        layout.setContentsMargins(CANVAS_MARGIN_PX, CANVAS_MARGIN_PX, CANVAS_MARGIN_PX, CANVAS_MARGIN_PX)
        layout.layout.setSpacing(PLOT_SPACING_PX)
        draw_nothing_of_their_own(layout)
        self.reading = reading
        self.drags = drags
        self.columns = 2  # plots in a row, a column, or (three plots) two above one: see arrange
        self.layers: dict[pg.PlotItem, ArrowLayer] = {}
        self._follow_view = follow_view
        self._layer_z = layer_z
        self.x_plot = self._make_plot(tr("Word vectors x"))  # (titled again in the language of the day: update_titles)
        self.qk_plot = self._make_plot(tr("Queries and keys"))
        self.vo_plot = self._make_plot(tr("Values and output"))
        # Which roles each plot draws, in reading order: the words x that make k and v (and q), with, in
        # cross-attention, the target's words y that make the queries (one space: the same grids read both, and a
        # fourth plot left three too small beside the Training panel at 1024 × 768); queries and keys, whose dot
        # product is the score; values, which the output blends. A plot shows when its head draws any of its roles,
        # so a head given q, k and v directly has no word-vector plot.
        self.roles_by_plot = {self.x_plot: (Role.EMBEDDING, Role.TARGET),
                              self.qk_plot: (Role.QUERY, Role.KEY), self.vo_plot: (Role.VALUE,)}
        self.notice = CanvasNotice()  # a scene taken from a model says what it already holds
        self._full_titles: dict[pg.PlotItem, tuple[str, str]] = {}

    def _make_plot(self, title: str) -> pg.PlotItem:
        plot = plot_left_to_right(pg.PlotItem(title=title, axisItems=gridded_axes()))
        draw_grid_over_view(plot, alpha=0.25)  # over the arrows, as pyqtgraph draws a grid
        plot.setMenuEnabled(False)
        plot.hideButtons()
        view = plot.getViewBox()
        draw_nothing_of_their_own(plot, view, view.borderRect, plot.titleLabel)
        # Never auto-range: the view must not move under the cursor mid-drag.
        plot.enableAutoRange(False)
        for angle in (0, 90):
            # The axes through 0: pyqtgraph lines for what pyqtgraph reads of them (a plot not framed yet is
            # ranged round them, and where its first labels go follows from that), drawn by the arrow layer.
            zero_line = pg.InfiniteLine(pos=0, angle=angle, pen=ZERO_LINE_PEN)
            draw_nothing_of_their_own(zero_line)
            plot.addItem(zero_line)
        # Between two resizes of the canvas the room for tick labels only grows: when it shrank, the plot grew,
        # the locked aspect gave it other ticks, their labels asked for room again, and the plots laid
        # themselves out on every pass of the event loop. make_tick_room_anew() lets a resize start afresh.
        for name in ("left", "bottom"):
            plot.getAxis(name).setStyle(autoReduceTextSpace=False)
        self.layers[plot] = ArrowLayer(view)  # draws the plot's arrows, all in one paint
        self.layers[plot].setZValue(self._layer_z)
        plot.addItem(self.layers[plot], ignoreBounds=True)
        self._follow_view(view)
        plot.setMinimumWidth(MIN_PLOT_WIDTH_PX)
        # Every plot asks for the same width, so the columns share the canvas equally: a plot whose title or
        # ticks asked for more took it from its neighbours (presenting on a projector, 265 px beside 232).
        plot.setPreferredWidth(MIN_PLOT_WIDTH_PX)
        return plot

    @property
    def number_line(self) -> bool:
        """Values are plain numbers: draw them on a number line."""
        return self.reading.value_width == 1

    def plot_for(self, role: Role) -> pg.PlotItem:
        return next(plot for plot, roles in self.roles_by_plot.items() if role in roles)

    def shown_plots(self) -> list[pg.PlotItem]:
        """The plots of the roles the head draws, in reading order."""
        drawn = self.reading.roles
        return [plot for plot, roles in self.roles_by_plot.items() if any(role in drawn for role in roles)]

    def add_arrow(self, plot: pg.PlotItem, arrow: ArrowItem) -> None:
        plot.addItem(arrow)
        self.layers[plot].add(arrow)

    def remove_arrow(self, plot: pg.PlotItem, arrow: ArrowItem) -> None:
        self.layers[plot].remove(arrow)
        plot.removeItem(arrow)

    def holding_repaints(self) -> RepaintsHeld:
        """Every arrow changed inside asks for its repaint once, as it ends (see ArrowLayer.holding_repaints)."""
        return RepaintsHeld(self.layers.values())

    def tips_outside_view(self) -> bool:
        """Whether a shown plot has an arrow whose tip is out of its view."""
        return any(self.layers[plot].tips_outside() for plot in self.shown_plots())

    # ----- layout ---------------------------------------------------------
    def arrange(self, viewport: QRect, line_scale: float, label_height: float) -> None:
        """The plots [x,] q·k, v·out in reading order, in as many columns as draws the arrows largest: one
        row on a wide canvas, one column on a tall narrow one, and three plots two above one on a canvas
        in between (a 1024-pixel screen beside the docks); the number line gets its own scale."""
        for item in (self.notice, *self.layers):
            if item.scene() is not None:
                self.layout.removeItem(item)
        self.word_notice(viewport.width(), line_scale)
        self.columns = self.columns_that_draw_largest(viewport, label_height)
        first_row = 0
        if self.reading.taken_from is not None:
            self.layout.addItem(self.notice, row=0, col=0, colspan=self.columns)
            first_row = 1
        shown = self.shown_plots()
        for plot, (row, column) in zip(shown, grid_places(len(shown), self.columns)):
            self.layout.addItem(plot, row=first_row + row, col=column)
        self.x_plot.setAspectLocked(True)
        self.qk_plot.setAspectLocked(True)
        self.vo_plot.setAspectLocked(not self.number_line)
        self.link_values_to_queries()
        # The layout grew to hold three plots; with two it must shrink back to the view, which
        # pyqtgraph only asks of it on a resize. Otherwise the last plot sits past the canvas's edge.
        self.layout.layout.invalidate()
        self.layout.setGeometry(QRectF(viewport))

    def columns_that_draw_largest(self, viewport: QRect, label_height: float) -> int:
        """How many columns of plots show the arrows largest on this canvas."""
        count = len(self.shown_plots())
        tips = np.array([(0.0, 0.0), *(self.drags.tip_of(v, role) for role in (Role.QUERY, Role.KEY)
                                       for v in self.reading.vectors(role))])
        return columns_that_draw_largest(viewport.width(), viewport.height() - self._notice_height(), count, tips,
                                         label_height, self.columns)

    def _notice_height(self) -> float:
        return self.notice.minimumHeight() if self.reading.taken_from is not None else 0.0

    def values_framed_alone(self) -> bool:
        """Values and output get a scale of their own on a number line, and where they are three times
        longer or shorter than the queries and keys (a head taken from a model; a head in training): on one
        scale one kind would be dots."""
        reading = self.reading
        lengths = [float(np.abs(reading.vectors(role)).max(initial=0.0)) for role in (Role.QUERY, Role.KEY)]
        values = float(np.abs(reading.vectors(Role.VALUE)).max(initial=0.0))
        return (self.number_line or reading.taken_from is not None
                or lengths_far_apart(max(lengths), values))

    def link_values_to_queries(self) -> None:
        """One scale for both plots unless the values are framed alone (values_framed_alone)."""
        alone = self.values_framed_alone()
        self.vo_plot.setXLink(None if alone else self.qk_plot)
        self.vo_plot.setYLink(None if alone else self.qk_plot)

    # ----- framing --------------------------------------------------------
    def fit(self, label_height: float) -> None:
        """Show every arrow and the origin as large as the plot allows, with a little room for the labels."""
        reading = self.reading
        margin = LABEL_ROOM_LINES * label_height
        self.link_values_to_queries()  # training can make the values ten times the queries' length, or undo it
        shared = [reading.vectors(Role.QUERY), reading.vectors(Role.KEY)]
        if not self.values_framed_alone():
            shared += [reading.vectors(Role.VALUE), reading.result.output]
        roles = [Role.QUERY, Role.KEY] + ([] if self.values_framed_alone() else [Role.VALUE, Role.VALUE])
        tips = [self.drags.tip_of(v, role) for role, block in zip(roles, shared) for v in block]
        frame_tips(self.qk_plot, tips, margin)
        if self.values_framed_alone() and not self.number_line:
            values = [*reading.vectors(Role.VALUE), *reading.result.output]
            frame_tips(self.vo_plot, [self.drags.tip_of(v, Role.VALUE) for v in values], margin)
        words = [self.drags.tip_of(v, role) for role in (Role.EMBEDDING, Role.TARGET) if role in reading.roles
                 for v in reading.vectors(role)]
        if words:
            frame_tips(self.x_plot, words, margin)
        if self.number_line:
            numbers = np.concatenate([reading.vectors(Role.VALUE)[:, 0], reading.result.output[:, 0], [0.0]])
            x_range, y_range = number_line_range(numbers)
            self.vo_plot.setRange(xRange=x_range, yRange=y_range, padding=0)

    # ----- titles and the notice -------------------------------------------
    def update_titles(self, line_scale: float, width_px: float) -> None:
        """Say which plane is drawn when a vector has more than two numbers."""
        planes = self.drags.planes
        subjects = {self.qk_plot: (N_("Queries and keys"), Role.KEY), self.vo_plot: (N_("Values and output"), Role.VALUE),
                    self.x_plot: (N_("Word vectors x and y") if Role.TARGET in self.reading.roles
                                  else N_("Word vectors x"), Role.EMBEDDING)}
        titles = {plot: plot_title(subject, planes.describe(role), planes.describe(role, short=True))
                  for plot, (subject, role) in subjects.items() if plot in self.shown_plots()}
        if self.number_line:
            titles[self.vo_plot] = plot_title(N_("Values on a number line (stem height = weight)"), "", "")
        self._full_titles = titles
        self.fit_titles(line_scale, width_px)

    def title_height_beyond_usual(self) -> int:
        """How much taller than pyqtgraph's usual 30 px the shown plots' title rows are (fit_title_row): a line
        of a taller script, or of brackets and accents, takes that from the plots' height."""
        return max(0, *(int(plot.titleLabel.maximumHeight()) - TITLE_ROW_PX for plot in self.shown_plots()))

    def fit_titles(self, line_scale: float, width_px: float) -> None:
        fit_titles(self._full_titles, line_scale, width_px / max(1, self.columns) - PLOT_SPACING_PX)
        self.word_notice(width_px, line_scale)

    def word_notice(self, width_px: float, line_scale: float) -> None:
        """The notice's sentence, wrapped to the canvas's width."""
        reading = self.reading
        if reading.taken_from is not None:
            self.notice.show_sentence(taken_from_notice(reading.taken_from, reading.key_width), width_px, line_scale)

    def make_tick_room_anew(self) -> None:
        """The canvas has another size: each axis takes the room its labels need now, not the most they ever had."""
        for plot in self.layers:
            plot.getAxis("left").textWidth = 0
            plot.getAxis("bottom").textHeight = 0

    def set_type_scale(self, line_scale: float) -> None:
        """Tick labels and titles LINE_SCALE times their everyday size (presentation mode)."""
        tick_font = QFont()
        tick_font.setPointSizeF(9.0 * line_scale)
        for plot in self.layers:
            for name in ("left", "bottom"):
                plot.getAxis(name).setStyle(tickFont=tick_font)
            plot.titleLabel.setText(plot.titleLabel.text, size=f"{int(11 * line_scale)}pt")
            fit_title_row(plot)
