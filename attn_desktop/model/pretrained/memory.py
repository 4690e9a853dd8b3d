"""Giving memory back to the system once a model's working copies are freed (glibc only).

Dequantizing a model makes many short-lived arrays of a few MB. glibc raises the size from
which it maps an allocation on its own each time such a mapping is freed, so later arrays of
that size come from the heap, where the finished weights then sit between freed holes that
are never given back: about 90 MB held for nothing after loading SmolLM2. Fixing the
threshold keeps every large array in a mapping of its own, returned the moment it is freed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
OWN_MAPPING_FROM_BYTES = 256 * 1024


def give_freed_arrays_back() -> bool:
    """True when the allocator was told to (Linux with glibc); elsewhere nothing changes."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_MMAP_THRESHOLD, OWN_MAPPING_FROM_BYTES))
    except (OSError, AttributeError):  # another C library (musl has no mallopt)
        return False
