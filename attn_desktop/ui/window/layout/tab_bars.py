"""Tab bars of the docked panels: whole titles (with tight margins where a narrow column needs them), and no
ghost bars left over the panels by Qt."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QStyle, QTabBar
from shiboken6 import getCppPointer

from attn_desktop.model.teaching.dock_id import DockId


def show_whole_tab_titles(window: QMainWindow, tight: QStyle) -> None:
    """Tabbed docks keep whole titles ("Challenges", not "Challen…"), side by side: with TIGHT's narrower
    margins where the application style's do not fit (the lesson column at 1024 × 768 holds "Lesson |
    Challenges | Code | Sentence" in 218 px only so), and only past that scrolling its tabs (a tab behind a
    scroll arrow is one a class never finds)."""
    for bar in window.findChildren(QTabBar):
        # Set only what differs: each setter repaints the bar, and this runs after every layout pass.
        if bar.elideMode() != Qt.TextElideMode.ElideNone:
            bar.setElideMode(Qt.TextElideMode.ElideNone)
        if not bar.usesScrollButtons():
            bar.setUsesScrollButtons(True)
        if bar.parent() is not window:
            continue  # a panel's own tabs (the Model heads panel fits its own)
        # Chosen by the application style's widths whichever style the bar has now: never by its own choice.
        wanted = tight if tab_row_width(bar, QApplication.style()) > bar.width() else QApplication.style()
        if bar.style() is not wanted:
            bar.setStyle(wanted)


def tab_row_width(bar: QTabBar, style: QStyle) -> int:
    """The width BAR's tabs take side by side with STYLE's margins: each tab's text as QTabBar measures it, and the
    room the style puts beside it."""
    metrics = bar.fontMetrics()
    padding = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, bar)
    return sum(metrics.size(Qt.TextFlag.TextShowMnemonic, bar.tabText(index)).width() + padding
               for index in range(bar.count()))


def hide_stray_tab_bars(window: QMainWindow, docks: dict[DockId, QDockWidget], hidden_before: set[int]) -> None:
    """Hide tab bars Qt has left behind over the panels.

    QMainWindow.restoreState (and sometimes re-tabbing) makes a fresh tab bar for a tab group and
    leaves the old one on screen with its old tabs: a ghost "Shapes | Grids" bar floats over the
    weights chart. A live tab bar sits against the dock of its current tab; a ghost does not.
    Hiding a bar Qt still uses is harmless: Qt shows it again at its next layout pass. Such a bar
    is then left alone (HIDDEN_BEFORE remembers every bar hidden): hiding it again would make
    another layout pass, and so another tidy, for ever — an idle window kept a core busy.
    """
    by_pointer = {getCppPointer(dock)[0]: dock for dock in docks.values()}
    for bar in window.findChildren(QTabBar):
        if bar.parent() is not window or not bar.isVisible():
            continue
        pointer = getCppPointer(bar)[0]
        if pointer in hidden_before:
            continue  # shown again by Qt: a bar in use
        dock = by_pointer.get(bar.tabData(bar.currentIndex())) if bar.count() else None
        # (A bar whose panel is hidden is one too: hiding every panel of a group can leave its bar.)
        if dock is None or dock.isHidden() or not _touches(bar.geometry(), dock.geometry()):
            hidden_before.add(pointer)
            bar.hide()


def _touches(bar: QRect, dock: QRect, slack: int = 2) -> bool:
    """Whether a tab bar lies along the top or bottom edge of its dock, across the same width."""
    same_span = abs(bar.left() - dock.left()) <= slack and abs(bar.right() - dock.right()) <= slack
    along_edge = abs(bar.top() - dock.bottom()) <= slack or abs(bar.bottom() - dock.top()) <= slack
    return dock.isValid() and same_span and along_edge


TAB_GROUPS = ((DockId.SHAPES, DockId.GRIDS), (DockId.LESSON, DockId.CHALLENGES), (DockId.LESSON, DockId.CODE),
              (DockId.LESSON, DockId.SENTENCE), (DockId.LESSON, DockId.DESCRIPTION))


def keep_tab_groups(window: QMainWindow, docks: dict[DockId, QDockWidget]) -> None:
    """Shapes and Grids share a tab group, as do the reading panels: a panel shown again after presentation
    mode hid its whole group can land beside its partner instead (then the bottom row is wide and tall)."""
    for first, second in TAB_GROUPS:
        if not docks[first].isHidden() and not docks[second].isHidden() \
                and docks[second] not in window.tabifiedDockWidgets(docks[first]):
            window.tabifyDockWidget(docks[first], docks[second])
