"""What the Training panel says in words: a pace in its list, and the status line under the buttons (the step,
the loss and accuracy, and when paused the accuracy on unseen examples), in the language shown."""

from __future__ import annotations

from attn_desktop.language import number, tr
from attn_desktop.language.numbers import significant, whole_number
from attn_desktop.model.training.training import StepMetrics
from attn_desktop.ui.training.training_worker import FRESH_EXAMPLES


def pace_text(pace: float | None) -> str:
    """"100 steps/s", or "As fast as possible" for no pace."""
    if pace is None:
        return tr("As fast as possible")
    # Translators: a training speed in the Training panel's list: steps per second.
    return tr("{count} steps/s").format(count=f"{pace:g}")


def status_text(step: int, last: StepMetrics | None, running: bool, fresh_accuracy: float | None,
                held_out: int | None = None) -> str:
    """"Step 120 · loss 0.34 · accuracy 88 %", and when paused, "Paused" with the accuracy on unseen examples.
    HELD_OUT: translate's count of held-out sentences (its accuracy is the exact match, measured on those)."""
    if last is None:
        text = tr("Step {step}").format(step=step)
    elif held_out is not None:
        text = tr("Step {step} · loss {loss} · exact match {accuracy} %").format(
            step=step, loss=significant(last.loss), accuracy=number(100 * last.accuracy, 0))
    else:
        text = tr("Step {step} · loss {loss} · accuracy {accuracy} %").format(
            step=step, loss=significant(last.loss), accuracy=number(100 * last.accuracy, 0))
    if running:
        return text
    if not step:
        return text + "\n" + tr("Paused: press Train or Step")
    if fresh_accuracy is None:
        return text + "\n" + tr("Paused")
    if held_out is not None:
        return text + "\n" + tr("Paused · exact match {accuracy} % on {count} held-out sentences").format(
            accuracy=number(100 * fresh_accuracy, 1), count=whole_number(held_out))
    return text + "\n" + tr("Paused · {accuracy} % right on {count} new examples").format(
        accuracy=number(100 * fresh_accuracy, 1), count=whole_number(FRESH_EXAMPLES))
