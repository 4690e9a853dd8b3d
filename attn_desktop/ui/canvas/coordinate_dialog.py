"""Numbers typed for the canvas: exact coordinates for one arrow, and which two numbers it draws.

An arrow drawn in a PCA plane takes the two coordinates it has in that plane: typing them
moves its vector within the plane, as dragging it there would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np
from PySide6.QtWidgets import QInputDialog, QWidget

from attn_desktop.language import N_, ntr, tr
from attn_desktop.model import HeadReading, Role, Scene
from attn_desktop.model.commands import Editor, move_arrow
from attn_desktop.model.shown_numbers import typed_list
from attn_desktop.model.teaching.exercises import parse_numbers
from attn_desktop.model.view_plane import ViewPlane
from attn_desktop.ui.scene_link import head_reading

TITLE = N_("Exact coordinates")  # the dialog's title, shown as tr(TITLE)


class DrawnDimensions(Protocol):
    """The canvas as far as choosing its dimensions goes."""

    @property
    def dims(self) -> tuple[int, int]: ...  # the two numbers drawn, counted from 0

    def set_dims(self, first: int, second: int) -> None: ...

    def plane_for(self, role: Role) -> ViewPlane | None: ...  # the PCA plane ROLE is drawn in, if any


class CoordinateDialog:
    """Asks for numbers over PARENT; typed coordinates go to EDITOR as one undoable move."""

    def __init__(self, parent: QWidget, scene: Scene | HeadReading, editor: Editor, canvas: DrawnDimensions,
                 show_error: Callable[[str, str], None], show_status: Callable[[str, int], None]) -> None:
        self.parent, self.reading, self.editor, self.canvas = parent, head_reading(scene), editor, canvas
        self.show_error, self.show_status = show_error, show_status

    def type_coordinates(self, role: Role, index: int) -> None:
        """Double-click on a tip: type exact coordinates (the way to make two keys exactly equal)."""
        name = self.reading.arrow_name(role, index)
        current = self._typed_numbers(role, self.reading.vectors(role)[index])
        in_plane = self.canvas.plane_for(role) is not None
        prompt = (tr("New coordinates for {name} in the PCA plane ({count} numbers, e.g. 1.5, -0.2):") if in_plane
                  else tr("New coordinates for {name} ({count} numbers, e.g. 1.5, -0.2):")).format(
            name=name, count=len(current))
        offered = text = typed_list([f"{value:g}" for value in current])  # "1,5; -0,2" where a comma is decimal
        problem = ""
        while True:
            # A refused answer comes back in the box with the reason above it, to be corrected, not retyped.
            refused = text if problem else None
            text, ok = QInputDialog.getText(
                self.parent, tr(TITLE), f"{problem}\n\n{prompt}" if problem else prompt, text=text
            )
            if not ok or (text == offered and in_plane):  # the plane's numbers as offered (rounded): nothing to move
                return
            problem = self._coordinates_problem(role, index, name, text)
            if not problem:
                return
            if text == refused:  # OK again on the same refused text: say why once more, and stop asking
                self.show_error(tr(TITLE), problem)
                return

    def _coordinates_problem(self, role: Role, index: int, name: str, text: str) -> str:
        """Move the arrow to the typed coordinates; what was wrong with them, or "" when they were taken."""
        current = self.reading.vectors(role)[index]
        count = len(self._typed_numbers(role, current))
        numbers = parse_numbers(text, count)
        if len(numbers) != count:
            return ntr("{name} needs {count} numbers; \"{text}\" has {found}.",
                       "{name} needs {count} numbers; \"{text}\" has {found}.", len(numbers)).format(
                name=name, count=count, text=text, found=len(numbers))
        plane = self.canvas.plane_for(role)
        after = plane.lift(current, *numbers).tolist() if plane is not None else numbers
        try:
            self.editor.do(move_arrow(self.reading, role, index, before=current, after=after))
        except ValueError as error:  # refused (too large, not finite): the scene is as it was
            return tr("{name}: {error}").format(name=name, error=error)
        return ""

    def _typed_numbers(self, role: Role, vector: np.ndarray) -> list[float] | np.ndarray:
        """What is typed for a vector: its numbers, or in a PCA plane its two coordinates there."""
        plane = self.canvas.plane_for(role)
        return plane.project(vector).tolist() if plane is not None else vector

    def choose_dims(self) -> None:
        """For vectors of more than two numbers: which two the canvas draws."""
        width = max(self.reading.key_width, self.reading.value_width)
        if width <= 2:
            self.show_status(tr("Every vector here has at most two numbers; the canvas shows them all."), 4000)
            return
        current = ", ".join(str(d + 1) for d in self.canvas.dims)
        text, ok = QInputDialog.getText(
            self.parent, tr("Canvas dimensions"), tr("Which two of the {width} numbers should the canvas draw (e.g. 1, 3)?\n"
                                                     "(View → Draw the PCA Plane draws the plane the vectors spread along "
                                                     "most instead.)").format(width=width),
            text=current,
        )
        if not ok:
            return
        numbers = parse_numbers(text, 2)
        try:
            if len(numbers) != 2 or not all(n.is_integer() for n in numbers):
                raise ValueError(tr("type two whole numbers, like 1, 3"))
            self.canvas.set_dims(int(numbers[0]) - 1, int(numbers[1]) - 1)
        except ValueError as error:
            self.show_error(tr("Canvas dimensions"), tr("{error} (1 to {width})").format(error=error, width=width))
