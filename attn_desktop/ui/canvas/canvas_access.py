"""The canvas as a screen reader meets it: each arrow an accessible child named by its label ("k·cat") and
described by what it is and where ("key of 'cat', x 1.20, y 0.40"), the one the arrow keys move focused, and
after each step (a nudge, a released drag) one announcement of what changed.

The texts are the model's (model/spoken.py), built once per step from the scene's numbers, never per painted
frame: a drag's moves change nothing here until the release.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QPoint, QRect, Signal
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QGraphicsView

from attn_desktop.language import tr
from attn_desktop.model import HeadReading, Role
from attn_desktop.model.spoken import arrow_description, output_description, step_announcement
from attn_desktop.ui.accessibility.painted_items import PaintedItems
from attn_desktop.ui.canvas.arrow_geometry import HANDLE_RADIUS_PX
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.drag_controller import DragController
from attn_desktop.ui.view_state.weights_veil import WeightsVeil

OUTPUT = None  # the output arrow's entry in the list, after every role's arrows
Entry = tuple[Role, int] | None


class CanvasAccess(QObject):
    """The canvas's ItemSource (painted_items.py): its arrows in Tab order, then the output."""

    announcement = Signal(str, object)  # what a step changed, and the arrow's accessible object it is about

    def __init__(self, canvas: QGraphicsView, reading: HeadReading, arrows: dict[Role, list[ArrowItem]],
                 output_arrow: ArrowItem, drags: DragController, veil: WeightsVeil,
                 number_line: Callable[[], bool]) -> None:
        """The canvas's parts it reads: its arrows, the drag controller (the focused arrow, the plane drawn),
        the veil, and whether values stand on a number line."""
        super().__init__(canvas)
        self.canvas = canvas
        self.reading, self.arrows, self.output_arrow = reading, arrows, output_arrow
        self.drags, self.veil, self.number_line = drags, veil, number_line
        self.items = PaintedItems(canvas, self)
        drags.stepped.connect(self._after_step)
        drags.arrow_focused.connect(self._focus_followed)
        # Worded again with the window's other texts when the language changes (ui/language/rewording.py).
        canvas.setAccessibleName(tr("Canvas"))
        canvas.setAccessibleDescription(tr("Tab chooses an arrow, the arrow keys move it (Shift: finer steps, Ctrl: bigger steps)"))

    def _entries(self) -> list[Entry]:
        """Every arrow in the order Tab chooses them (the head's roles in turn), then the output unless veiled."""
        entries: list[Entry] = [(role, index) for role in self.reading.roles for index in range(len(self.arrows[role]))]
        return entries + ([] if self.veil.on else [OUTPUT])

    # ----- ItemSource ---------------------------------------------------------
    def item_count(self) -> int:
        return len(self._entries())

    def item_role(self, index: int) -> QAccessible.Role:
        return QAccessible.Role.Graphic

    def item_name(self, index: int) -> str:
        entry = self._entries()[index]
        if entry is None:
            return self.output_arrow.label or tr("output")
        return self.reading.arrow_name(*entry)

    def item_description(self, index: int) -> str:
        entry = self._entries()[index]
        reading = self.reading
        if entry is None:
            return output_description(reading.selected_token, self._drawn(Role.VALUE, reading.selected_output))
        role, arrow = entry
        return arrow_description(role, reading.labels(role)[arrow], self._drawn(role, reading.vectors(role)[arrow]))

    def item_rect(self, index: int) -> QRect:
        entry = self._entries()[index]
        arrow = self.output_arrow if entry is None else self.arrows[entry[0]][entry[1]]
        return self._tip_area(arrow)

    def focused_item(self) -> int | None:
        focused = self.drags.focused_arrow
        entries = self._entries()
        return entries.index(focused) if focused in entries else None

    # ----- what the canvas draws, for a screen reader -------------------------------
    def _drawn(self, role: Role, vector: np.ndarray) -> tuple[float, ...]:
        """Where the canvas draws the tip: one number on a number line, else the two of the plane drawn."""
        if role is Role.VALUE and self.number_line():
            return (float(vector[0]),)
        return tuple(float(number) for number in self.drags.tip_of(vector, role))

    def _tip_area(self, arrow: ArrowItem) -> QRect:
        """The grab handle round the tip, in the canvas's coordinates."""
        if arrow.scene() is None or not arrow.isVisible():
            return QRect()
        canvas = self.canvas
        tip = canvas.viewport().mapTo(canvas, canvas.mapFromScene(arrow.mapToScene(arrow.tip)))
        radius = round(HANDLE_RADIUS_PX)
        return QRect(tip - QPoint(radius, radius), tip + QPoint(radius, radius))

    # ----- changes --------------------------------------------------------------
    def arrows_made(self) -> None:
        """New arrows (another scene or other tokens): a screen reader learns their names and number."""
        self.items.items_changed()

    def _focus_followed(self, target: tuple[Role, int] | None) -> None:
        if target is not None and target in (entries := self._entries()):
            self.items.focus_moved(entries.index(target))

    def _after_step(self, role: Role, index: int, weights_before: np.ndarray) -> None:
        """One nudge or a released drag: the arrow's new description, and one announcement of what changed."""
        position = self._entries().index((role, index))
        self.items.description_changed(position)
        reading = self.reading
        text = step_announcement(reading, role, index, weights_before, self._drawn(role, reading.vectors(role)[index]),
                                 veiled=self.veil.on)
        self.announcement.emit(text, self.items.item(position))
