"""A plane through the origin of d-space in which the canvas draws d-wide vectors.

The canvas can draw only two numbers of a vector. For wide vectors (a real head's
are 64 wide) the most telling two-dimensional picture is the PCA plane: the two
directions along which the vectors differ most. A ViewPlane projects vectors onto
it (their arrows still start at the origin, so the origin is drawn at (0, 0)) and
lifts a point dragged in the plane back into d-space by moving the vector within
the plane only: the part of it the plane does not show stays exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RANK_TOLERANCE = 1e-9  # a direction carrying less than this share of the vectors' size is noise


@dataclass(frozen=True, eq=False)
class ViewPlane:
    """Two orthonormal directions of d-space, and how much of the vectors' spread they showed when made."""

    basis: np.ndarray  # (2, d): the plane's axes, orthonormal rows
    spread: float  # the share (0 to 1) of the vectors' spread about their mean that lies in the plane

    @property
    def width(self) -> int:
        """d: how many numbers the vectors it draws have."""
        return int(self.basis.shape[1])

    def project(self, vectors: np.ndarray) -> np.ndarray:
        """Coordinates in the plane: (..., d) -> (..., 2)."""
        projected: np.ndarray = np.asarray(vectors, dtype=np.float64) @ self.basis.T
        return projected

    def lift(self, vector: np.ndarray, x: float, y: float) -> np.ndarray:
        """VECTOR moved within the plane until it projects onto (x, y); what the plane does not show is kept."""
        vector = np.asarray(vector, dtype=np.float64)
        step = np.array([x, y], dtype=np.float64) - self.basis @ vector
        lifted: np.ndarray = vector + self.basis.T @ step
        return lifted

    def share_of_spread(self, vectors: np.ndarray) -> float:
        """How much of these vectors' spread about their mean lies in the plane (1 when they do not spread)."""
        centred = _centred(vectors)
        total = float(np.sum(centred**2))
        if total <= 0.0:
            return 1.0
        return min(1.0, float(np.sum((centred @ self.basis.T) ** 2)) / total)


def pca_plane(vectors: np.ndarray) -> ViewPlane:
    """The plane of the two directions along which VECTORS (n, d) spread most (the SVD of the centred rows).

    Fewer than two directions of spread (one vector, all equal, all on a line) are completed with
    the direction of their mean, so the arrows still show, then with the first coordinate axes.
    Each axis points the way the vectors do on average, so the same vectors always give the same picture.
    """
    rows = np.asarray(vectors, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[0] == 0 or rows.shape[1] < 2:
        raise ValueError("a plane needs at least one vector of at least two numbers")
    if not np.all(np.isfinite(rows)):
        raise ValueError("a plane needs finite numbers")
    centred = _centred(rows)
    _, sizes, directions = np.linalg.svd(centred, full_matrices=False)
    floor = RANK_TOLERANCE * max(float(np.linalg.norm(rows)), np.finfo(float).tiny)
    spreading = [directions[i] for i in range(len(sizes)) if sizes[i] > floor][:2]
    mean = rows.mean(axis=0)
    basis = _orthonormal([*spreading, mean, *np.eye(rows.shape[1])], count=2)
    basis = np.array([axis if axis @ mean > 0 or (axis @ mean == 0 and _leading(axis) > 0) else -axis
                      for axis in basis])
    plane = ViewPlane(basis, 1.0)
    return ViewPlane(basis, plane.share_of_spread(rows))


def _centred(vectors: np.ndarray) -> np.ndarray:
    rows = np.atleast_2d(np.asarray(vectors, dtype=np.float64))
    centred: np.ndarray = rows - rows.mean(axis=0)
    return centred


def _orthonormal(candidates: list[np.ndarray], count: int) -> np.ndarray:
    """The first COUNT directions of CANDIDATES that are not (nearly) along the ones already taken."""
    taken: list[np.ndarray] = []
    for candidate in candidates:
        size = float(np.linalg.norm(candidate))
        if size == 0.0:
            continue
        rest = candidate / size
        for axis in taken:  # twice: one pass of Gram-Schmidt can leave a little of an axis behind
            rest = rest - (rest @ axis) * axis
        for axis in taken:
            rest = rest - (rest @ axis) * axis
        rest_size = float(np.linalg.norm(rest))
        if rest_size > 1e-6:
            taken.append(rest / rest_size)
        if len(taken) == count:
            break
    return np.array(taken)


def _leading(axis: np.ndarray) -> float:
    """The axis's largest number by size, with its sign: decides its direction when the mean does not."""
    return float(axis[int(np.argmax(np.abs(axis)))])


__all__ = ["ViewPlane", "pca_plane"]
