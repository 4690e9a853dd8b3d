"""The Positions lab's third page, Rotated (RoPE): q turned by m·θ and k by n·θ.

One 2-D pair, the first two numbers of the chosen query's q and of a chosen word's k, drawn as arrows (faint
before their turns), with sliders for the positions m and n: their dot product depends on m − n only, so
against m with m − n held it is flat, and against m − n it is a cosine. Then the 32 pairs of a 64-wide head at
SmolLM2's frequencies as clock faces: the fast pairs spin, the slow ones hardly move. The base is read from
the model file's header on a worker thread the first time the page is shown (the window never waits for it).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QSlider, QVBoxLayout, QWidget

from attn_desktop.model import Role
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.teaching.positions_lab import (
    HEAD_WIDTH,
    POSITION_MAX,
    SMOLLM2_ROPE_BASE,
    clock_angles,
    first_pair,
    score_along_distance,
    score_along_m,
    turn_pair,
)
from attn_desktop.model.teaching.rope_base import installed_rope_base
from attn_desktop.ui.lab.clock_faces import ClockFaces
from attn_desktop.ui.lab.lab_plot import LabPlot
from attn_desktop.ui.lab.lab_text import set_text, wrapped_label
from attn_desktop.ui.lab.pair_plot import PairPlot
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS
from attn_desktop.ui.steady_label_box import SteadyLabelBox
from attn_desktop.ui.workers import WorkerThread

SHUTDOWN_WAIT_MS = 2000
FIRST_M, FIRST_N = 4, 0


class RotatedPage(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label(INTRO)
        self.key_box = QComboBox()
        self.key_box.setAccessibleName("The key drawn")
        self.m_slider, self.n_slider = _position_slider("Query's position m"), _position_slider("Key's position n")
        self.m_label, self.n_label = QLabel(), QLabel()
        self.m_slider.setValue(FIRST_M)
        self.n_slider.setValue(FIRST_N)
        self.pair_plot = PairPlot()
        self.readout = wrapped_label("")
        self.readout_box = SteadyLabelBox(self.readout)  # new numbers on every move: no new layout for them
        self.along_m = LabPlot("m (m − n held)", "q·k")
        self.along_m.add_curve(ROLE_COLORS[Role.QUERY], "q·k, m − n held")
        self.along_distance = LabPlot("m − n", "q·k")
        self.along_distance.add_curve(OUTPUT_COLOR, "q·k")
        self.clocks_intro = wrapped_label("")
        self.clocks = ClockFaces()
        self.base: float | None = None  # read from the model file; None until read, or if not installed
        self.base_looked_up = False
        self._base_reader: WorkerThread | None = None
        self.reading: HeadReading | None = None
        for slider in (self.m_slider, self.n_slider):
            slider.valueChanged.connect(lambda _: self.refresh())
        self.key_box.currentIndexChanged.connect(lambda _: self.refresh())
        self._lay_out()

    def _lay_out(self) -> None:
        sliders = QGridLayout()
        sliders.addWidget(QLabel("key of:"), 0, 0)
        sliders.addWidget(self.key_box, 0, 1)
        sliders.addWidget(self.m_label, 1, 0)
        sliders.addWidget(self.m_slider, 1, 1)
        sliders.addWidget(self.n_label, 2, 0)
        sliders.addWidget(self.n_slider, 2, 1)
        sliders.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.intro)
        layout.addLayout(sliders)
        for widget in (self.pair_plot, self.readout_box, self.along_m, self.along_distance, self.clocks_intro,
                       self.clocks):
            layout.addWidget(widget)
        layout.addStretch(1)

    @property
    def m(self) -> int:
        return self.m_slider.value()

    @property
    def n(self) -> int:
        return self.n_slider.value()

    def show_reading(self, reading: HeadReading) -> None:
        self.reading = reading
        taken = reading.taken_from
        set_text(self.intro, INTRO + (ALREADY_TURNED if taken is not None and taken.rope else ""))
        keys = list(reading.tokens)
        if [self.key_box.itemText(i) for i in range(self.key_box.count())] != keys:
            # A new sentence: the key the query gives most weight, the pair a student has just looked at.
            chosen = int(np.argmax(reading.selected_weights)) if len(keys) else 0
            self.key_box.blockSignals(True)
            self.key_box.clear()
            self.key_box.addItems(keys)
            self.key_box.setCurrentIndex(min(max(chosen, 0), len(keys) - 1))
            self.key_box.blockSignals(False)
        self.refresh()

    def pair(self) -> tuple[np.ndarray, np.ndarray]:
        """The chosen query's first two numbers after its grids, and the chosen word's key's."""
        if self.reading is None:
            return np.array([1.0, 0.0]), np.array([1.0, 0.0])
        keys = self.reading.vectors(Role.KEY)
        key = min(max(self.key_box.currentIndex(), 0), len(keys) - 1)
        return first_pair(self.reading.vectors(Role.QUERY)[self.reading.selected]), first_pair(keys[key])

    def refresh(self) -> None:
        q, k = self.pair()
        m, n = self.m, self.n
        shown = turn_pair(q, k, m, n)
        set_text(self.m_label, f"m = {m}")
        set_text(self.n_label, f"n = {n}")
        self.pair_plot.show_pair(q, k, shown.q, shown.k)
        self.readout_box.set_text(
            f"q·k = |q||k| cos(angle) = {np.linalg.norm(q):.2f} × {np.linalg.norm(k):.2f} × "
            f"cos({math.degrees(shown.angle):.0f}°) = <b>{shown.score:.2f}</b> &nbsp;(m − n = {m - n})")
        self.along_m.set_curve(0, *score_along_m(q, k, m - n))
        self.along_m.mark(0, m, shown.score)
        self.along_distance.set_curve(0, *score_along_distance(q, k))
        self.along_distance.mark(0, m - n, shown.score)
        self._show_clocks()

    # ----- the 32 pairs ----------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        if self._base_reader is None:  # the first time the page is seen: the model file's header, off the GUI thread
            self._base_reader = WorkerThread("rope base", SHUTDOWN_WAIT_MS, parent=self)
            self._base_reader.submit(installed_rope_base, self._on_base, lambda _failure: self._on_base(None))
        super().showEvent(event)

    def _on_base(self, base: float | None) -> None:
        self.base, self.base_looked_up = base, True
        if self._base_reader is not None:  # one file's header, read once: no thread left waiting until the end
            self._base_reader.shutdown()
        self._show_clocks()

    def _show_clocks(self) -> None:
        base = self.base or SMOLLM2_ROPE_BASE
        if self.base:
            where = "read from SmolLM2's model file"
        else:
            where = "(SmolLM2's base; the model file is not installed)" if self.base_looked_up else "(SmolLM2's base)"
        set_text(self.clocks_intro, 
            f"All {HEAD_WIDTH // 2} pairs of a {HEAD_WIDTH}-wide head at SmolLM2's frequencies "
            f"(θ<sub>i</sub> = base<sup>−2i/{HEAD_WIDTH}</sup>, base {base:,.0f} {where}), each turned by "
            f"(m − n)·θ<sub>i</sub> = {self.m - self.n}·θ<sub>i</sub>: the first pairs spin, the last hardly move.")
        self.clocks.set_angles(clock_angles(self.m - self.n, base))


INTRO = ("<b>RoPE</b> turns each pair of q's numbers by m·θ and of k's by n·θ (m, n: their positions; θ = 1 "
         "radian for this pair).")
ALREADY_TURNED = (" <i>This head's q and k come already turned for their own places in its sentence: the page "
                  "turns them again. Untick RoPE on (Real head) to start from the model's own.</i>")


def _position_slider(name: str) -> QSlider:
    slider = QSlider(Qt.Orientation.Horizontal)
    slider.setRange(0, POSITION_MAX)
    slider.setPageStep(5)
    slider.setAccessibleName(name)
    return slider
