"""A LLaMA-style language model's forward pass in NumPy, keeping every head's q, k, v and weights.

Each layer: RMSNorm, then grouped-query attention (queries and keys turned by RoPE, the causal
mask, softmax of q·k/√d), added back; RMSNorm, then the SwiGLU MLP, added back. The weights are
dequantized when the file is first loaded (later loads map them from the weights cache: loading.py),
laid out for the matrix products (q, k and v as one matrix, gate and up as one); RoPE's angles are
computed once. Each head's q and k are kept as the model made them too, before RoPE turned them
(a lesson shows a head without its rotation: ModelRun.attention_without_rope), and the stream after
each layer (the logit lens reads it).

A sentence that starts like an earlier one reuses the earlier one's keys and values for the shared start
(with a causal mask, nothing later changes them): typing a word at the end, or generating a token
(`extend`), costs only the new tokens, and gives the very numbers of the whole sentence computed afresh
(generation.py says how). Heads can be knocked out: their output zeroed before the layer's output
projection; the layers before the first knocked one are the intact run's, so only the later ones are
computed again. Runs are remembered by their tokens and knocked heads together.
"""

from __future__ import annotations

import dataclasses
import os
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.values import is_valid_text
from attn_desktop.model.pretrained.generation import causal_attention, multiply_adds, rows_times
from attn_desktop.model.pretrained.gguf_file import LlamaConfig, ModelFileError, Progress
from attn_desktop.model.pretrained.joined_weights import EMBEDDING, FINAL_NORM, LAYER_PARTS, UNEMBEDDING, layer_key
from attn_desktop.model.pretrained.loading import load_weights
from attn_desktop.model.pretrained.memory import give_freed_arrays_back
from attn_desktop.model.pretrained.next_token import SHOWN_TOKENS, NextTokenScores, likeliest_ids
from attn_desktop.model.pretrained.pack import PACK_MODEL_FILE, PACK_MODEL_NAME
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT, ModelRun
from attn_desktop.model.pretrained.tokenizer import ModelTokenizer

DEFAULT_SENTENCE = "The cat sat on the mat because it was tired"
MAX_SENTENCE_TOKENS = 256
# 256 tokens are a thousand characters or so: a sentence far longer is refused before a model is loaded.
MAX_SENTENCE_CHARS = 2_000
REMEMBERED_RUNS = 8  # recent sentences kept whole: going back to one is instant
# ... while they hold less than this: eight 256-token passes would hold 1.8 GB (the float64 weights most of it);
# knocking heads out keeps two passes a sentence (the intact one and the knocked), generating one a token
REMEMBERED_BYTES = 400_000_000

__all__ = ["DEFAULT_SENTENCE", "MAX_SENTENCE_CHARS", "MAX_SENTENCE_TOKENS", "HeadError", "KnockedOut", "LlamaConfig",
           "LlamaModel", "ModelFileError", "SentenceError", "knock_out_problem", "sentence_problem"]

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


@dataclass(frozen=True)
class _Layer:
    attn_norm: np.ndarray
    # Matrices as the file stores them, one row per output (x @ m.T; BLAS reads them transposed in place).
    qkv: np.ndarray       # (width + 2 kv_width, width): q, k and v side by side
    out: np.ndarray       # (width, width)
    ffn_norm: np.ndarray
    gate_up: np.ndarray   # (2 ffn_width, width)
    down: np.ndarray      # (width, ffn_width)


@dataclass(frozen=True)
class _Heads:
    """One layer's q, k and v split into heads, and q and k before RoPE turned them."""

    queries: np.ndarray           # (heads, n, head_width), turned
    keys: np.ndarray              # (kv_heads, n, head_width), turned
    values: np.ndarray            # (kv_heads, n, head_width)
    unturned_queries: np.ndarray  # (heads, n, head_width)
    unturned_keys: np.ndarray     # (kv_heads, n, head_width)


