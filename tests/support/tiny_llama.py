"""A tiny random LLaMA-style model written as a GGUF file, the way llama.cpp's converter writes one.

Tests load it with the app's own loader exactly like the real SmolLM2 file, and build an
independent reference (the `transformers` LLaMA) from the weights `write_tiny_llama` returns.

What the file shares with a real converted LLaMA (convert_hf_to_gguf.py, LlamaModel):
- the `llama.*` hyperparameter keys and the `token_embd` / `blk.N.*` / `output*` tensor names;
- the rows of attn_q and attn_k permuted so that llama.cpp's RoPE (which rotates adjacent pairs
  of a head's dimensions) computes what Hugging Face's (which pairs dimension i with i + d/2)
  computes on the unpermuted weights; the returned weights are the unpermuted (Hugging Face) ones;
- a byte-level BPE vocabulary ("gpt2" model, "smollm" pre-tokenizer: digits split one by one)
  with merges stored as "left right" strings, control-typed special tokens, and no BOS added.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")  # ids 0, 1, 2 as in SmolLM2
UNKNOWN_ID, BOS_ID, EOS_ID = 0, 1, 2
NORMAL_TOKEN, CONTROL_TOKEN = 1, 3  # gguf.TokenType.NORMAL, gguf.TokenType.CONTROL

# BPE merges, highest priority first ("Ġ" is the byte-level character for a space). With them
# "The cat sat on the mat because it was tired" splits into
# The | Ġcat | Ġsat | Ġon | Ġthe | Ġmat | Ġbe c a u s e | Ġit | Ġwas | Ġt i r e d.
# "2 0" can never apply under the "smollm" pre-tokenizer, which cuts every digit off alone.
MERGES = (
    "Ġ t", "h e", "Ġt he", "T he", "a t", "Ġ c", "Ġc at", "Ġ s", "Ġs at", "Ġ m", "Ġm at",
    "o n", "Ġ on", "i t", "Ġ it", "Ġ w", "a s", "Ġw as", "Ġ b", "Ġb e", "i n", "2 0",
)

DEFAULT_SENTENCE_TOKENS = [
    "The", " cat", " sat", " on", " the", " mat", " be", "c", "a", "u", "s", "e",
    " it", " was", " t", "i", "r", "e", "d",
]


def byte_level_characters() -> list[str]:
    """GPT-2's printable stand-in character for each byte 0..255 (byte order)."""
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    characters = {byte: chr(byte) for byte in printable}
    shifted = 0
    for byte in range(256):
        if byte not in characters:
            characters[byte] = chr(256 + shifted)
            shifted += 1
    return [characters[byte] for byte in range(256)]


def vocabulary() -> tuple[list[str], list[int], list[str]]:
    """(tokens, token types, merges) of the tiny tokenizer."""
    tokens = list(SPECIAL_TOKENS) + byte_level_characters()
    for merge in MERGES:
        left, right = merge.split(" ")
        if left + right not in tokens:
            tokens.append(left + right)
    types = [CONTROL_TOKEN] * len(SPECIAL_TOKENS) + [NORMAL_TOKEN] * (len(tokens) - len(SPECIAL_TOKENS))
    return tokens, types, list(MERGES)


