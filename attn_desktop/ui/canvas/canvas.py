"""The drawing canvas: queries and keys in one plot, values and the output in another.

Queries and keys must share a space (their dot product is the score); values
and the output share another (the output is a blend of the values). Two plots
side by side, with linked axes so one unit is the same length in both and
zooming one zooms the other. Vectors of more than two numbers are drawn in a
plane: two chosen dimensions or the PCA plane (drawn_planes.py), which each
plot's title names. A projection scene adds a third plot on the
left for the word vectors x that make q, k and v. When values are plain
numbers (a soft lookup) the value plot becomes a number line: each value is
a stem as tall as its weight, and the answer is the marker where they balance.

What drags, clicks and keys do to the arrows is the drag controller's (see
drag_controller.py); the canvas draws and passes gestures on.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetricsF, QTransform

from attn_desktop.geometry.label_layout import HIDDEN, ShapeIndex, place_labels
from attn_desktop.model import Change, Role, Scene, explain
from attn_desktop.model.explain import arrow_name
from attn_desktop.model.pretrained.head_scene import taken_from_notice
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.arrow_layer import ArrowLayer
from attn_desktop.ui.canvas.canvas_notice import CanvasNotice
from attn_desktop.ui.canvas.drag_controller import DragController
from attn_desktop.ui.canvas.key_highlight import KeyHighlight
from attn_desktop.ui.canvas.plane_action import PlaneAction
from attn_desktop.ui.canvas.plot_framing import frame_tips
from attn_desktop.ui.canvas.plot_titles import fit_titles, plot_title
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS
from attn_desktop.ui.plot_style import cache_axes_and_grid
from attn_desktop.ui.predict.weights_veil import HIDDEN_TEXT, WeightsVeil
from attn_desktop.ui.scene_link import follow_scene

FADED_QUERY_EMPHASIS = 0.35
MIN_WEIGHT_EMPHASIS = 0.22
MAX_PERCENT_LABELS = 16  # past this many tokens, "k·cat 76%" labels crowd the plot
CROWDED_LABEL_MIN_WEIGHT = 0.05  # ... and only keys and values with this much weight are named
ANSWER_MARKER_HEIGHT = 1.08  # on the number line, the answer's marker stands above every stem
ARROW_FONT_POINTS = 10.0
PRESENTATION_NAME_CHARACTERS = 9
PRESENTATION_SCALE = 1.7
PLOT_FRAME_PX = (45, 60)  # a plot's axes and title take about this much of its width and height
LABEL_ROOM_LINES = 1.4  # fitting the view leaves this many label heights round the arrows
MIN_PLOT_WIDTH_PX = 110  # three plots fit a canvas a 1024-pixel screen leaves
PLOT_SPACING_PX = 6  # between plots in the canvas's layout, and its margins, shared out
HEAD_SHAPES = {Role.QUERY: "triangle", Role.KEY: "open", Role.VALUE: "diamond", Role.EMBEDDING: "triangle"}
SHAPES_PER_ARROW = 2  # a shaft and a head (a dot: one)
Z_ORDER = {Role.EMBEDDING: 10, Role.QUERY: 12, Role.KEY: 10, Role.VALUE: 10}


@dataclass
class _PlotShapes:
    """A plot's arrow shapes as last read, and what they were read for."""

    mapping: tuple[float, float, float, float]  # the plot's data-to-view scale and offset
    arrows: list[ArrowItem]
    versions: list[int]  # each arrow's shape_version when its shapes were read into `index`
    index: ShapeIndex


def _skip_hover_search_while_dragging(graphics_scene) -> None:
    """pyqtgraph searches for hoverable items on every mouse move, even mid-drag,
    when no item may take the hover anyway; skip that search while a button is held."""
    send_hover_events = graphics_scene.sendHoverEvents

    def send(event, exitOnly=False):
        if not exitOnly and event.buttons() != Qt.MouseButton.NoButton and graphics_scene.dragItem is not None:
            return
        send_hover_events(event, exitOnly)

    graphics_scene.sendHoverEvents = send