# one layer's new q, k, v (keys and values from position 0), weights, and the new tokens' stream after it
_LayerArrays = tuple[_Heads, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class _Pass:
    """The per-layer arrays of one sentence, kept to reuse for a sentence that starts the same."""

    token_ids: tuple[int, ...]
    knocked_out: frozenset[tuple[int, int]]
    queries: np.ndarray   # (layers, heads, n, head_width)
    keys: np.ndarray      # (layers, kv_heads, n, head_width)
    values: np.ndarray    # (layers, kv_heads, n, head_width)
    attention: np.ndarray  # (layers, heads, n, n)
    residuals: np.ndarray  # (layers, n, width): the stream after each layer (the last, before the final norm)
    # q and k before RoPE: a quarter more than the arrays above hold beside the float64 attention
    unturned_queries: np.ndarray  # (layers, heads, n, head_width)
    unturned_keys: np.ndarray     # (layers, kv_heads, n, head_width)
    reused_tokens: int = 0   # leading tokens whose keys and values came from a remembered pass
    multiply_adds: int = 0   # what computing this pass took (generation.multiply_adds)


_Key = tuple[tuple[int, ...], frozenset[tuple[int, int]]]  # a remembered pass: its token ids and knocked heads


class LlamaModel:
    def __init__(self, path: Path, config: LlamaConfig, tokenizer: ModelTokenizer, weights: dict[str, np.ndarray]):
        self.path = path
        self.config = config
        self.name = config.name
        self.tokenizer = tokenizer
        self._embed = weights[EMBEDDING]                       # (vocab, width)
        self._unembed = weights.get(UNEMBEDDING, self._embed)  # (vocab, width): often the same matrix
        self._final_norm = weights[FINAL_NORM]
        self._layers = [_Layer(*(weights[layer_key(index, part)] for part in LAYER_PARTS))
                        for index in range(config.layer_count)]
        self._cos, self._sin = _rope_tables(config, MAX_SENTENCE_TOKENS)
        if not (np.isfinite(self._cos).all() and np.isfinite(self._sin).all()):
            raise ModelFileError(tr("{file}: llama.rope.freq_base {base} turns the positions by angles too large "
                                    "to compute").format(file=path.name, base=f"{config.rope_base:g}"))
        self._recent: OrderedDict[_Key, _Pass] = OrderedDict()

    @classmethod
    def load(cls, path: str | os.PathLike[str], progress: Progress | None = None) -> LlamaModel:
        """Read, check and dequantize a GGUF file, or map its cached weights (call it off the GUI thread:
        seconds for SmolLM2 the first time, under one later)."""
        give_freed_arrays_back()
        loaded = load_weights(Path(path), progress)
        config = loaded.config
        if Path(path).name == PACK_MODEL_FILE:  # its metadata calls it "Smollm2 135M 8k Lc100K Mix1 Ep2"
            config = dataclasses.replace(config, name=PACK_MODEL_NAME)
        model = cls(Path(path), config, loaded.tokenizer, loaded.weights)
        # Weights too large to compute with are found now, while the model before this one is still in
        # place (the window keeps it); the window asks for this sentence first anyway, so it costs nothing.
        model.run(DEFAULT_SENTENCE)
        if progress is not None:
            progress(1.0, tr("Ready"))
        return model

    @property
    def memory_bytes(self) -> int:
        """What the dequantized weights take (float32)."""
        arrays = [self._embed, self._final_norm, self._cos, self._sin]
        if self._unembed is not self._embed:
            arrays.append(self._unembed)
        for layer in self._layers:
            arrays += [layer.attn_norm, layer.qkv, layer.out, layer.ffn_norm, layer.gate_up, layer.down]
        return sum(int(array.nbytes) for array in arrays)

    # ----- sentences ---------------------------------------------------------------------------
    def token_ids(self, sentence: str) -> list[int]:
        problem = sentence_problem(sentence)
        if problem:
            raise SentenceError(problem)
        ids = self.tokenizer.encode(sentence)
        if len(ids) > MAX_SENTENCE_TOKENS:
            raise SentenceError(tr("the sentence has {count} tokens; the limit is {limit}").format(
                count=f"{len(ids):,}", limit=MAX_SENTENCE_TOKENS))
        if not ids:
            raise SentenceError(tr("the sentence makes no tokens"))
        return ids

    def tokenize(self, sentence: str) -> list[str]:
        return [self.tokenizer.text_of(token) for token in self.token_ids(sentence)]

    def run(self, sentence: str, knocked_out: KnockedOut = frozenset()) -> ModelRun:
        """One sentence through every layer: each head's q, k, v and weights, and the next-token guess.
        KNOCKED_OUT (layer, head) pairs have their output zeroed before their layer's output projection."""
        knocked = self._checked_knocked_out(knocked_out)
        return self._run(self.token_ids(sentence), sentence, knocked)

    def run_token_ids(self, ids: list[int], knocked_out: KnockedOut = frozenset()) -> ModelRun:
        """Token ids read as they are (no beginning-of-text token added): a sequence no text would
        tokenize to, such as random tokens repeated. Its sentence is the tokens' text run together."""
        ids = self._checked_ids(ids)
        knocked = self._checked_knocked_out(knocked_out)
        return self._run(ids, "".join(self.tokenizer.text_of(token) for token in ids), knocked)

    def run_without_cache(self, ids: list[int], knocked_out: KnockedOut = frozenset()) -> ModelRun:
        """IDS computed whole, every layer and token, nothing remembered reused or kept: what a step of
        generation would cost without the key-value cache (the bench), and the reference a step must equal."""
        ids = self._checked_ids(ids)
        knocked = self._checked_knocked_out(knocked_out)
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            done = self._compute(tuple(ids), knocked, None)
        return self._run_of(done, "".join(self.tokenizer.text_of(token) for token in ids))

    def extend(self, run: ModelRun, token_id: int) -> ModelRun:
        """RUN's tokens and TOKEN_ID, with the same heads knocked out, computing only the new token: the
        earlier tokens' keys and values are RUN's (its pass is remembered again if it was forgotten)."""
        ids = self._checked_ids([*run.token_ids, token_id])
        knocked = self._checked_knocked_out(run.knocked_out)
        earlier = self._forward(tuple(run.token_ids), knocked)
        key = (tuple(ids), knocked)
        if key not in self._recent:
            with np.errstate(all="ignore"):
                self._remember(key, self._compute(key[0], knocked, earlier))
        return self._run(ids, run.sentence + self.tokenizer.text_of(ids[-1]), knocked)

    def logit_lens(self, run: ModelRun, position: int, count: int = 5) -> list[list[tuple[str, float]]]:
        """For each layer, the residual stream after it at POSITION through the final norm and the unembedding:
        the COUNT likeliest tokens and their probabilities (softmax at T = 1), one list per layer."""
        if run.residuals is None:
            raise ValueError(tr("this run of {model} did not keep its residual stream").format(model=run.model_name))
        n = len(run.token_ids)
        if not 0 <= position < n:
            raise ValueError(tr("position {position} is out of range: the sentence has positions 0 to {last}").format(
                position=position, last=n - 1))
        # the last layer's column is the prediction at that position, computed as a run computes its last one
        logits = [*self.logits(run.residuals[:-1, position]), self._last_logits(run.residuals[-1, position])]
        return [self._likeliest(layer_logits, count) for layer_logits in logits]

    def position_logits(self, run: ModelRun, positions: list[int]) -> np.ndarray:
        """The next-token logits (len(positions), vocab) at POSITIONS of RUN, from its last residual stream."""
        if run.residuals is None:
            raise ValueError(tr("this run of {model} did not keep its residual stream").format(model=run.model_name))
        return self.logits(run.residuals[-1][positions])

    def _checked_ids(self, ids: list[int]) -> list[int]:
        vocab_size = self._embed.shape[0]
        if not 1 <= len(ids) <= MAX_SENTENCE_TOKENS:
            raise SentenceError(f"{len(ids):,} tokens; the model reads 1 to {MAX_SENTENCE_TOKENS}")
        if any(not 0 <= token < vocab_size for token in ids):
            raise SentenceError(f"token ids must be from 0 to {vocab_size - 1}")
        return [int(token) for token in ids]

    def _checked_knocked_out(self, knocked_out: KnockedOut) -> frozenset[tuple[int, int]]:
        problem = knock_out_problem(self.name, self.config, knocked_out)
        if problem:
            raise HeadError(problem)
        return frozenset((int(layer), int(head)) for layer, head in knocked_out)

    def _run(self, ids: list[int], sentence: str, knocked: frozenset[tuple[int, int]]) -> ModelRun:
        return self._run_of(self._forward(tuple(ids), knocked), sentence)

    def _run_of(self, done: _Pass, sentence: str) -> ModelRun:
        ids = list(done.token_ids)
        logits = self._last_logits(done.residuals[-1, -1])
        self._check_finite(logits, tr("the next-token scores"))
        top = likeliest_ids(logits, SHOWN_TOKENS)
        n, last = len(ids), self.config.layer_count
        return ModelRun(
            model_name=self.name,
            sentence=sentence,
            token_ids=ids,
            tokens=[self.tokenizer.text_of(token) for token in ids],
            queries=done.queries,
            keys=np.repeat(done.keys, self._group, axis=1),
            values=np.repeat(done.values, self._group, axis=1),
            attention=done.attention,
            next_tokens=self._likeliest(logits),
            kv_group_size=self._group,
            unturned_queries=done.unturned_queries,
            unturned_keys=np.repeat(done.unturned_keys, self._group, axis=1),
            next_scores=NextTokenScores(logits, tuple(int(t) for t in top),
                                        tuple(self.tokenizer.text_of(int(t)) for t in top)),
            knocked_out=done.knocked_out,
            residuals=done.residuals,
            reused_tokens=done.reused_tokens,
            multiply_adds=done.multiply_adds,
            multiply_adds_without_cache=multiply_adds(self.config, 0, n, last),
        )

    def all_logits(self, sentence: str) -> np.ndarray:
        """The next-token logits at every position (n, vocab); the tests compare them with a reference."""
        ids = tuple(self.token_ids(sentence))
        return self.logits(self._forward(ids, frozenset()).residuals[-1])

    def _last_logits(self, final: np.ndarray) -> np.ndarray:
        """The next-token logits (vocab,) of one stream FINAL (width,): one row alone, as every run computes its
        last position's, so a step of generation and a whole pass give the same bits (generation.py)."""
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            normed = _rms_norm(final[None, :], self._final_norm, self.config.rms_epsilon)[0]
            return np.asarray(normed @ self._unembed.T)

    def logits(self, final: np.ndarray) -> np.ndarray:
        """FINAL (rows, width), residual streams, through the final norm and the unembedding: (rows, vocab),
        in one product (a row's last bits may differ from _last_logits': the lens and tests of many rows)."""
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            return np.asarray(_rms_norm(final, self._final_norm, self.config.rms_epsilon) @ self._unembed.T)

    def _check_finite(self, array: np.ndarray, what: str) -> None:
        """A number beyond float32's range, or NaN, in ARRAY: one line naming the file and where it happened."""
        if not np.isfinite(array).all():
            # Translators: {what} is one of "the next-token scores", "layer 3's attention output", ...
            raise ModelFileError(tr("{file}: {what} overflow (beyond float32's range, or NaN): "
                                    "the model's numbers are too large to compute with").format(
                                        file=self.path.name, what=what))

    def _likeliest(self, logits: np.ndarray, count: int = NEXT_TOKEN_COUNT) -> list[tuple[str, float]]:
        shifted = logits.astype(np.float64) - logits.max()
        probabilities = np.exp(shifted) / np.exp(shifted).sum()
        best = likeliest_ids(logits, count)  # not a sort of the whole vocabulary: 5 ms of a 50 ms step
        return [(self.tokenizer.text_of(int(token)), float(probabilities[token])) for token in best]

    @property
    def _group(self) -> int:
        return self.config.head_count // self.config.kv_head_count

    # ----- the forward pass -------------------------------------------------------------------
    def _forward(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]]) -> _Pass:
        """IDS with the KNOCKED heads, remembered, or computed from the cheapest start: a remembered pass with
        the same knocked heads sharing a start (its keys and values reused), else, with heads knocked out,
        the intact pass's stream at the first knocked layer (the layers before it are the intact ones)."""
        key = (ids, knocked)
        if key in self._recent:
            self._recent.move_to_end(key)
            return self._recent[key]
        start = self._reusable_start(ids, knocked)
        base = None
        if start is None and knocked:
            base = self._forward(ids, frozenset())
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            done = self._compute(ids, knocked, start, base)
        return self._remember(key, done)

    def _remember(self, key: _Key, done: _Pass) -> _Pass:
        """Keep DONE, forgetting the oldest passes beyond REMEMBERED_RUNS or REMEMBERED_BYTES (the last kept
        whatever its size: the next step of generation reads it)."""
        self._recent[key] = done
        while len(self._recent) > 1 and (len(self._recent) > REMEMBERED_RUNS
                                         or sum(map(_pass_bytes, self._recent.values())) > REMEMBERED_BYTES):
            self._recent.popitem(last=False)
        return done

    def _reusable_start(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]]) -> _Pass | None:
        """The remembered pass with the same knocked heads sharing the longest start with this one (at least a
        token), cut to that start."""
        best, best_length = None, 0
        for earlier in self._recent.values():
            length = _shared_start(earlier.token_ids, ids)
            if earlier.knocked_out == knocked and length > best_length:
                best, best_length = earlier, length
        if best is None:
            return None
        return _prefix(best, best_length)

    def _compute(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]], start: _Pass | None,
                 base: _Pass | None = None) -> _Pass:
        """IDS through the layers. START: a pass of their first tokens (the same knocked heads) whose keys and
        values are reused. BASE: the intact pass of IDS, whose layers before the first knocked one are copied."""
        done = 0 if start is None else len(start.token_ids)
        first_layer = 0 if base is None else min(layer for layer, _ in knocked)
        if base is not None and first_layer:
            x = base.residuals[first_layer - 1]
        else:
            x = self._embed[list(ids[done:])]
        positions = np.arange(done, len(ids))
        per_layer: list[_LayerArrays] = []
        for index in range(first_layer, self.config.layer_count):
            heads, weights, x = self._layer(index, x, positions, start, {h for layer, h in knocked if layer == index})
            per_layer.append((heads, weights, x))
        count = multiply_adds(self.config, done, len(positions), self.config.layer_count - first_layer)
        return self._assemble(ids, knocked, start, per_layer, base, first_layer, count)

    def _layer(self, index: int, x: np.ndarray, positions: np.ndarray, start: _Pass | None, knocked: set[int]
               ) -> tuple[_Heads, np.ndarray, np.ndarray]:
        """One layer on X, the stream of the tokens at POSITIONS: its heads, weights, and the stream after it."""
        c, layer = self.config, self._layers[index]
        first = int(positions[0])
        h = rows_times(_rms_norm(x, layer.attn_norm, c.rms_epsilon), layer.qkv)
        self._check_finite(h, tr("layer {layer}'s queries, keys and values").format(layer=index))
        heads = self._split_heads(h, positions)
        if start is not None:  # the shared start's keys and values, unchanged by anything after it
            heads = _after_start(heads, start, index)
        weights, mixed = causal_attention(heads.queries, heads.keys, heads.values, first)
        for head in knocked:  # a knocked-out head adds nothing to the stream
            mixed[head] = 0.0
        x = x + rows_times(mixed.transpose(1, 0, 2).reshape(len(positions), c.width), layer.out)
        self._check_finite(x, tr("layer {layer}'s attention output").format(layer=index))
        gate, up = np.split(rows_times(_rms_norm(x, layer.ffn_norm, c.rms_epsilon), layer.gate_up), 2, axis=-1)
        x = x + rows_times(_silu(gate) * up, layer.down)
        self._check_finite(x, tr("layer {layer}'s feed-forward output").format(layer=index))
        return heads, weights, x

    def _split_heads(self, h: np.ndarray, positions: np.ndarray) -> _Heads:
        c = self.config
        n, kv_width = len(positions), c.kv_head_count * c.head_width
        q = h[:, : c.width].reshape(n, c.head_count, c.head_width).transpose(1, 0, 2)
        k = h[:, c.width : c.width + kv_width].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        v = h[:, c.width + kv_width :].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        cos, sin = self._cos[positions], self._sin[positions]
        q, k = np.ascontiguousarray(q), np.ascontiguousarray(k)
        return _Heads(_rotate(q, cos, sin), _rotate(k, cos, sin), np.ascontiguousarray(v), q, k)

    def _assemble(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]], start: _Pass | None,
                  per_layer: list[_LayerArrays], base: _Pass | None, first_layer: int, count: int) -> _Pass:
        def stacked(part: str) -> np.ndarray:
            computed = np.stack([getattr(heads, part) for heads, _, _ in per_layer])
            return computed if base is None else np.concatenate([getattr(base, part)[:first_layer], computed])

        queries, unturned_queries = stacked("queries"), stacked("unturned_queries")
        n, done = len(ids), 0 if start is None else len(start.token_ids)
        residuals = np.stack([x for _, _, x in per_layer])
        attention = np.zeros((self.config.layer_count, self.config.head_count, n, n))
        if base is not None:  # the layers before the first knocked one, as the intact pass made them
            attention[:first_layer] = base.attention[:first_layer]
            residuals = np.concatenate([base.residuals[:first_layer], residuals])
        for index, (_, weights, _) in enumerate(per_layer):
            attention[first_layer + index, :, done:, :] = weights
        if start is not None:  # the new tokens' queries after the shared start's (keys and values are whole)
            queries = np.concatenate([start.queries, queries], axis=2)
            unturned_queries = np.concatenate([start.unturned_queries, unturned_queries], axis=2)
            attention[:, :, :done, :done] = start.attention
            residuals = np.concatenate([start.residuals, residuals], axis=1)
        return _Pass(ids, knocked, queries, stacked("keys"), stacked("values"), attention, residuals,
                     unturned_queries, stacked("unturned_keys"), done, count)


