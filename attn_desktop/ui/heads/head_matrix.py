"""One head's attention matrix in the heads view, titled with the head's name.

When the heads view shows one head's canvas at a time, every head's matrix still shows, side by side
under it: the title says whose each is.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.model import HeadReading, explain
from attn_desktop.ui.panels.matrix_view import MatrixView


class HeadMatrix(MatrixView):
    def __init__(self, reading: HeadReading, head_name: str, parent: QWidget | None = None) -> None:
        self.head_name = head_name  # (before the panel lays out its title)
        super().__init__(reading, parent)
        self.setAccessibleName(tr("{head}: attention matrix").format(head=head_name))

    def title(self) -> str:
        # "…, formula": the panel puts the formula on a line of its own when the title is too long for one
        return f"{self.head_name}, {explain.matrix_formula(self.reading.scale, self.reading.causal)}"