class AttentionCanvas(pg.GraphicsLayoutWidget):
    """Draws every vector of the scene; its drag controller turns gestures into scene edits."""

    arrow_moved = Signal(object)  # a MoveArrow for the edit history: a released drag or a nudge, already shown
    drag_moved = Signal(str)  # what the dragged arrow now is, e.g. "k·cat = (1.32, 1.59)"
    edit_requested = Signal(object, int)  # role, index: a double-click on a tip asks to type coordinates
    def __init__(self, scene: Scene, parent=None, highlight: KeyHighlight | None = None,
                 veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        # Not "self.scene": QGraphicsView.scene() would be shadowed.
        self.attn_scene = scene
        self.highlight = highlight if highlight is not None else KeyHighlight(self)  # the key pointed at elsewhere
        # While the student predicts, labels and emphasis must not tell the weights (see weights_veil.py).
        self.veil = veil if veil is not None else WeightsVeil(self)
        self.arrows: dict[Role, list[ArrowItem]] = {role: [] for role in Role}
        self.drags = DragController(scene, self.arrows, self)
        self.drags.arrow_moved.connect(self.arrow_moved)
        self.drags.status.connect(self.drag_moved)
        self.drags.edit_requested.connect(self.edit_requested)
        self.drags.dragging.connect(self._on_dragging)
        self.plane_action = PlaneAction(self.drags.planes, self.set_pca_plane)  # View → Draw the PCA Plane
        self.line_scale = 1.0  # thicker arrows in presentation mode
        self.shapes_by_role = False  # arrowheads that tell roles apart without colour
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # A zoom or a resize moves every label on screen: place them again once the view has settled.
        self._label_timer = QTimer(self, singleShot=True, interval=0)
        self._label_timer.timeout.connect(self._place_labels)
        self._plot_shapes: dict[pg.PlotItem, _PlotShapes] = {}  # each plot's arrow shapes, kept between moves
        # Titles are fitted after a resize, not during one: changing a title re-lays the plots out.
        self._title_timer = QTimer(self, singleShot=True, interval=0)
        self._title_timer.timeout.connect(self._fit_titles)
        self._refit_timer = QTimer(self, singleShot=True, interval=0)
        self._refit_timer.timeout.connect(self._refit_unless_zoomed_by_hand)
        self.zoomed_by_hand = False  # the student's own zoom: resizing keeps it
        self.plot_columns = 2  # plots in a row, a column, or (three plots) two above one: see _arrange_plots
        self._arrow_layers: dict[pg.PlotItem, ArrowLayer] = {}
        self._drawn_vectors: dict[Role, np.ndarray] = {}  # each role's vectors as the arrows last showed them
        self.x_plot = self._make_plot("Word vectors x")
        self.qk_plot = self._make_plot("Queries and keys")
        self.vo_plot = self._make_plot("Values and output")
        self.notice = CanvasNotice()  # a scene taken from a model says what it already holds
        self._full_titles: dict[pg.PlotItem, tuple[str, str]] = {}
        self.output_arrow = ArrowItem("out", OUTPUT_COLOR, draggable=False)
        self.output_arrow.setZValue(20)
        self._add_arrow(self.vo_plot, self.output_arrow)
        _skip_hover_search_while_dragging(self.scene())
        self._rebuild()
        follow_scene(self, scene, self._on_scene_changed)
        self.highlight.changed.connect(self._sync_highlight)
        self.veil.changed.connect(self._sync_all)

    def _make_plot(self, title: str) -> pg.PlotItem:
        plot = pg.PlotItem(title=title)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        # Never auto-range: the view must not move under the cursor mid-drag.
        plot.enableAutoRange(False)
        for angle in (0, 90):
            plot.addItem(pg.InfiniteLine(pos=0, angle=angle, pen=pg.mkPen(120, 120, 120, 200, width=1)))
        cache_axes_and_grid(plot)
        self._arrow_layers[plot] = ArrowLayer(plot.getViewBox())  # draws the plot's arrows, all in one paint
        self._arrow_layers[plot].setZValue(min(Z_ORDER.values()))
        plot.addItem(self._arrow_layers[plot], ignoreBounds=True)
        view_box = plot.getViewBox()
        view_box.sigTransformChanged.connect(self._label_timer.start)
        # A plot that changes size (a lesson with another number of plots, a dock dragged wider,
        # presentation mode) frames its arrows again, unless the student zoomed or panned it.
        view_box.sigResized.connect(self._refit_timer.start)
        view_box.sigResized.connect(self._label_timer.start)  # a plot that moved without zooming moves its labels
        view_box.sigResized.connect(self._title_timer.start)
        view_box.sigRangeChangedManually.connect(self._on_zoomed_by_hand)
        plot.setMinimumWidth(MIN_PLOT_WIDTH_PX)
        return plot

    def _on_zoomed_by_hand(self, *args) -> None:
        self.zoomed_by_hand = True

    def _refit_unless_zoomed_by_hand(self) -> None:
        # Never mid-drag: the view must not move under the cursor.
        if not self.zoomed_by_hand and self.active_drag_arrow() is None:
            self.fit_view()

    @property
    def number_line(self) -> bool:
        """Values are plain numbers: draw them on a number line."""
        return self.attn_scene.value_width == 1

    def plot_for(self, role: Role) -> pg.PlotItem:
        return {Role.EMBEDDING: self.x_plot, Role.VALUE: self.vo_plot}.get(role, self.qk_plot)

    # ----- building items ----------------------------------------------
    def _rebuild(self) -> None:
        self._arrange_plots()
        self._rebuild_arrows()
        self._update_titles()
        self.fit_view()

    def _arrange_plots(self) -> None:
        """The plots [x,] q·k, v·out in reading order, in as many columns as draws the arrows largest: one
        row on a wide canvas, one column on a tall narrow one, and three plots two above one on a canvas
        in between (a 1024-pixel screen beside the docks); the number line gets its own scale."""
        for item in (self.notice, self.x_plot, self.qk_plot, self.vo_plot):
            if item.scene() is not None:
                self.ci.removeItem(item)
        self._word_notice()
        self.plot_columns = self._columns_that_draw_largest()
        first_row = 0
        if self.attn_scene.taken_from is not None:
            self.ci.addItem(self.notice, row=0, col=0, colspan=self.plot_columns)
            first_row = 1
        plots = [self.x_plot] if self.attn_scene.is_projection else []
        for place, plot in enumerate([*plots, self.qk_plot, self.vo_plot]):
            self.ci.addItem(plot, row=first_row + place // self.plot_columns, col=place % self.plot_columns)
        self.x_plot.setAspectLocked(True)
        self.qk_plot.setAspectLocked(True)
        self.vo_plot.setAspectLocked(not self.number_line)
        self.vo_plot.setXLink(None if self._values_framed_alone() else self.qk_plot)
        self.vo_plot.setYLink(None if self._values_framed_alone() else self.qk_plot)
        # The layout grew to hold three plots; with two it must shrink back to the view, which
        # pyqtgraph only asks of it on a resize. Otherwise the last plot sits past the canvas's edge.
        self.ci.layout.invalidate()
        self.ci.setGeometry(QRectF(self.viewport().rect()))

    def _rebuild_arrows(self) -> None:
        scene = self.attn_scene
        self.drags.forget_arrows()  # the old arrows go; so do the keyboard's choice and any turn at a shared tip
        for role, items in self.arrows.items():
            for item in items:
                self._arrow_layers[self.plot_for(role)].remove(item)
                self.plot_for(role).removeItem(item)
            items.clear()
            if role not in scene.roles:
                continue
            for index, token in enumerate(scene.labels(role)):
                item = ArrowItem(arrow_name(role.symbol, self._short(token)), ROLE_COLORS[role],
                                 draggable=scene.is_draggable(role), clickable=role is Role.QUERY)
                item.setZValue(Z_ORDER[role])
                if self.line_scale != 1.0:
                    item.set_font_size(ARROW_FONT_POINTS * self.line_scale)
                if self.shapes_by_role:
                    item.set_head_shape(HEAD_SHAPES[role])
                self.drags.attach(role, index, item)
                self._add_arrow(self.plot_for(role), item)
                items.append(item)
        self._sync_all()

    def _add_arrow(self, plot: pg.PlotItem, arrow: ArrowItem) -> None:
        plot.addItem(arrow)
        self._arrow_layers[plot].add(arrow)

    # ----- following the scene -----------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.drags.planes.scene_reshaped()
            self._rebuild()
            self.plane_action.sync()
            return
        if change & (Change.SETTINGS | Change.SELECTION):
            self._sync_all()
        elif change & Change.VECTORS:
            self._sync_vectors(only_moved=True)
        if change & Change.VECTORS and self.drags.planes.showing_pca and self.active_drag_arrow() is None:
            self._update_titles()  # the share of the spread the plane shows; never mid-drag (titles re-lay out)

    def _on_dragging(self, dragging: bool) -> None:
        if not dragging and self.drags.planes.showing_pca:
            self._update_titles()

    def _sync_all(self) -> None:
        self._sync_query_styles()
        self._sync_vectors()
        self._sync_highlight()

    def _sync_vectors(self, only_moved: bool = False) -> None:
        """What a drag changes: the tips, the weights' emphasis and the output.

        ONLY_MOVED: look only at the vectors that changed since the last sync (a drag moves one of 192
        arrows at 64 tokens); the tips then depend on nothing else, unless drawn in a PCA plane or,
        for values on a number line, at the height of their weights.
        """
        scene = self.attn_scene
        weights = self._shown_weights()
        for role in scene.roles:
            on_number_line = role is Role.VALUE and self.number_line
            vectors = scene.vectors(role)
            previous = self._drawn_vectors.get(role)
            if (only_moved and previous is not None and previous.shape == vectors.shape and not on_number_line
                    and not self.drags.planes.showing_pca):
                indices = np.flatnonzero(np.any(vectors != previous, axis=1)).tolist()
            else:
                indices = range(len(vectors))
            self._drawn_vectors[role] = vectors.copy()
            items = self.arrows[role]
            for index in indices:
                item, vector = items[index], vectors[index]
                if on_number_line:
                    item.set_base(float(vector[0]), 0.0)
                    moved = item.set_tip(float(vector[0]), float(weights[index]))
                else:
                    moved = item.set_tip(*self.drags.tip_of(vector, role))
                if moved:
                    item.setToolTip(self.drags.describe(role, index))
        self._sync_weight_styles()
        self._sync_output()
        self._place_labels()

    def _labels_in_order(self) -> dict[pg.PlotItem, list[tuple[ArrowItem, bool]]]:
        """Each plot's labelled arrows, most important label first, each with whether its label is minor:
        the chosen query, the output, keys and values by weight (under 5% is minor), then the other
        queries (minor) and the word vectors."""
        scene = self.attn_scene
        weights = self._shown_weights()
        queries, keys, values = self.arrows[Role.QUERY], self.arrows[Role.KEY], self.arrows[Role.VALUE]
        chosen = queries[scene.selected] if scene.selected < len(queries) else None
        # Most arrows of a crowded scene have no label: only the named ones are sorted by weight.
        named = [index for index in range(scene.n_tokens)
                 if (index < len(keys) and keys[index].label) or (index < len(values) and values[index].label)]
        named.sort(key=lambda index: -weights[index])
        queries_plot = self.plot_for(Role.QUERY)
        weighted_plots = ((self.plot_for(Role.KEY), keys), (self.plot_for(Role.VALUE), values))
        order = [
            *([(queries_plot, chosen, False)] if chosen else []), (self.vo_plot, self.output_arrow, False),
            *((plot, arrows[index], bool(weights[index] < CROWDED_LABEL_MIN_WEIGHT))
              for index in named for plot, arrows in weighted_plots if index < len(arrows)),
            *((queries_plot, item, True) for item in queries if item is not chosen and item.label),
            *((self.plot_for(Role.EMBEDDING), item, False) for item in self.arrows[Role.EMBEDDING]),
        ]
        plots: dict[pg.PlotItem, list[tuple[ArrowItem, bool]]] = {}
        for plot, item, minor in order:
            if item.label:
                plots.setdefault(plot, []).append((item, minor))
        return {plot: entries for plot, entries in plots.items() if plot.scene() is not None}

    def _place_labels(self) -> None:
        """Put each label by its tip, clear of every arrow and label of its plot (see label_layout)."""
        to_view = self.viewportTransform()
        kept = {}
        for plot, entries in self._labels_in_order().items():
            view_box = plot.getViewBox()
            area = to_view.mapRect(view_box.sceneBoundingRect())
            if area.width() < 1 or area.height() < 1:
                continue  # a plot not laid out yet (or hidden): placed when its view changes
            transform = _data_to_view(view_box, area)
            mapping = (transform.m11(), transform.m22(), transform.m31(), transform.m32())
            kept[plot] = shapes = self._shapes_in(plot, mapping)
            requests = [item.label_request(mapping, minor) for item, minor in entries]
            placements = place_labels(requests, shapes.index, (area.left(), area.top(), area.right(), area.bottom()))
            for (item, _), placement in zip(entries, placements):
                item.set_label_hidden(placement is HIDDEN)
                if placement is not HIDDEN:
                    item.place_label(placement, mapping)
        self._plot_shapes = kept  # a plot not placed this time is read afresh next time

    def _shapes_in(self, plot: pg.PlotItem, mapping: tuple) -> _PlotShapes:
        """Every arrow's shaft and head in this plot, labelled or not: labels keep off all of them.

        Kept from one placement to the next: a drag move changes a few arrows (the dragged one, the
        output, those whose weight changed their width), and only theirs are worked out again.
        """
        arrows = self._arrows_in(plot)
        shapes = self._plot_shapes.get(plot)
        if shapes is not None and shapes.mapping == mapping and len(shapes.arrows) == len(arrows) \
                and all(map(operator.is_, shapes.arrows, arrows)):
            for slot, item in enumerate(arrows):
                if item.shape_version != shapes.versions[slot]:
                    shapes.index.set(slot, item.obstacles(mapping))
                    shapes.versions[slot] = item.shape_version
            return shapes
        index = ShapeIndex.of_owners([item.obstacles(mapping) for item in arrows], SHAPES_PER_ARROW)
        return _PlotShapes(mapping, arrows, [item.shape_version for item in arrows], index)

    def _arrows_in(self, plot: pg.PlotItem) -> list[ArrowItem]:
        """Every arrow drawn in this plot, labelled or not."""
        roles = [role for role in Role if self.plot_for(role) is plot]
        arrows = [arrow for role in roles for arrow in self.arrows[role]]
        return [*arrows, self.output_arrow] if plot is self.vo_plot else arrows

    def _sync_query_styles(self) -> None:
        scene = self.attn_scene
        crowded = scene.n_tokens > MAX_PERCENT_LABELS
        for index, item in enumerate(self.arrows[Role.QUERY]):
            chosen = index == scene.selected
            width = (3.5 if chosen else 2.0) * self.line_scale
            item.set_style(width=width, emphasis=1.0 if chosen else FADED_QUERY_EMPHASIS)
            # In a crowded scene only the chosen query is named; the rest would be a smear of text.
            item.set_label(arrow_name(Role.QUERY.symbol, self._short(scene.query_tokens[index]))
                           if chosen or not crowded else "")

    def _shown_weights(self) -> np.ndarray:
        """The selected query's weights; while they are veiled, an even split, so that no width, shade,
        stem or label order on the canvas tells them."""
        scene = self.attn_scene
        if self.veil.on:
            return np.full(scene.n_tokens, 1.0 / max(scene.n_tokens, 1))
        return scene.selected_weights

    def _sync_weight_styles(self) -> None:
        scene = self.attn_scene
        weights = self._shown_weights()
        visible = scene.result.mask[scene.selected]
        crowded = scene.n_tokens > MAX_PERCENT_LABELS
        for role in (Role.KEY, Role.VALUE):
            for index, item in enumerate(self.arrows[role]):
                weight = float(weights[index])
                item.set_style(
                    width=(1.5 + 4.0 * weight) * self.line_scale,
                    emphasis=MIN_WEIGHT_EMPHASIS + (1 - MIN_WEIGHT_EMPHASIS) * weight if visible[index] else 0.18,
                    dashed=not visible[index],
                )
                item.set_label(self._weight_label(role, index, weight, bool(visible[index]), crowded))

    def _short(self, token: str) -> str:
        """A long name cut for an arrow's label (the arrow's tooltip has it whole); shorter still in
        presentation mode, whose large labels must fit beside their tips on a projector's narrow plots."""
        return explain.short_name(token, PRESENTATION_NAME_CHARACTERS if self.line_scale > 1 else
                                  explain.SHORT_NAME_CHARACTERS)

    def _weight_label(self, role: Role, index: int, weight: float, visible: bool, crowded: bool) -> str:
        """'k·cat 76%' (or 'k·the masked'); in a crowded scene, only keys that matter are named."""
        name = arrow_name(role.symbol, self._short(self.attn_scene.tokens[index]))
        if crowded:
            return name if visible and (self.veil.on or weight >= CROWDED_LABEL_MIN_WEIGHT) else ""
        if self.veil.on:
            return f"{name} {HIDDEN_TEXT}" if visible else f"{name} masked"
        return f"{name} {round(weight * 100)}%" if visible else f"{name} masked"

    def _sync_output(self) -> None:
        # The output is a blend by the weights: while they are veiled it would tell them.
        if self.output_arrow.isVisible() == self.veil.on:
            self.output_arrow.setVisible(not self.veil.on)
            self._arrow_layers[self.vo_plot].update()
        if self.veil.on:
            self.output_arrow.set_label("")
            return
        output = self.attn_scene.selected_output
        if self.number_line:
            self.output_arrow.set_base(float(output[0]), 0.0)
            self.output_arrow.set_tip(float(output[0]), ANSWER_MARKER_HEIGHT)
            self.output_arrow.set_label(f"answer {explain.number(output[0])}")
        else:
            self.output_arrow.set_base(0.0, 0.0)
            self.output_arrow.set_tip(*self.drags.tip_of(output, Role.VALUE))
            self.output_arrow.set_label(arrow_name("out", self._short(self.attn_scene.selected_token)))
        self.output_arrow.set_style(width=4.0 * self.line_scale, emphasis=1.0)

    def _sync_highlight(self) -> None:
        highlighted = self.highlight.key
        for role in (Role.KEY, Role.VALUE):
            for index, item in enumerate(self.arrows[role]):
                item.set_highlighted(index == highlighted)

    def _update_titles(self) -> None:
        """Say which plane is drawn when a vector has more than two numbers."""
        scene, planes = self.attn_scene, self.drags.planes
        subjects = {self.qk_plot: ("Queries and keys", Role.KEY), self.vo_plot: ("Values and output", Role.VALUE)}
        if scene.is_projection:
            subjects[self.x_plot] = ("Word vectors x", Role.EMBEDDING)
        titles = {plot: plot_title(subject, planes.describe(role), planes.describe(role, short=True))
                  for plot, (subject, role) in subjects.items()}
        if self.number_line:
            titles[self.vo_plot] = plot_title("Values on a number line (stem height = weight)", "", "")
        self._full_titles = titles
        self._fit_titles()

    def _fit_titles(self) -> None:
        fit_titles(self._full_titles, self.line_scale)
        self._word_notice()

    def _word_notice(self) -> None:
        """The notice's sentence, wrapped to the canvas's width."""
        scene = self.attn_scene
        if scene.taken_from is not None:
            self.notice.show_sentence(taken_from_notice(scene.taken_from, scene.key_width),
                                      self.viewport().width(), self.line_scale)

    # ----- view ---------------------------------------------------------
    def fit_view(self) -> None:
        """Show every arrow and the origin as large as the plot allows, with a little room for the labels."""
        self.zoomed_by_hand = False
        scene = self.attn_scene
        margin = LABEL_ROOM_LINES * self.label_line_height()
        shared = [scene.vectors(Role.QUERY), scene.vectors(Role.KEY)]
        if not self._values_framed_alone():
            shared += [scene.vectors(Role.VALUE), scene.result.output]
        roles = [Role.QUERY, Role.KEY] + ([] if self._values_framed_alone() else [Role.VALUE, Role.VALUE])
        frame_tips(self.qk_plot, [self.drags.tip_of(v, role) for role, block in zip(roles, shared) for v in block], margin)
        if self._values_framed_alone() and not self.number_line:
            values = [*scene.vectors(Role.VALUE), *scene.result.output]
            frame_tips(self.vo_plot, [self.drags.tip_of(v, Role.VALUE) for v in values], margin)
        if scene.is_projection:
            frame_tips(self.x_plot, [self.drags.tip_of(v, Role.EMBEDDING) for v in scene.vectors(Role.EMBEDDING)], margin)
        if self.number_line:
            numbers = np.concatenate([scene.vectors(Role.VALUE)[:, 0], scene.result.output[:, 0], [0.0]])
            low, high = float(numbers.min()), float(numbers.max())
            pad = 0.25 * max(high - low, 1.0)
            self.vo_plot.setRange(xRange=(low - pad, high + pad), yRange=(-0.05, 1.25), padding=0)

    def _values_framed_alone(self) -> bool:
        """Values and output get a scale of their own on a number line, and in a head taken from a model,
        whose values are a tenth the length of its queries and keys (on one scale they would be dots)."""
        return self.number_line or self.attn_scene.taken_from is not None

    def _columns_that_draw_largest(self) -> int:
        """How many columns of plots show the arrows largest on this canvas."""
        width, height = self.viewport().width(), self.viewport().height() - self._notice_height()
        count = 3 if self.attn_scene.is_projection else 2
        tips = np.array([(0.0, 0.0), *(self.drags.tip_of(v, role) for role in (Role.QUERY, Role.KEY)
                                       for v in self.attn_scene.vectors(role))])
        span_x, span_y = (max(float(extent), 0.5) for extent in tips.max(axis=0) - tips.min(axis=0))
        margin = 2 * LABEL_ROOM_LINES * self.label_line_height()

        def scale(columns: int) -> float:
            plot_width, plot_height = width / columns, height / math.ceil(count / columns)
            return min((plot_width - PLOT_FRAME_PX[0] - margin) / span_x, (plot_height - PLOT_FRAME_PX[1] - margin) / span_y)

        # Plots are never narrower than MIN_PLOT_WIDTH_PX: more columns than fit would push the last plot
        # past the canvas's edge (a head's canvas beside another is narrow).
        fitting = [columns for columns in range(1, count + 1) if width / columns >= MIN_PLOT_WIDTH_PX + PLOT_SPACING_PX]
        best = max(fitting or [1], key=scale)
        # Change only for a clear gain, so a canvas near the balance does not flip back and forth.
        current = min(self.plot_columns, count)
        if current not in fitting:
            return best
        return best if scale(best) > 1.1 * scale(current) else current

    def _notice_height(self) -> float:
        return self.notice.minimumHeight() if self.attn_scene.taken_from is not None else 0.0

    def resizeEvent(self, event) -> None:
        if "notice" in vars(self):
            self._word_notice()  # before the layout takes the new size: a notice too wide pushes the plots out
        super().resizeEvent(event)
        being_built = "arrows" not in vars(self)  # Qt sizes the view before __init__ has made the plots
        if not being_built and self.active_drag_arrow() is None and self._columns_that_draw_largest() != self.plot_columns:
            self._arrange_plots()

    def label_line_height(self) -> float:
        """One line of an arrow label, in pixels: labels nearer their tip than this need no leader line."""
        return QFontMetricsF(self._arrow_font()).height()

    def _arrow_font(self) -> QFont:
        font = QFont()
        font.setPointSizeF(ARROW_FONT_POINTS * self.line_scale)
        font.setBold(True)
        return font

    def active_drag_arrow(self) -> ArrowItem | None:
        return self.drags.dragged_arrow()

    def set_shapes_by_role(self, on: bool) -> None:
        """Keys with open heads and values with diamonds, so roles read without colour
        (grey-scale handouts, colour-blind viewers)."""
        self.shapes_by_role = on
        for role, arrows in self.arrows.items():
            for arrow in arrows:
                arrow.set_head_shape(HEAD_SHAPES[role] if on else "triangle")

    @property
    def dims(self) -> tuple[int, int]:
        """Which two coordinates the canvas shows (0-based)."""
        return self.drags.dims

    def set_dims(self, first: int, second: int) -> None:
        """Show two other coordinates of vectors with more than two (0-based); ValueError if they are not."""
        self.drags.set_dims(first, second)
        self._rebuild()
        self.plane_action.sync()

    @property
    def showing_pca(self) -> bool:
        """Wide vectors are drawn in their PCA plane, not in two chosen dimensions."""
        return self.drags.planes.showing_pca

    def set_pca_plane(self, on: bool) -> None:
        """Draw wide vectors in the PCA plane of the vectors as they are now (on), or in the chosen dimensions;
        ValueError when every vector has at most two numbers."""
        try:
            self.drags.planes.use_pca(on)
        finally:
            self.plane_action.sync()
        self._rebuild()

    def plane_for(self, role: Role):
        """The PCA plane ROLE's vectors are drawn in, or None when they show two of their numbers."""
        return self.drags.planes.plane_for(role)

    # ----- presentation -------------------------------------------------
    def set_presentation(self, on: bool) -> None:
        """Large labels, thick arrows and bigger tick labels for a projector."""
        self.line_scale = PRESENTATION_SCALE if on else 1.0
        font_size = ARROW_FONT_POINTS * self.line_scale
        for item in [self.output_arrow, *(arrow for arrows in self.arrows.values() for arrow in arrows)]:
            item.set_font_size(font_size)
        tick_font = QFont()
        tick_font.setPointSizeF(9.0 * self.line_scale)
        for plot in (self.x_plot, self.qk_plot, self.vo_plot):
            for name in ("left", "bottom"):
                plot.getAxis(name).setStyle(tickFont=tick_font)
            plot.titleLabel.setText(plot.titleLabel.text, size=f"{int(11 * self.line_scale)}pt")
        self._fit_titles()
        for index, item in enumerate(self.arrows[Role.EMBEDDING]):  # the other labels follow in _sync_all
            item.set_label(arrow_name(Role.EMBEDDING.symbol, self._short(self.attn_scene.tokens[index])))
        self._sync_all()
        self._refit_timer.start()  # the labels' room round the arrows grew or shrank

    # ----- keyboard, snapping and presses: the drag controller's ------------
    @property
    def snap_step(self) -> float:
        """When set, dragged and nudged tips land on multiples of it."""
        return self.drags.snap_step

    @snap_step.setter
    def snap_step(self, step: float) -> None:
        self.drags.snap_step = step

    @property
    def focused_arrow(self) -> tuple[Role, int] | None:
        return self.drags.focused_arrow

    def focus_arrow(self, target: tuple[Role, int] | None) -> None:
        self.drags.focus_arrow(target)

    def draggable_arrows(self) -> list[tuple[Role, int]]:
        return self.drags.draggable_arrows()

    def focusNextPrevChild(self, next_child: bool) -> bool:
        # Tab and Shift+Tab cycle the chosen arrow instead of leaving the canvas.
        return self.drags.focus_next(next_child) or super().focusNextPrevChild(next_child)

    def keyPressEvent(self, event) -> None:
        if self.drags.key_pressed(Qt.Key(event.key()), event.modifiers()):
            event.accept()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event) -> None:
        # A right-click during a drag cancels it, like Escape.
        if event.button() == Qt.MouseButton.RightButton and self.drags.cancel_drag():
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self.drags.press_at(self.mapToScene(event.position().toPoint()))
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.drags.press_at(self.mapToScene(event.position().toPoint()))
        super().mouseDoubleClickEvent(event)


def _data_to_view(view_box: pg.ViewBox, area: QRectF) -> QTransform:
    """The plot's data coordinates to the view's pixels, as the plot will draw its range.

    Worked out from the range rather than read from the items: the plot updates their transform
    only when it next paints, so just after a zoom or a resize the items' own one is stale.
    """
    (x0, x1), (y0, y1) = view_box.viewRange()
    m11, m22 = area.width() / (x1 - x0), -area.height() / (y1 - y0)
    return QTransform(m11, 0.0, 0.0, m22, area.left() - x0 * m11, area.top() - y1 * m22)
