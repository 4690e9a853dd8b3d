"""A one-line label in a steady box gets the height its text needs, however often its numbers change: measured
once per shape of text (its digits aside), measured again for other letters or another font."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from attn_desktop.ui.panels.output_panel import heaviest_first
from attn_desktop.ui.steady_label_box import SteadyLabelBox


@pytest.fixture
def box(qtbot):
    panel = QWidget()
    label = QLabel("cat, 44%")
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # as the output panel's values
    box = SteadyLabelBox(label, panel)
    layout = QVBoxLayout(panel)
    layout.addWidget(box)
    layout.addStretch(1)
    qtbot.addWidget(panel)
    panel.resize(300, 200)
    panel.show()
    qtbot.waitExposed(panel)
    yield box  # (the panel kept alive meanwhile: it owns the box)


def height_of(label: QLabel, text: str) -> int:
    """The height TEXT takes in the label's font, measured as Qt measures it."""
    return label.fontMetrics().boundingRect(0, 0, 1 << 20, 1 << 20, 0, text).height()


def needed(label: QLabel) -> int:
    return height_of(label, label.text())


def test_the_box_follows_its_texts_height_through_new_numbers_letters_and_fonts(qtbot, box):
    label = box.label
    for text in ("cat, 45%", "cat, 9%", "mat, 100%"):
        box.set_text(text)
        qtbot.wait(5)
        assert box.height() >= needed(label) and label.height() == box.height()
    latin = box.height()

    # A name in a script whose fallback font has taller lines than the label's (which fonts there are, and so
    # which script that is, depends on the machine and on the fonts the tests before have set).
    taller = [text for text in ("猫, 45%", "ไทย 45%", "قطة، 45%", "कैट 45%") if height_of(label, text) > latin]
    if taller:
        box.set_text(taller[0])
        qtbot.waitUntil(lambda: box.height() >= needed(label) > latin)
        assert label.height() == box.height()

        box.set_text("cat, 46%")  # the Latin shape again: its height as before
        qtbot.waitUntil(lambda: box.height() == latin)

    bigger = QFont(label.font())
    bigger.setPointSizeF(bigger.pointSizeF() * 2)
    label.setFont(bigger)  # the same shape of text, taller letters
    box.set_text("cat, 47%")
    qtbot.waitUntil(lambda: box.height() >= needed(label) > latin)


@pytest.mark.parametrize("weights", [[0.1, 0.4, 0.1, 0.4], [0.25] * 4, [0.0, float("nan"), 0.7, 0.3, 0.0],
                                     [1.0], [], [-0.0, 0.0, 0.5]])
def test_heaviest_first_is_numpys_stable_order_of_the_negated_weights(weights):
    assert heaviest_first(weights) == np.argsort(-np.asarray(weights, dtype=float), kind="stable").tolist()
