"""The Positions lab's second page, Added: a position vector added to each word's x.

A slider sets the strength α (0 to 2). Sinusoidal: x_i + α·PE[i], the original Transformer's encoding at the
scene's width: the two orders' matrices now differ, PE[i]·PE[j] changes with the distance i − j (and with it
only), and a picture of the encoding, positions × dimensions. Learned: lesson 5's trained head, whose x is
E[digit] + α·P[position]: at α = 1 its mirror pattern, at α = 0 a head that cannot tell places apart.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSlider, QStackedWidget, QVBoxLayout, QWidget

from attn_desktop.model import Role
from attn_desktop.model.teaching.positions_lab import (
    STRENGTH_MAX,
    LabHead,
    compare_orders,
    encoding_dot_by_distance,
    is_anti_diagonal,
    learned_head,
    other_order,
)
from attn_desktop.ui.lab.encoding_heatmap import EncodingHeatmap
from attn_desktop.ui.lab.lab_plot import LabPlot
from attn_desktop.ui.lab.lab_text import wrapped_label
from attn_desktop.ui.lab.weights_grid import WeightsGrid
from attn_desktop.ui.palette import ROLE_COLORS

STEPS_PER_UNIT = 10  # the slider's steps: α in tenths
SINUSOIDAL, LEARNED = "Sinusoidal (the original Transformer)", "Learned (lesson 5's trained head)"


class AddedPage(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, int(STRENGTH_MAX * STEPS_PER_UNIT))
        self.slider.setPageStep(5)
        self.slider.setValue(STEPS_PER_UNIT)
        self.slider.setAccessibleName("Strength of the position α")
        self.strength_label = QLabel()
        self.kind_box = QComboBox()
        self.kind_box.addItems([SINUSOIDAL, LEARNED])
        self.kind_box.setAccessibleName("Kind of position")
        self.kind_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kind_box.setMinimumContentsLength(12)
        self.pages = QStackedWidget()
        self.sinusoidal = SinusoidalView()
        self.learned = LearnedView()
        self.pages.addWidget(self.sinusoidal)
        self.pages.addWidget(self.learned)
        self.head: LabHead | None = None
        self.slider.valueChanged.connect(lambda _: self.refresh())
        self.kind_box.currentIndexChanged.connect(self._show_kind)
        self._lay_out()

    def _lay_out(self) -> None:
        strength = QHBoxLayout()
        strength.addWidget(self.strength_label)
        strength.addWidget(self.slider, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.kind_box)
        layout.addLayout(strength)
        layout.addWidget(self.pages)
        layout.addStretch(1)

    @property
    def strength(self) -> float:
        return self.slider.value() / STEPS_PER_UNIT

    def show_head(self, head: LabHead | None) -> None:
        self.head = head
        self.refresh()

    def refresh(self) -> None:
        self.strength_label.setText(f"α = {self.strength:.1f}")
        if self.pages.currentWidget() is self.sinusoidal:
            self.sinusoidal.show_head(self.head, self.strength)
        else:
            self.learned.show_strength(self.strength)

    def _show_kind(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        self.refresh()


class SinusoidalView(QWidget):
    """x_i + α·PE[i] in the scene's sentence and in the other order; PE[i]·PE[j] by distance; PE itself."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first_grid = WeightsGrid("Attention in the sentence's order, positions added")
        self.second_grid = WeightsGrid("Attention in the other order, positions added")
        self.verdict = wrapped_label("")
        self.distance_note = wrapped_label("q·k now changes with distance: PE[i]·PE[j] against i − j "
                                           "(the same at every i)")
        self.distance_plot = LabPlot("i − j", "PE[i]·PE[j]")
        self.distance_plot.add_curve(ROLE_COLORS[Role.KEY], "PE[i]·PE[j]")
        self.heatmap = EncodingHeatmap()
        self.width_shown = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.first_grid, self.second_grid, self.verdict, self.distance_note, self.distance_plot,
                       self.heatmap):
            layout.addWidget(widget)

    def show_head(self, head: LabHead | None, strength: float) -> None:
        if head is None:
            self.verdict.setText("This page needs a scene whose queries are its own words.")
            self.first_grid.hide()
            self.second_grid.hide()
            return
        self.first_grid.show()
        self.second_grid.show()
        shown = compare_orders(head, other_order(len(head.tokens)), strength)
        self.first_grid.set_weights(shown.tokens, shown.first.weights)
        self.second_grid.set_weights(shown.second_tokens, shown.second.weights)
        same = shown.weights_only_reordered(1e-9) and shown.outputs_only_reordered(1e-9)
        self.verdict.setText(
            f"x<sub>i</sub> + {strength:.1f}·PE[i], PE {head.width} wide. "
            + ("<b>The orders still look the same</b>: no position added." if same else
               "<b>The two orders now differ</b>: the words' weights and outputs are no longer only reordered."))
        if head.width != self.width_shown:
            self.width_shown = head.width
            self.distance_plot.set_curve(0, *encoding_dot_by_distance(head.width))


class LearnedView(QWidget):
    """Lesson 5's head reversing five digits, with its learned positions at strength α."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label("Lesson 5's trained head reverses five digits. Its x<sub>i</sub> = "
                                   "E[digit] + α·P[position], P learned with the rest:")
        self.grid = WeightsGrid("Attention of lesson 5's trained head")
        self.verdict = wrapped_label("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.intro, self.grid, self.verdict):
            layout.addWidget(widget)

    def show_strength(self, strength: float) -> None:
        head = learned_head()
        weights = head.weights(strength)
        self.grid.set_weights(head.tokens, weights)
        if is_anti_diagonal(weights):
            text = f"α = {strength:.1f}: each place looks at its mirror place (the anti-diagonal): the reversal."
        else:
            text = (f"α = {strength:.1f}: without enough position the head cannot tell places apart: "
                    "the two 1s get the same weights, and no row finds its mirror.")
        self.verdict.setText(text)
