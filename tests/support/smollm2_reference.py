"""SmolLM2's GGUF file as transformers' LlamaForCausalLM: the reference the real-model tests compare with.

The weights are the file's, as the gguf library dequantizes them, q and k rows put back in Hugging Face's
order (the converter interleaved each head's halves); eager attention, float64. Skips the calling test
without torch or transformers.
"""

import numpy as np
import pytest

from tests.support.tiny_llama import gguf_tensor_name, unpermute


def smollm2_reference_model(path):
    """transformers' LlamaForCausalLM (eager attention, float64) with the weights of the GGUF file at PATH."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    import gguf

    reader = gguf.GGUFReader(str(path))
    field = {name: reader.fields[f"llama.{name}"].contents() for name in (
        "block_count", "embedding_length", "feed_forward_length", "attention.head_count", "attention.head_count_kv",
        "rope.freq_base", "attention.layer_norm_rms_epsilon", "context_length")}
    tensors = {tensor.name: tensor for tensor in reader.tensors}
    vocab_size = int(tensors["token_embd.weight"].shape[1])
    config = transformers.LlamaConfig(
        vocab_size=vocab_size, hidden_size=field["embedding_length"], intermediate_size=field["feed_forward_length"],
        num_hidden_layers=field["block_count"], num_attention_heads=field["attention.head_count"],
        num_key_value_heads=field["attention.head_count_kv"], max_position_embeddings=field["context_length"],
        rms_norm_eps=float(field["attention.layer_norm_rms_epsilon"]), rope_theta=float(field["rope.freq_base"]),
        tie_word_embeddings="output.weight" not in tensors, attn_implementation="eager",
    )
    model = transformers.LlamaForCausalLM(config).to(torch.float64).eval()
    state = {}
    for name in model.state_dict():
        if name == "lm_head.weight" and config.tie_word_embeddings:
            continue
        tensor = tensors[gguf_tensor_name(name)]
        array = np.asarray(gguf.quants.dequantize(tensor.data, tensor.tensor_type), dtype=np.float64)
        array = array.reshape(tuple(reversed([int(side) for side in tensor.shape])))
        if name.endswith("q_proj.weight"):
            array = unpermute(array, config.num_attention_heads)
        elif name.endswith("k_proj.weight"):
            array = unpermute(array, config.num_key_value_heads)
        state[name] = torch.from_numpy(array)
    model.load_state_dict(state, strict=False)
    return model


def smollm2_reference_attention(path, ids):
    """Every layer's weights (layers, heads, n, n) of transformers' SmolLM2 reading IDS."""
    import torch

    model = smollm2_reference_model(path)
    with torch.no_grad():
        output = model(torch.tensor([ids]), output_attentions=True, use_cache=False)
    return np.stack([layer[0].numpy() for layer in output.attentions])


def projections_before_rope(model, ids):
    """Each layer's q_proj and k_proj outputs for IDS as transformers computes them, before RoPE:
    (layers, heads, n, head_width) and (layers, kv_heads, n, head_width), in Hugging Face's halves layout."""
    import torch

    config = model.config
    head_width = config.hidden_size // config.num_attention_heads
    kept: dict[tuple[int, str], np.ndarray] = {}
    hooks = []
    for index, layer in enumerate(model.model.layers):
        for part in ("q_proj", "k_proj"):
            def keep(_module, _inputs, output, key=(index, part)):
                kept[key] = output.detach()[0].reshape(len(ids), -1, head_width).transpose(0, 1).numpy()
            hooks.append(getattr(layer.self_attn, part).register_forward_hook(keep))
    try:
        with torch.no_grad():
            model(torch.tensor([ids]), use_cache=False)
    finally:
        for hook in hooks:
            hook.remove()
    layers = range(config.num_hidden_layers)
    return np.stack([kept[index, "q_proj"] for index in layers]), np.stack([kept[index, "k_proj"] for index in layers])
