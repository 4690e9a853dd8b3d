"""What a screen reader says about the canvas's arrows: each arrow's description, and after a step (an arrow-key
nudge, a released drag) one announcement of what changed, from the model's numbers in the student's language.

Pure functions of a head's reading, so they are tested without a window and built once per step, never on the
paint path. "x 1.20, y 0.40" are the coordinates the canvas draws the tip at (for a wide vector, those of the
plane it is drawn in), which the caller passes in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_desktop.language import N_, percent, tr
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import Role
from attn_desktop.model.shown_numbers import shown_number, shown_vector

# Translators: what a screen reader reads after an arrow's name, e.g. "key of 'cat'", then where its tip is
WHAT_IT_IS = {
    Role.QUERY: N_("query of '{token}'"),
    Role.KEY: N_("key of '{token}'"),
    Role.VALUE: N_("value of '{token}'"),
    Role.EMBEDDING: N_("word vector of '{token}'"),
    Role.TARGET: N_("target word vector of '{token}'"),
}


def where(drawn: Sequence[float]) -> str:
    """"x 1.20, y 0.40" (one number on a number line: "x 1.20"), in the language's numbers."""
    if len(drawn) == 1:
        return tr("x {x}").format(x=shown_number(drawn[0]))
    # Translators: where an arrow's tip is drawn, read by a screen reader: "x 1.20, y 0.40"
    return tr("x {x}, y {y}").format(x=shown_number(drawn[0]), y=shown_number(drawn[1]))


def arrow_description(role: Role, token: str, drawn: Sequence[float]) -> str:
    """"key of 'cat', x 1.20, y 0.40": what an arrow is and where its tip is drawn."""
    # Translators: an arrow's description for a screen reader: "key of 'cat', x 1.20, y 0.40"
    return tr("{what}, {where}").format(what=tr(WHAT_IT_IS[role]).format(token=token), where=where(drawn))


def output_description(token: str, drawn: Sequence[float]) -> str:
    """"output of 'it', x 0.77, y 0.38": the chosen query's output arrow and where its tip is drawn."""
    return tr("{what}, {where}").format(what=tr("output of '{token}'").format(token=token), where=where(drawn))


def step_announcement(reading: HeadReading, role: Role, index: int, weights_before: np.ndarray,
                      drawn: Sequence[float], veiled: bool = False) -> str:
    """What one step of ROLE's arrow INDEX changed, e.g. "k·cat: 62%, now the highest. Output (0.77, 0.38)."

    WEIGHTS_BEFORE: the head's weights (every query's row) before the step, to tell what the step changed.
    DRAWN: where the arrow's tip is now drawn. VEILED: the student is predicting the weights, so the
    announcement says where the arrow is and nothing the weights or the output would tell."""
    name = reading.arrow_name(role, index)
    if veiled:
        return tr("{name}: {where}.").format(name=name, where=where(drawn))
    query = index if role in (Role.QUERY, Role.TARGET) else reading.selected
    if role in (Role.QUERY, Role.TARGET):  # a target word's vector moves its query
        change = _query_change(reading, query, weights_before[query])
    elif role is Role.VALUE:
        change = tr("{name}: {where}.").format(name=name, where=where(drawn))
    else:  # a key, or a word vector: its weight for the chosen query
        change = _weight_change(reading, name, query, index, weights_before[query])
    output = tr("Output {vector}.").format(vector=shown_vector(reading.result.output[query].tolist()))
    return f"{change} {output}"


def _weight_change(reading: HeadReading, name: str, query: int, key: int, before: np.ndarray) -> str:
    """"k·cat: 62%, now the highest." for the weight QUERY gives KEY; or that the mask hides it."""
    result = reading.result
    if not result.mask[query, key]:
        return tr("{name}: hidden from {query} by the causal mask.").format(
            name=name, query=reading.arrow_name(Role.QUERY, query))
    weights = result.weights[query]
    share = percent(float(weights[key]))
    highest, was_highest = _is_highest(weights, key), _is_highest(before, key)
    if highest and not was_highest:
        return tr("{name}: {percent}, now the highest.").format(name=name, percent=share)
    if highest:
        return tr("{name}: {percent}, the highest.").format(name=name, percent=share)
    if was_highest:
        return tr("{name}: {percent}, no longer the highest.").format(name=name, percent=share)
    return tr("{name}: {percent}.").format(name=name, percent=share)


def _query_change(reading: HeadReading, query: int, before: np.ndarray) -> str:
    """"q·it: the most weight on k·cat, 62%." (with "now" when the key it weighs most changed)."""
    weights = reading.result.weights[query]
    top = int(np.argmax(weights))
    texts = {"name": reading.arrow_name(Role.QUERY, query), "key": reading.arrow_name(Role.KEY, top),
             "percent": percent(float(weights[top]))}
    if int(np.argmax(before)) != top:
        return tr("{name}: now the most weight on {key}, {percent}.").format(**texts)
    return tr("{name}: the most weight on {key}, {percent}.").format(**texts)


def _is_highest(weights: np.ndarray, index: int) -> bool:
    """Whether INDEX has the row's largest weight (a tie counts: nothing weighs more)."""
    return bool(weights[index] >= weights.max())


def score_cell_names(reading: HeadReading, hidden: str | None = None) -> list[tuple[str, str, str]]:
    """The score table's cells as a screen reader names them, per key: ("it → cat: score 5.88", "it → cat: scaled
    score 4.16", "it → cat: weight 62%") for the chosen query. Masked keys and veiled numbers say so in words
    (a screen reader reads "?" as "question mark" and "—" as nothing); HIDDEN, if given, is what the numbers
    veiled while the student predicts are read as."""
    return [_score_row_names(reading, key, hidden) for key in range(reading.n_tokens)]


def _score_row_names(reading: HeadReading, key: int, hidden: str | None) -> tuple[str, str, str]:
    result, query = reading.result, reading.selected
    pair = {"query": reading.selected_token, "key": reading.tokens[key]}
    if not result.mask[query, key]:
        masked = tr("{query} → {key}: masked (a query sees only itself and earlier tokens)").format(**pair)
        return masked, masked, masked
    if hidden is not None:
        veiled = tr("{query} → {key}: {weight}").format(weight=hidden, **pair)
        return veiled, veiled, veiled
    # Translators: a score table cell read by a screen reader: "it → cat: score 5.88"
    score = tr("{query} → {key}: score {number}").format(number=shown_number(result.scores[query, key]), **pair)
    # Translators: the score after dividing by √d_k, read by a screen reader: "it → cat: scaled score 4.16"
    scaled = tr("{query} → {key}: scaled score {number}").format(number=shown_number(result.scaled[query, key]),
                                                                 **pair)
    # Translators: a key's softmax weight read by a screen reader: "it → cat: weight 62%"
    weight = tr("{query} → {key}: weight {number}").format(number=percent(float(result.weights[query, key])), **pair)
    return score, scaled, weight


def query_announcement(reading: HeadReading, veiled: bool = False) -> str:
    """After a key chose another query: "q·sat: the most weight on k·cat, 62%. Output (0.88, 0.20)." (VEILED,
    while the student predicts: only which query, nothing the weights would tell)."""
    query = reading.selected
    name = reading.arrow_name(Role.QUERY, query)
    if veiled:
        # Translators: said after a key chose another query while the weights are hidden: "q·sat chosen."
        return tr("{name} chosen.").format(name=name)
    weights = reading.result.weights[query]
    change = _query_change(reading, query, weights)  # (its own row before and after: no "now")
    output = tr("Output {vector}.").format(vector=shown_vector(reading.result.output[query].tolist()))
    return f"{change} {output}"
