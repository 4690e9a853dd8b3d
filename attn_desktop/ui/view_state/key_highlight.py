"""Which key the pointer is on, as a Qt signal for the panels that light it up.

Pointing at a row of the score table lights up that key's arrow on the canvas. That is not an
edit and not saved, so it does not go through the scene (whose every change reaches all the
views): the key is kept in the Qt-free ViewState, and only the views that show a highlight
listen to this object's signal. Each head's panels share one KeyHighlight for their head.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from attn_desktop.model import ViewState


class KeyHighlight(QObject):
    changed = Signal(object)  # the key's index, or None when no key is pointed at

    def __init__(self, parent: QObject | None = None, view: ViewState | None = None,
                 head: tuple[int, int] | None = None) -> None:
        """The key pointed at in HEAD = (layer, head) as VIEW shows it (without HEAD: the head VIEW shows)."""
        super().__init__(parent)
        self.view = view if view is not None else ViewState()
        self._head = head

    @property
    def key(self) -> int | None:
        pointed = self.view.highlighted_key
        return pointed[1] if pointed is not None and pointed[0] == self._where() else None

    def set_key(self, index: int | None) -> None:
        if index != self.key:
            self.view.highlight_key(None if index is None else (self._where(), index))
            self.changed.emit(index)

    def clear(self) -> None:
        self.set_key(None)

    def _where(self) -> tuple[int, int]:
        return self._head if self._head is not None else (self.view.layer, self.view.head)
