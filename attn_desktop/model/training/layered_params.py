"""The learned numbers of a model of attention-only layers (see layered_maths.py for what they compute):
their shapes, random first values from a seed, and nested lists (JSON) read back and checked.

Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.training.head_params import EMBEDDING_INIT_STD
from attn_desktop.model.training.induction_task import InductionTask

HEAD_GRID_NAMES = ("w_q", "w_k", "w_v")


@dataclass
class LayerParams:
    """One layer: each head's grids stacked, (heads, d_model, d_head), and W_O (heads·d_head, d_model)."""

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray

    @property
    def n_heads(self) -> int:
        return int(self.w_q.shape[0])


@dataclass
class LayeredParams:
    """The learned numbers of the whole model, all float64.

    embed (V, d_model), pos (L, d_model), layers (each a LayerParams), w_u (d_model, V), b_u (V,).
    """

    embed: np.ndarray
    pos: np.ndarray
    layers: list[LayerParams]
    w_u: np.ndarray
    b_u: np.ndarray

    def arrays(self) -> Iterator[tuple[str, np.ndarray]]:
        """Every array with a name that says where it sits ("layers.1.w_k"); the live arrays, in a fixed order."""
        yield "embed", self.embed
        yield "pos", self.pos
        for index, layer in enumerate(self.layers):
            for name in (*HEAD_GRID_NAMES, "w_o"):
                yield f"layers.{index}.{name}", getattr(layer, name)
        yield "w_u", self.w_u
        yield "b_u", self.b_u

    def copy(self) -> LayeredParams:
        return LayeredParams(
            embed=self.embed.copy(), pos=self.pos.copy(),
            layers=[LayerParams(*(getattr(layer, name).copy() for name in (*HEAD_GRID_NAMES, "w_o")))
                    for layer in self.layers],
            w_u=self.w_u.copy(), b_u=self.b_u.copy(),
        )

    def with_heads_silenced(self, heads: Collection[tuple[int, int]]) -> LayeredParams:
        """A copy in which HEADS, (layer, head) pairs, write nothing: their W_V is zero, so are their values and
        output, and the layers after read the stream without them (what layered_maths.forward's knocked_out
        computes, here in numbers a scene can hold)."""
        silenced = self.copy()
        for layer, head in heads:
            silenced.layers[layer].w_v[head] = 0.0
        return silenced

    def to_lists(self) -> dict[str, Any]:
        """The model as the issue's JSON has it: {embed, pos, layers: [{heads: [{w_q, w_k, w_v}], w_o}], w_u, b_u}."""
        return {
            "embed": self.embed.tolist(),
            "pos": self.pos.tolist(),
            "layers": [
                {"heads": [{name: getattr(layer, name)[head].tolist() for name in HEAD_GRID_NAMES}
                           for head in range(layer.n_heads)],
                 "w_o": layer.w_o.tolist()}
                for layer in self.layers
            ],
            "w_u": self.w_u.tolist(),
            "b_u": self.b_u.tolist(),
        }

    @property
    def d_model(self) -> int:
        return int(self.embed.shape[1])

    @property
    def d_head(self) -> int:
        return int(self.layers[0].w_q.shape[2])


def init_layered_params(task: InductionTask, seed: int) -> LayeredParams:
    """Random weights from SEED alone: grids scaled by 1/sqrt(their input width), word and position
    vectors small (as a single head's are), the unembedding's bias zero."""
    rng = np.random.default_rng([seed, 0])  # stream 0: the initial weights; stream 1: the batches
    d_model, d_head, heads, vocab = task.d_model, task.d_head, task.n_heads, len(task.vocab)

    def grid(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 1.0 / math.sqrt(shape[-2]), size=shape)

    return LayeredParams(
        embed=rng.normal(0.0, EMBEDDING_INIT_STD, size=(vocab, d_model)),
        pos=rng.normal(0.0, EMBEDDING_INIT_STD, size=(task.seq_len, d_model)),
        layers=[LayerParams(w_q=grid(heads, d_model, d_head), w_k=grid(heads, d_model, d_head),
                            w_v=grid(heads, d_model, d_head), w_o=grid(heads * d_head, d_model))
                for _ in range(task.n_layers)],
        w_u=grid(d_model, vocab),
        b_u=np.zeros(vocab),
    )


