"""One head of a pretrained model as an ordinary scene: its queries, keys and values for a sentence.

The scene reproduces the head exactly: the causal mask on and scores divided by
√head_width, as the model computed them. Its queries and keys are the ones RoPE
has already turned by their positions, so dragging one changes the turned vector.
With RoPE off they are the same head's q and k before the turns, so the scene's own
attention is the pattern the head would have without knowing where each word is
(the rest of the model, and so what the layer reads, unchanged).
Token names are made readable: the model's " cat" shows as "cat", a token of
whitespace as a visible symbol, and a word met twice stays two names ("the", "the₂").
"""

from __future__ import annotations

import numpy as np

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import DirectScene, TakenFrom
from attn_desktop.model.files.values import (
    MAX_ABS_COORDINATE,
    MAX_TITLE_CHARS,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
    MAX_WIDTH,
    is_valid_text,
)
from attn_desktop.model.files.version3_taken_from import MAX_SENTENCE_CHARS
from attn_desktop.model.pretrained.run import ModelRun

# Whitespace a student could not see, drawn as the symbols an editor shows for it.
VISIBLE_WHITESPACE = {" ": "␣", "\n": "⏎", "\r": "␍", "\t": "⇥", "\u00a0": "⍽"}
SUBSCRIPT_DIGITS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def scene_data_for_head(run: ModelRun, layer: int, head: int, rope: bool = True) -> DirectScene:
    """Head HEAD of layer LAYER (both from 0) reading RUN's sentence, as a scene of its q, k and v;
    ROPE false: q and k from before RoPE turned them.

    Raises ValueError for a layer or head the model does not have, or a head a scene cannot hold
    (vectors wider than a scene's limit, a sentence with more tokens than a scene may have, numbers
    beyond a scene's coordinates, which it could neither compute with nor save), or RoPE off for
    a run that did not keep q and k from before it.
    """
    if not (0 <= layer < run.layer_count and 0 <= head < run.head_count):
        raise ValueError(tr("{model} has layers 0 to {last_layer} and heads 0 to {last_head}; there is no layer "
                            "{layer}, head {head}").format(model=run.model_name, last_layer=run.layer_count - 1,
                                                           last_head=run.head_count - 1, layer=layer, head=head))
    if run.head_width > MAX_WIDTH:
        raise ValueError(tr("this model's heads are {width} numbers wide; a scene holds at most {limit}").format(
            width=run.head_width, limit=MAX_WIDTH))
    if len(run.tokens) > MAX_TOKENS:
        raise ValueError(tr("the sentence has {count} tokens; a scene holds at most {limit}").format(
            count=len(run.tokens), limit=MAX_TOKENS))
    queries, keys = _queries_and_keys(run, rope)
    roles = ((N_("layer {layer}, head {head}: its queries hold numbers beyond a scene's ±{limit} (the model's "
                 "numbers are too large to show)"), queries),
             (N_("layer {layer}, head {head}: its keys hold numbers beyond a scene's ±{limit} (the model's "
                 "numbers are too large to show)"), keys),
             (N_("layer {layer}, head {head}: its values hold numbers beyond a scene's ±{limit} (the model's "
                 "numbers are too large to show)"), run.values))
    for problem, arrays in roles:
        vectors = np.asarray(arrays[layer, head], dtype=np.float64)
        if not np.isfinite(vectors).all() or np.abs(vectors).max() > MAX_ABS_COORDINATE:
            raise ValueError(tr(problem).format(layer=layer, head=head, limit=f"{MAX_ABS_COORDINATE:g}"))
    tokens = readable_tokens(run.tokens)
    model, sentence = _model_name(run), _sentence(run)
    return DirectScene(
        tokens=tokens,
        queries=_rows(queries[layer, head]),
        keys=_rows(keys[layer, head]),
        values=_rows(run.values[layer, head]),
        scale=True,
        causal=True,
        selected=len(tokens) - 1,  # the last token: the one whose next word the model predicts
        title=head_title(model, layer, head, sentence, rope),
        taken_from=TakenFrom(model=model, layer=int(layer), head=int(head), sentence=sentence, rope=bool(rope)),
    )


