"""The words on the training curves ("plateau", "drop at step N") stand in the free strip over the loss curve,
whole inside the plot and apart from each other, wherever the drop falls on the step axis and in a plot as
small as the Training panel lets it be: never over the curve (in a narrow plot "plateau" lay across the
curve falling through the band)."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF

from attn_desktop.model.training.training import StepMetrics
from attn_desktop.ui.training.loss_drop_marks import LossDropMarks
from attn_desktop.ui.training.training_curves import TrainingCurves

VOCAB = 16


def losses_with_a_drop_at(drop: int, steps: int) -> np.ndarray:
    """ln V (guessing) with some noise until DROP, then down to near zero."""
    noise = np.random.default_rng(0).normal(0, 0.08, steps)
    plateau = math.log(VOCAB) + 0.3 * np.exp(-np.arange(steps) / 20)  # a little above ln V at first
    after = 0.2 + (math.log(VOCAB) - 0.2) * np.exp(-(np.arange(steps) - drop) / 8)
    return np.where(np.arange(steps) < drop, plateau, after) + noise


def text_box(label) -> QRectF:
    """Where the label's text is drawn, in the scene's pixels."""
    text = label.textItem
    return text.mapRectToScene(text.boundingRect())


def points_under(box: QRectF, curve) -> int:
    view = curve.getViewBox()
    xs, ys = curve.getData()
    return sum(box.contains(view.mapViewToScene(QPointF(x, y))) for x, y in zip(xs, ys))


@pytest.mark.parametrize("code", ["en", "es"])  # Spanish: "caída en el paso 236", wider than either side of its line
@pytest.mark.parametrize(("drop", "steps", "expected"), [(40, 100, 100), (236, 300, 1000), (700, 900, 1000)])
def test_the_marks_words_stay_whole_off_the_curve_and_apart(qtbot, speaking, code, drop, steps, expected):
    speaking(code)
    curves = TrainingCurves()
    qtbot.addWidget(curves)
    marks = LossDropMarks(curves.loss_plot, [curves.accuracy_plot])
    curves.resize(curves.minimumSizeHint())  # the least the panel gives it
    curves.show()
    qtbot.waitExposed(curves)
    curves.start(expected)
    losses = losses_with_a_drop_at(drop, steps)
    curves.extend(StepMetrics(step, float(loss), 0.5) for step, loss in enumerate(losses, start=1))
    marks.follow(curves.series.steps, curves.series.losses, VOCAB)
    assert marks.drop_step is not None and marks.plateau.isVisible()
    curves.grab()  # painted: a text's place among the curves is settled as it is drawn

    view = curves.loss_plot.getViewBox().sceneBoundingRect()
    boxes = {label.format: text_box(label) for label in (marks.plateau_label, marks.drop_label)}
    for words, box in boxes.items():
        assert points_under(box, curves.loss_curve) == 0, words
        assert view.contains(box), (words, box, view)
    plateau, drop_words = boxes.values()
    assert not plateau.intersects(drop_words)
