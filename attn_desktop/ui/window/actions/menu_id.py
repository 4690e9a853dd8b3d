"""The menu bar's menus by name, as napari names its menus: the actions' table places each command in one,
and the window and the tests find a menu by it, whatever language its title shows."""

from __future__ import annotations

from enum import Enum

from attn_desktop.language import N_


class MenuId(str, Enum):
    """A menu, its id the path of menus it sits in ("file/export": File → Export)."""

    FILE = "file"
    FILE_EXPORT = "file/export"
    EDIT = "edit"
    ATTENTION = "attention"
    ATTENTION_SNAP_STEP = "attention/snap_step"
    LESSONS = "lessons"
    VIEW = "view"
    HELP = "help"

    @property
    def parent(self) -> MenuId | None:
        """The menu this one is a submenu of; None for a menu of the bar."""
        parent, _, _ = self.value.rpartition("/")
        return MenuId(parent) if parent else None

    @property
    def shown_title(self) -> str:
        """Its title in English, marked: shown with tr()."""
        return TITLES[self]


TITLES = {
    MenuId.FILE: N_("&File"), MenuId.FILE_EXPORT: N_("&Export"), MenuId.EDIT: N_("&Edit"),
    MenuId.ATTENTION: N_("&Attention"), MenuId.ATTENTION_SNAP_STEP: N_("Snap &Step"), MenuId.LESSONS: N_("&Lessons"),
    MenuId.VIEW: N_("&View"), MenuId.HELP: N_("&Help"),
}
