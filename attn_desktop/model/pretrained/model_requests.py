"""What a language model is asked, checked: a sentence it can read, heads it has to knock out. The checks
need no model (a sentence too long is refused before seconds of loading); llama.py raises their errors."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.values import is_valid_text
from attn_desktop.model.pretrained.gguf_file import LlamaConfig

MAX_SENTENCE_TOKENS = 256
# 256 tokens are a thousand characters or so: a sentence far longer is refused before a model is loaded.
MAX_SENTENCE_CHARS = 2_000

KnockedOut = Collection[tuple[int, int]]  # (layer, head) pairs, numbered from 0


class SentenceError(ValueError):
    """A sentence the model cannot take (empty, not valid text, too long, or too many tokens)."""


def sentence_problem(sentence: str) -> str | None:
    """Why no model could take SENTENCE, found without one (so before seconds of loading), or None."""
    if not sentence.strip():
        return tr("the sentence is empty; type a few words")
    if not is_valid_text(sentence):  # a byte that is not UTF-8 arrives from a command line as a lone surrogate
        where = next(index for index, character in enumerate(sentence) if not is_valid_text(character))
        return tr("the sentence is not valid text (at character {place}: a byte that is not UTF-8, "
                  "or half a character)").format(place=where + 1)
    if len(sentence) > MAX_SENTENCE_CHARS:
        return tr("the sentence has {count} characters; the limit is {limit} (and {tokens} tokens)").format(
            count=f"{len(sentence):,}", limit=f"{MAX_SENTENCE_CHARS:,}", tokens=MAX_SENTENCE_TOKENS)
    return None


class HeadError(ValueError):
    """A (layer, head) the model does not have, asked to be knocked out."""


def knock_out_problem(model_name: str, config: LlamaConfig, knocked_out: KnockedOut) -> str | None:
    """Why MODEL_NAME cannot knock out the (layer, head) pairs of KNOCKED_OUT (one line), or None."""
    for layer, head in knocked_out:
        if not all(isinstance(number, (int, np.integer)) and not isinstance(number, bool) for number in (layer, head)):
            return tr("a head is a layer and a head numbered from 0, not ({layer}, {head})").format(
                layer=repr(layer), head=repr(head))
        if not 0 <= layer < config.layer_count:
            return tr("{model} has layers 0 to {last}; there is no layer {layer}").format(
                model=model_name, last=config.layer_count - 1, layer=layer)
        if not 0 <= head < config.head_count:
            return tr("{model} has heads 0 to {last} in each layer; there is no head {head}").format(
                model=model_name, last=config.head_count - 1, head=head)
    return None
