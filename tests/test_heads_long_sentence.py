"""A sentence near the 256-token limit: every head's weights as an independent reference computes them, and
`attn-desktop heads` writing exactly the JSON it always wrote (now made a head at a time)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.cli import heads as heads_command
from attn_desktop.cli import main
from attn_desktop.cli.heads import heads_document, heads_json_pieces
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, MAX_SENTENCE_TOKENS, LlamaModel
from attn_desktop.model.pretrained.run import ModelRun

from tests.support.tiny_llama import write_tiny_llama

TOLERANCE = 1e-5
LONG_SENTENCE = " ".join([DEFAULT_SENTENCE] * 12)  # 239 tokens for the tiny model


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny.gguf"
    written = write_tiny_llama(path, seed=11, layer_count=2, kv_head_count=2)
    return LlamaModel.load(path), written


def reference_attention(written: dict, ids: list[int]) -> np.ndarray:
    """Every layer's and head's weights (layers, heads, n, n), in float64, from the Hugging Face weights
    and Hugging Face's RoPE (each dimension i turned with dimension i + d/2): nothing shared with the app."""
    w, d = written["weights"], written["head_width"]
    heads, kv_heads, n = written["head_count"], written["kv_head_count"], len(ids)
    angles = np.arange(n)[:, None] * written["rope_base"] ** (-np.arange(0, d, 2) / d)[None, :]
    cos, sin = np.cos(np.concatenate([angles, angles], -1)), np.sin(np.concatenate([angles, angles], -1))

    def rope(t: np.ndarray) -> np.ndarray:
        return t * cos + np.concatenate([-t[..., d // 2:], t[..., : d // 2]], -1) * sin

    def norm(x: np.ndarray, name: str) -> np.ndarray:
        return x / np.sqrt(np.mean(x**2, -1, keepdims=True) + written["rms_epsilon"]) * w[name]

    def split(t: np.ndarray, count: int) -> np.ndarray:
        return t.reshape(n, count, d).transpose(1, 0, 2)

    x = w["model.embed_tokens.weight"][ids].astype(np.float64)
    found = []
    for layer in range(written["layer_count"]):
        p = f"model.layers.{layer}."
        h = norm(x, p + "input_layernorm.weight")
        q = rope(split(h @ w[p + "self_attn.q_proj.weight"].T, heads))
        k = np.repeat(rope(split(h @ w[p + "self_attn.k_proj.weight"].T, kv_heads)), heads // kv_heads, axis=0)
        v = np.repeat(split(h @ w[p + "self_attn.v_proj.weight"].T, kv_heads), heads // kv_heads, axis=0)
        scores = np.where(np.tril(np.ones((n, n), bool)), q @ k.transpose(0, 2, 1) / math.sqrt(d), -np.inf)
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        found.append(weights)
        x = x + (weights @ v).transpose(1, 0, 2).reshape(n, heads * d) @ w[p + "self_attn.o_proj.weight"].T
        h = norm(x, p + "post_attention_layernorm.weight")
        gate, up = h @ w[p + "mlp.gate_proj.weight"].T, h @ w[p + "mlp.up_proj.weight"].T
        x = x + (gate / (1 + np.exp(-gate)) * up) @ w[p + "mlp.down_proj.weight"].T
    return np.stack(found)


def test_a_long_sentences_heads_match_an_independent_reference(tiny):
    model, written = tiny
    run = model.run(LONG_SENTENCE)
    assert 230 <= len(run.token_ids) <= MAX_SENTENCE_TOKENS
    np.testing.assert_allclose(run.attention, reference_attention(written, run.token_ids), atol=TOLERANCE)


def test_heads_writes_a_long_sentence_as_the_json_of_every_weight(tiny, tmp_path, capsys):
    model, written = tiny
    out = tmp_path / "heads.json"
    assert main(["heads", LONG_SENTENCE, "--model", str(written["path"]), "-o", str(out)]) == 0
    expected = json.dumps(heads_document(model.run(LONG_SENTENCE)), separators=(",", ":"), allow_nan=False) + "\n"
    # The same numbers, to the last bit, as one json.dumps of the whole run (orjson, where installed, writes
    # 1e-05 as 1e-5: the same shortest digits).
    assert json.loads(out.read_text()) == json.loads(expected)
    assert np.array(json.loads(out.read_text())["attention"]).shape == (2, 4, 239, 239)


@pytest.mark.parametrize("formatter", ["orjson", "python"])
def test_the_pieces_are_json_dumps_text_also_for_weights_no_mask_made_zero(formatter, monkeypatch):
    if formatter == "orjson":
        pytest.importorskip("orjson")
    else:
        monkeypatch.setattr(heads_command, "_orjson", lambda: None)
    rng = np.random.default_rng(3)
    attention = np.tril(rng.random((2, 2, 5, 5)))
    attention[0, 0] = rng.random((5, 5))  # above the diagonal too
    attention[0, 1, 0, 4] = -0.0  # a zero written with its sign
    attention[1, 0, 3, 1] = 0.0
    attention[1, 1, 4, 2] = 1e-300
    run = ModelRun("tiny “é”", 'a "quoted" sentence', [1] * 5, ["a", "é", "\n", "😀", "b"], attention, attention,
                   attention, attention, [("x", 0.25), ("y", 1e-9)])
    expected = json.dumps(heads_document(run), separators=(",", ":"), allow_nan=False) + "\n"
    written = "".join(heads_json_pieces(run))
    assert json.loads(written) == json.loads(expected)
    assert str(json.loads(written)["attention"][0][1][0][4]) == "-0.0"  # the sign kept
    if formatter == "python":
        assert written == expected  # the very text


def test_weights_that_are_not_finite_are_refused_as_json_refuses_them():
    attention = np.tril(np.ones((1, 1, 3, 3)))
    attention[0, 0, 2, 1] = np.nan
    run = ModelRun("m", "s", [1] * 3, ["a"] * 3, attention, attention, attention, attention, [])
    with pytest.raises(ValueError, match="not JSON compliant"):
        "".join(heads_json_pieces(run))
