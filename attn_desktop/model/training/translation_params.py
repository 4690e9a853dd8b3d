"""The learned numbers of the translate task's encoder-decoder (translation_maths.py says what they compute):
their shapes, random first values from a seed, and the nested lists of the headless export.

Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.model.training.head_params import EMBEDDING_INIT_STD
from attn_desktop.model.training.layered_params import HEAD_GRID_NAMES, LayerParams
from attn_desktop.model.training.translation_task import TranslationTask

ATTENTION_NAMES = (*HEAD_GRID_NAMES, "w_o")
MLP_NAMES = ("w_in", "b_in", "w_out", "b_out")


@dataclass
class MlpParams:
    """relu(x W_in + b_in) W_out + b_out: w_in (d_model, width), b_in (width,), w_out (width, d_model), b_out (d_model,)."""

    w_in: np.ndarray
    b_in: np.ndarray
    w_out: np.ndarray
    b_out: np.ndarray


@dataclass
class EncoderLayerParams:
    """Self-attention over the source (its heads' grids and W_O, as layered_params.LayerParams), then an MLP or none."""

    attention: LayerParams
    mlp: MlpParams | None


@dataclass
class DecoderLayerParams:
    """Causal self-attention over the target, cross-attention from the target to the source, then an MLP or none."""

    self_attention: LayerParams
    cross: LayerParams
    mlp: MlpParams | None


@dataclass
class TranslationParams:
    """Every learned number, float64: the source's word and position vectors and encoder layers, the target's
    and decoder layers, and the unembedding w_u (d_model, target vocabulary) with its bias b_u."""

    source_embed: np.ndarray
    source_pos: np.ndarray
    encoder: list[EncoderLayerParams]
    target_embed: np.ndarray
    target_pos: np.ndarray
    decoder: list[DecoderLayerParams]
    w_u: np.ndarray
    b_u: np.ndarray

    def arrays(self) -> Iterator[tuple[str, np.ndarray]]:
        """Every array with a name that says where it sits ("decoder.layers.0.cross.w_q"): the live arrays, in a fixed order."""
        yield "encoder.embed", self.source_embed
        yield "encoder.pos", self.source_pos
        for index, layer in enumerate(self.encoder):
            yield from _attention_arrays(f"encoder.layers.{index}", layer.attention)
            yield from _mlp_arrays(f"encoder.layers.{index}.mlp", layer.mlp)
        yield "decoder.embed", self.target_embed
        yield "decoder.pos", self.target_pos
        for index, decoder_layer in enumerate(self.decoder):
            yield from _attention_arrays(f"decoder.layers.{index}.self", decoder_layer.self_attention)
            yield from _attention_arrays(f"decoder.layers.{index}.cross", decoder_layer.cross)
            yield from _mlp_arrays(f"decoder.layers.{index}.mlp", decoder_layer.mlp)
        yield "w_u", self.w_u
        yield "b_u", self.b_u

    def copy(self) -> TranslationParams:
        return TranslationParams(
            source_embed=self.source_embed.copy(), source_pos=self.source_pos.copy(),
            encoder=[EncoderLayerParams(_copy_attention(layer.attention), _copy_mlp(layer.mlp)) for layer in self.encoder],
            target_embed=self.target_embed.copy(), target_pos=self.target_pos.copy(),
            decoder=[DecoderLayerParams(_copy_attention(layer.self_attention), _copy_attention(layer.cross),
                                        _copy_mlp(layer.mlp)) for layer in self.decoder],
            w_u=self.w_u.copy(), b_u=self.b_u.copy(),
        )

    def to_lists(self) -> dict[str, Any]:
        """The model as the headless export writes it: {encoder: {embed, pos, layers: [{heads, w_o, mlp}]},
        decoder: {embed, pos, layers: [{self: {heads, w_o}, cross: {heads, w_o}, mlp}]}, w_u, b_u};
        mlp is null or {w_in, b_in, w_out, b_out}."""
        return {
            "encoder": {"embed": self.source_embed.tolist(), "pos": self.source_pos.tolist(),
                        "layers": [{**_attention_lists(layer.attention), "mlp": _mlp_lists(layer.mlp)}
                                   for layer in self.encoder]},
            "decoder": {"embed": self.target_embed.tolist(), "pos": self.target_pos.tolist(),
                        "layers": [{"self": _attention_lists(layer.self_attention), "cross": _attention_lists(layer.cross),
                                    "mlp": _mlp_lists(layer.mlp)} for layer in self.decoder]},
            "w_u": self.w_u.tolist(),
            "b_u": self.b_u.tolist(),
        }


def _attention_arrays(prefix: str, block: LayerParams) -> Iterator[tuple[str, np.ndarray]]:
    for name in ATTENTION_NAMES:
        yield f"{prefix}.{name}", getattr(block, name)


def _mlp_arrays(prefix: str, mlp: MlpParams | None) -> Iterator[tuple[str, np.ndarray]]:
    if mlp is not None:
        for name in MLP_NAMES:
            yield f"{prefix}.{name}", getattr(mlp, name)


def _copy_attention(block: LayerParams) -> LayerParams:
    return LayerParams(*(getattr(block, name).copy() for name in ATTENTION_NAMES))


def _copy_mlp(mlp: MlpParams | None) -> MlpParams | None:
    return None if mlp is None else MlpParams(*(getattr(mlp, name).copy() for name in MLP_NAMES))


def _attention_lists(block: LayerParams) -> dict[str, Any]:
    return {"heads": [{name: getattr(block, name)[head].tolist() for name in HEAD_GRID_NAMES}
                      for head in range(block.n_heads)],
            "w_o": block.w_o.tolist()}


def _mlp_lists(mlp: MlpParams | None) -> dict[str, Any] | None:
    return None if mlp is None else {name: getattr(mlp, name).tolist() for name in MLP_NAMES}


def init_translation_params(task: TranslationTask, seed: int) -> TranslationParams:
    """Random weights from SEED alone, as layered_params.init_layered_params makes them: grids scaled by
    1/sqrt(their input width), word and position vectors small, biases zero. The target's position table
    has a row for every step greedy decoding may take (task.max_decoded)."""
    rng = np.random.default_rng([seed, 0])  # stream 0: the initial weights; stream 1: the batches
    d_model, d_head, heads, width = task.d_model, task.d_head, task.n_heads, task.mlp_width

    def grid(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 1.0 / math.sqrt(shape[-2]), size=shape)

    def vectors(count: int) -> np.ndarray:
        return rng.normal(0.0, EMBEDDING_INIT_STD, size=(count, d_model))

    def attention() -> LayerParams:
        return LayerParams(w_q=grid(heads, d_model, d_head), w_k=grid(heads, d_model, d_head),
                           w_v=grid(heads, d_model, d_head), w_o=grid(heads * d_head, d_model))

    def mlp() -> MlpParams | None:
        if width == 0:
            return None
        return MlpParams(w_in=grid(d_model, width), b_in=np.zeros(width), w_out=grid(width, d_model), b_out=np.zeros(d_model))

    source_embed, source_pos = vectors(len(task.source_vocab)), vectors(task.max_source_words)
    encoder = [EncoderLayerParams(attention(), mlp()) for _ in range(task.encoder_layers)]
    target_embed, target_pos = vectors(len(task.target_vocab)), vectors(task.max_decoded)
    decoder = [DecoderLayerParams(attention(), attention(), mlp()) for _ in range(task.decoder_layers)]
    return TranslationParams(source_embed=source_embed, source_pos=source_pos, encoder=encoder,
                             target_embed=target_embed, target_pos=target_pos, decoder=decoder,
                             w_u=grid(d_model, len(task.target_vocab)), b_u=np.zeros(len(task.target_vocab)))
