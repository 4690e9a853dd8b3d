"""Which key the pointer is on: view state shared by the panels, never part of the document.

Pointing at a row of the score table lights up that key's arrow on the canvas.
That is not an edit and not saved, so it does not go through the scene (whose
every change reaches all the views): only the views that show a highlight
listen to this object's signal.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class KeyHighlight(QObject):
    changed = Signal(object)  # the key's index, or None when no key is pointed at

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.key: int | None = None

    def set_key(self, index: int | None) -> None:
        if index != self.key:
            self.key = index
            self.changed.emit(index)

    def clear(self) -> None:
        self.set_key(None)
