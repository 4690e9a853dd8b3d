"""The app's own dequantization gives the gguf package's numbers to the last bit, for every block type a
LLaMA file of the model pack holds and for the others it hands to the package; damaged rows are refused."""

from __future__ import annotations

import numpy as np
import pytest

gguf = pytest.importorskip("gguf")

from attn_desktop.model.pretrained import dequantize as dequantize_module
from attn_desktop.model.pretrained.dequantize import dequantize_into


def packed(kind_name, rows, width, seed=0):
    """Random weights (with a spread like a model's, some rows constant) quantized by the gguf package."""
    rng = np.random.default_rng(seed)
    weights = (rng.standard_normal((rows, width)) * rng.uniform(0.01, 3, size=(rows, 1))).astype(np.float32)
    weights[3::7] = 0.25  # blocks whose scale is zero
    kind = gguf.GGMLQuantizationType[kind_name]
    if kind_name == "F32":
        return weights, kind
    if kind_name == "F16":
        return weights.astype(np.float16), kind
    return gguf.quants.quantize(weights, kind), kind


@pytest.mark.parametrize("kind_name", ["Q4_1", "Q8_0", "F32", "F16", "Q4_0", "Q5_1"])
@pytest.mark.parametrize("rows, width", [(1, 32), (37, 576), (300, 1536)])
def test_the_same_bits_as_the_gguf_package(kind_name, rows, width, monkeypatch):
    monkeypatch.setattr(dequantize_module, "PIECE_VALUES", 5 * width)  # pieces of 5 rows: their seams are crossed
    raw, kind = packed(kind_name, rows, width)
    expected = np.asarray(gguf.quants.dequantize(raw, kind), dtype=np.float32)
    out = np.full((rows, width), np.nan, dtype=np.float32)
    dequantize_into(raw, kind, out)
    np.testing.assert_array_equal(out.view(np.uint32), expected.view(np.uint32))


def test_a_one_dimensional_tensor_fills_its_vector():
    weights = np.linspace(-2, 2, 576, dtype=np.float32)
    out = np.zeros(576, dtype=np.float32)
    dequantize_into(weights, gguf.GGMLQuantizationType.F32, out)
    np.testing.assert_array_equal(out, weights)


@pytest.mark.parametrize("kind_name", ["Q4_1", "Q8_0"])
def test_rows_too_short_for_their_weights_are_refused(kind_name):
    raw, kind = packed(kind_name, 4, 64)
    with pytest.raises(ValueError, match="do not hold 64 weights"):
        dequantize_into(raw[:, :-1], kind, np.empty((4, 64), dtype=np.float32))