def layered_params_from_lists(task: InductionTask, document: Mapping[str, Any]) -> LayeredParams:
    """LayeredParams from nested lists (as to_lists writes them), checked against TASK's sizes.

    Raises ValueError naming the first part that is missing, not a grid of finite numbers, or of the
    wrong shape ("layers[1].heads[0].w_k: has shape (32, 3), expected (32, 16)").
    """
    vocab, length = len(task.vocab), task.seq_len
    embed = _grid(document, "embed", "embed")
    d_model = embed.shape[1] if embed.ndim == 2 else 0
    _expect(embed, (vocab, d_model), "embed")
    layers_read = document.get("layers")
    if not isinstance(layers_read, list) or not layers_read:
        raise ValueError(tr("layers: expected a list of layers"))
    layers = [_layer(layer, f"layers[{index}]", d_model) for index, layer in enumerate(layers_read)]
    params = LayeredParams(
        embed=embed, pos=_expect(_grid(document, "pos", "pos"), (length, d_model), "pos"), layers=layers,
        w_u=_expect(_grid(document, "w_u", "w_u"), (d_model, vocab), "w_u"),
        b_u=_expect(_grid(document, "b_u", "b_u"), (vocab,), "b_u"),
    )
    return params


def _layer(document: Any, where: str, d_model: int) -> LayerParams:
    if not isinstance(document, Mapping) or not isinstance(document.get("heads"), list) or not document["heads"]:
        raise ValueError(tr("{where}: expected {{heads: [...], w_o: [...]}} with at least one head").format(where=where))
    heads = document["heads"]
    first = _grid(heads[0], "w_q", f"{where}.heads[0].w_q") if isinstance(heads[0], Mapping) else None
    if first is None or first.ndim != 2:
        raise ValueError(tr("{name}: expected a grid of numbers").format(name=f"{where}.heads[0].w_q"))
    d_head = first.shape[1]
    for index, head in enumerate(heads):
        if not isinstance(head, Mapping):
            raise ValueError(tr("{where}: expected {{w_q, w_k, w_v}}").format(  # noqa: TRY004 (one error kind for a bad file)
                where=f"{where}.heads[{index}]"))
    stacks = {}
    for name in HEAD_GRID_NAMES:
        grids = []
        for index, head in enumerate(heads):
            label = f"{where}.heads[{index}].{name}"
            grids.append(_expect(_grid(head, name, label), (d_model, d_head), label))
        stacks[name] = np.stack(grids)
    w_o = _expect(_grid(document, "w_o", f"{where}.w_o"), (len(heads) * d_head, d_model), f"{where}.w_o")
    return LayerParams(w_q=stacks["w_q"], w_k=stacks["w_k"], w_v=stacks["w_v"], w_o=w_o)


def _grid(document: Mapping[str, Any], key: str, label: str) -> np.ndarray:
    if key not in document:
        raise ValueError(tr("{name}: missing").format(name=label))
    try:
        array = np.array(document[key], dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(tr("{name}: expected a grid of numbers").format(name=label)) from None
    if not np.all(np.isfinite(array)):
        raise ValueError(tr("{name}: holds a number that is not finite").format(name=label))
    return array


def _expect(array: np.ndarray, shape: tuple[int, ...], label: str) -> np.ndarray:
    if array.shape != shape or 0 in shape:
        raise ValueError(tr("{name}: has shape {shape}, expected {expected}").format(
            name=label, shape=array.shape, expected=shape))
    return array