def permute_for_llama_cpp(weights: np.ndarray, head_count: int) -> np.ndarray:
    """convert_hf_to_gguf.py's LlamaModel.permute: within each head, interleave the two halves of
    the rows (row i of the first half and row i of the second half become rows 2i and 2i + 1)."""
    return (
        weights.reshape(head_count, 2, weights.shape[0] // head_count // 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


def random_weights(
    rng: np.random.Generator, *, layer_count: int, width: int, head_count: int, kv_head_count: int,
    ffn_width: int, vocab_size: int, tied_embeddings: bool,
) -> dict[str, np.ndarray]:
    """Hugging Face LlamaForCausalLM state-dict names -> float32 arrays (out, in)."""
    head_width = width // head_count

    def matrix(rows: int, columns: int, gain: float = 1.0) -> np.ndarray:
        # Scaled so activations stay near unit size and attention is neither uniform nor one-hot.
        return (rng.standard_normal((rows, columns)) * gain / np.sqrt(columns)).astype(np.float32)

    def norm() -> np.ndarray:
        return (1.0 + 0.2 * rng.standard_normal(width)).astype(np.float32)

    weights = {"model.embed_tokens.weight": rng.standard_normal((vocab_size, width)).astype(np.float32)}
    for layer in range(layer_count):
        prefix = f"model.layers.{layer}."
        weights[prefix + "self_attn.q_proj.weight"] = matrix(head_count * head_width, width, 2.0)
        weights[prefix + "self_attn.k_proj.weight"] = matrix(kv_head_count * head_width, width, 2.0)
        weights[prefix + "self_attn.v_proj.weight"] = matrix(kv_head_count * head_width, width)
        weights[prefix + "self_attn.o_proj.weight"] = matrix(width, head_count * head_width)
        weights[prefix + "mlp.gate_proj.weight"] = matrix(ffn_width, width)
        weights[prefix + "mlp.up_proj.weight"] = matrix(ffn_width, width)
        weights[prefix + "mlp.down_proj.weight"] = matrix(width, ffn_width)
        weights[prefix + "input_layernorm.weight"] = norm()
        weights[prefix + "post_attention_layernorm.weight"] = norm()
    weights["model.norm.weight"] = norm()
    if not tied_embeddings:
        weights["lm_head.weight"] = matrix(vocab_size, width)
    return weights


def gguf_tensor_name(hf_name: str) -> str:
    """The GGUF name llama.cpp's converter gives a Hugging Face LLaMA tensor."""
    fixed = {
        "model.embed_tokens.weight": "token_embd.weight",
        "model.norm.weight": "output_norm.weight",
        "lm_head.weight": "output.weight",
    }
    if hf_name in fixed:
        return fixed[hf_name]
    per_layer = {
        "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v",
        "self_attn.o_proj": "attn_output", "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
        "mlp.down_proj": "ffn_down", "input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm",
    }
    _, _, layer, *part, _ = hf_name.split(".")
    return f"blk.{layer}.{per_layer['.'.join(part)]}.weight"


def stored(array: np.ndarray, weight_type: str) -> tuple[np.ndarray, np.ndarray]:
    """(what goes into the file, what the file's reader gets back after dequantizing)."""
    import gguf

    if array.ndim == 1 or weight_type == "F32":  # the converter keeps norms in float32
        return array, array
    if weight_type == "F16":
        half = array.astype(np.float16)
        return half, half.astype(np.float32)
    quant = gguf.GGMLQuantizationType[weight_type]
    packed = gguf.quants.quantize(array, quant)
    return packed, gguf.quants.dequantize(packed, quant).astype(np.float32)


def write_tiny_llama(
    path, *, seed: int = 0, layer_count: int = 2, width: int = 32, head_count: int = 4,
    kv_head_count: int = 2, ffn_width: int = 48, tied_embeddings: bool = True, name: str = "tiny-llama",
    weight_type: str = "F32", context_length: int = 64, rope_base: float = 10000.0,
    rms_epsilon: float = 1e-5, metadata: dict | None = None, tensors: dict | None = None,
) -> dict:
    """Write a random LLaMA-style GGUF file at `path`; return its config and Hugging Face weights.

    weight_type "F32" (default), "F16", "Q8_0" or "Q4_1" (the quantized ones need widths that are
    multiples of 32) sets how the matrices are stored; the returned weights are what the file really
    holds after dequantizing, so a reference built from them matches the file exactly.

    METADATA and TENSORS change the file the way a damaged or hostile one differs: each entry
    replaces the field or tensor of that GGUF name (added if new), None removes it; a field's value
    is written as the GGUF type a Python value of its kind takes (see metadata_value).
    """
    import gguf

    tokens, token_types, merges = vocabulary()
    head_width = width // head_count
    rng = np.random.default_rng(seed)
    weights = random_weights(
        rng, layer_count=layer_count, width=width, head_count=head_count, kv_head_count=kv_head_count,
        ffn_width=ffn_width, vocab_size=len(tokens), tied_embeddings=tied_embeddings,
    )

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(name)
    writer.add_block_count(layer_count)
    writer.add_context_length(context_length)
    writer.add_embedding_length(width)
    writer.add_feed_forward_length(ffn_width)
    writer.add_head_count(head_count)
    writer.add_head_count_kv(kv_head_count)
    writer.add_rope_freq_base(rope_base)
    writer.add_layer_norm_rms_eps(rms_epsilon)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32 if weight_type == "F32" else gguf.LlamaFileType.MOSTLY_F16)
    writer.add_vocab_size(len(tokens))
    writer.add_rope_dimension_count(head_width)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("smollm")
    writer.add_token_list(tokens)
    writer.add_token_types(token_types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(BOS_ID)
    writer.add_eos_token_id(EOS_ID)
    writer.add_unk_token_id(UNKNOWN_ID)
    writer.add_pad_token_id(EOS_ID)
    writer.add_add_bos_token(False)
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)

    for key, value in (metadata or {}).items():
        _change_metadata(writer, key, value)
    changed_tensors = dict(tensors or {})
    for hf_name, array in list(weights.items()):
        if gguf_tensor_name(hf_name) in changed_tensors:
            continue
        on_disk = array
        if hf_name.endswith("q_proj.weight"):
            on_disk = permute_for_llama_cpp(array, head_count)
        elif hf_name.endswith("k_proj.weight"):
            on_disk = permute_for_llama_cpp(array, kv_head_count)
        packed, read_back = stored(on_disk, weight_type)
        quant = None if packed.dtype in (np.float32, np.float16) else gguf.GGMLQuantizationType[weight_type]
        writer.add_tensor(gguf_tensor_name(hf_name), packed, raw_dtype=quant)
        # Undo the permutation on what the file holds, so the reference sees the file's own numbers.
        if hf_name.endswith("q_proj.weight"):
            read_back = unpermute(read_back, head_count)
        elif hf_name.endswith("k_proj.weight"):
            read_back = unpermute(read_back, kv_head_count)
        weights[hf_name] = read_back
    for tensor_name, array in changed_tensors.items():
        if array is not None:
            writer.add_tensor(tensor_name, np.asarray(array))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()

    return {
        "path": Path(path),
        "name": name,
        "layer_count": layer_count,
        "width": width,
        "head_count": head_count,
        "kv_head_count": kv_head_count,
        "head_width": head_width,
        "ffn_width": ffn_width,
        "vocab_size": len(tokens),
        "context_length": context_length,
        "rope_base": rope_base,
        "rms_epsilon": rms_epsilon,
        "tied_embeddings": tied_embeddings,
        "tokens": tokens,
        "merges": merges,
        "bos_id": BOS_ID,
        "eos_id": EOS_ID,
        "weights": weights,
    }


def unpermute(weights: np.ndarray, head_count: int) -> np.ndarray:
    """The inverse of permute_for_llama_cpp (back to Hugging Face's row order)."""
    return (
        weights.reshape(head_count, weights.shape[0] // head_count // 2, 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


def metadata_value(value):
    """(value, GGUF type, item type) for a Python value: bool, a whole number as the smallest of uint32,
    int64 and uint64 that holds it, a float as float32 when it fits (NaN and infinities do; 1e-300 does not) else float64,
    text, or a non-empty list of one kind (GGUF writers refuse empty arrays)."""
    from gguf import GGUFValueType

    if isinstance(value, bool):
        return value, GGUFValueType.BOOL, None
    if isinstance(value, int):
        if 0 <= value < 1 << 32:
            return value, GGUFValueType.UINT32, None
        return value, GGUFValueType.INT64 if -(1 << 63) <= value < 1 << 63 else GGUFValueType.UINT64, None
    if isinstance(value, float):
        smallest = float(np.finfo(np.float32).smallest_subnormal)
        fits = not np.isfinite(value) or value == 0 or smallest <= abs(value) <= float(np.finfo(np.float32).max)
        return value, GGUFValueType.FLOAT32 if fits else GGUFValueType.FLOAT64, None
    if isinstance(value, str):
        return value, GGUFValueType.STRING, None
    items = list(value)
    item_types = {metadata_value(item)[1] for item in items}
    widest = {GGUFValueType.UINT32: GGUFValueType.INT64, GGUFValueType.FLOAT32: GGUFValueType.FLOAT64}
    item_type = metadata_value(items[0])[1]
    if len(item_types) > 1 and item_type in widest:  # one type that holds every item
        item_type = widest[item_type]
    return items, GGUFValueType.ARRAY, item_type


def _change_metadata(writer, key: str, value) -> None:
    fields = writer.kv_data[0]
    if value is None:
        fields.pop(key, None)
        return
    from gguf.gguf_writer import GGUFValue

    packed, kind, item_kind = metadata_value(value)
    fields[key] = GGUFValue(value=packed, type=kind, sub_type=item_kind)


def every_weight(value: float, *, layer_count: int = 1, width: int = 32, ffn_width: int = 48, head_count: int = 4,
                 kv_head_count: int = 2, tied_embeddings: bool = True) -> dict:
    """Every tensor of such a tiny model (by GGUF name) filled with VALUE: the tensors= of a model of huge weights."""
    shapes = random_weights(
        np.random.default_rng(0), layer_count=layer_count, width=width, head_count=head_count,
        kv_head_count=kv_head_count, ffn_width=ffn_width, vocab_size=len(vocabulary()[0]), tied_embeddings=tied_embeddings,
    )
    return {gguf_tensor_name(name): np.full(array.shape, value, np.float32) for name, array in shapes.items()}
