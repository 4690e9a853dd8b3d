"""The matrix's cells are coloured in plain Python on each paint of a small grid (NumPy's per-call cost, paid a
few times a paint, came to more than the lookups) and with NumPy for a large one: either way the colours must
be those of the weights' viridis level, rounded half to even, clipped at 0 and 1, grey where masked or veiled."""

from __future__ import annotations

import numpy as np
import pytest

from attn_desktop.ui.panels.matrix_cells import (
    MASKED_RGB,
    PYTHON_CELLS,
    VEILED_RGB,
    PackedColours,
    argb_table,
    packed,
    viridis_table,
)


def numpy_colours(weights: np.ndarray, mask: np.ndarray, veiled: bool) -> list[int]:
    """The colours worked out with NumPy, one step at a time (round half to even, then clip)."""
    levels = np.clip(np.rint(weights * 255), 0, 255).astype(np.intp)
    colours = argb_table(viridis_table()).take(levels)
    if veiled:
        colours[:] = packed(VEILED_RGB)
    colours[~mask] = packed(MASKED_RGB)
    return colours.ravel().tolist()


# Weights on the levels' ties (k + 0.5) / 255, at and past the ends, and between.
TIES = [(level + 0.5) / 255 for level in range(0, 255, 17)]
ODD = [0.0, 1.0, -0.0, 1e-300, 0.5, 0.999999, 1.0000001, -0.01, 2.0, 0.43, 127.5 / 255, 128.5 / 255]


@pytest.mark.parametrize("shape", [(8, 9), (20, 20)])  # a few dozen cells (Python's lookups), and more
@pytest.mark.parametrize("veiled", [False, True])
def test_the_colours_are_the_levels_numpy_gives(shape: tuple[int, int], veiled: bool) -> None:
    assert (shape[0] * shape[1] <= PYTHON_CELLS) == (shape == (8, 9))
    rng = np.random.default_rng(7)
    count = shape[0] * shape[1]
    weights = np.array(TIES + ODD + rng.random(count - len(TIES) - len(ODD)).tolist()).reshape(shape)
    mask = rng.random(shape) > 0.2
    _kept, memory = PackedColours(viridis_table()).packed(weights, mask, veiled)
    assert np.frombuffer(memory, dtype=np.uint32).tolist() == numpy_colours(weights, mask, veiled)
