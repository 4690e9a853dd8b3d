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

What a sentence or a knocked head must be is checked in model_requests.py, a pass kept between sentences is
forward_pass.py's, and the norms and RoPE's turns are llama_maths.py's.
"""

from __future__ import annotations

import dataclasses
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.pretrained.forward_pass import (
    ForwardPass,
    LayerArrays,
    LayerHeads,
    PassKey,
    after_start,
    pass_bytes,
    prefix,
    shared_start,
)
from attn_desktop.model.pretrained.generation import causal_attention, multiply_adds, rows_times
from attn_desktop.model.pretrained.gguf_file import LlamaConfig, ModelFileError, Progress
from attn_desktop.model.pretrained.joined_weights import EMBEDDING, FINAL_NORM, LAYER_PARTS, UNEMBEDDING, layer_key
from attn_desktop.model.pretrained.llama_maths import rms_norm, rope_tables, rotate, silu
from attn_desktop.model.pretrained.loading import ModelWeights, load_weights, set_cache_aside
from attn_desktop.model.pretrained.memory import give_freed_arrays_back
from attn_desktop.model.pretrained.model_requests import (
    MAX_SENTENCE_CHARS,
    MAX_SENTENCE_TOKENS,
    HeadError,
    KnockedOut,
    SentenceError,
    knock_out_problem,
    sentence_problem,
)
from attn_desktop.model.pretrained.next_token import SHOWN_TOKENS, NextTokenScores, likeliest_ids
from attn_desktop.model.pretrained.pack import PACK_MODEL_FILE, PACK_MODEL_NAME
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT, ModelRun
from attn_desktop.model.pretrained.tokenizer import ModelTokenizer

DEFAULT_SENTENCE = "The cat sat on the mat because it was tired"
REMEMBERED_RUNS = 8  # recent sentences kept whole: going back to one is instant
# ... while they hold less than this: eight 256-token passes would hold 1.8 GB (the float64 weights most of it);
# knocking heads out keeps two passes a sentence (the intact one and the knocked), generating one a token
REMEMBERED_BYTES = 400_000_000

__all__ = ["DEFAULT_SENTENCE", "MAX_SENTENCE_CHARS", "MAX_SENTENCE_TOKENS", "HeadError", "KnockedOut", "LlamaConfig",
           "LlamaModel", "ModelFileError", "SentenceError", "knock_out_problem", "sentence_problem"]


@dataclass(frozen=True)
class _Layer:
    attn_norm: np.ndarray
    # Matrices as the file stores them, one row per output (x @ m.T; BLAS reads them transposed in place).
    qkv: np.ndarray       # (width + 2 kv_width, width): q, k and v side by side
    out: np.ndarray       # (width, width)
    ffn_norm: np.ndarray
    gate_up: np.ndarray   # (2 ffn_width, width)
    down: np.ndarray      # (width, ffn_width)


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
        self._cos, self._sin = rope_tables(config, MAX_SENTENCE_TOKENS)
        if not (np.isfinite(self._cos).all() and np.isfinite(self._sin).all()):
            raise ModelFileError(tr("{file}: llama.rope.freq_base {base} turns the positions by angles too large "
                                    "to compute").format(file=path.name, base=f"{config.rope_base:g}"))
        self._recent: OrderedDict[PassKey, ForwardPass] = OrderedDict()

    @classmethod
    def load(cls, path: str | os.PathLike[str], progress: Progress | None = None) -> LlamaModel:
        """Read, check and dequantize a GGUF file, or map its cached weights (call it off the GUI thread:
        a second or two for SmolLM2 the first time, under one later). After a first load the cache is
        written in the background (loading.finish_cache_writes waits for it)."""
        give_freed_arrays_back()
        loaded = load_weights(Path(path), progress)
        try:
            model = cls._built(Path(path), loaded)
        except Exception as error:
            if not loaded.from_cache:
                raise
            # A cache whose weights were rewritten along with their checksums: the file is read afresh,
            # and says for itself what is wrong with it, if anything is.
            set_cache_aside(Path(path), f"a model built from it fails: {type(error).__name__}: {error}")
            loaded = load_weights(Path(path), progress, use_cache=False)
            model = cls._built(Path(path), loaded)
        # Only now, on a thread of its own: the heads never wait for the cache, and a model that fails to
        # build is never cached.
        loaded.keep_in_cache()
        if progress is not None:
            progress(1.0, tr("Ready"))
        return model

    @classmethod
    def _built(cls, path: Path, loaded: ModelWeights) -> LlamaModel:
        config = loaded.config
        if path.name == PACK_MODEL_FILE:  # its metadata calls it "Smollm2 135M 8k Lc100K Mix1 Ep2"
            config = dataclasses.replace(config, name=PACK_MODEL_NAME)
        model = cls(path, config, loaded.tokenizer, loaded.weights)
        # Weights too large to compute with are found now, while the model before this one is still in
        # place (the window keeps it); the window asks for this sentence first anyway, so it costs nothing.
        model.run(DEFAULT_SENTENCE)
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

    def _run_of(self, done: ForwardPass, sentence: str) -> ModelRun:
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
            normed = rms_norm(final[None, :], self._final_norm, self.config.rms_epsilon)[0]
            return np.asarray(normed @ self._unembed.T)

    def logits(self, final: np.ndarray) -> np.ndarray:
        """FINAL (rows, width), residual streams, through the final norm and the unembedding: (rows, vocab),
        in one product (a row's last bits may differ from _last_logits': the lens and tests of many rows)."""
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            return np.asarray(rms_norm(final, self._final_norm, self.config.rms_epsilon) @ self._unembed.T)

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
    def _forward(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]]) -> ForwardPass:
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

    def _remember(self, key: PassKey, done: ForwardPass) -> ForwardPass:
        """Keep DONE, forgetting the oldest passes beyond REMEMBERED_RUNS or REMEMBERED_BYTES (the last kept
        whatever its size: the next step of generation reads it)."""
        self._recent[key] = done
        while len(self._recent) > 1 and (len(self._recent) > REMEMBERED_RUNS
                                         or sum(map(pass_bytes, self._recent.values())) > REMEMBERED_BYTES):
            self._recent.popitem(last=False)
        return done

    def _reusable_start(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]]) -> ForwardPass | None:
        """The remembered pass with the same knocked heads sharing the longest start with this one (at least a
        token), cut to that start."""
        best, best_length = None, 0
        for earlier in self._recent.values():
            length = shared_start(earlier.token_ids, ids)
            if earlier.knocked_out == knocked and length > best_length:
                best, best_length = earlier, length
        if best is None:
            return None
        return prefix(best, best_length)

    def _compute(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]], start: ForwardPass | None,
                 base: ForwardPass | None = None) -> ForwardPass:
        """IDS through the layers. START: a pass of their first tokens (the same knocked heads) whose keys and
        values are reused. BASE: the intact pass of IDS, whose layers before the first knocked one are copied."""
        done = 0 if start is None else len(start.token_ids)
        first_layer = 0 if base is None else min(layer for layer, _ in knocked)
        if base is not None and first_layer:
            x = base.residuals[first_layer - 1]
        else:
            x = self._embed[list(ids[done:])]
        positions = np.arange(done, len(ids))
        per_layer: list[LayerArrays] = []
        for index in range(first_layer, self.config.layer_count):
            heads, weights, x = self._layer(index, x, positions, start, {h for layer, h in knocked if layer == index})
            per_layer.append((heads, weights, x))
        count = multiply_adds(self.config, done, len(positions), self.config.layer_count - first_layer)
        return self._assemble(ids, knocked, start, per_layer, base, first_layer, count)

    def _layer(self, index: int, x: np.ndarray, positions: np.ndarray, start: ForwardPass | None, knocked: set[int]
               ) -> tuple[LayerHeads, np.ndarray, np.ndarray]:
        """One layer on X, the stream of the tokens at POSITIONS: its heads, weights, and the stream after it."""
        c, layer = self.config, self._layers[index]
        first = int(positions[0])
        h = rows_times(rms_norm(x, layer.attn_norm, c.rms_epsilon), layer.qkv)
        self._check_finite(h, tr("layer {layer}'s queries, keys and values").format(layer=index))
        heads = self._split_heads(h, positions)
        if start is not None:  # the shared start's keys and values, unchanged by anything after it
            heads = after_start(heads, start, index)
        weights, mixed = causal_attention(heads.queries, heads.keys, heads.values, first)
        for head in knocked:  # a knocked-out head adds nothing to the stream
            mixed[head] = 0.0
        x = x + rows_times(mixed.transpose(1, 0, 2).reshape(len(positions), c.width), layer.out)
        self._check_finite(x, tr("layer {layer}'s attention output").format(layer=index))
        gate, up = np.split(rows_times(rms_norm(x, layer.ffn_norm, c.rms_epsilon), layer.gate_up), 2, axis=-1)
        x = x + rows_times(silu(gate) * up, layer.down)
        self._check_finite(x, tr("layer {layer}'s feed-forward output").format(layer=index))
        return heads, weights, x

    def _split_heads(self, h: np.ndarray, positions: np.ndarray) -> LayerHeads:
        c = self.config
        n, kv_width = len(positions), c.kv_head_count * c.head_width
        q = h[:, : c.width].reshape(n, c.head_count, c.head_width).transpose(1, 0, 2)
        k = h[:, c.width : c.width + kv_width].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        v = h[:, c.width + kv_width :].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        cos, sin = self._cos[positions], self._sin[positions]
        q, k = np.ascontiguousarray(q), np.ascontiguousarray(k)
        return LayerHeads(rotate(q, cos, sin), rotate(k, cos, sin), np.ascontiguousarray(v), q, k)

    def _assemble(self, ids: tuple[int, ...], knocked: frozenset[tuple[int, int]], start: ForwardPass | None,
                  per_layer: list[LayerArrays], base: ForwardPass | None, first_layer: int, count: int) -> ForwardPass:
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
        return ForwardPass(ids, knocked, queries, stacked("keys"), stacked("values"), attention, residuals,
                     unturned_queries, stacked("unturned_keys"), done, count)


