"""The Positions lab's second page, Added: a position vector added to each word's x.

A slider sets the strength α (0 to 2). Sinusoidal: x_i + α·PE[i], the original Transformer's encoding at the
scene's width: the two orders' matrices now differ, PE[i]·PE[j] changes with the distance i − j (and with it
only), and a picture of the encoding, positions × dimensions. Learned: lesson 5's trained head, whose x is
E[digit] + α·P[position]: at α = 1 its mirror pattern, at α = 0 a head that cannot tell places apart.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, number, tr
from attn_desktop.model.teaching.positions_lab import STRENGTH_MAX, LabHead
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.positions_lab.lab_text import set_text
from attn_desktop.ui.positions_lab.learned_view import LearnedView
from attn_desktop.ui.positions_lab.sinusoidal_view import SinusoidalView

STEPS_PER_UNIT = 10  # the slider's steps: α in tenths
# Short: the box fits a presented column.
KINDS = (N_("Sinusoidal"), N_("Learned: lesson 5's head"))
KIND_TIPS = (N_("The original Transformer's sines and cosines"),
             N_("A vector per position, learned with the rest of lesson 5's head"))


class AddedPage(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, int(STRENGTH_MAX * STEPS_PER_UNIT))
        self.slider.setPageStep(5)
        self.slider.setValue(STEPS_PER_UNIT)
        self.strength_label = QLabel()
        self.kind_box = QComboBox()
        self.kind_box.addItems(["" for _kind in KINDS])
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
        self._fit_to_shown_kind()
        self._reword()
        follow_language(self, self._reword)

    def _reword(self) -> None:
        """The chooser's items and the controls' names in the current language."""
        self.slider.setAccessibleName(tr("Strength of the position α"))
        self.kind_box.setAccessibleName(tr("Kind of position"))
        for index, (kind, tip) in enumerate(zip(KINDS, KIND_TIPS, strict=True)):
            self.kind_box.setItemText(index, tr(kind))
            self.kind_box.setItemData(index, tr(tip), Qt.ItemDataRole.ToolTipRole)

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
        set_text(self.strength_label, f"α = {number(self.strength, 1)}")
        if self.pages.currentWidget() is self.sinusoidal:
            self.sinusoidal.show_head(self.head, self.strength)
        else:
            self.learned.show_strength(self.strength)

    def _show_kind(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        self._fit_to_shown_kind()
        self.refresh()

    def _fit_to_shown_kind(self) -> None:
        """The stack as tall as the kind shown (a stack is as tall as its tallest page: the learned head's short
        view would sit in the sinusoidal view's height, gaps between its parts)."""
        for view in (self.sinusoidal, self.learned):
            policy = QSizePolicy.Policy.Preferred if view is self.pages.currentWidget() else QSizePolicy.Policy.Ignored
            view.setSizePolicy(policy, policy)
        self.pages.adjustSize()
