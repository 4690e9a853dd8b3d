"""Where each panel goes in the everyday design: the left column of reading panels and the panels of one head.

Qt's dock layout is fragile when panels are moved again and again in one window: re-adding and re-tabbing
the left column after presentation mode, with the √d_k lab split under the lesson, could crash Qt inside
tabifyDockWidget. So the left column, which presentation mode never moves, is placed again only when it is
no longer as designed (a panel floated or dragged elsewhere by hand).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import LABS, ON_REQUEST

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
VERTICAL = Qt.Orientation.Vertical
READING_TABS = ((DockId.LESSON, DockId.CHALLENGES), (DockId.CHALLENGES, DockId.CODE), (DockId.CODE, DockId.SENTENCE),
                (DockId.SENTENCE, DockId.TRAINING), (DockId.SENTENCE, DockId.MODEL_HEADS),
                (DockId.SENTENCE, DockId.DESCRIPTION))
LEFT_COLUMN = (DockId.LESSON, DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE, DockId.TRAINING, DockId.MODEL_HEADS,
               DockId.SCALING_LAB, DockId.POSITIONS_LAB, DockId.DESCRIPTION)
TAB_COMPANIONS = (DockId.TRAINING, DockId.MODEL_HEADS)  # tabs of their own, shown from the Lessons menu


def place_left_column(window: QMainWindow, docks: dict[DockId, QDockWidget]) -> None:
    """The reading panels as tabs, the lesson in front; the √d_k lab under the lesson's text (not in a tab
    behind it, so the exercise and the lab it asks about are seen together). The companions closed."""
    # Split before the reading panels become tabs: splitting a tab group's panel makes it one more tab.
    # The reading panels shown first: Qt could crash tabbing a hidden lesson split from a shown lab.
    for name in (DockId.LESSON, DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE):
        docks[name].show()
    for lab in LABS:
        window.splitDockWidget(docks[DockId.LESSON], docks[lab], VERTICAL)
        docks[lab].hide()
    for first, second in READING_TABS:
        if second in docks:
            window.tabifyDockWidget(docks[first], docks[second])
    docks[DockId.LESSON].raise_()


def close_companions(docks: dict[DockId, QDockWidget]) -> None:
    """The activities' own panels closed, and those shown on request (the design shows them again when asked for)."""
    for name in (*TAB_COMPANIONS, *LABS, *ON_REQUEST):
        if name in docks:
            docks[name].hide()


def left_column_as_designed(window: QMainWindow, docks: dict[DockId, QDockWidget]) -> bool:
    """Every left-column panel docked on the left, the shown reading panels and companions in the lesson's
    tab group, the lab outside it. (Qt lists only shown panels as tabbed; a column presentation mode hid
    whole is as it left it: presentation never moves it.)"""
    column = [docks[name] for name in LEFT_COLUMN if name in docks]
    if any(dock.isFloating() or window.dockWidgetArea(dock) != LEFT for dock in column):
        return False
    if docks[DockId.LESSON].isHidden():
        return True
    tabbed = set(window.tabifiedDockWidgets(docks[DockId.LESSON]))
    return not tabbed & {docks[lab] for lab in LABS} and all(
        docks[second] in tabbed for _, second in READING_TABS if second in docks and not docks[second].isHidden())


def closed_panels(saved: object, designed: frozenset[DockId], docks: dict[DockId, QDockWidget]) -> set[DockId]:
    """The panels the user had closed, as the last session saved them: a panel a lab made way for was hidden,
    not closed by anyone. A layout saved before they were kept: the designed panels found hidden."""
    if isinstance(saved, str):
        return {DockId(name) for name in saved.split(",") if name in docks}
    return {name for name in designed if docks[name].isHidden()}


def shown_companions(docks: dict[DockId, QDockWidget]) -> set[DockId]:
    return {name for name in TAB_COMPANIONS if not docks[name].isHidden()}


def lesson_back_in_front(docks: dict[DockId, QDockWidget], companions_before: set[DockId]) -> None:
    """The lesson's tab in front again when a companion it waited behind (Model heads, Training) is gone:
    else Qt brings the group's last tab (Sentence) forward, and the lesson's text is out of sight."""
    if companions_before - shown_companions(docks) and not docks[DockId.LESSON].isHidden():
        docks[DockId.LESSON].raise_()
