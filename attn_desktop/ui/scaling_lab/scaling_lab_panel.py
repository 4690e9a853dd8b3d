"""The √d_k lab: choose a key width, see how far raw scores spread and what that does to a softmax.

A slider and a number box choose d_k (2 to 512). The text reads the numbers at that width: the
standard deviation of 2,000 random scores q · k with and without the division by √d_k, and one
query's weights over eight keys, with their entropy. Two plots show the same against every width:
the raw spread grows like √d_k while the divided one stays at 1; the raw softmax's entropy falls
to 0 bits (all weight on one key) while the divided one stays near its most, 3 bits.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSlider, QSpinBox, QVBoxLayout, QWidget

from attn_desktop.language import N_, percent, tr
from attn_desktop.language.numbers import whole_number
from attn_desktop.model.shown_numbers import shown_number
from attn_desktop.model.teaching.scaling_lab import (
    D_K_MAX,
    D_K_MIN,
    KEY_COUNT,
    PAIR_COUNT,
    QUERY_COUNT,
    ScalingReading,
    curves,
    reading,
)
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.scaling_lab.scaling_plot import RAW_COLOR, SCALED_COLOR, ScalingPlot

FIRST_WIDTH = 2
# Translators: the √d_k lab's plots' vertical axes.
SPREAD_AXIS, ENTROPY_AXIS = N_("spread (std)"), N_("entropy (bits)")

PLOT_MIN_HEIGHT = 90  # px: both plots and the lesson's text above them fit a 768-line screen

class ScalingLabPanel(QWidget):
    width_changed = Signal(int)  # the chosen d_k

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(D_K_MIN, D_K_MAX)
        self.slider.setPageStep(32)
        self.slider.setToolTip(tr("The width of the random queries and keys"))
        self.width_box = QSpinBox()
        self.width_box.setRange(D_K_MIN, D_K_MAX)
        self.width_box.setPrefix("d_k = ")
        self.width_box.setKeyboardTracking(False)  # typing 256 is not a visit to 2 and 25 on the way
        self.reading_label = QLabel()
        self.reading_label.setWordWrap(True)
        self.reading_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.reading_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The plots and the random vectors are made the first time the lab is seen (~0.1 s), not at start-up.
        self.spread_plot: ScalingPlot | None = None
        self.entropy_plot: ScalingPlot | None = None
        self.slider.setValue(FIRST_WIDTH)
        self.width_box.setValue(FIRST_WIDTH)
        self.slider.valueChanged.connect(self.set_width)
        self.width_box.valueChanged.connect(self.set_width)
        self._lay_out()
        self.reading: ScalingReading | None = None  # of the width shown; None until the lab is first shown
        self._name_controls()
        follow_language(self, self._reword)

    def _name_controls(self) -> None:
        for control in (self.slider, self.width_box):
            control.setAccessibleName(tr("Key width d_k"))

    def _reword(self) -> None:
        """The texts in the language just chosen (the window re-translates the plain ones: the tooltip)."""
        self._name_controls()
        for plot in (self.spread_plot, self.entropy_plot):
            if plot is not None:
                plot.reword()
        if self.reading is not None:
            self._show_reading(self.reading)

    def showEvent(self, event: QShowEvent) -> None:
        if self.spread_plot is None:
            self._add_plots()
            self.set_width(self.d_k)
        super().showEvent(event)

    def _lay_out(self) -> None:
        chooser = QHBoxLayout()
        chooser.addWidget(self.width_box)
        chooser.addWidget(self.slider, 1)
        self._column = layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(chooser)
        layout.addWidget(self.reading_label)

    def _add_plots(self) -> None:
        lab = curves()
        self.spread_plot = ScalingPlot(SPREAD_AXIS)
        self.spread_plot.set_curves(lab.widths, lab.raw_spread, lab.scaled_spread, top=float(lab.raw_spread.max()))
        self.entropy_plot = ScalingPlot(ENTROPY_AXIS)
        self.entropy_plot.set_curves(lab.widths, lab.raw_entropy, lab.scaled_entropy,
                                     top=float(reading(D_K_MIN).most_entropy))
        for plot in (self.spread_plot, self.entropy_plot):
            plot.setMinimumHeight(PLOT_MIN_HEIGHT)
            self._column.addWidget(plot, 1)

    @property
    def d_k(self) -> int:
        return self.slider.value()

    def set_width(self, d_k: int) -> None:
        d_k = min(max(int(d_k), D_K_MIN), D_K_MAX)
        for control in (self.slider, self.width_box):
            if control.value() != d_k:
                control.blockSignals(True)
                control.setValue(d_k)
                control.blockSignals(False)
        if self.reading is not None and self.reading.d_k == d_k:
            return
        self.reading = shown = reading(d_k)
        if self.spread_plot is not None and self.entropy_plot is not None:
            self.spread_plot.mark(d_k, shown.raw_spread, shown.scaled_spread)
            self.entropy_plot.mark(d_k, shown.raw_entropy, shown.scaled_entropy)
        self._show_reading(shown)
        self.width_changed.emit(d_k)

    def _show_reading(self, shown: ScalingReading) -> None:
        self.reading_label.setText(reading_text(shown))
        self.reading_label.setToolTip(reading_details(shown))


def reading_text(shown: ScalingReading) -> str:
    """The readings at the chosen width, short enough for a narrow panel on a projector."""
    # Translators: the √d_k lab's reading. {keys} is 8; keep the HTML tags and the non-breaking spaces
    # (&nbsp;): "(√2 = 1.41)" stays on one line, a value never wraps away from what it equals.
    return tr(
        "<b>d_k = {d_k}</b>: the scores <span style='color:{raw_color}'><b>q · k</b></span> spread "
        "<b>{raw_spread}</b> (√{d_k}&nbsp;=&nbsp;{expected_spread}); "
        "<span style='color:{scaled_color}'><b>divided by √d_k</b></span>, <b>{scaled_spread}</b>.<br>"
        "Softmax over {keys} keys: <b>{raw_entropy}</b> bits without the division, "
        "<b>{scaled_entropy}</b> with it ({most_entropy} bits: shared evenly)."
    ).format(d_k=shown.d_k, raw_color=RAW_COLOR.name(), scaled_color=SCALED_COLOR.name(),
             raw_spread=shown_number(shown.raw_spread), expected_spread=shown_number(shown.expected_raw_spread),
             scaled_spread=shown_number(shown.scaled_spread), keys=KEY_COUNT,
             raw_entropy=shown_number(shown.raw_entropy), scaled_entropy=shown_number(shown.scaled_entropy),
             most_entropy=shown_number(shown.most_entropy, 0))


def reading_details(shown: ScalingReading) -> str:
    """How the readings were made, for the tooltip."""
    # Translators: the √d_k lab's tooltip. {pairs} is 2,000, {queries} 200, {keys} 8.
    return tr(
        "The spread is the standard deviation of {pairs} scores, each of a random query and key "
        "{d_k} numbers wide (mean 0, variance 1). The entropy is the average over {queries} "
        "queries, each with {keys} keys of its own. The first of them gives its top key "
        "{raw_top} of its weight without the division and {scaled_top} with it."
    ).format(pairs=whole_number(PAIR_COUNT), d_k=shown.d_k, queries=QUERY_COUNT, keys=KEY_COUNT,
             raw_top=percent(float(shown.raw_weights.max())), scaled_top=percent(float(shown.scaled_weights.max())))
