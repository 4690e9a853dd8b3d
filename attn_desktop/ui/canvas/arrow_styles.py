"""The canvas's arrows styled by weight: keys and values bolder and stronger with more weight and
labelled with it, the chosen query bold and named (the rules are geometry/weight_style.py's), and
names cut to fit beside a tip.
"""

from __future__ import annotations

import numpy as np

from attn_desktop.geometry.weight_style import crowded, looks, query_style, weight_label, weighted_styles
from attn_desktop.language import tr
from attn_desktop.model import HeadReading, Role, explain
from attn_desktop.model.explain import arrow_name
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT

PRESENTATION_NAME_CHARACTERS = 9
CLIPPED_NAME_LETTERS = 3  # a query's or word's shorter label keeps this many letters of its name ("x·bec…")
# A drag move restyles and relabels a few keys and values: the methods looked up once, not through PySide's
# attribute lookup on each arrow (0.4 µs a call). Called as (arrow, width, emphasis, dashed) and
# (arrow, label, short, short_names_it).
_SET_STYLE = ArrowItem.set_style
_SET_LABEL = ArrowItem.set_label


def short_name(token: str, line_scale: float) -> str:
    """A long name cut for an arrow's label (the arrow's tooltip has it whole); shorter still in
    presentation mode (LINE_SCALE over 1), whose large labels must fit beside their tips on a
    projector's narrow plots."""
    return explain.short_name(token, PRESENTATION_NAME_CHARACTERS if line_scale > 1 else
                              explain.SHORT_NAME_CHARACTERS)


def clipped_label(symbol: str, token: str) -> str:
    """A query's or word vector's shorter label, which still says whose it is: "x·bec…" for "x·because"
    where the whole finds no room by its tip; a short name is kept whole ("x·it")."""
    return arrow_name(symbol, explain.short_name(token, CLIPPED_NAME_LETTERS + 1))


def style_queries(queries: list[ArrowItem], scene: HeadReading, line_scale: float) -> None:
    """The chosen query bold, the others faded; in a crowded scene only the chosen one is named."""
    is_crowded = crowded(scene.n_tokens)
    for index, item in enumerate(queries):
        chosen = index == scene.selected
        width, emphasis = query_style(chosen, line_scale)
        item.set_style(width=width, emphasis=emphasis)
        # In a crowded scene only the chosen query is named; the rest would be a smear of text.
        # The chosen query's shorter label is its letter alone (it must be shown, by its tip if at all
        # possible); another's keeps a few letters of its name, so that it still says whose it is.
        token = scene.query_tokens[index]
        item.set_label(arrow_name(Role.QUERY.symbol, short_name(token, line_scale)) if chosen or not is_crowded else "",
                       short=Role.QUERY.symbol if chosen else clipped_label(Role.QUERY.symbol, token),
                       short_names_it=not chosen)


class KeyValueStyles:
    """Keys and values bolder with more of the chosen query's weights (those the canvas shows: an even split
    while veiled), dashed where masked, and labelled with their weight. After the first time, only the arrows
    whose look changed: a drag move changes the weights of all 64 keys of a crowded scene, the look of a few."""

    def __init__(self) -> None:
        self._styled: tuple[tuple, np.ndarray] | None = None  # what the arrows were last styled for, and their looks
        self._names: dict[tuple[Role, int], str] = {}  # each key's and value's name, for the context styled for

    def forget(self) -> None:
        """Style every arrow next time (new arrows, a new selection or new settings)."""
        self._styled = None

    def apply(self, arrows: dict[Role, list[ArrowItem]], scene: HeadReading, weights: np.ndarray, veiled: bool,
              line_scale: float) -> None:
        visible = scene.result.mask[scene.selected]
        is_crowded = crowded(scene.n_tokens)
        seen = looks(weights, visible, line_scale, is_crowded, veiled)
        context = (tuple(scene.tokens), line_scale, veiled, len(arrows[Role.KEY]), len(arrows[Role.VALUE]))
        if self._styled is not None and self._styled[0] == context and self._styled[1].shape == seen.shape:
            changed = np.flatnonzero((seen != self._styled[1]).any(axis=1)).tolist()
        else:
            changed = list(range(len(seen)))
        if self._styled is None or self._styled[0] != context:
            self._names = {}
        self._styled = context, seen
        if changed:
            self._style(arrows, scene, weights, visible, line_scale, veiled, changed)

    def _style(self, arrows: dict[Role, list[ArrowItem]], scene: HeadReading, weights: np.ndarray,
               visible: np.ndarray, line_scale: float, veiled: bool, indices: list[int]) -> None:
        """Style and label the keys and values at these INDICES."""
        styles = weighted_styles(weights[indices], visible[indices], line_scale)
        shown, seen = weights.tolist(), visible.tolist()
        is_crowded = crowded(scene.n_tokens)
        # Translators: an arrow's label on the canvas for a key the causal mask hides, e.g. "k·the masked"
        masked_text = tr("{name} masked")  # once per styling, not once per arrow
        for role in (Role.KEY, Role.VALUE):
            items = arrows[role]
            for index, (width, emphasis, dashed) in zip(indices, styles):
                if index >= len(items):
                    continue
                item = items[index]
                _SET_STYLE(item, width, emphasis, dashed)
                name = self._name(role, index, scene, line_scale)
                # Short: the name alone, where room is short.
                _SET_LABEL(item, weight_label(name, shown[index], seen[index], is_crowded, veiled, HIDDEN_TEXT,
                                              masked_text), name, True)

    def _name(self, role: Role, index: int, scene: HeadReading, line_scale: float) -> str:
        """"k·cat": the arrow's name, kept while the tokens and the type scale are (they are part of the context)."""
        name = self._names.get((role, index))
        if name is None:
            name = self._names[(role, index)] = arrow_name(role.symbol, short_name(scene.tokens[index], line_scale))
        return name
