"""Named quantities: the numbers a lesson file's exercises ask for and its challenges set conditions on,
worked out from a scene with the app's own attention (HeadReading.result), never computed again here.

    score(q, k)      the raw dot product q · k (result.scores), before any division by √d_k
    weight(q, k)     the softmax weight query q gives key k (result.weights)
    output(q, i)     number i (from 0) of query q's output (result.output)
    heaviest_key(q)  the key q gives the most weight, by name (ties: the first)
    entropy(q)       the entropy of q's weights in bits, −Σ w log₂ w (attention.entropy_bits)

Queries and keys are named by their tokens ("cat"). A token that appears more than once in the sentence is
named by its place among its namesakes, counted from 1: "the#1", "the#2"; "the" alone is then ambiguous and
refused. A token whose own name has a '#' is found by its exact name first. Each quantity reads one head,
"at" = (layer, head), counted from 0; a one-head scene's is (0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.attention import entropy_bits
from attn_desktop.model.files.values import describe
from attn_desktop.model.head_reading import HeadReading, read
from attn_desktop.model.scene import Scene
from attn_desktop.model.teaching.lesson_file_checks import LessonFileError, out_of_range, quoted

QUANTITIES = ("score", "weight", "output", "heaviest_key", "entropy")
WITH_KEY = ("score", "weight")
COMPARISONS = (">=", "<=", ">", "<")
TIE_TOLERANCE = 1e-12  # weights this close to the largest count as heaviest too


@dataclass(frozen=True)
class Quantity:
    """One named number (or, for heaviest_key, one key's name) of a scene."""

    name: str  # one of QUANTITIES
    query: str
    key: str = ""  # score and weight only
    component: int = 0  # output only
    at: tuple[int, int] = (0, 0)  # (layer, head)

    @property
    def is_number(self) -> bool:
        return self.name != "heaviest_key"


@dataclass(frozen=True)
class Condition:
    """A challenge's condition: a number compared with a value, or the heaviest key equal to a named key."""

    quantity: Quantity
    compare: str = ""  # one of COMPARISONS, for a number
    value: float = 0.0
    equals: str = ""  # a key's name, for heaviest_key


def reading_of(scene: Scene | HeadReading, at: tuple[int, int], where: str = "at") -> HeadReading:
    """Head AT = (layer, head) of SCENE, read through a view of its own; LessonFileError if it has no such head."""
    found = scene.scene if isinstance(scene, HeadReading) else scene
    layer, head = at
    if not (0 <= layer < len(found.layers) and 0 <= head < len(found.layers[layer].heads)):
        raise LessonFileError(tr("{where}: the scene has no head {head} in layer {layer} (both counted from 0)").format(
            where=where, head=head, layer=layer))
    return read(found, layer, head)


def names_of(tokens: list[str]) -> list[str]:
    """Each token's name in a lesson file: its own, or name#n where the sentence has it more than once."""
    counts: dict[str, int] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for token in tokens:
        seen[token] = seen.get(token, 0) + 1
        names.append(token if counts[token] == 1 else f"{token}#{seen[token]}")
    return names


def key_names(reading: HeadReading) -> list[str]:
    return names_of(reading.tokens)


def query_names(reading: HeadReading) -> list[str]:
    return names_of(reading.query_tokens)


def token_index(name: str, tokens: list[str], where: str) -> int:
    """Which of TOKENS NAME names; LessonFileError when none does, or several do."""
    names = names_of(tokens)
    if names.count(name) == 1:  # (a token named "the#1" beside two "the" makes the name twice: ambiguous)
        return names.index(name)
    if tokens.count(name) > 1 or names.count(name) > 1:
        raise LessonFileError(tr("{where}: {name} is in the sentence {count} times; write {first} or {second} "
                                 "to say which").format(where=where, name=quoted(name), first=f"{name}#1",
                                                        count=max(tokens.count(name), names.count(name)),
                                                        second=f"{name}#2"))
    raise LessonFileError(tr("{where}: no token is named {name}; the names here are {names}").format(
        where=where, name=quoted(name), names=", ".join(names)[:300]))


def evaluate(quantity: Quantity, scene: Scene | HeadReading, where: str = "quantity") -> float | str:
    """QUANTITY's value in SCENE as it is now: a number, or for heaviest_key the key's name."""
    reading = reading_of(scene, quantity.at, f"{where}.at")
    result = reading.result
    query = token_index(quantity.query, reading.query_tokens, f"{where}.query")
    if quantity.name in WITH_KEY:
        key = token_index(quantity.key, reading.tokens, f"{where}.key")
        table = result.scores if quantity.name == "score" else result.weights
        return float(table[query, key])
    if quantity.name == "output":
        width = result.output.shape[1]
        if not 0 <= quantity.component < width:
            raise out_of_range(quantity.component, f"{where}.component", 0, width - 1)
        return float(result.output[query, quantity.component])
    if quantity.name == "entropy":
        return float(entropy_bits(result.weights[query]))
    if quantity.name == "heaviest_key":
        return key_names(reading)[int(np.argmax(result.weights[query]))]
    raise LessonFileError(tr("{where}: expected one of {allowed}, found {found}").format(
        where=f"{where}.quantity", allowed=", ".join(QUANTITIES), found=describe(quantity.name)))


def holds(condition: Condition, scene: Scene | HeadReading, where: str = "condition") -> bool:
    """Whether CONDITION holds in SCENE as it is now (a tie for the heaviest key counts as heaviest)."""
    quantity = condition.quantity
    if not quantity.is_number:
        reading = reading_of(scene, quantity.at, f"{where}.at")
        row = reading.result.weights[token_index(quantity.query, reading.query_tokens, f"{where}.query")]
        wanted = token_index(condition.equals, reading.tokens, f"{where}.equals")
        return bool(row[wanted] >= row.max() - TIE_TOLERANCE)
    value = evaluate(quantity, scene, where)
    assert isinstance(value, float)
    return _compare(value, condition.compare, condition.value)


def _compare(found: float, compare: str, value: float) -> bool:
    comparisons: dict[str, Any] = {">=": found >= value, "<=": found <= value, ">": found > value, "<": found < value}
    return bool(comparisons[compare])


def check_names(quantity: Quantity, scene: Scene, where: str) -> None:
    """Refuse a quantity whose head, tokens or component SCENE does not have (evaluating it says which)."""
    evaluate(quantity, scene, where)
