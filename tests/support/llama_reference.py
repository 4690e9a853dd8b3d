"""The references the LLaMA tests compare the app with: the tiny vocabulary as a Hugging Face tokenizer, the
file's weights as transformers' LlamaForCausalLM (eager attention, float64), and the comparison itself."""

from __future__ import annotations

import numpy as np
import pytest

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT

from tests.support.tiny_llama import byte_level_characters, vocabulary

TOLERANCE = 1e-5

SENTENCES = [
    DEFAULT_SENTENCE,                               # 19 tokens
    "x",                                            # one token
    "it",                                           # one token, a merged one
    "The cat sat on the mat in 2024",              # digits, each its own token
    "was it the cat? it was the mat, the mat!",    # punctuation
    "on the mat the cat sat and sat and sat on it",  # 20-odd tokens, repeats
]


def shown_token_text(token_id: int) -> str:
    """A token's text as the app shows it: decoded, or for a token holding only part of a character
    (which decodes to "�"), its bytes in hexadecimal, "<F0 9F>"."""
    tokenizer = reference_tokenizer()
    text = tokenizer.decode([token_id])
    if "\ufffd" not in text:
        return text
    byte_of = {character: byte for byte, character in enumerate(byte_level_characters())}
    return "<" + " ".join(f"{byte_of[character]:02X}" for character in tokenizer.id_to_token(token_id)) + ">"


def reference_tokenizer():
    """The tiny vocabulary as a Hugging Face byte-level BPE tokenizer with SmolLM2's pre-tokenizer
    (every digit alone, then GPT-2's split), as in SmolLM2's own tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tokens, _, merges = vocabulary()
    tokenizer = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=[tuple(m.split(" ")) for m in merges]))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    tokenizer.decoder = decoders.ByteLevel()
    return tokenizer


def reference_model(info):
    """transformers' LlamaForCausalLM (eager attention, float64) with the file's weights."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(
        vocab_size=info["vocab_size"],
        hidden_size=info["width"],
        intermediate_size=info["ffn_width"],
        num_hidden_layers=info["layer_count"],
        num_attention_heads=info["head_count"],
        num_key_value_heads=info["kv_head_count"],
        max_position_embeddings=info["context_length"],
        rms_norm_eps=info["rms_epsilon"],
        rope_theta=info["rope_base"],
        tie_word_embeddings=info["tied_embeddings"],
        attn_implementation="eager",
    )
    model = transformers.LlamaForCausalLM(config).to(torch.float64).eval()
    state = {name: torch.from_numpy(array.astype(np.float64)) for name, array in info["weights"].items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and set(missing) <= {"lm_head.weight"}, (missing, unexpected)
    if info["tied_embeddings"]:
        assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    return model


def reference_pass(model, ids):
    """Every layer's attention weights (layers, heads, n, n), the logits (n, vocab), and each layer's
    queries and keys after RoPE and values (layers, heads, n, head_width), keys/values per query head."""
    import torch
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    config = model.config
    head_width = config.hidden_size // config.num_attention_heads
    group = config.num_attention_heads // config.num_key_value_heads
    projections: dict[tuple[int, str], torch.Tensor] = {}
    hooks = []
    for index, layer in enumerate(model.model.layers):
        for part in ("q_proj", "k_proj", "v_proj"):
            def keep(_module, _inputs, output, key=(index, part)):
                projections[key] = output.detach()
            hooks.append(getattr(layer.self_attn, part).register_forward_hook(keep))
    try:
        with torch.no_grad():
            tokens = torch.tensor([ids])
            output = model(tokens, output_attentions=True, use_cache=False)
            positions = torch.arange(len(ids))[None, :]
            cos, sin = model.model.rotary_emb(model.model.embed_tokens(tokens), positions)
    finally:
        for hook in hooks:
            hook.remove()

    def heads(flat):  # (1, n, h * d) -> (h, n, d)
        return flat[0].reshape(len(ids), -1, head_width).transpose(0, 1)

    queries, keys, values = [], [], []
    for index in range(config.num_hidden_layers):
        q, k = apply_rotary_pos_emb(
            heads(projections[index, "q_proj"])[None], heads(projections[index, "k_proj"])[None], cos, sin
        )
        queries.append(q[0].numpy())
        keys.append(np.repeat(k[0].numpy(), group, axis=0))
        values.append(np.repeat(heads(projections[index, "v_proj"]).numpy(), group, axis=0))
    attention = np.stack([a[0].numpy() for a in output.attentions])
    return attention, output.logits[0].numpy(), np.stack(queries), np.stack(keys), np.stack(values)


def in_pair_order(half_ordered: np.ndarray) -> np.ndarray:
    """Hugging Face's RoPE pairs dimension i with i + d/2; llama.cpp's (after the converter's
    permutation) pairs 2i with 2i + 1. The same vector with its dimensions in llama.cpp's order."""
    half = half_ordered.shape[-1] // 2
    return np.stack([half_ordered[..., :half], half_ordered[..., half:]], axis=-1).reshape(half_ordered.shape)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def assert_matches_reference(app: LlamaModel, reference, sentence: str) -> None:
    ids = reference_tokenizer().encode(sentence).ids
    run = app.run(sentence)
    assert run.token_ids == ids
    attention, logits, queries, keys, values = reference_pass(reference, ids)

    assert run.attention.shape == attention.shape
    for layer in range(run.layer_count):
        np.testing.assert_allclose(
            run.attention[layer], attention[layer], rtol=0, atol=TOLERANCE, err_msg=f"attention, layer {layer}"
        )
    # Logits run to about ±10 and the app computes them in float32: to 1e-5 of their scale. The
    # probabilities they give, what a student reads, to 1e-5 outright, at every position.
    app_logits = app.all_logits(sentence)
    scale = np.abs(logits).max()
    np.testing.assert_allclose(app_logits, logits, rtol=0, atol=TOLERANCE * scale, err_msg="logits")
    for position in range(len(ids)):
        np.testing.assert_allclose(
            softmax(app_logits[position].astype(np.float64)), softmax(logits[position]), rtol=0, atol=TOLERANCE,
            err_msg=f"next-token probabilities after token {position}",
        )

    probabilities = softmax(logits[-1])
    best = np.argsort(-probabilities)[:NEXT_TOKEN_COUNT]
    assert [text for text, _ in run.next_tokens] == [shown_token_text(int(token)) for token in best]
    np.testing.assert_allclose([p for _, p in run.next_tokens], probabilities[best], rtol=0, atol=TOLERANCE)

    # q and k after RoPE, in either dimension order (each puts a RoPE pair's two numbers differently).
    for name, app_array, expected in (("queries", run.queries, queries), ("keys", run.keys, keys)):
        if not np.allclose(app_array, expected, rtol=0, atol=TOLERANCE):
            np.testing.assert_allclose(app_array, in_pair_order(expected), rtol=0, atol=TOLERANCE, err_msg=name)
    np.testing.assert_allclose(run.values, values, rtol=0, atol=TOLERANCE, err_msg="values")
