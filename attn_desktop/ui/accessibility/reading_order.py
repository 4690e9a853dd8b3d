"""Tab in reading order: the toolbar, the panels on the left, the canvas, the panels on the right, those below.

Qt's Tab chain is the order the widgets were made in: the canvas, then each dock as the window made it, the
toolbar last, and a panel added later (a lesson's exercises, a head's column) at the very end. The docks move
(each lesson lays them out anew, the student drags them), so no fixed chain can be right: at each Tab the window
asks this for the next control, worked out from where the panels are now. Inside a panel the order of its
widget tree stands (its widgets were made and laid out in reading order). Arabic reads right to left: the right-hand panels come first.
A panel behind another's tab is skipped (Qt's chain went into it, out of sight): its tab, reached with Tab and
chosen with the arrow keys, brings it forward.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QDockWidget, QMainWindow, QWidget

ABOVE, BEFORE, CENTRE, AFTER, BELOW = range(5)  # the window's regions, in reading order
AREA_REGIONS = {Qt.DockWidgetArea.TopDockWidgetArea: ABOVE, Qt.DockWidgetArea.LeftDockWidgetArea: BEFORE,
                Qt.DockWidgetArea.RightDockWidgetArea: AFTER, Qt.DockWidgetArea.BottomDockWidgetArea: BELOW}


class ReadingOrder:
    def __init__(self, window: QMainWindow) -> None:
        self.window = window

    def move_focus(self, forward: bool) -> bool:
        """Give the keys to the next control in reading order (the previous one, not FORWARD); False when the
        control that has them is not one of the window's stops (Qt's own chain then decides)."""
        current = self.window.focusWidget()
        # Qt asks too when the control with the keys is being hidden or taken apart (a lesson's panels made
        # anew): then the panels are mid-change and Qt's own chain decides; only a control shown moves by Tab.
        if current is None or not _is_tab_stop(current, self.window):
            return False
        stops = self.stops()
        if current not in stops:
            return False
        target = stops[(stops.index(current) + (1 if forward else -1)) % len(stops)]
        target.setFocus(Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason)
        return True

    def stops(self) -> list[QWidget]:
        """Every control Tab stops at, in reading order."""
        chain = self._chain()
        central = self._central_rect()
        places = {widget: (*self._place(widget, central), index) for index, widget in enumerate(chain)}
        return sorted(chain, key=places.__getitem__)

    def _chain(self) -> list[QWidget]:
        """The window's tab stops in the order of its widget tree (each panel's widgets as it laid them out).
        Not Qt's chain: walking it with nextInFocusChain() from Python left PySide's wrappers of a flow layout's
        items dangling once a lesson's exercises were made anew."""
        window = self.window
        return [widget for widget in window.findChildren(QWidget) if _is_tab_stop(widget, window)]

    def _central_rect(self) -> QRect:
        central = self.window.centralWidget()
        return QRect(central.mapTo(self.window, QPoint(0, 0)), central.size()) if central is not None else QRect()

    def _place(self, widget: QWidget, central: QRect) -> tuple[int, int, int]:
        """(region, then the panel's top and its side the reading starts from): the order of its panel."""
        dock = _dock_of(widget)
        box = dock if dock is not None else widget
        rect = QRect(box.mapTo(self.window, QPoint(0, 0)), box.size())
        if dock is not None and not dock.isFloating():
            region = AREA_REGIONS.get(self.window.dockWidgetArea(dock), BELOW)
        elif central.contains(rect.center()) or self.window.centralWidget() in _ancestors(widget):
            region = CENTRE
        else:
            region = _region_beside(rect, central)
        right_to_left = self.window.layoutDirection() == Qt.LayoutDirection.RightToLeft
        if right_to_left and region in (BEFORE, AFTER):
            region = AFTER if region == BEFORE else BEFORE
        return region, rect.top(), -rect.right() if right_to_left else rect.left()


def _region_beside(rect: QRect, central: QRect) -> int:
    """Where a control outside the panels (a toolbar's, a dock area's tab bar) stands against the central area."""
    centre = rect.center()
    if centre.y() < central.top():
        return ABOVE
    if centre.y() > central.bottom():
        return BELOW
    return BEFORE if centre.x() < central.left() else AFTER


def _dock_of(widget: QWidget) -> QDockWidget | None:
    return next((parent for parent in _ancestors(widget) if isinstance(parent, QDockWidget)), None)


def _ancestors(widget: QWidget) -> list[QWidget]:
    parents = []
    parent = widget.parentWidget()
    while parent is not None:
        parents.append(parent)
        parent = parent.parentWidget()
    return parents


def _is_tab_stop(widget: QWidget, window: QWidget) -> bool:
    """A control Tab gives the keys to, as Qt's chain would: shown, enabled, taking Tab, not standing in for
    another, and of a group of radio buttons only the checked one (the arrow keys choose among them)."""
    if not (widget.focusPolicy() & Qt.FocusPolicy.TabFocus) or widget.focusProxy() is not None:
        return False
    if not widget.isEnabled() or not widget.isVisible() or widget.window() is not window:
        return False
    dock = _dock_of(widget)
    if dock is not None and dock.visibleRegion().isEmpty():
        return False  # a panel behind another's tab: "shown", moved out of the window (its tab brings it)
    return not _unchecked_in_a_checked_group(widget)


def _unchecked_in_a_checked_group(widget: QWidget) -> bool:
    if not isinstance(widget, QAbstractButton) or widget.isChecked() or not widget.isCheckable():
        return False
    group = widget.group()
    if group is not None:
        return group.exclusive() and group.checkedButton() is not None
    if not widget.autoExclusive():
        return False
    parent = widget.parentWidget()
    return parent is not None and any(
        isinstance(sibling, QAbstractButton) and sibling.autoExclusive() and sibling.isChecked()
        for sibling in parent.findChildren(QAbstractButton, options=Qt.FindChildOption.FindDirectChildrenOnly))
