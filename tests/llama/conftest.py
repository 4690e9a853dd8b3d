"""The tiny models the LLaMA tests load: each variant, and the default one, written once per test module."""

import pytest

from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.llama_reference import reference_model
from tests.support.tiny_llama import write_tiny_llama

# Tiny models that differ where a forward pass can go wrong: tied or separate output matrix,
# grouped (2 query heads per key/value head), plain (one each) and single-key/value-head attention,
# RoPE's base, head width, and weights stored in the real file's quantized types.
VARIANTS = {
    "tied, grouped": {"seed": 0},
    "untied, plain": {"seed": 1, "tied_embeddings": False, "kv_head_count": 4},
    "one kv head, 3 layers, base 1e5": {"seed": 2, "layer_count": 3, "kv_head_count": 1, "rope_base": 100000.0},
    "16-wide heads, untied": {"seed": 3, "width": 64, "head_count": 4, "kv_head_count": 2, "ffn_width": 96, "tied_embeddings": False},
    "stored as Q8_0": {"seed": 4, "width": 64, "head_count": 4, "kv_head_count": 2, "ffn_width": 64, "weight_type": "Q8_0"},
    "stored as Q4_1": {"seed": 5, "width": 64, "head_count": 2, "kv_head_count": 1, "ffn_width": 64, "weight_type": "Q4_1"},
}


@pytest.fixture(scope="module", params=list(VARIANTS), ids=list(VARIANTS))
def tiny(request, tmp_path_factory):
    """(the app's model, what the file holds) for each tiny variant, loaded once per module."""
    path = tmp_path_factory.mktemp("tiny") / "tiny-llama.gguf"
    info = write_tiny_llama(path, **VARIANTS[request.param])
    return LlamaModel.load(path), info


@pytest.fixture(scope="module")
def tiny_reference(tiny):
    """The transformers model for the tiny variant (built once: building it costs a third of a second)."""
    return reference_model(tiny[1])


@pytest.fixture(scope="module")
def default_tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny-llama.gguf"
    info = write_tiny_llama(path)
    return LlamaModel.load(path), info
