"""Arabic mirrors the window's docks too: Qt mirrors what is inside each panel (tables, text, tabs, title bars)
and the menus, but keeps its left and right dock areas where they are. The window asks for its docks on the
design's side ("the lesson on the left"); this module turns that into the reading side: in a right-to-left
language the left column is on the right."""

from __future__ import annotations

from PySide6.QtCore import Qt

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
_OTHER_SIDE = {LEFT: RIGHT, RIGHT: LEFT}
_OTHER_CORNER = {
    Qt.Corner.TopLeftCorner: Qt.Corner.TopRightCorner, Qt.Corner.TopRightCorner: Qt.Corner.TopLeftCorner,
    Qt.Corner.BottomLeftCorner: Qt.Corner.BottomRightCorner, Qt.Corner.BottomRightCorner: Qt.Corner.BottomLeftCorner,
}


def on_reading_side(area: Qt.DockWidgetArea, right_to_left: bool) -> Qt.DockWidgetArea:
    """The design's AREA as the window places it (and back: the mirroring is its own inverse)."""
    return _OTHER_SIDE.get(area, area) if right_to_left else area


def corner_on_reading_side(corner: Qt.Corner, right_to_left: bool) -> Qt.Corner:
    return _OTHER_CORNER[corner] if right_to_left else corner
