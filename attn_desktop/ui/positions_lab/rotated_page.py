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
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QSlider, QVBoxLayout, QWidget

from attn_desktop.language import N_, number, tr
from attn_desktop.language.numbers import whole_number
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
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS
from attn_desktop.ui.positions_lab.clock_faces import ClockFaces
from attn_desktop.ui.positions_lab.lab_plot import LabPlot
from attn_desktop.ui.positions_lab.lab_text import set_text, wrapped_label
from attn_desktop.ui.positions_lab.pair_plot import PairPlot
from attn_desktop.ui.steady_label_box import SteadyLabelBox
from attn_desktop.ui.workers import WorkerThread

SHUTDOWN_WAIT_MS = 2000
FIRST_M, FIRST_N = 4, 0


class RotatedPage(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label(tr(INTRO))
        self.key_box = QComboBox()
        self.m_slider, self.n_slider = _position_slider(), _position_slider()
        self.m_label, self.n_label = QLabel(), QLabel()
        self.m_slider.setValue(FIRST_M)
        self.n_slider.setValue(FIRST_N)
        self.pair_plot = PairPlot()
        self.readout = wrapped_label("")
        self.readout_box = SteadyLabelBox(self.readout)  # new numbers on every move: no new layout for them
        self.along_m = LabPlot("", "q·k")
        self.along_m.add_curve(ROLE_COLORS[Role.QUERY], "q·k, m − n held")  # (a curve's name: no legend shows it)
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
        self._reword()
        follow_language(self, self._reword)

    def _reword(self) -> None:
        """The names that are not plain texts of labels or buttons, in the current language (the window
        re-translates those; the intro and readings are written again on the next refresh)."""
        self.key_box.setAccessibleName(tr("The key drawn"))
        self.m_slider.setAccessibleName(tr("Query's position m"))
        self.n_slider.setAccessibleName(tr("Key's position n"))
        # Translators: a plot's horizontal axis in the Positions lab: the query's position m, with m − n held.
        self.along_m.getPlotItem().setLabel("bottom", tr("m (m − n held)"))

    def _lay_out(self) -> None:
        sliders = QGridLayout()
        # Translators: before the chooser of the word whose key the Rotated page draws.
        sliders.addWidget(QLabel(tr("key of:")), 0, 0)
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
        set_text(self.intro, tr(INTRO_TURNED_AGAIN if taken is not None and taken.rope else INTRO))
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
        # Translators: the Rotated page's reading of q·k; "angle" is the angle between q and k.
        self.readout_box.set_text(tr(
            "q·k = |q||k| cos(angle) = {q_length} × {k_length} × cos({angle}°) = <b>{score}</b> "
            "&nbsp;(m − n = {distance})").format(
                q_length=number(float(np.linalg.norm(q)), 2), k_length=number(float(np.linalg.norm(k)), 2),
                angle=number(math.degrees(shown.angle), 0), score=number(shown.score, 2), distance=m - n))
        self.along_m.set_curve(0, *score_along_m(q, k, m - n))
        self.along_m.mark(0, m, shown.score)
        self.along_distance.set_curve(0, *score_along_distance(q, k))
        self.along_distance.mark(0, m - n, shown.score)
        self._show_clocks()

    # ----- the 32 pairs ----------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
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
            where = tr("read from SmolLM2's model file")
        elif self.base_looked_up:
            where = tr("(SmolLM2's base; the model file is not installed)")
        else:
            where = tr("(SmolLM2's base)")
        # Translators: above the Rotated page's clock faces. {pairs} is 32, {width} 64, {base} 100,000;
        # {where} says where the base comes from ("read from SmolLM2's model file", "(SmolLM2's base)").
        set_text(self.clocks_intro, tr(
            "All {pairs} pairs of a {width}-wide head at SmolLM2's frequencies "
            "(θ<sub>i</sub> = base<sup>−2i/{width}</sup>, base {base} {where}), each turned by "
            "(m − n)·θ<sub>i</sub> = {distance}·θ<sub>i</sub>: the first pairs spin, the last hardly move.").format(
                pairs=HEAD_WIDTH // 2, width=HEAD_WIDTH, base=whole_number(round(base)), where=where,
                distance=self.m - self.n))
        self.clocks.set_angles(clock_angles(self.m - self.n, base))


INTRO = N_("<b>RoPE</b> turns each pair of q's numbers by m·θ and of k's by n·θ (m, n: their positions; θ = 1 "
           "radian for this pair).")
# For a head taken from a model with RoPE on: the intro, and a word on what the page does to it.
INTRO_TURNED_AGAIN = N_(
    "<b>RoPE</b> turns each pair of q's numbers by m·θ and of k's by n·θ (m, n: their positions; θ = 1 "
    "radian for this pair). <i>This head's q and k come already turned for their own places in its sentence: "
    "the page turns them again. Untick RoPE on (Real head) to start from the model's own.</i>")


def _position_slider() -> QSlider:
    slider = QSlider(Qt.Orientation.Horizontal)
    slider.setRange(0, POSITION_MAX)
    slider.setPageStep(5)
    return slider
