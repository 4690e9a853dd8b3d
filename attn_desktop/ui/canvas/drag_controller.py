"""What the canvas's arrows do when dragged, clicked or nudged with the keys.

The canvas draws; this decides. A drag moves its arrow live through the scene
(every panel follows every move) and, on release, announces one `MoveArrow`
command for the edit history: pyqtgraph's ROI pattern of a snapshot at the
start (to cancel back to) and one change-finished at the end. Escape or a
right-click puts the arrow back and announces nothing. An arrow-key nudge
moves the focused arrow and announces a command of its own, which the
history merges with the nudges of the same arrow just before it.

It also holds the choices that turn a tip on screen into a vector: which plane of a
wide vector is drawn (two chosen coordinates or the PCA plane, see drawn_planes.py)
and the snapping step.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import cast

import numpy as np
from PySide6.QtCore import QObject, QPointF, Qt, Signal

from attn_desktop.geometry.drawn_planes import DrawnPlanes
from attn_desktop.geometry.tip_choice import Tip, TipTurns
from attn_desktop.language import ntr, tr
from attn_desktop.model import HeadReading, Role
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.shown_numbers import shown_vector
from attn_desktop.model.view_plane import ViewPlane
from attn_desktop.ui.canvas.arrow_geometry import HANDLE_RADIUS_PX
from attn_desktop.ui.canvas.arrow_item import ArrowItem

# The arrow keys' step; with Shift a fine one (PhET's and the issue's: Shift refines), with Ctrl a big one.
SMALL_NUDGE, FINE_NUDGE, BIG_NUDGE = 0.1, 0.01, 0.5
NUDGE_KEYS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
ArrowLock = Callable[[Role, int], bool]  # whether the arrow (role, index) is fixed
# Up to this many tokens every arrow is a Tab stop of its own; a larger scene is one stop, and
# Page Up / Page Down step between its arrows (three Tab presses per token would trap the keyboard).
TAB_STOP_TOKENS = 12


def describe(scene: HeadReading, role: Role, index: int, plane: ViewPlane | None = None) -> str:
    """"k·cat = (1.32, 1.59)": what the status bar and the arrow's tooltip say. An arrow drawn in a
    PCA plane is given by its two coordinates there (its 64 numbers would not be read)."""
    vector = scene.vectors(role)[index]
    if plane is not None:
        return ntr("{name} = {vector} in the PCA plane (a vector of {count} number)",
                   "{name} = {vector} in the PCA plane (a vector of {count} numbers)", len(vector)).format(
            name=scene.arrow_name(role, index), vector=shown_vector(plane.project(vector).tolist()), count=len(vector))
    return f"{scene.arrow_name(role, index)} = {shown_vector(vector)}"


def listed(names: list[str]) -> str:
    """"k·a and k·b" (and "k·a and k·b and k·c") in the student's language."""
    text = names[0]
    for name in names[1:]:
        text = tr("{first} and {second}").format(first=text, second=name)
    return text


def _role_and_index(key: Hashable) -> tuple[Role, int]:
    """A tip's key back as the (role, index) the controller made it from."""
    return cast(tuple[Role, int], key)


@dataclass(frozen=True)
class _Drag:
    """A drag under way, and what it started from."""

    role: Role
    index: int
    start: np.ndarray  # the vector, to put back on Escape and for the command on release
    chosen_before: int  # the query chosen before it (dragging a query arrow chooses it)
    weights_before: np.ndarray  # every query's weights before it, to say what the drag changed
    hint: str  # said on every move: how to reach the arrow this one covered


