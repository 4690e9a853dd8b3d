"""The Code panel's script for the open lesson: the scene's, and for some lessons a script of their own."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from attn_desktop.model import Scene, read
from attn_desktop.model.teaching import positions_code, prediction, scaling_lab

SCALING_LESSON = "why-sqrt-dk"  # its Code panel shows the √d_k lab's script too
PREDICT_LESSON = "predict-then-see"  # and this one how a guess is scored
POSITIONS_LESSON = "positions"  # and this one the shuffle and RoPE's rotation


class CodeAppendix(Protocol):
    def set_appendix(self, code: str) -> None: ...


class KeyWidth(Protocol):
    @property
    def d_k(self) -> int: ...


class Guesses(Protocol):
    @property
    def guess(self) -> np.ndarray: ...


class LessonCode:
    def __init__(self, scene: Scene, code_panel: CodeAppendix, lab: KeyWidth, predictions: Guesses) -> None:
        self.scene, self.code_panel, self.lab, self.predictions = scene, code_panel, lab, predictions

    def show(self, lesson_id: str | None) -> None:
        """The Code panel adds a lesson's own script to the scene's: the √d_k lab's, at the width chosen;
        Predict, then see's scoring of the last guess; lesson 10's shuffle and rotation."""
        appendix = ""
        if lesson_id == SCALING_LESSON:
            appendix = scaling_lab.numpy_code(self.lab.d_k)
        elif lesson_id == PREDICT_LESSON:
            guess = self.predictions.guess
            appendix = prediction.numpy_code(guess if len(guess) else prediction.even_guess(self.scene.n_tokens))
        elif lesson_id == POSITIONS_LESSON:
            appendix = positions_code.numpy_code(read(self.scene).key_width)
        self.code_panel.set_appendix(appendix)
