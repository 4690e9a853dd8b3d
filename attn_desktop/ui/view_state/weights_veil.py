"""Whether the weights are hidden until the student has guessed them, as a Qt signal for the views.

Predict, then see veils the weights while an arrow moves and until the student reveals a guess.
Every view that would tell the new weights (the canvas's labels and emphasis, the score table,
the matrix, the output, the weights chart, the challenges) listens to this object and shows "?"
while it is on. The arrows themselves still move: the student must see what they changed. The
veil itself is kept in the Qt-free ViewState: what the user is shown, never the document.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from attn_desktop.language import N_
from attn_desktop.model import ViewState

HIDDEN_TEXT = "?"
HIDDEN_TIP = N_("Hidden until you reveal your guess (Predict, then see)")  # shown as tr(HIDDEN_TIP)


class WeightsVeil(QObject):
    changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, view: ViewState | None = None) -> None:
        super().__init__(parent)
        self.view = view if view is not None else ViewState()

    @property
    def on(self) -> bool:
        return self.view.weights_veiled

    def set_on(self, on: bool) -> None:
        if on != self.on:
            self.view.set_weights_veiled(on)
            self.changed.emit(on)
