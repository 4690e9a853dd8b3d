"""The window's panels by name, one name for each: a misspelt one is a type error, not a KeyError at run time.

A panel's name is its dock's Qt object name, which Qt's saveState writes into every saved layout, so the
values are the names layouts were saved with and must stay byte for byte what they are. No Qt here: the
lessons name the panel they open beside their text, and the panel sets are declared without a display.
"""

from __future__ import annotations

from enum import Enum


class DockId(str, Enum):
    """A dock of the main window; equal to (and hashed as) its object name, so it keys a dict of docks either way."""

    LESSON = "lessonDock"
    CHALLENGES = "challengesDock"
    CODE = "codeDock"
    SENTENCE = "sentenceDock"
    TRAINING = "trainingDock"
    MODEL_HEADS = "modelHeadsDock"
    SCALING_LAB = "scalingLabDock"
    POSITIONS_LAB = "positionsLabDock"
    GRIDS = "gridsDock"
    SCORE = "scoreDock"
    MATRIX = "matrixDock"
    OUTPUT = "outputDock"
    WEIGHTS = "weightsDock"
    SHAPES = "shapesDock"
    DESCRIPTION = "descriptionDock"

    # Written out, in an f-string or a log line, a dock is its object name (not "DockId.LESSON").
    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)