class DragController(QObject):
    arrow_moved = Signal(object)  # a MoveArrow already shown on screen: a released drag or one nudge
    status = Signal(str)  # what the moved arrow now is, e.g. "k·cat = (1.32, 1.59)"
    edit_requested = Signal(object, int)  # role, index: a double-click on a tip asks to type coordinates
    dragging = Signal(bool)  # a drag began (True) or ended in any way (False): Undo waits for the release
    nudge_starting = Signal()  # an arrow key is about to move an arrow (Predict, then see veils the weights first)
    # One step done (a nudge, a released drag that moved its arrow): role, index and every query's weights before it,
    # so what the step changed can be said once (canvas_access.py).
    stepped = Signal(object, int, object)
    arrow_focused = Signal(object)  # the (role, index) the arrow keys now move (Tab, or a drag's start)

    def __init__(self, reading: HeadReading, arrows: dict[Role, list[ArrowItem]], parent: QObject | None = None) -> None:
        """`arrows` is the canvas's own table of arrow items, read as it is at each gesture."""
        super().__init__(parent)
        self.reading = reading  # the head drawn
        self.scene = reading.scene  # where a drag moves its arrow live (recorded as a command on release)
        self.arrows = arrows
        self.planes = DrawnPlanes(reading)  # which plane of a wide vector the canvas shows
        self.snap_step = 0.0  # when set, dragged tips land on multiples of it (so "exactly equal" is reachable)
        self.focused_arrow: tuple[Role, int] | None = None  # what the arrow keys move
        self.is_locked: ArrowLock | None = None  # a lesson file's locked arrows: reached and read, never moved
        self._turns = TipTurns()
        self._drag: _Drag | None = None

    # ----- arrows -------------------------------------------------------
    def attach(self, role: Role, index: int, item: ArrowItem) -> None:
        """Follow a new arrow's gestures."""
        item.drag_started.connect(partial(self._start_drag, role, index))
        item.drag_moved.connect(self._move_drag)
        item.drag_finished.connect(self._finish_drag)
        item.drag_cancelled.connect(self._drag_cancelled)
        item.double_clicked.connect(partial(self.edit_requested.emit, role, index))
        if self.locked(role, index):
            item.set_draggable(False)
        if role in (Role.QUERY, Role.TARGET):  # a target word's vector stands for its query
            item.clicked.connect(partial(self.reading.select_query, index))

    def forget_arrows(self) -> None:
        """The arrows are made anew: nothing is focused or dragged, and no turn at a shared tip is pending."""
        self.focused_arrow = None
        if self._drag is not None:
            self._drag = None
            self.dragging.emit(False)
        self._turns.forget()

    def lock(self, is_locked: ArrowLock | None) -> None:
        """Arrows IS_LOCKED says (role, index) are fixed, by mouse and keys (None: none is); asked at each gesture."""
        self.is_locked = is_locked
        for role, items in self.arrows.items():
            for index, item in enumerate(items):
                item.set_draggable(self.reading.is_draggable(role) and not self.locked(role, index))

    def locked(self, role: Role, index: int) -> bool:
        return self.is_locked is not None and self.is_locked(role, index)

    def draggable_arrows(self) -> list[tuple[Role, int]]:
        return [(role, i) for role in self.reading.roles if self.reading.is_draggable(role)
                for i in range(len(self.arrows[role]))]

    def dragged_arrow(self) -> ArrowItem | None:
        drag = self._drag
        if drag is None or drag.index >= len(self.arrows[drag.role]):
            return None
        return self.arrows[drag.role][drag.index]

    # ----- presses: which of several tips under the pointer takes one -----
    def press_at(self, scene_point: QPointF) -> None:
        """A left press is about to reach the arrows: tell each whether a click or a drag from here is its own."""
        rights = self._turns.rights_at((scene_point.x(), scene_point.y()), list(self._tips_on_screen()),
                                       HANDLE_RADIUS_PX)
        for role, items in self.arrows.items():
            for index, item in enumerate(items):
                key = (role, index)
                item.set_press_rights(clicks=key in rights.clicks, drags=key in rights.drags)

    def _tips_on_screen(self) -> Iterator[Tip]:
        """Every arrow's tip in view pixels, in a fixed order (queries, keys, values, word vectors x, target words y)."""
        for role in Role:
            for index, item in enumerate(self.arrows[role]):
                if item.scene() is not None:
                    tip = item.mapToScene(item.tip)
                    yield Tip((role, index), tip.x(), tip.y(), item.accepts_drags)

    # ----- drags ----------------------------------------------------------
    def _start_drag(self, role: Role, index: int) -> None:
        underneath = self._turns.started_dragging((role, index), list(self._tips_on_screen()))
        names = [self.reading.arrow_name(*_role_and_index(key)) for key in underneath]
        hint = "  " + tr("({names} stayed: undo, then drag from there again to move it instead)").format(
            names=listed(names)) if names else ""
        self._drag = _Drag(role, index, self.reading.vectors(role)[index].copy(), self.reading.selected,
                           self.reading.result.weights.copy(), hint)
        self.focus_arrow((role, index))  # the arrow keys then fine-tune the same arrow
        if role in (Role.QUERY, Role.TARGET):
            self.reading.select_query(index)
        self.dragging.emit(True)

    def _move_drag(self, tip: QPointF) -> None:
        drag = self._drag
        if drag is None:
            return
        moved = self.vector_with_tip(drag.start, tip.x(), tip.y(), drag.role)
        self.scene.set_vector(drag.role, drag.index, moved.tolist())
        self.status.emit(self.describe(drag.role, drag.index) + drag.hint)

    def _finish_drag(self, tip: QPointF) -> None:
        drag = self._drag
        if drag is None:
            return
        self._move_drag(tip)
        self._drag = None
        self.dragging.emit(False)
        command = move_arrow(self.reading, drag.role, drag.index, drag.start.tolist(), chosen_before=drag.chosen_before)
        if command.before != command.after:  # released where it began: no step (choosing a query is no edit)
            self.arrow_moved.emit(command)
            self.stepped.emit(drag.role, drag.index, drag.weights_before)

    def _drag_cancelled(self) -> None:
        drag, self._drag = self._drag, None
        if drag is None:
            return
        self.dragging.emit(False)
        self.scene.set_vector(drag.role, drag.index, drag.start.tolist())
        self.status.emit(tr("Put back: {arrow}").format(arrow=self.describe(drag.role, drag.index)))

    def cancel_drag(self) -> bool:
        """Put back the arrow being dragged, if one is; whether there was one."""
        dragged = self.dragged_arrow()
        if dragged is not None:
            dragged.cancel_drag()
        return dragged is not None

    def describe(self, role: Role, index: int) -> str:
        """What an arrow is, as the plane it is drawn in shows it (see describe())."""
        return describe(self.reading, role, index, self.planes.plane_for(role))

    # ----- from a tip on screen to a vector ------------------------------------
    @property
    def dims(self) -> tuple[int, int]:
        """Which two coordinates the canvas shows when it does not show the PCA plane (0-based)."""
        return self.planes.dims

    def set_dims(self, first: int, second: int) -> None:
        """Draw two other coordinates of vectors with more than two (0-based)."""
        self.planes.set_dims(first, second)

    def tip_of(self, vector: np.ndarray, role: Role = Role.QUERY) -> tuple[float, float]:
        """Where a vector of ROLE (the output: VALUE) has its tip drawn."""
        return self.planes.tip_of(vector, role)

    def vector_with_tip(self, vector: np.ndarray, x: float, y: float, role: Role = Role.QUERY) -> np.ndarray:
        """The vector a tip at (x, y) stands for, snapped: only what the plot draws changes (see DrawnPlanes).
        On a number line only x counts: a stem's height is its weight, which the student cannot set."""
        return self.planes.vector_with_tip(vector, role, self._snapped(x), self._snapped(y))

    def _snapped(self, value: float) -> float:
        if not self.snap_step:
            return value
        # round() then a decimal round-off: 0.1 * 23 is 2.3000000000000003, the student typed nothing like it.
        return round(round(value / self.snap_step) * self.snap_step, 10)

    # ----- the keyboard ---------------------------------------------------
    def focus_arrow(self, target: tuple[Role, int] | None) -> None:
        """Choose the arrow the arrow keys move (None: no arrow)."""
        if self.focused_arrow is not None:
            role, index = self.focused_arrow
            if index < len(self.arrows[role]):
                self.arrows[role][index].set_keyboard_focus(False)
        self.focused_arrow = target
        if target is not None:
            role, index = target
            self.arrows[role][index].set_keyboard_focus(True)
            self.status.emit(tr("Arrow keys move {arrow} (Shift: finer steps, Ctrl: bigger steps, Enter: type "
                                "numbers)").format(arrow=self.describe(role, index)))
            self.arrow_focused.emit(target)

    @property
    def arrows_are_tab_stops(self) -> bool:
        """Whether Tab walks the arrows one by one (a scene of up to TAB_STOP_TOKENS tokens)."""
        return self.reading.n_tokens <= TAB_STOP_TOKENS

    def focus_next(self, forward: bool) -> bool:
        """Tab and Shift+Tab: the next or previous arrow, queries then keys then values; False past the last
        (or before the first), so the keyboard goes on to the next control instead of circling the arrows."""
        arrows = self.draggable_arrows()
        if not arrows or not self.arrows_are_tab_stops:
            return False
        # No arrow chosen yet (the canvas clicked, or given the keys by the program): the canvas is the stop
        # before its first arrow.
        position = arrows.index(self.focused_arrow) if self.focused_arrow in arrows else -1
        position += 1 if forward else -1
        if not 0 <= position < len(arrows):
            return False
        self.focus_arrow(arrows[position])
        return True

    def focus_entered(self, forward: bool) -> None:
        """The canvas reached with Tab (or Shift+Tab): the first arrow is chosen (or the last)."""
        arrows = self.draggable_arrows()
        if arrows:
            self.focus_arrow(arrows[0] if forward or not self.arrows_are_tab_stops else arrows[-1])

    def _step_between_arrows(self, forward: bool) -> bool:
        """Page Down / Page Up: the next or previous arrow, round and round (the way through a large scene)."""
        arrows = self.draggable_arrows()
        if arrows:
            position = arrows.index(self.focused_arrow) if self.focused_arrow in arrows else -1
            self.focus_arrow(arrows[(position + (1 if forward else -1)) % len(arrows)])
        return bool(arrows)

    def key_pressed(self, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> bool:
        """Escape cancels a drag; the arrow keys nudge the focused arrow, Enter asks to type its numbers,
        Page Up / Page Down choose another arrow. Whether the key was used."""
        if key == Qt.Key.Key_Escape:
            return self.cancel_drag()
        if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
            return self._step_between_arrows(key == Qt.Key.Key_PageDown)
        if self.focused_arrow is None:
            return False
        if self.locked(*self.focused_arrow) and (key in ENTER_KEYS or key in NUDGE_KEYS):
            name = self.reading.arrow_name(*self.focused_arrow)
            # Translators: said when an arrow key or Enter meets an arrow a teacher's lesson locks: "k·cat is fixed in this lesson"
            self.status.emit(tr("{name} is fixed in this lesson").format(name=name))
            return True  # taken, and nothing moves
        if key in ENTER_KEYS:
            self.edit_requested.emit(*self.focused_arrow)
            return True
        step = NUDGE_KEYS.get(key)
        if step is None:
            return False
        fine = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        size = FINE_NUDGE if fine else BIG_NUDGE if modifiers & Qt.KeyboardModifier.ControlModifier else SMALL_NUDGE
        self.nudge(*self.focused_arrow, step[0] * size, step[1] * size, snapped=not fine)
        return True

    def nudge(self, role: Role, index: int, dx: float, dy: float, snapped: bool = True) -> None:
        """Move an arrow's tip by (dx, dy) on screen's axes: one step of the history, merged with the
        nudges of this arrow just before it. A fine step is not snapped: the grid would take it back."""
        self.nudge_starting.emit()
        before = self.reading.vectors(role)[index].copy()
        weights_before = self.reading.result.weights.copy()
        x, y = self.tip_of(before, role)
        x, y = x + dx, y + (dy if len(before) > 1 else 0.0)
        if snapped:
            after = self.vector_with_tip(before, x, y, role)
        else:  # rounded as a student would type it: 0.1 + 0.01 is 0.11, not 0.11000000000000001
            after = self.planes.vector_with_tip(before, role, round(x, 10), round(y, 10))
        self.scene.set_vector(role, index, after.tolist())
        self.status.emit(self.describe(role, index))
        command = move_arrow(self.reading, role, index, before.tolist(), nudge=True)
        if not command.changes_nothing:
            self.arrow_moved.emit(command)
            self.stepped.emit(role, index, weights_before)
