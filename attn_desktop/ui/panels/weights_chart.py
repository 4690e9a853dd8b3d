"""Bar chart of the selected query's softmax weights, one bar per key.

Every name and percentage stays apart at any size: the names are laid out by
TokenAxis, and a percentage that would touch another is left out (the larger
weight keeps its label). Pointing at a bar names it whole with its weight.

Predict, then see draws on it too (see ChartPhase): while the weights are
veiled the bars are gone and each key shows "?"; while the student guesses,
grey bars are the guess, set with the mouse (press or drag in a key's column)
or the keys (←/→ choose a bar, ↑/↓ move it, Enter reveals); once revealed, the
guess stands beside the real bar of each key.
"""

from __future__ import annotations

import enum
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QMetaObject, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QHelpEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem, QToolTip, QWidget

from attn_desktop.language import percent, tr
from attn_desktop.model import Change, HeadReading, Role, Scene
from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.panels.bar_labels import BarLabel, BarLabels
from attn_desktop.ui.panels.chart_axes import NamesAxis, WeightAxis
from attn_desktop.ui.panels.chart_frame import draw_nothing_of_their_own
from attn_desktop.ui.panels.label_places import ViewInPixels, place_labels
from attn_desktop.ui.panels.weight_bars import WeightBars
from attn_desktop.ui.plot_style import cache_axes_and_grid, fill_background_when_painted, write_ticks_in_the_language
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT, HIDDEN_TIP

MAX_VALUE_LABELS = 16
VALUE_TEXT, GUESS_TEXT = QColor(40, 40, 40), QColor(70, 70, 70)  # the percentages', and the guess's
LABEL_Z = 10  # the percentages over the bars
LABEL_MOVE_THRESHOLD = 0.002  # in weight: about a pixel on a chart 500 pixels tall, less on any smaller one
MAX_SIZED_TOKENS = 8
BAR_WIDTH = 0.7
PAIR_OFFSET, PAIR_WIDTH = 0.19, 0.36  # revealed: the guess left of each key's centre, the real bar right
GUESS_FILL, GUESS_EDGE = QColor(200, 200, 200), QColor(80, 80, 80)
KEY_STEP, FINE_KEY_STEP = 0.05, 0.01  # ↑/↓ move a guess bar by this share (with Shift: the fine one)


class ChartPhase(enum.Enum):
    WEIGHTS = "weights"  # the real weights: the chart as always
    VEILED = "veiled"  # an arrow is moving: no bars, "?" over each key
    GUESSING = "guessing"  # the guess's bars, which the student sets
    REVEALED = "revealed"  # the guess beside the real weights


