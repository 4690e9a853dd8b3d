"""The heads of a real pretrained language model, read from a local GGUF file (no network).

pack.py finds the optional model pack, gguf_file.py reads and checks a LLaMA-style GGUF
file, weights_cache.py keeps what was read for the next load (loading.py chooses between them),
tokenizer.py builds its tokenizer, llama.py runs the forward pass in NumPy (model_requests.py
checks what it is asked, forward_pass.py keeps a pass, llama_maths.py the norms and RoPE) and keeps
every head's queries, keys, values and weights (a ModelRun), head_kinds.py finds heads by
measurable rules, induction.py finds induction heads on random tokens read twice, and
head_scene.py turns one head into an ordinary scene. No Qt here.
"""
