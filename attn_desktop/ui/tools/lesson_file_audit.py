"""What `snapshot --lesson-file --audit` adds to the usual audit: the lesson file the window opened, and which of
the controls it hides a student could still reach, read from the menus, the toolbar and the actions themselves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolBar

from attn_desktop.ui.lessons.hidden_controls import HIDDEN_ACTIONS, HIDDEN_PANELS

if TYPE_CHECKING:
    from attn_desktop.ui.window.main_window import MainWindow


def audit_lesson_file(window: MainWindow) -> dict:
    """The lesson file open (its title, the window's title), the controls it hides, and the names of those a
    student is still offered (an empty list: every one gone)."""
    lesson = window.lesson_files.lesson
    hidden = lesson.hidden_controls if lesson is not None else ()
    offered = offered_actions(window)
    return {
        "title": lesson.title if lesson is not None else None,
        "window_title": window.windowTitle(),
        "hidden_controls": list(hidden),
        "hidden_controls_offered": [control for control in hidden
                                    if any(action in offered for action in actions_of(window, control))],
    }


def actions_of(window: MainWindow, control: str) -> list[QAction]:
    """The actions that do what the lesson file's CONTROL names: its commands, and its panel's View-menu entry."""
    actions = [window.menu_actions.actions[name] for name in HIDDEN_ACTIONS.get(control, ())]
    if control in HIDDEN_PANELS:
        actions.append(window.docks[HIDDEN_PANELS[control]].toggleViewAction())
    return actions


def offered_actions(window: MainWindow) -> set[QAction]:
    """Every action a student can reach: shown in a menu (however deep) or on the toolbar, or enabled (its
    shortcut works even where no menu shows it)."""
    shown = set(_in_menus(window.menuBar().actions())) | set(_on_toolbar(window.toolbar))
    enabled = {action for action in window.findChildren(QAction) if action.isEnabled() and action.shortcuts()}
    return shown | enabled


def _in_menus(actions: Iterable[QAction]) -> list[QAction]:
    found = []
    for action in actions:
        if not action.isVisible():
            continue
        found.append(action)
        menu = action.menu()
        if isinstance(menu, QMenu):
            found += _in_menus(menu.actions())
    return found


def _on_toolbar(toolbar: QToolBar) -> list[QAction]:
    """The toolbar's visible actions, and the action of each check box it shows in their place."""
    found = []
    for action in toolbar.actions():
        if not action.isVisible():
            continue
        found.append(action)
        box_action = getattr(toolbar.widgetForAction(action), "action", None)
        if isinstance(box_action, QAction):
            found.append(box_action)
    return found