def _after_start(heads: _Heads, start: _Pass, layer: int) -> _Heads:
    """The new tokens' keys and values (turned and not) after the shared start's, which nothing later changes."""
    def joined(earlier: np.ndarray, new: np.ndarray) -> np.ndarray:
        return np.concatenate([earlier[layer], new], axis=1)

    return _Heads(heads.queries, joined(start.keys, heads.keys), joined(start.values, heads.values),
                  heads.unturned_queries, joined(start.unturned_keys, heads.unturned_keys))


def _pass_bytes(done: _Pass) -> int:
    """What a remembered pass holds (a pass cut from another shares its arrays: counted twice, to be safe)."""
    return sum(int(array.nbytes) for array in (done.queries, done.keys, done.values, done.attention, done.residuals,
                                               done.unturned_queries, done.unturned_keys))


def _shared_start(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    length = 0
    for first, second in zip(a, b):
        if first != second:
            break
        length += 1
    return min(length, len(b) - 1)  # at least the last token is computed afresh


def _prefix(done: _Pass, length: int) -> _Pass:
    return _Pass(
        done.token_ids[:length],
        done.knocked_out,
        done.queries[:, :, :length],
        done.keys[:, :, :length],
        done.values[:, :, :length],
        done.attention[:, :, :length, :length],
        done.residuals[:, :length],
        done.unturned_queries[:, :, :length],
        done.unturned_keys[:, :, :length],
    )


def _rms_norm(x: np.ndarray, weight: np.ndarray, epsilon: float) -> np.ndarray:
    # The mean square in double precision: squares of float32 overflow from 1.8e19, and x / inf would
    # quietly make a huge vector zero instead of letting the overflow show where it happens.
    mean_square = np.mean(np.square(x, dtype=np.float64), axis=-1, keepdims=True)
    return np.asarray(x / np.sqrt(mean_square + epsilon).astype(np.float32) * weight)


def _silu(x: np.ndarray) -> np.ndarray:
    return np.asarray(x / (np.float32(1) + np.exp(-x)))


def _rope_tables(config: LlamaConfig, length: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of each position's angle for each pair of dimensions, (length, head_width / 2).

    llama.cpp's converter reorders LLaMA's q and k rows so that RoPE turns adjacent pairs
    (dimensions 2i and 2i+1) by position · base^(-2i/d); the same numbers as the original model.
    """
    pairs = config.head_width // 2
    with np.errstate(all="ignore"):  # a base so small that 1 / base overflows is found by the caller
        frequencies = config.rope_base ** (-np.arange(pairs, dtype=np.float64) * 2 / config.head_width)
        angles = np.arange(length, dtype=np.float64)[:, None] * frequencies[None, :]
        return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Turn each adjacent pair of dimensions of x (heads, n, head_width) by its position's angle."""
    even, odd = x[..., 0::2], x[..., 1::2]
    turned = np.empty_like(x)
    turned[..., 0::2] = even * cos - odd * sin
    turned[..., 1::2] = even * sin + odd * cos
    return turned
