"""Which plane of a wide vector the canvas draws: two chosen dimensions, or the PCA plane.

A vector of more than two numbers shows on the canvas as a point of a plane. Either
two of its numbers (dimensions 1 and 2, or those chosen with Ctrl+D), or, in the PCA
plane, its coordinates along the two directions the vectors spread along most: queries
and keys share one plane (their dot products are the scores), values and the output
have one of their own, word vectors another. A tip dragged in a PCA plane moves its
vector within the plane only. The planes are made when a scene opens or changes shape,
or when the PCA plane is chosen, and stay fixed while arrows move, so nothing drawn
jumps under the cursor. Scenes taken from a model open in the PCA plane.

No Qt here: the canvas and its drag controller ask this where a tip goes and what a
tip stands for.
"""

from __future__ import annotations

import enum

import numpy as np

from attn_desktop.language import N_, percent, tr
from attn_desktop.model import HeadReading, Role
from attn_desktop.model.files.scene_types import TakenFrom
from attn_desktop.model.view_plane import ViewPlane, pca_plane

# Cross-attention's two sentences' word vectors x and y share a plot and a plane: the same grids read both.
PLOTTED_TOGETHER = {Role.QUERY: (Role.QUERY, Role.KEY), Role.KEY: (Role.QUERY, Role.KEY),
                    Role.VALUE: (Role.VALUE,), Role.EMBEDDING: (Role.EMBEDDING, Role.TARGET),
                    Role.TARGET: (Role.EMBEDDING, Role.TARGET)}
PLANE_NAMES = {Role.QUERY: N_("q and k"), Role.KEY: N_("q and k"), Role.VALUE: "v", Role.EMBEDDING: "x",
               Role.TARGET: "y"}


class PlaneKind(enum.Enum):
    DIMENSIONS = "two chosen dimensions"
    PCA = "the PCA plane"


class DrawnPlanes:
    def __init__(self, reading: HeadReading) -> None:
        self.reading = reading
        self.dims = (0, 1)  # the two numbers drawn in DIMENSIONS, counted from 0
        self.kind = PlaneKind.DIMENSIONS
        self._planes: dict[Role, ViewPlane] = {}
        self._taken_from: TakenFrom | None = None  # the model head the planes were last chosen for
        self.scene_reshaped()

    # ----- choosing -----------------------------------------------------
    @property
    def pca_available(self) -> bool:
        """Only vectors of more than two numbers need a plane chosen for them."""
        widest: int = max(self.reading.vectors(role).shape[1] for role in self.reading.roles)
        return widest > 2

    @property
    def showing_pca(self) -> bool:
        return self.kind is PlaneKind.PCA and self.pca_available

    def set_dims(self, first: int, second: int) -> None:
        """Draw two of the numbers (0-based); ValueError unless they are two different ones the vectors have."""
        widest = max(self.reading.vectors(role).shape[1] for role in self.reading.roles)  # word vectors may be wider
        if first == second or min(first, second) < 0 or max(first, second) >= widest:
            raise ValueError(tr("choose two different dimensions of the vectors"))
        self.dims = (first, second)
        self.kind = PlaneKind.DIMENSIONS

    def use_pca(self, on: bool) -> None:
        """Draw the PCA planes of the vectors as they are now (on), or the chosen dimensions again."""
        if on and not self.pca_available:
            raise ValueError(tr("every vector here has at most two numbers; the canvas shows them all"))
        self.kind = PlaneKind.PCA if on else PlaneKind.DIMENSIONS
        self._make_planes()

    def scene_reshaped(self) -> None:
        """The scene has other tokens or shapes (or is another scene): make the planes afresh.
        A scene taken from a model opens in the PCA plane; leaving it goes back to the dimensions."""
        taken_from = self.reading.taken_from
        if taken_from is not self._taken_from:
            self._taken_from = taken_from
            self.kind = PlaneKind.PCA if taken_from is not None else PlaneKind.DIMENSIONS
        self._make_planes()

    def _make_planes(self) -> None:
        self._planes = {}
        if self.kind is not PlaneKind.PCA:
            return
        for role in self.reading.roles:
            if role in self._planes or self.reading.vectors(role).shape[1] <= 2:
                continue
            plane = pca_plane(self._plotted_with(role))
            for other in PLOTTED_TOGETHER[role]:
                self._planes[other] = plane  # one plane for the plot: queries and keys share theirs

    def _plotted_with(self, role: Role) -> np.ndarray:
        """Every vector drawn in ROLE's plot (queries and keys together)."""
        return np.vstack([self.reading.vectors(other) for other in PLOTTED_TOGETHER[role] if other in self.reading.roles])

    # ----- from a vector to a tip and back --------------------------------
    def plane_for(self, role: Role) -> ViewPlane | None:
        """The PCA plane ROLE's vectors are drawn in, or None when they show two of their numbers."""
        return self._planes.get(role) if self.kind is PlaneKind.PCA else None

    def tip_of(self, vector: np.ndarray, role: Role) -> tuple[float, float]:
        """Where a vector's tip is drawn. A vector narrower than the chosen dimensions shows its
        first two (values may be 2-D while queries and keys are 3-D)."""
        plane = self.plane_for(role)
        if plane is not None and len(vector) == plane.width:
            x, y = plane.project(vector)
            return float(x), float(y)
        first, second = self._dims_for(vector)
        return float(vector[first]), float(vector[second]) if len(vector) > 1 else 0.0

    def vector_with_tip(self, vector: np.ndarray, role: Role, x: float, y: float) -> np.ndarray:
        """The vector a tip at (x, y) stands for: in a PCA plane, VECTOR moved within the plane;
        otherwise the numbers not drawn keep their values (on a number line only x counts)."""
        plane = self.plane_for(role)
        if plane is not None and len(vector) == plane.width:
            return plane.lift(vector, x, y)
        moved = np.array(vector, dtype=np.float64)
        first, second = self._dims_for(vector)
        moved[first] = x
        if len(moved) > 1:
            moved[second] = y
        return moved

    def _dims_for(self, vector: np.ndarray) -> tuple[int, int]:
        return self.dims if max(self.dims) < len(vector) else (0, 1)

    # ----- saying which ---------------------------------------------------
    def _plane_name(self, role: Role) -> str:
        """The vectors ROLE's plane is of: "q and k", "v", "x", or "x, y" for both sentences' word vectors."""
        drawn = [other for other in PLOTTED_TOGETHER[role] if other in self.reading.roles]
        return ", ".join(tr(PLANE_NAMES[other]) for other in drawn) if role not in (Role.QUERY, Role.KEY) \
            else tr(PLANE_NAMES[role])

    def describe(self, role: Role, short: bool = False) -> str:
        """What a plot of ROLE's vectors draws: "" for vectors of two numbers, "dimensions 1 and 2 of 64",
        "PCA plane of q and k: 62% of spread" (with SHORT, for a narrow plot: "" and "PCA, 62%")."""
        width = self.reading.vectors(role).shape[1]
        plane = self.plane_for(role)
        if plane is not None:
            share = percent(plane.share_of_spread(self._plotted_with(role)))
            if short:
                return tr("PCA, {share}").format(share=share)
            return tr("PCA plane of {vectors}: {share} of spread").format(vectors=self._plane_name(role), share=share)
        if width <= 2:
            return ""
        first, second = self.dims if max(self.dims) < width else (0, 1)
        # (a narrow plot's short title names no dimensions: the first two are what a student expects)
        return "" if short else tr("dimensions {first} and {second} of {width}").format(first=first + 1,
                                                                                      second=second + 1, width=width)
