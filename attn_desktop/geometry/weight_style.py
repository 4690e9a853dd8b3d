"""How an arrow's look tells its weight: keys and values drawn bolder and stronger with more weight,
the chosen query bold and the others faded, a masked key dashed and pale; and what their labels say.

Plain numbers and text, no Qt: the canvas (ui/canvas/canvas.py) hands these to its arrows.
"""

from __future__ import annotations

import numpy as np

from attn_desktop.language import percent

FADED_QUERY_EMPHASIS = 0.35
MIN_WEIGHT_EMPHASIS = 0.22
MASKED_EMPHASIS = 0.18  # a key the mask hides: drawn dashed and this faint
MAX_PERCENT_LABELS = 16  # past this many tokens, "k·cat 76%" labels crowd the plot
CROWDED_LABEL_MIN_WEIGHT = 0.05  # ... and only keys and values with this much weight are named
ANSWER_MIN_WEIGHT = 0.005  # a key or value shown at 0 % is not where a class reads the answer, even if second heaviest
# An arrow's width and emphasis are rounded to steps a viewer can tell apart, as ArrowItem.set_style rounds them
# (the same steps; a test holds them together): a small change of weight then neither repaints an arrow nor, for
# the canvas, restyles it (see looks).
WIDTH_STEPS_PER_PX = 4
EMPHASIS_STEPS = 20


def crowded(n_tokens: int) -> bool:
    """Too many tokens to name every arrow: only those that matter are labelled."""
    return n_tokens > MAX_PERCENT_LABELS


def query_style(chosen: bool, line_scale: float) -> tuple[float, float]:
    """A query arrow's width and emphasis: the chosen one bold, the others faded."""
    return (3.5 if chosen else 2.0) * line_scale, 1.0 if chosen else FADED_QUERY_EMPHASIS


def weighted_styles(weights: np.ndarray, visible: np.ndarray, line_scale: float) -> list[tuple[float, float, bool]]:
    """Each key's (and its value's) width, emphasis and whether it is dashed, from the chosen query's WEIGHTS
    and which keys it may see (VISIBLE): wider and stronger for more weight, dashed and faint where masked."""
    return [((1.5 + 4.0 * weight) * line_scale,
             MIN_WEIGHT_EMPHASIS + (1 - MIN_WEIGHT_EMPHASIS) * weight if seen else MASKED_EMPHASIS,
             not seen)
            for weight, seen in zip(weights.tolist(), visible.tolist())]


def looks(weights: np.ndarray, visible: np.ndarray, line_scale: float, crowded: bool, veiled: bool) -> np.ndarray:
    """What a viewer sees of each key (and its value), one row each: its width and emphasis rounded as an arrow
    draws them, whether it is dashed, and what of its weight its label tells (see weight_label). Two moves that
    give an arrow the same row give it the same style and label: only the arrows whose row changed are restyled."""
    # Ufuncs and one array filled in place (np.rint is np.round's own rounding, half to even; minimum and maximum
    # clip): it runs on every drag move, where np.round's, np.clip's and np.column_stack's Python wrappers cost
    # more than the arithmetic on a few numbers.
    seen = np.empty((len(weights), 4))
    seen[:, 0] = np.rint((1.5 + 4.0 * weights) * line_scale * WIDTH_STEPS_PER_PX) / WIDTH_STEPS_PER_PX
    emphasis = np.where(visible, MIN_WEIGHT_EMPHASIS + (1 - MIN_WEIGHT_EMPHASIS) * weights, MASKED_EMPHASIS)
    seen[:, 1] = np.rint(np.minimum(np.maximum(emphasis, 0.0), 1.0) * EMPHASIS_STEPS) / EMPHASIS_STEPS
    seen[:, 2] = ~visible
    if crowded:
        seen[:, 3] = visible & (veiled | (weights >= CROWDED_LABEL_MIN_WEIGHT))
    else:
        seen[:, 3] = np.where(visible, -1.0 if veiled else np.rint(weights * 100), -2.0)
    return seen


def even_split(n_tokens: int) -> np.ndarray:
    """The weights shown while they are veiled (the student predicts them): an even split, so that no
    width, shade, stem or label order tells them."""
    return np.full(n_tokens, 1.0 / max(n_tokens, 1))


def weight_label(name: str, weight: float, visible: bool, crowded: bool, veiled: bool, hidden_text: str,
                 masked_text: str = "{name} masked") -> str:
    """'k·cat 76%' (or 'k·the masked', or HIDDEN_TEXT for the number while veiled); in a crowded scene,
    only keys that matter are named. MASKED_TEXT is "{name} masked" in the student's language (translated
    once by the caller, not once per arrow on every drag move)."""
    if crowded:
        return name if visible and (veiled or weight >= CROWDED_LABEL_MIN_WEIGHT) else ""
    if not visible:
        return masked_text.format(name=name)
    return f"{name} {hidden_text}" if veiled else f"{name} {percent(weight)}"