class WeightsChart(pg.PlotWidget):
    guess_changed = Signal(int, float)  # the student set this key's share of the guess (0–1)
    guess_key_chosen = Signal(int)  # the bar ←/→ chose
    reveal_requested = Signal()  # Enter while guessing

    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None) -> None:
        self.token_axis = NamesAxis()
        super().__init__(parent, axisItems={"bottom": self.token_axis, "left": WeightAxis()})
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        fill_background_when_painted(self)
        # Not "self.scene": QGraphicsView.scene() would be shadowed.
        self.reading = head_reading(scene)
        for named in (self, self.viewport()):  # the chart, and the area a screen reader finds inside it
            named.setAccessibleName(tr("Weights"))
        plot = self.getPlotItem()
        self._view_box = plot.getViewBox()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        self._word_axis()
        follow_language(self, self._word_axis)
        plot.setYRange(0, 1.12, padding=0)
        plot.showGrid(y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        draw_nothing_of_their_own(plot)  # the plot and its view box: their children draw (chart_frame.py)
        write_ticks_in_the_language(plot.getAxis("left"))  # what cache_axes_and_grid does for pyqtgraph's own axis
        color = QColor(ROLE_COLORS[Role.KEY])
        self.bars = WeightBars(self._view_box, color, pg.mkPen(color.darker(130)))
        plot.addItem(self.bars, ignoreBounds=True)  # the view's range is set, never fitted to the bars
        self.phase = ChartPhase.WEIGHTS
        self.guess = np.zeros(0)  # the guess drawn while guessing and revealed
        self.chosen_bar = 0  # the guess bar the arrow keys move
        self._dragged_bar: int | None = None  # the guess bar the held mouse button sets
        self.guess_bars = pg.BarGraphItem(x=[0], height=[0], width=BAR_WIDTH, brush=GUESS_FILL,
                                          pen=pg.mkPen(GUESS_EDGE, width=1.5, style=Qt.PenStyle.DashLine))
        self.guess_bars.setVisible(False)
        plot.addItem(self.guess_bars)
        # The percentages, drawn by one item per set in the chart's own paint (bar_labels.py).
        self._value_layer = BarLabels(self._view_box, VALUE_TEXT)
        self._guess_layer = BarLabels(self._view_box, GUESS_TEXT)
        for layer in (self._value_layer, self._guess_layer):
            layer.setZValue(LABEL_Z)
            plot.addItem(layer, ignoreBounds=True)
        self.value_labels: list[BarLabel] = []
        self.guess_labels: list[BarLabel] = []
        self._labels_placed = False  # placed since the phase changed (then only a label's change moves them)
        self._view_box.sigResized.connect(self._place_value_labels)
        follow_scene(self, self.reading, self._on_scene_changed)
        self._rebuild()
        self._follow_font()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._follow_font()
        super().changeEvent(event)

    def _follow_font(self) -> None:
        """Ticks and value labels in the widget's font, which presentation mode enlarges."""
        plot = self.getPlotItem()
        if plot is None:  # closed: pyqtgraph has let go of the plot
            return
        for name in ("left", "bottom"):
            plot.getAxis(name).setStyle(tickFont=self.font())
        for layer in (self._value_layer, self._guess_layer):
            layer.set_font(self.font())
        self.updateGeometry()
        self._place_value_labels()

    def _rebuild(self) -> None:
        plot = self.getPlotItem()
        n = self.reading.n_tokens
        self.bars.set_places(np.arange(n), BAR_WIDTH)
        self.bars.set_heights(np.zeros(n))
        self.token_axis.set_tokens(self.reading.tokens)
        plot.setXRange(-0.6, n - 0.4, padding=0)
        labelled = n if n <= MAX_VALUE_LABELS else 0
        self.value_labels = self._value_layer.make(labelled)
        self.guess_labels = self._guess_layer.make(labelled)
        self._show_guess_labels(False)  # shown only while a guess is
        self.guess = np.zeros(0)
        self.phase = ChartPhase.WEIGHTS
        self.updateGeometry()
        self.refresh()

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self._rebuild()
        elif change & (Change.NUMBERS | Change.SELECTION):
            self.refresh()

    def refresh(self) -> None:
        if self.phase is not ChartPhase.WEIGHTS:
            self._show_phase()
            return
        result, row = self.reading.result, self.reading.selected
        weights = result.weights[row]
        self.bars.set_heights(weights)  # (the same heights, as when a value moved: nothing to paint again)
        moved = self._set_labels(self.value_labels, weights, result.mask[row], 0.0)
        # Which percentages show depends only on their texts and places (and the view, which calls it itself).
        if moved or not self._labels_placed:
            self._place_value_labels()
        self._into_this_frame()

    def _into_this_frame(self) -> None:
        """Have the chart's scene work out now what its changed items cover, so the bars reach the screen in
        the frame the window is about to paint, with the arrow and the other panels.

        A graphics scene does that in a queued call that ends by painting the window at once (Qt's
        dispatchPendingUpdateRequests). On a drag move the canvas's scene ran its call first, the window was
        painted without the chart, and the chart's call then painted the window a second time. Here the
        window's pending paint is taken back while the chart's scene works (its call finds nothing to paint
        early), and asked for again: one paint of the window for the whole move.
        """
        window = self.window()
        if not self.isVisible() or window is self:
            return
        QCoreApplication.removePostedEvents(window, QEvent.Type.UpdateRequest)
        QMetaObject.invokeMethod(self.scene(), "_q_processDirtyItems")  # Qt's own queued call, run now
        QCoreApplication.postEvent(window, QEvent(QEvent.Type.UpdateRequest))

    def _word_axis(self) -> None:
        # Translators: the weights chart's vertical axis
        self.getPlotItem().setLabel("left", tr("weight"))

    def _set_labels(self, labels: list[BarLabel], shares: np.ndarray, visible: np.ndarray, offset: float,
                    hidden: bool = False) -> bool:
        """Each label's percentage (or "masked", or "?" when HIDDEN) over its bar; whether any changed."""
        moved = False
        masked = tr("masked")  # once, not once per bar on every drag move
        for index, (label, share, shown) in enumerate(zip(labels, shares.tolist(), visible.tolist())):
            text = masked if not shown else HIDDEN_TEXT if hidden else percent(share)
            if text != label.text:  # a new text means a new box: the labels are placed again
                label.setText(text)
                moved = True
            # A move under a pixel is not worth placing the labels again; most bars barely change on a drag move.
            height = 0.0 if hidden else share
            if abs(label.y - height) > LABEL_MOVE_THRESHOLD or label.x != index + offset:
                label.setPos(index + offset, height)
                moved = True
        return moved

    # ----- Predict, then see --------------------------------------------
    def show_phase(self, phase: ChartPhase, guess: np.ndarray | None = None) -> None:
        """Draw the real weights, the veil, the guess being made, or the guess beside the real weights."""
        starting_to_guess = phase is ChartPhase.GUESSING and self.phase is not ChartPhase.GUESSING
        self.phase = phase
        if guess is not None:
            self.guess = np.asarray(guess, dtype=float)
        if phase is ChartPhase.WEIGHTS:  # the chart as always
            self.bars.set_places(np.arange(self.reading.n_tokens), BAR_WIDTH)
            self.bars.setVisible(True)
            self.guess_bars.setVisible(False)
            self._show_guess_labels(False)
            self._labels_placed = False  # placed afresh
        elif starting_to_guess and not self.hasFocus():
            # ↑/↓ and Enter work at once; only as the guess starts: a guess changed from the winner box with
            # its arrow keys leaves the keys there, to go on choosing.
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.refresh()

    def _show_phase(self) -> None:
        scene, phase = self.reading, self.phase
        n, weights = scene.n_tokens, scene.selected_weights
        visible = scene.result.mask[scene.selected]
        guessing, revealed = phase is ChartPhase.GUESSING, phase is ChartPhase.REVEALED
        has_guess = (guessing or revealed) and len(self.guess) == n
        self.bars.setVisible(revealed)
        self.bars.set_places(np.arange(n) + PAIR_OFFSET, PAIR_WIDTH)
        self.bars.set_heights(weights)
        self.guess_bars.setVisible(has_guess)
        if has_guess:
            self.guess_bars.setOpts(x=np.arange(n) - (PAIR_OFFSET if revealed else 0.0),
                                    width=PAIR_WIDTH if revealed else BAR_WIDTH, height=self.guess,
                                    pens=self._guess_pens(guessing))
            self._set_labels(self.guess_labels, self.guess, visible, -PAIR_OFFSET if revealed else 0.0)
            if revealed:  # beside the real weight, the guess's label says how far off it is
                for index, label in enumerate(self.guess_labels):
                    difference = f"{round(100 * (self.guess[index] - weights[index])):+d}"
                    if visible[index] and label.toPlainText() != difference:
                        label.setText(difference)
        self._show_guess_labels(has_guess)
        self._set_labels(self.value_labels, weights, visible, PAIR_OFFSET if revealed else 0.0,
                         hidden=phase is ChartPhase.VEILED)
        for label in self.value_labels:
            label.setVisible(not guessing)
        self._place_value_labels()

    def _show_guess_labels(self, shown: bool) -> None:
        """The guess's labels (the placement may still leave some out), and their layer: a hidden layer costs
        nothing in the chart's paint, where an empty one is still asked for its area and painted."""
        for label in self.guess_labels:
            label.setVisible(shown)
        self._guess_layer.setVisible(shown)

    def _guess_pens(self, guessing: bool) -> list:
        """Every guess bar's dashed edge; the bar the arrow keys move has a solid, thicker one."""
        dashed = pg.mkPen(GUESS_EDGE, width=1.5, style=Qt.PenStyle.DashLine)
        chosen = pg.mkPen(GUESS_EDGE, width=3)
        return [chosen if guessing and index == self.chosen_bar else dashed for index in range(len(self.guess))]

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self.bar_at(event.position()) if self.phase is ChartPhase.GUESSING else None
        if index is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self._dragged_bar = index
        self._choose_bar(index)
        self._set_guess_at(event.position())
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._dragged_bar is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._set_guess_at(event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._dragged_bar is not None:
            self._set_guess_at(event.position())
            self._dragged_bar = None
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _set_guess_at(self, point: QPointF) -> None:
        """The dragged bar's top follows the pointer's height."""
        box = self.getPlotItem().getViewBox()
        share = box.mapSceneToView(self.mapToScene(point.toPoint())).y()
        if self._dragged_bar is not None:
            self.guess_changed.emit(self._dragged_bar, min(max(float(share), 0.0), 1.0))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.phase is not ChartPhase.GUESSING or not len(self.guess):
            super().keyPressEvent(event)
            return
        key = Qt.Key(event.key())
        step = FINE_KEY_STEP if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else KEY_STEP
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self._choose_bar((self.chosen_bar + (1 if key == Qt.Key.Key_Right else -1)) % len(self.guess))
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            change = step if key == Qt.Key.Key_Up else -step
            self.guess_changed.emit(self.chosen_bar, min(max(float(self.guess[self.chosen_bar]) + change, 0.0), 1.0))
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.reveal_requested.emit()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _choose_bar(self, index: int) -> None:
        if index != self.chosen_bar:
            self.chosen_bar = index
            self.guess_key_chosen.emit(index)
            self.refresh()

    # ----- keeping the percentages apart --------------------------------
    def _place_value_labels(self, *_: object) -> None:
        """Show each percentage unless it would touch another (label_places.py)."""
        labels = self._labels_in_play()
        if not labels:
            return
        (x0, x1), (y0, y1) = self._view_box.viewRange()
        size = self._view_box.size()  # its geometry's, as pyqtgraph's width() and height() read them
        x_scale = size.width() / max(x1 - x0, 1e-9)
        y_scale = size.height() / max(y1 - y0, 1e-9)
        place_labels(labels, ViewInPixels(x_scale, y_scale, top=-y1 * y_scale, left=x0 * x_scale, right=x1 * x_scale))
        self._labels_placed = True

    def _labels_in_play(self) -> list[BarLabel]:
        """The percentages this phase shows: the real ones, the guess's, or both."""
        if self.phase is ChartPhase.GUESSING:
            return list(self.guess_labels)
        if self.phase is ChartPhase.REVEALED and len(self.guess) == self.reading.n_tokens:
            return self.value_labels + self.guess_labels
        return list(self.value_labels)

    # ----- what is shown (also what the tests and the audit read) -------
    def _to_widget(self, item: QGraphicsItem, rect: QRectF) -> QRectF:
        return QRectF(self.mapFromScene(item.mapRectToScene(rect)).boundingRect())

    def tick_label_rects(self) -> list[QRectF]:
        """The bar names as drawn, in this widget's coordinates."""
        return [self._to_widget(self.token_axis, label.rect) for label in self.token_axis.label_layout()]

    def tick_label_texts(self) -> list[str]:
        return [label.text for label in self.token_axis.label_layout()]

    def value_label_rects(self) -> list[QRectF]:
        """The percentages shown above the bars, as drawn, in this widget's coordinates."""
        rects = []
        for layer in (self._value_layer, self._guess_layer):
            to_widget = layer.deviceTransform(self.viewportTransform())  # what the layer's paint starts from
            rects += [layer.rect_on_screen(label, to_widget) for label in layer.shown()]
        return rects

    def _shown_labels(self) -> list[BarLabel]:
        return self._value_layer.shown() + self._guess_layer.shown()

    def shown_value_texts(self) -> list[str]:
        """The real weights' labels as shown, one per key ("" for one left out or not drawn)."""
        return [label.toPlainText() if label.isVisible() else "" for label in self.value_labels]

    def shown_guess_texts(self) -> list[str]:
        """The guess's labels as shown, one per key ("" for one left out or not drawn)."""
        return [label.toPlainText() if label.isVisible() else "" for label in self.guess_labels]

    def cut_parts(self) -> list[str]:
        """Text shown cut that a reader needs whole; elided names (whole in the tooltip) do not count."""
        view = QRectF(self.viewport().rect())
        cut = [f"value: {label.toPlainText()}" for label, rect in zip(self._shown_labels(), self.value_label_rects())
               if not view.contains(rect)]
        return cut + [f"name: {text}" for text, rect in zip(self.tick_label_texts(), self.tick_label_rects())
                      if not view.contains(rect)]

    def bar_at(self, point: QPointF) -> int | None:
        """The bar under a point of the widget (anywhere in its column, names included)."""
        box = self.getPlotItem().getViewBox()
        x = box.mapSceneToView(self.mapToScene(point.toPoint())).x()
        index = round(x)
        if 0 <= index < self.reading.n_tokens and abs(x - index) <= 0.5:
            return index
        return None

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            tip_event = cast(QHelpEvent, event)  # what Qt sends for a tooltip
            index = self.bar_at(QPointF(tip_event.pos()))
            if index is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(tip_event.globalPos(), self.bar_tooltip(index), self)
            return True
        return super().viewportEvent(event)

    def bar_tooltip(self, index: int) -> str:
        scene, phase = self.reading, self.phase
        name = scene.tokens[index]
        if not scene.result.mask[scene.selected, index]:
            return tr("{name}: masked").format(name=name)
        real = percent(scene.selected_weights[index])
        if phase is ChartPhase.VEILED:
            return tr("{name}: {weight}").format(name=name, weight=tr(HIDDEN_TIP))
        if phase is ChartPhase.GUESSING and len(self.guess) == scene.n_tokens:
            return tr("{name}: your guess {guess} (drag the bar, or ↑/↓)").format(name=name,
                                                                                 guess=percent(self.guess[index]))
        if phase is ChartPhase.REVEALED and len(self.guess) == scene.n_tokens:
            return tr("{name}: your guess {guess}, the real weight {weight}").format(
                name=name, guess=percent(self.guess[index]), weight=real)
        return tr("{name}: {weight}").format(name=name, weight=real)

    def minimumSizeHint(self) -> QSize:
        """Room for up to MAX_SIZED_TOKENS bars, each at least a line of text wide (names stand upright
        when they do not fit side by side), and bars tall enough to compare."""
        metrics = QFontMetricsF(self.font())
        bars = min(max(self.reading.n_tokens, 1), MAX_SIZED_TOKENS)
        left_axis = self.getPlotItem().getAxis("left").width()
        width = left_axis + (bars + 0.2) * (metrics.height() + 4) + 8
        # The height the names' axis asks for, not the one it has: the chart lays it out only later, and a panel
        # measured meanwhile kept the room of upright names it no longer has (the bottom row 14 px too tall).
        axis = self.token_axis.fixedHeight if self.token_axis.fixedHeight is not None else self.token_axis.height()
        height = axis + 6 * metrics.height()
        return QSize(int(width), int(height))

    def shown_heights(self) -> np.ndarray:
        """The bar heights as drawn (what a student reads off the chart)."""
        return self.bars.heights()
