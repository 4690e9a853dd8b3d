"""Step-by-step generation with the key-value cache: what a step costs, and how it computes the very same numbers.

With a causal mask nothing after a token changes its keys and values, so a generation step computes only
the new token's row and reuses every earlier row (the cache). `multiply_adds` counts what that saves.

The same numbers, to the last bit. OpenBLAS multiplies the rows of a matrix product with several kernels,
chosen by how many rows the call has and where a row falls among them (measured: a row alone, the rows of a
block of 8 and the last 2 or 3 of an odd count each come out with different last bits, in float32 and
float64, on one thread or two). A cached step's single row would then differ from the same row of a whole
pass by a float32 rounding, which 30 layers grow to about 1e-6 in the logits. So:

* each row of a projection is its own matrix-vector product (`rows_times`: NumPy's stacked matmul of
  (n, 1, k) rows calls gemv once per row), the same call whatever else is computed. The matrix is taken a
  piece of CHUNK_BYTES at a time (a piece of its output rows, every row of the sentence through it before
  the next piece): each output is the same dot product, by the same kernel, as through the whole matrix
  (the bits are compared in tests/test_generation_cache.py), and the piece stays in the processor's cache,
  where a whole matrix (gate and up: 7 MB) was read again from memory for every token. A 250-token
  sentence's forward pass went from 31-61 s to 3.9-4.4 s on the 2-core machine at a load average of 8-10;
* the attention is computed in blocks of ROWS queries aligned on absolute positions (block b holds
  positions 8b to 8b + 7, missing rows zero) reading exactly the keys 0 to 8b + 7 (later ones zero and
  masked): a position's scores, softmax and mix are always the same call shape with the row at the same
  place, and their sums run over the same terms in the same order, in a whole pass and in a step.
"""

from __future__ import annotations

import math

import numpy as np

from attn_desktop.model.pretrained.gguf_config import LlamaConfig

ROWS = 8  # queries per block of the attention: a block of 8 goes through one kernel wherever its rows sit
CHUNK_BYTES = 1 << 19  # the piece of a matrix every row goes through before the next: well inside a core's L2
CHUNK_ALIGNMENT = 64  # a piece's rows: a multiple of this, so the kernel's columns fall as in the whole matrix


def multiply_adds(config: LlamaConfig, context: int, new_tokens: int, layers: int | None = None) -> int:
    """The multiply-adds of computing NEW_TOKENS tokens after CONTEXT tokens whose keys and values are reused,
    through LAYERS layers (all by default), and the last position's unembedding.

    Per token and layer: the q, k, v projections, the output projection and the MLP's three matrices;
    per query head, its scores q·k with the keys at or before it and its mix of their values (head_width
    each). The causal mask's skipped half is not counted (a model that computes it computes zeros).
    """
    layers = config.layer_count if layers is None else layers
    width, kv_width = config.width, config.kv_head_count * config.head_width
    projections = width * (width + 2 * kv_width) + width * width + 3 * width * config.ffn_width
    # position p reads p + 1 keys; the new tokens sit at positions context .. context + new_tokens - 1
    keys_read = new_tokens * context + new_tokens * (new_tokens + 1) // 2
    attention = 2 * config.head_count * config.head_width * keys_read
    unembedding = width * config.vocab_size if new_tokens else 0
    return layers * (new_tokens * projections + attention) + unembedding


def rows_times(rows: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """ROWS @ MATRIX.T, each row (n, k) multiplied on its own (see the module's docstring), so a row comes out
    the same however many were computed with it; a piece of MATRIX's rows at a time."""
    if len(rows) < 2:  # one row (a generation step) reads the matrix once anyway: no piece would be read twice
        return np.asarray(np.matmul(rows[:, None, :], matrix.T)[:, 0])
    product = np.empty((len(rows), len(matrix)), dtype=np.result_type(rows, matrix))
    step = max(CHUNK_ALIGNMENT, CHUNK_BYTES // max(matrix.shape[1] * matrix.itemsize, 1) // CHUNK_ALIGNMENT * CHUNK_ALIGNMENT)
    for start in range(0, len(matrix), step):
        piece = slice(start, start + step)
        np.matmul(rows[:, None, :], matrix[piece].T, out=product[:, None, piece])
    return product


def causal_attention(queries: np.ndarray, keys: np.ndarray, values: np.ndarray, first: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """softmax(q·k/√d) with the causal mask (float64) and the values it mixes (float32), block by block.

    QUERIES (heads, new, d) are positions FIRST.. FIRST + new - 1; KEYS and VALUES (kv_heads, n, d) every
    position from 0, n = FIRST + new, each read by heads / kv_heads query heads in turn (grouped-query
    attention). Returns the weights (heads, new, n) and the mix (heads, new, d).
    """
    return _attention(queries, keys, values, first)


def causal_weights(queries: np.ndarray, keys: np.ndarray, first: int) -> np.ndarray:
    """The weights of causal_attention alone (heads, new, n), to the last bit the same."""
    return _attention(queries, keys, None, first)[0]


def _attention(queries: np.ndarray, keys: np.ndarray, values: np.ndarray | None, first: int
               ) -> tuple[np.ndarray, np.ndarray]:
    heads, new, head_width = queries.shape
    kv_heads, n = keys.shape[:2]
    room = -(-n // ROWS) * ROWS
    # each key/value head repeated for the query heads that share it, as they are copied into the padding
    padded_keys = np.zeros((kv_heads, heads // kv_heads, room, head_width))
    padded_keys[:, :, :n] = keys[:, None]
    padded_keys = padded_keys.reshape(heads, room, head_width)
    padded_values = np.zeros((kv_heads, heads // kv_heads, room, head_width), dtype=np.float32)
    if values is not None:
        padded_values[:, :, :n] = values[:, None]
    padded_values = padded_values.reshape(heads, room, head_width)
    weights = np.zeros((heads, new, n))
    mixed = np.zeros((heads, new, head_width), dtype=np.float32)
    for block in range(first // ROWS, (n - 1) // ROWS + 1):
        low, high = max(first, block * ROWS), min(n, (block + 1) * ROWS)  # the positions of this block computed
        here = slice(low - block * ROWS, high - block * ROWS)
        block_weights = _block_weights(queries[:, low - first : high - first], padded_keys, block, here.start)
        weights[:, low - first : high - first, : min(n, (block + 1) * ROWS)] = block_weights[:, here, :n]
        if values is not None:
            mixed[:, low - first : high - first] = (block_weights.astype(np.float32)
                                                    @ padded_values[:, : block_weights.shape[-1]])[:, here]
    return weights, mixed


def _block_weights(queries: np.ndarray, keys: np.ndarray, block: int, offset: int) -> np.ndarray:
    """Block BLOCK's weights (heads, ROWS, seen), its QUERIES placed from row OFFSET, the others zero: every
    product of the same shape, each position's row at the same place in it."""
    heads, count, head_width = queries.shape
    seen = (block + 1) * ROWS  # the keys up to the block's last position
    placed = np.zeros((heads, ROWS, head_width))
    placed[:, offset : offset + count] = queries
    scores = placed @ keys[:, :seen].transpose(0, 2, 1)
    scores /= math.sqrt(head_width)
    scores[:, np.arange(seen)[None, :] > (block * ROWS + np.arange(ROWS))[:, None]] = -np.inf
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return np.asarray(scores)
