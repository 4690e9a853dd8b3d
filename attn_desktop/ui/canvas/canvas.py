"""The drawing canvas: queries and keys in one plot, values and the output in another (canvas_plots.py).

Vectors of more than two numbers are drawn in a plane (drawn_planes.py); plain-number values on a number
line, each a stem as tall as its weight, the answer the marker where they balance. The canvas makes the
arrows and keeps them in step with the scene; where the labels go is canvas_labels.py's, and how an arrow's
look tells its weight arrow_styles.py's. What drags, clicks and keys do to the arrows is the drag
controller's (drag_controller.py, reached as ``canvas.drags``); the canvas draws and passes gestures on.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QAccessible,
    QFocusEvent,
    QFont,
    QFontMetricsF,
    QHideEvent,
    QKeyEvent,
    QMouseEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import QWidget

from attn_desktop.geometry.weight_style import even_split
from attn_desktop.language import tr
from attn_desktop.model import Change, HeadReading, Role, Scene
from attn_desktop.model.explain import arrow_name
from attn_desktop.model.shown_numbers import shown_number
from attn_desktop.model.teaching.named_arrows import named_in
from attn_desktop.model.view_plane import ViewPlane
from attn_desktop.ui.accessibility.painted_items import install_factory
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.arrow_styles import KeyValueStyles, clipped_label, short_name, style_queries
from attn_desktop.ui.canvas.arrow_tips import ArrowTips
from attn_desktop.ui.canvas.canvas_access import CanvasAccess
from attn_desktop.ui.canvas.canvas_labels import CanvasLabels
from attn_desktop.ui.canvas.canvas_plots import CanvasPlots
from attn_desktop.ui.canvas.drag_controller import DragController
from attn_desktop.ui.canvas.hover_while_dragging import skip_hover_search_while_dragging
from attn_desktop.ui.canvas.plane_action import PlaneAction
from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS
from attn_desktop.ui.plot_style import fill_background_when_painted
from attn_desktop.ui.scene_link import follow_scene_in_sight, head_reading
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.view_state.weights_veil import WeightsVeil

ANSWER_MARKER_HEIGHT = 1.08  # on the number line, the answer's marker stands above every stem
ARROW_FONT_POINTS = 10.0
FOLLOW_ARROWS_MS = 250  # at most four refits a second while training moves the arrows
TICK_MEASURES_AFTER_FRAMING = 2  # axes measured again after a new scene or size is framed, at most this often
PRESENTATION_SCALE = 1.7
HEAD_SHAPES = {Role.QUERY: "triangle", Role.KEY: "open", Role.VALUE: "diamond", Role.EMBEDDING: "triangle",
               Role.TARGET: "triangle"}
STRUCTURE, VECTORS = Change.STRUCTURE.value, Change.VECTORS.value  # as int bits (see _on_scene_changed)
SETTINGS_OR_SELECTION = (Change.SETTINGS | Change.SELECTION).value
Z_ORDER = {Role.EMBEDDING: 10, Role.TARGET: 10, Role.QUERY: 12, Role.KEY: 10, Role.VALUE: 10}


class AttentionCanvas(pg.GraphicsLayoutWidget):
    """Draws every vector of the scene; its drag controller turns gestures into scene edits."""

    arrow_moved = Signal(object)  # a MoveArrow for the edit history: a released drag or a nudge, already shown
    drag_moved = Signal(str)  # what the dragged arrow now is, e.g. "k·cat = (1.32, 1.59)"
    edit_requested = Signal(object, int)  # role, index: a double-click on a tip asks to type coordinates
    announcement = Signal(str, object)  # what one step changed, for the window's announcer (text, accessible source)
    accessible_role = QAccessible.Role.Canvas  # its arrows are its accessible children (canvas_access.py)

    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None, highlight: KeyHighlight | None = None,
                 veil: WeightsVeil | None = None) -> None:
        install_factory()  # before Qt can ask for its interface (see painted_items.py)
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        fill_background_when_painted(self)
        # Not "self.scene": QGraphicsView.scene() would be shadowed.
        self.reading = scene = head_reading(scene)  # the head it draws (a bare scene: its first head)
        self.highlight = highlight if highlight is not None else KeyHighlight(self)  # the key pointed at elsewhere
        # While the student predicts, labels and emphasis must not tell the weights (see weights_veil.py).
        self.veil = veil if veil is not None else WeightsVeil(self)
        self.arrows: dict[Role, list[ArrowItem]] = {role: [] for role in Role}
        self._line_height_for: tuple[object, float] = (None, 0.0)  # (the labels and type scale, their line height)
        self.drags = DragController(scene, self.arrows, self)
        self.drags.arrow_moved.connect(self.arrow_moved)
        self.drags.arrow_moved.connect(self._place_labels_afresh)  # a nudge with the arrow keys, a released drag
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
        # Titles are fitted after a resize, not during one: changing a title re-lays the plots out.
        self._title_timer = QTimer(self, singleShot=True, interval=0)
        self._title_timer.timeout.connect(self._fit_titles)
        self._refit_timer = QTimer(self, singleShot=True, interval=0)
        self._refit_timer.timeout.connect(self._refit_unless_zoomed_by_hand)
        self.zoomed_by_hand = False  # the student's own zoom: resizing keeps it
        self._tick_measures_left = 0  # see _refit_unless_zoomed_by_hand
        self._lesson_text = ""  # the open lesson's words, and the ids of the arrows they name (name_arrows_of)
        self._named_by_lesson: frozenset[int] | None = None
        # Arrows that leave the view without a drag (training, an undo, typed numbers) are framed again,
        # a few times a second at most: training moves them on every step.
        self._follow_timer = QTimer(self, singleShot=True, interval=FOLLOW_ARROWS_MS)
        self._follow_timer.timeout.connect(self._follow_arrows)
        self.tips = ArrowTips(self.arrows, self.drags)  # where each arrow points, and what its tooltip says
        self.plots = CanvasPlots(self.ci, scene, self.drags, self._follow_view, layer_z=min(Z_ORDER.values()))
        self.x_plot, self.qk_plot, self.vo_plot = self.plots.x_plot, self.plots.qk_plot, self.plots.vo_plot
        self.output_arrow = ArrowItem("out", OUTPUT_COLOR, draggable=False)
        self.output_arrow.setZValue(20)
        self.plots.add_arrow(self.vo_plot, self.output_arrow)
        self.labels = CanvasLabels(self.arrows, self.output_arrow, self.plots)
        self.key_value_styles = KeyValueStyles()  # a drag move restyles only the keys and values whose look changed
        skip_hover_search_while_dragging(self.scene())
        # The arrows as a screen reader meets them.
        self.access = CanvasAccess(self, scene, self.arrows, self.output_arrow, self.drags, self.veil,
                                   lambda: self.plots.number_line)
        self.access.announcement.connect(self.announcement)
        self._rebuild()
        follow_scene_in_sight(self, scene, self._on_scene_changed)
        self.highlight.changed.connect(self._sync_highlight)
        self.veil.changed.connect(self._sync_all)

    def _follow_view(self, view_box: pg.ViewBox) -> None:
        """A new plot's view: its labels follow a zoom, and a plot that changes size frames its arrows again."""
        view_box.sigTransformChanged.connect(self._label_timer.start)
        # A plot that changes size (a lesson with another number of plots, a dock dragged wider,
        # presentation mode) frames its arrows again, unless the student zoomed or panned it.
        view_box.sigResized.connect(self._refit_timer.start)
        view_box.sigResized.connect(self._label_timer.start)  # a plot that moved without zooming moves its labels
        view_box.sigResized.connect(self._title_timer.start)
        view_box.sigRangeChangedManually.connect(self._on_zoomed_by_hand)

    def _on_zoomed_by_hand(self, *args: object) -> None:
        self.zoomed_by_hand = True

    def _follow_arrows(self) -> None:
        # Not on a canvas being closed: its plots' items may be half taken apart by then.
        if self.isVisible():
            self._refit_unless_zoomed_by_hand()

    def _refit_unless_zoomed_by_hand(self) -> None:
        # Never mid-drag: the view must not move under the cursor.
        if not self.zoomed_by_hand and self.drags.dragged_arrow() is None:
            self.fit_view()
            # Ticks drawn between a new scene (or size) and its framing can leave an axis as wide as labels it
            # no longer shows (13 px of a 1024-pixel projector's plot): measured again after the framing, a
            # couple of times at most, since a new measure can re-lay the plots out and frame them again.
            if self._tick_measures_left > 0:
                self._tick_measures_left -= 1
                self.plots.make_tick_room_anew()

    # ----- building items ----------------------------------------------
    def _rebuild(self) -> None:
        self._named_by_lesson = None  # other arrows (see _arrows_named)
        self.plots.make_tick_room_anew()
        self._tick_measures_left = TICK_MEASURES_AFTER_FRAMING
        self._arrange_plots()
        self._rebuild_arrows()
        self._update_titles()
        self.fit_view()

    def _arrange_plots(self) -> None:
        self.plots.arrange(self.viewport().rect(), self.line_scale, self.label_line_height())

    def _rebuild_arrows(self) -> None:
        scene = self.reading
        self.drags.forget_arrows()  # the old arrows go; so do the keyboard's choice and any turn at a shared tip
        for role, items in self.arrows.items():
            for item in items:
                self.plots.remove_arrow(self.plots.plot_for(role), item)
            items.clear()
            if role not in scene.roles:
                continue
            for index, token in enumerate(scene.labels(role)):
                item = ArrowItem(arrow_name(role.symbol, short_name(token, self.line_scale)), ROLE_COLORS[role],
                                 draggable=scene.is_draggable(role), clickable=role in (Role.QUERY, Role.TARGET))
                item.setZValue(Z_ORDER[role])
                if self.line_scale != 1.0:
                    item.set_font_size(ARROW_FONT_POINTS * self.line_scale)
                if self.shapes_by_role:
                    item.set_head_shape(HEAD_SHAPES[role])
                self.drags.attach(role, index, item)
                self.plots.add_arrow(self.plots.plot_for(role), item)
                items.append(item)
        self._sync_all()
        self.access.arrows_made()

    # ----- following the scene -----------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        bits = change.value  # tested as an int: an enum.Flag's & runs Python code, four times on every drag move
        if bits & STRUCTURE:
            self.drags.planes.scene_reshaped()
            self._rebuild()
            self.plane_action.sync()
            return
        if bits & SETTINGS_OR_SELECTION:
            self._sync_all()
        elif bits & VECTORS:
            self._sync_vectors(only_moved=True)
        if not bits & VECTORS or self.drags.dragged_arrow() is not None:
            return
        if not self._follow_timer.isActive() and self.plots.tips_outside_view():
            self._follow_timer.start()
        if self.drags.planes.showing_pca:
            self._update_titles()  # the share of the spread the plane shows; never mid-drag (titles re-lay out)

    def _on_dragging(self, dragging: bool) -> None:
        if not dragging:
            self._place_labels_afresh()
            self.tips.describe_moved_arrows(self.reading)
        if not dragging and self.drags.planes.showing_pca:
            self._update_titles()

    def _sync_all(self) -> None:
        self.key_value_styles.forget()  # a new selection, settings or arrows: every arrow styled afresh
        style_queries(self.arrows[Role.QUERY], self.reading, self.line_scale)
        self._sync_vectors()
        self._sync_highlight()

    def _sync_vectors(self, only_moved: bool = False) -> None:
        """What a drag changes: the tips, the weights' emphasis and the output.

        ONLY_MOVED: look only at the vectors that changed since the last sync (a drag moves one of 192
        arrows at 64 tokens); the tips then depend on nothing else, unless drawn in a PCA plane or,
        for values on a number line, at the height of their weights.
        """
        with self.plots.holding_repaints():  # an arrow moved, restyled, relabelled and placed asks once
            self._sync_tips_and_looks(only_moved)

    def _sync_tips_and_looks(self, only_moved: bool) -> None:
        weights = self.shown_weights()
        self.tips.sync(self.reading, weights, self.plots.number_line, only_moved)
        self.key_value_styles.apply(self.arrows, self.reading, weights, self.veil.on, self.line_scale)
        self._sync_output()
        self._place_labels()

    @property
    def arranging(self) -> bool:
        """Whether a refit, the titles or the labels wait for the event loop's next pass (see settle)."""
        return any(timer.isActive() for timer in (self._refit_timer, self._title_timer, self._label_timer))

    def _place_labels(self) -> None:
        self.labels.place(self.reading, self.shown_weights(), self.viewportTransform(), self._arrows_named())

    def _place_labels_afresh(self, *args: object) -> None:
        """Mid-drag, labels are placed again only round what moved, and a stranded one keeps its spot while it
        is as good (see label_update.py): once a drag or a nudge is over, all of them choose afresh."""
        self.labels.forget()
        self._label_timer.start()

    def name_arrows_of(self, lesson_text: str) -> None:
        """The open lesson's words (empty for none): the arrows they name ("drag k·cat") keep their labels
        whatever the crowd, as the heaviest do."""
        self._lesson_text = lesson_text
        self._named_by_lesson = None
        self._label_timer.start()

    def _arrows_named(self) -> frozenset[int]:
        """The ids of the arrows the lesson's text names, worked out once per lesson and scene."""
        if self._named_by_lesson is None:
            reading = self.reading
            names = {id(arrow): reading.arrow_name(role, index) for role, arrows in self.arrows.items()
                     for index, arrow in enumerate(arrows) if role in reading.roles}
            self._named_by_lesson = frozenset(named_in(self._lesson_text, names)) if self._lesson_text else frozenset()
        return self._named_by_lesson

    def shown_weights(self) -> np.ndarray:
        """The selected query's weights; while they are veiled, an even split (see weight_style.py)."""
        scene = self.reading
        return even_split(scene.n_tokens) if self.veil.on else scene.selected_weights

    def _sync_output(self) -> None:
        # The output is a blend by the weights: while they are veiled it would tell them.
        if self.output_arrow.isVisible() == self.veil.on:
            self.output_arrow.setVisible(not self.veil.on)
            self.plots.layers[self.vo_plot].update()
        if self.veil.on:
            self.output_arrow.set_label("")
            return
        output = self.reading.selected_output
        if self.plots.number_line:
            self.output_arrow.set_base(float(output[0]), 0.0)
            self.output_arrow.set_tip(float(output[0]), ANSWER_MARKER_HEIGHT)
            self.output_arrow.set_label(tr("answer {number}").format(number=shown_number(output[0])))
        else:
            self.output_arrow.set_base(0.0, 0.0)
            self.output_arrow.set_tip(*self.drags.tip_of(output, Role.VALUE))
            # Short: "out" alone, where a projector's small plot has no room by its tip for the whole name.
            self.output_arrow.set_label(arrow_name("out", short_name(self.reading.selected_token, self.line_scale)),
                                        short="out")
        self.output_arrow.set_style(width=4.0 * self.line_scale, emphasis=1.0)

    def _sync_highlight(self) -> None:
        highlighted = self.highlight.key
        for role in (Role.KEY, Role.VALUE):
            for index, item in enumerate(self.arrows[role]):
                item.set_highlighted(index == highlighted)

    def _update_titles(self) -> None:
        self.plots.update_titles(self.line_scale, self.viewport().width())

    def _fit_titles(self) -> None:
        self.plots.fit_titles(self.line_scale, self.viewport().width())

    # ----- view ---------------------------------------------------------
    def fit_view(self) -> None:
        """Show every arrow and the origin as large as the plot allows, with a little room for the labels."""
        self.zoomed_by_hand = False
        self.plots.fit(self.label_line_height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        plots: CanvasPlots | None = vars(self).get("plots")  # Qt sizes the view before __init__ has made them
        if plots is not None:  # before the layout takes the new size: a notice too wide pushes the plots out
            plots.word_notice(self.viewport().width(), self.line_scale)
            plots.make_tick_room_anew()
            self._tick_measures_left = TICK_MEASURES_AFTER_FRAMING
        super().resizeEvent(event)
        if plots is not None and self.drags.dragged_arrow() is None and \
                plots.columns_that_draw_largest(self.viewport().rect(), self.label_line_height()) != plots.columns:
            self._arrange_plots()

    def hideEvent(self, event: QHideEvent) -> None:
        # A hidden canvas has nothing to follow; it frames itself when shown. (A canvas that Python's garbage
        # collector takes apart is hidden after its attributes are gone: nothing to stop then.)
        timer = vars(self).get("_follow_timer")
        if timer is not None:
            timer.stop()
        super().hideEvent(event)

    def label_line_height(self) -> float:
        """One line of an arrow label, in pixels: labels nearer their tip than this need no leader line.
        Measured on the labels shown: an Arabic or Chinese word is drawn in a font whose lines are taller than
        the Latin font's (17.7 px, not 15.1), and the labels keep their distances in lines of their own script."""
        labels = frozenset(arrow.label for arrows in self.arrows.values() for arrow in arrows if arrow.label)
        key = (labels, self.line_scale)
        if self._line_height_for[0] != key:
            metrics = QFontMetricsF(self._arrow_font())
            self._line_height_for = (key, max([metrics.height(), *(metrics.size(0, label).height() for label in labels)]))
        return self._line_height_for[1]

    def _arrow_font(self) -> QFont:
        font = QFont()
        font.setPointSizeF(ARROW_FONT_POINTS * self.line_scale)
        font.setBold(True)
        return font

    def set_shapes_by_role(self, on: bool) -> None:
        """Keys with open heads and values with diamonds, so roles read without colour
        (grey-scale handouts, colour-blind viewers)."""
        self.shapes_by_role = on
        for role, arrows in self.arrows.items():
            for arrow in arrows:
                arrow.set_head_shape(HEAD_SHAPES[role] if on else "triangle")

    def set_grab_rings_shown(self, shown: bool) -> None:
        """Ring the tip under the pointer, the one chosen for the arrow keys and the one dragged, or none,
        as an exported picture shows them: a handout shows the scene, not the teacher's pointer and keys.
        Which arrow the keys move stays chosen."""
        for item in self._every_arrow():
            item.set_grab_ring_shown(shown)

    def _every_arrow(self) -> list[ArrowItem]:
        return [self.output_arrow, *(arrow for arrows in self.arrows.values() for arrow in arrows)]

    # ----- which plane of a wide vector is drawn (what the coordinate dialog asks of the canvas) -----
    @property
    def dims(self) -> tuple[int, int]:
        """Which two coordinates the canvas shows (0-based)."""
        return self.drags.dims

    def set_dims(self, first: int, second: int) -> None:
        """Show two other coordinates of vectors with more than two (0-based); ValueError if they are not."""
        self.drags.set_dims(first, second)
        self._rebuild()
        self.plane_action.sync()

    def set_pca_plane(self, on: bool) -> None:
        """Draw wide vectors in the PCA plane of the vectors as they are now (on), or in the chosen dimensions;
        ValueError when every vector has at most two numbers."""
        try:
            self.drags.planes.use_pca(on)
        finally:
            self.plane_action.sync()
        self._rebuild()

    def plane_for(self, role: Role) -> ViewPlane | None:
        """The PCA plane ROLE's vectors are drawn in, or None when they show two of their numbers."""
        return self.drags.planes.plane_for(role)

    # ----- presentation -------------------------------------------------
    def set_presentation(self, on: bool) -> None:
        """Large labels, thick arrows and bigger tick labels for a projector."""
        self.line_scale = PRESENTATION_SCALE if on else 1.0
        font_size = ARROW_FONT_POINTS * self.line_scale
        for item in self._every_arrow():
            item.set_font_size(font_size)
        self.plots.set_type_scale(self.line_scale)
        self._fit_titles()
        for role in (Role.EMBEDDING, Role.TARGET):  # the other labels follow in _sync_all
            for item, token in zip(self.arrows[role], self.reading.labels(role)):
                item.set_label(arrow_name(role.symbol, short_name(token, self.line_scale)),
                               short=clipped_label(role.symbol, token), short_names_it=True)
        self._sync_all()
        self._refit_timer.start()  # the labels' room round the arrows grew or shrank

    # ----- keyboard, snapping and presses: the drag controller's ------------
    @property
    def snap_step(self) -> float:
        """When set, dragged and nudged tips land on multiples of it (the View menu sets it here)."""
        return self.drags.snap_step

    @snap_step.setter
    def snap_step(self, step: float) -> None:
        self.drags.snap_step = step

    def focusNextPrevChild(self, next_child: bool) -> bool:
        # Tab and Shift+Tab choose the next arrow; past the last one they go on to the next control.
        return self.drags.focus_next(next_child) or super().focusNextPrevChild(next_child)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason):
            self.drags.focus_entered(event.reason() == Qt.FocusReason.TabFocusReason)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason):
            self.drags.focus_arrow(None)  # the keyboard went on: no ring left behind on an arrow

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.drags.key_pressed(Qt.Key(event.key()), event.modifiers()):
            event.accept()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        # A right-click during a drag cancels it, like Escape.
        if event.button() == Qt.MouseButton.RightButton and self.drags.cancel_drag():
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self.drags.press_at(self.mapToScene(event.position().toPoint()))
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.drags.press_at(self.mapToScene(event.position().toPoint()))
        super().mouseDoubleClickEvent(event)

