"""Where the tests keep the model pack's SmolLM2 weights cache: a folder of its own inside the session's private
cache (tests/conftest.py's private_cache_dir). The app keeps only its three most recently used caches in a folder,
and the tiny models the tests write and load would push SmolLM2's out of the shared one: every module using the
real model, and every walk of the app that opens it, would then read and dequantize its 540 MB again (5–10 s)."""

import os
from pathlib import Path

from attn_desktop.model.pretrained.weights_cache import CACHE_DIR_VARIABLE


def real_model_cache_dir() -> Path:
    """The folder, inside the session's private cache (set for the whole session before any test runs)."""
    return Path(os.environ[CACHE_DIR_VARIABLE]) / "real-model"
