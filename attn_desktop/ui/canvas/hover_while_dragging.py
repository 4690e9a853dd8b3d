"""pyqtgraph's search for the items under the mouse, skipped while an arrow is dragged."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsSceneMouseEvent


def skip_hover_search_while_dragging(graphics_scene: pg.GraphicsScene) -> None:
    """pyqtgraph searches for hoverable items on every mouse move, even mid-drag,
    when no item may take the hover anyway; skip that search while a button is held."""
    send_hover_events = graphics_scene.sendHoverEvents

    def send(event: QGraphicsSceneMouseEvent, exitOnly: bool = False) -> None:
        if not exitOnly and event.buttons() != Qt.MouseButton.NoButton and graphics_scene.dragItem is not None:
            return
        send_hover_events(event, exitOnly)

    graphics_scene.sendHoverEvents = send
