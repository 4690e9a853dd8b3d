"""The NumPy LLaMA forward pass (attn_desktop.model.pretrained.llama), checked against an independent
implementation and on the real file.

A tiny random LLaMA-style GGUF (tests/support/tiny_llama.py, written the way llama.cpp's converter writes
one) is loaded by the app like the real SmolLM2 file. The reference is Hugging Face's
`LlamaForCausalLM` (eager attention, float64) built from the same weights in Hugging Face's own
layout, so the converter's q/k row permutation, RoPE, grouped-query attention, RMSNorm and SwiGLU
must all be right for the numbers to agree to 1e-5. `transformers` and `torch` are optional test
dependencies: those comparisons skip without them; the checks after them need neither.
"""
