"""The trained translator as the JSON document `attn-desktop train translate` writes: the vocabularies, the
weights, the held-out pairs with their alignment, how well it translates them, and one sentence's cross-attention.

Everything in it can be checked by hand from the weights alone (docs/developers.md states the forward pass):
the exact match is greedy decoding's, from <bos> to <eos> or MAX_DECODED tokens, on the test pairs written;
the example's cross-attention is its own decoding fed back, so row t is the position that wrote target word t.
Nothing here imports Qt.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attn_desktop.model.training.training import OPTIMISER_NAME
from attn_desktop.model.training.translation_maths import forward, loss_of
from attn_desktop.model.training.translation_params import TranslationParams
from attn_desktop.model.training.translation_task import EOS, TranslationPair, TranslationTask
from attn_desktop.model.training.translation_trainer import TranslationTrainer, greedy_decode, teacher_forced

TRANSLATION_FORMAT = "attention-desktop-trained-translator"
TRANSLATION_VERSION = 1
# A held-out sentence (never trained on) whose two noun phrases both cross: blanco-white, negro-black.
EXAMPLE_SOURCE = ("el", "lobo", "blanco", "ve", "el", "pajaro", "negro")


def translation_document(trainer: TranslationTrainer, seconds: float) -> dict[str, Any]:
    """format, version, task, source_vocab, target_vocab (with <bos> and <eos>), the shape and settings,
    model (translation_params.to_lists), test_pairs = [{source, target, alignment: [[t, s], ...]}],
    metrics = {loss, exact_match, steps, seconds} on the test pairs, and example = {source, target (the model's
    own words, to its <eos>), cross_attention[layer][head][t][s]}."""
    task, params = trainer.task, trainer.snapshot()
    pairs = task.held_out
    return {
        "format": TRANSLATION_FORMAT,
        "version": TRANSLATION_VERSION,
        "task": task.name,
        "source_vocab": list(task.source_vocab),
        "target_vocab": list(task.target_vocab),
        "max_source_words": task.max_source_words,
        "max_decoded": task.max_decoded,
        "d_model": task.d_model,
        "d_head": task.d_head,
        "optimiser": OPTIMISER_NAME,
        "seed": trainer.seed,
        "lr": trainer.lr,
        "batch_size": trainer.batch_size,
        "model": params.to_lists(),
        "test_pairs": [_pair_lists(pair) for pair in pairs],
        "metrics": {"loss": held_out_loss(task, params), "exact_match": greedy_exact_match(task, params, pairs),
                    "steps": trainer.steps, "seconds": round(seconds, 3)},
        "example": translation_example(task, params, EXAMPLE_SOURCE),
    }


def _pair_lists(pair: TranslationPair) -> dict[str, Any]:
    return {"source": list(pair.source), "target": list(pair.target),
            "alignment": [[t, s] for t, s in pair.alignment]}


def held_out_loss(task: TranslationTask, params: TranslationParams) -> float:
    """The mean cross-entropy over the held-out pairs' target words and <eos>, fed the right words."""
    batch = task.batch(task.held_out)
    with np.errstate(all="ignore"):  # huge weights: the writer refuses what is not finite
        return loss_of(forward(params, batch), batch)


def greedy_exact_match(task: TranslationTask, params: TranslationParams, pairs: tuple[TranslationPair, ...]) -> float:
    """The share of PAIRS whose greedy decoding is their target word for word, then <eos>."""
    decoded = greedy_decode(task, params, pairs)
    return sum(words == [*pair.target, EOS] for words, pair in zip(decoded, pairs)) / len(pairs)


def translation_example(task: TranslationTask, params: TranslationParams, source: tuple[str, ...]) -> dict[str, Any]:
    """SOURCE, the model's greedy translation of it (ending in <eos> unless it ran out of tokens), and every decoder
    layer's cross-attention weights, [layer][head][t][s]: row t is what the position writing target word t reads."""
    target = greedy_decode(task, params, [source])[0]
    result = teacher_forced(task, params, source, target)
    return {"source": list(source), "target": target,
            "cross_attention": [layer.cross.weights[0].tolist() for layer in result.decoder]}