def is_taken_from(run: ModelRun, taken_from: TakenFrom) -> bool:
    """Whether RUN is the model's reading of the sentence TAKEN_FROM names (so its heads can be opened again)."""
    return _model_name(run) == taken_from.model and _sentence(run) == taken_from.sentence


def _model_name(run: ModelRun) -> str:
    return _cut(_valid(run.model_name).strip(), MAX_TITLE_CHARS) or "a model"


def _sentence(run: ModelRun) -> str:
    return _cut(_valid(run.sentence), MAX_SENTENCE_CHARS)


def _queries_and_keys(run: ModelRun, rope: bool) -> tuple[np.ndarray, np.ndarray]:
    if rope:
        return run.queries, run.keys
    if run.unturned_queries is None or run.unturned_keys is None:
        raise ValueError(tr("this run of {model} did not keep q and k from before RoPE; "
                            "run the sentence again to open a head with RoPE off").format(model=run.model_name))
    return run.unturned_queries, run.unturned_keys


def head_title(model_name: str, layer: int, head: int, sentence: str, rope: bool = True) -> str:
    """'Layer 4, head 7 of SmolLM2-135M-Instruct: “The cat sat…”' (with '(RoPE off)' before the colon
    when q and k are from before the turns), within a scene title's limit."""
    off = "" if rope else " (RoPE off)"
    title = f"Layer {layer}, head {head} of {model_name}{off}: \u201c{sentence.strip()}\u201d"
    if len(title) <= MAX_TITLE_CHARS:
        return title
    return title[: MAX_TITLE_CHARS - 2] + "…\u201d"


def readable_tokens(tokens: list[str]) -> list[str]:
    """Each model token as a name a student can read and a scene can hold, every name different."""
    names = [_readable(token) for token in tokens]
    seen: dict[str, int] = {}
    distinct = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        distinct.append(name if count == 1 else _numbered(name, count, seen))
    return distinct


def _readable(token: str) -> str:
    """" cat" -> "cat"; "  " -> "␣␣"; "\\n" -> "⏎"; a name cut to fit a scene with "…"."""
    token = _valid(token)
    shown = token.strip(" ") or token  # the leading space marks a new word; a token of spaces stays spaces
    shown = "".join(VISIBLE_WHITESPACE.get(char, char) if char.isspace() or not char.isprintable() else char
                    for char in shown)
    shown = "".join(char if char.isprintable() else f"\\x{ord(char):02x}" for char in shown)
    if not shown.strip():
        shown = "␣"  # (an empty token, should a model make one)
    return _cut(shown, MAX_TOKEN_CHARS)


def _numbered(name: str, count: int, seen: dict[str, int]) -> str:
    """The second "the" is "the₂" (or "the₃" should a real "the₂" be in the sentence too)."""
    while True:
        suffix = str(count).translate(SUBSCRIPT_DIGITS)
        numbered = _cut(name, MAX_TOKEN_CHARS - len(suffix)) + suffix
        if numbered not in seen:
            seen[numbered] = 1
            return numbered
        count += 1


def _valid(text: str) -> str:
    """Half an emoji (a lone surrogate) becomes �: no file could hold it, so the scene could not be saved."""
    return text if is_valid_text(text) else "".join(char if is_valid_text(char) else "\ufffd" for char in text)


def _cut(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _rows(matrix: np.ndarray) -> list[list[float]]:
    rows: list[list[float]] = np.asarray(matrix, dtype=np.float64).tolist()
    return rows


def taken_from_notice(taken_from: TakenFrom, head_width: int) -> str:
    """What a scene taken from a model already holds, said plainly (and plainly when q and k are NOT turned)."""
    # Short enough for two lines on a 1024-pixel projector in presentation type: the canvas comes first. With
    # RoPE off that leaves no room for the model's name (the window's title gives it): what is unusual comes first.
    if not taken_from.rope:
        return tr("RoPE off: q and k as the model made them, before turning for their positions. Causal mask on, "
                  "÷\u00a0√{width}.").format(width=head_width)
    return tr("From {model}: causal mask on, scores ÷\u00a0√{width}, and q and k already turned "
              "by RoPE for their positions.").format(model=taken_from.model, width=head_width)


__all__ = ["head_title", "is_taken_from", "readable_tokens", "scene_data_for_head", "taken_from_notice"]
