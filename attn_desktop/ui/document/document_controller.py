"""The open document: which file the scene belongs to, whether its work is saved, and every
step that opens, saves or replaces it.

New, Open, Open Recent, Save, Save As, the unsaved-changes question, the recovery copy and the
offer to restore it after a crash, the window's title, the folder file dialogs open in and the
names offered for exports all live here. The controller asks the user only through a
`DocumentDialogs` (Qt's dialogs in the app, see qt_dialogs.py; a scripted stand-in in tests), as
Mu's Editor talks to its view: so every road through a file is tested without a real dialog.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from enum import Enum, auto
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QStandardPaths
from shiboken6 import isValid

from attn_desktop import APP_NAME
from attn_desktop.language import tr
from attn_desktop.model import Scene, SceneFileError
from attn_desktop.model.commands import open_contents
from attn_desktop.model.scene_files import load_into, read_scene_data, save_scene
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.lesson_words import scene_name_now
from attn_desktop.paths import CROSS_SCENE, DEFAULT_SCENE
from attn_desktop.paths import scene_path as builtin_scene_path
from attn_desktop.ui.document.autosave import Autosaver, LeftWork, find_left_work
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.document.file_problems import failure_text, read_only
from attn_desktop.ui.settings import forget_recent, recent_files, remember_recent

RECOVERY_NOTICE_MS = 60_000  # a damaged recovery copy was set aside: long enough to be read after the start


class SaveChanges(Enum):
    """The answers to "The scene has changes that are not saved. Save them first?"."""

    SAVE = auto()
    DISCARD = auto()
    CANCEL = auto()


class DocumentDialogs(Protocol):
    """Everything the controller asks or tells the user. A question answered "no" or cancelled is None/False."""

    def ask_open_path(self, folder: Path) -> Path | None: ...
    def ask_save_path(self, suggested: Path) -> Path | None: ...
    def ask_save_changes(self) -> SaveChanges: ...
    def ask_copy_elsewhere(self, question: str) -> bool: ...  # the file cannot be written: Save As instead?
    def ask_restore(self, question: str) -> bool: ...  # work a dead window left: restore it?
    def show_error(self, title: str, message: str) -> None: ...
    def show_status(self, message: str, milliseconds: int) -> None: ...
    def set_title(self, title: str) -> None: ...


class Lessons(Protocol):
    """The lesson side of a document: which lesson goes with it, and the scenes that come with the app."""

    def show(self, lesson_id: str | None) -> None: ...
    def load_builtin(self, name: str) -> bool: ...
    def keep_scene(self) -> bool: ...  # a lesson's scene, kept with the lessons: True, nothing to ask


def documents_folder() -> Path:
    """The user's Documents folder where there is one, else their home folder."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


def file_stem_for_title(title: str) -> str:
    """A file name for an unsaved scene: "The cat sat on the mat" -> "the-cat-sat-on-the-mat"."""
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return stem if stem and stem != "untitled" else "attention"


def with_json_suffix(path: Path) -> Path:
    """A name typed without an extension gets .json, so the file shows in the Open dialog."""
    return path if path.suffix else path.with_name(path.name + ".json")


def lesson_for_file(path: Path | None) -> str | None:
    """The lesson that opens with a scene file (the default scene's), None for one's own."""
    return lessons.lesson_for_scene(path, builtin_scene_path(DEFAULT_SCENE))


def restore_question(left: LeftWork, elsewhere: bool) -> str:
    name = left.source.name if left.source else tr("never saved")
    # Translators: a time and date written with strftime's codes: %H:%M the time, %d the day, %b the month's name.
    when = time.strftime(tr("%H:%M on %d %b"), time.localtime(left.saved_at))
    where = tr(" It opens in a window of its own.") if elsewhere else ""
    copy = (tr(" Its folder cannot be written, so the copy stays at {path} either way.").format(path=left.path)
            if left.read_only else tr(" No deletes this copy."))
    # Translators: {where} and {copy} are the sentences that may follow (each with its leading space).
    return tr("A session ended before its work was saved: \u201c{title}\u201d ({name}), copied at {when}. "
              "Restore it?{where}{copy}").format(title=left.data.title or tr("Untitled"), name=name, when=when,
                                                 where=where, copy=copy)


class DocumentController:
    def __init__(self, scene: Scene, history: EditHistory, autosaver: Autosaver, dialogs: DocumentDialogs,
                 lessons: Lessons, open_elsewhere: Callable[[LeftWork], object], path: Path | None = None,
                 start_folder: Path | None = None) -> None:
        self.scene, self.history, self.autosaver = scene, history, autosaver
        self.dialogs, self.lessons = dialogs, lessons
        self.path = path
        self.autosaver.source_path = path
        # Work of a second dead window comes back in a window of its own, kept here while it lives.
        self.open_elsewhere = open_elsewhere
        self.restored_elsewhere: list[object] = []
        self.copy_kept_for_next_start = False  # closing keeps the recovery copy (see keep_for_next_start)
        self.last_folder = start_folder if start_folder is not None else documents_folder()
        history.stack.indexChanged.connect(self._on_history_changed)
        history.stack.cleanChanged.connect(self._on_clean_changed)

    # ----- what the document is ------------------------------------------
    @property
    def modified(self) -> bool:
        return not self.history.stack.isClean()

    def title(self) -> str:
        """The window's title: "*mine.json — Attention Desktop" (the * while changes are unsaved)."""
        name = self.path.name if self.path else (scene_name_now(self.scene.title) or tr("Untitled"))
        return f"{'*' if self.modified else ''}{name} — {APP_NAME}"

    def update_title(self) -> None:
        self.dialogs.set_title(self.title())

    def dialog_folder(self) -> Path:
        """Where file dialogs open: beside the scene's file, else the last folder used."""
        return self.path.parent if self.path else self.last_folder

    def suggested_name(self, ending: str) -> Path:
        """A name for a file made from this scene: "mine-results.json", "the-cat-sat-on-the-mat.png"."""
        stem = self.path.stem if self.path else file_stem_for_title(self.scene.title)
        return self.dialog_folder() / f"{stem}{ending}"

    # ----- replacing the scene -------------------------------------------
    def maybe_save_changes(self) -> bool:
        """Before the scene is replaced: True if it may go (saved, discarded, never changed, or a lesson's
        scene, which the lessons keep as the student left it: switching lessons never asks)."""
        if self.path is None and self.lessons.keep_scene():
            return True
        if not self.modified:
            return True
        answer = self.dialogs.ask_save_changes()
        if answer is SaveChanges.SAVE:
            return self.save()
        return answer is SaveChanges.DISCARD

    def new_scene(self) -> None:
        if not self.maybe_save_changes():
            return
        if self.lessons.load_builtin(DEFAULT_SCENE):
            self.scene.title = tr("Untitled")
            self.start(None, lesson_for_file(None))

    def new_cross_scene(self) -> None:
        """The cross-attention scene that comes with the app (el gato negro duerme → the black cat sleeps), as a
        new untitled document: its words are the example's own in every language, being two languages already."""
        if not self.maybe_save_changes():
            return
        try:
            open_contents(self.scene, read_scene_data(builtin_scene_path(CROSS_SCENE)), self.history.view)
        except SceneFileError as error:  # a damaged installation
            self.dialogs.show_error(tr("Cannot open scene"), str(error))
            return
        self.start(None, None)  # no lesson goes with it (the default scene's would speak of another)

    def choose_and_open(self) -> None:
        path = self.dialogs.ask_open_path(self.dialog_folder())
        if path:
            self.last_folder = path.parent
            self.open_scene(path)

    def open_scene(self, path: Path) -> bool:
        """Open a scene file; on any problem say so and keep the current scene."""
        if not self.maybe_save_changes():
            return False
        path = Path(path)
        try:
            load_into(self.scene, path, self.history.view)
        except Exception as error:  # noqa: BLE001 - any file at all can be chosen; none may end in a traceback
            message = str(error) if isinstance(error, SceneFileError) else tr("{file}: {reason}").format(
                file=path, reason=failure_text(error))
            self.dialogs.show_error(tr("Cannot open scene"), message)
            return False
        self.start(path, lesson_for_file(path))
        remember_recent(path)
        return True

    def recent_files(self) -> list[Path]:
        return recent_files()

    def open_recent(self, path: Path) -> None:
        if not os.path.lexists(path):
            forget_recent(path)
            self.dialogs.show_error(tr("Cannot open scene"), tr("{file}: the file is no longer there").format(file=path))
            return
        self.open_scene(path)

    def start(self, path: Path | None, lesson_id: str | None) -> None:
        """The scene now holds a new document (opened, new or a lesson's): a fresh history, nothing unsaved."""
        self._set_path(path)
        self.history.reset()
        self.autosaver.discard()
        self.lessons.show(lesson_id)
        self.update_title()

    def lesson_scene_as_it_comes(self) -> None:
        """Start afresh has just put a lesson's own scene back. With no file of its own, that is the scene
        unchanged: no "*" (Ctrl+Z gives the student's scene back, which differs from it: "*" again). A scene
        saved as a file keeps its "*": the file still holds the student's scene."""
        if self.path is None:
            self.history.stack.setClean()

    def start_new_work(self) -> None:
        """The scene now holds new work made by the app (a head kept from training): untitled,
        unsaved (the title says so, closing asks) and protected by a recovery copy at once."""
        self.start(None, None)
        self.history.stack.resetClean()
        self.update_title()
        self.autosaver.write_now()

    def _set_path(self, path: Path | None) -> None:
        self.path = path
        self.autosaver.source_path = path

    # ----- saving --------------------------------------------------------
    def save(self) -> bool:
        """Save to the scene's file, or ask for one; True once the work is safely on disk."""
        return self._save_to(self.path) if self.path else self.choose_and_save()

    def choose_and_save(self) -> bool:
        path = self.dialogs.ask_save_path(self.suggested_name(".json"))
        return path is not None and self._save_to(with_json_suffix(path))

    def _save_to(self, path: Path) -> bool:
        """Save; on any failure say why and keep the work and its `*` (False)."""
        if read_only(path):  # the writer would refuse it too; asking first leaves the file untouched
            return self._offer_copy_elsewhere(path)
        try:
            save_scene(self.scene, path, self.history.view)  # atomic: a crash mid-save leaves the old file whole
        except PermissionError:
            return self._offer_copy_elsewhere(path)
        except Exception as error:  # noqa: BLE001 - a full disk or anything else: the work stays in the window
            self.dialogs.show_error(tr("Cannot save scene"), tr("{file}: {reason}").format(
                file=path, reason=failure_text(error)))
            return False
        self._set_path(Path(path))
        self.last_folder = Path(path).parent
        self.history.stack.setClean()
        self.autosaver.discard()
        remember_recent(Path(path))
        self.update_title()
        return True

    def _offer_copy_elsewhere(self, path: Path) -> bool:
        """The file is read-only (or its folder cannot be written): offer Save As; True once saved."""
        question = (tr("{name} is read-only. Save a copy elsewhere?") if read_only(path)
                    else tr("{name} cannot be written (permission denied). Save a copy elsewhere?"))
        return self.dialogs.ask_copy_elsewhere(question.format(name=path.name)) and self.choose_and_save()

    def close(self) -> bool:
        """The window is closing: True if it may (its work saved or let go); its recovery copy goes."""
        if self.copy_kept_for_next_start:
            return True  # closed by Ctrl+C: the copy stays, to be offered back at the next start
        if not self.maybe_save_changes():
            return False
        self.autosaver.discard()
        return True

    def keep_for_next_start(self) -> None:
        """Ctrl+C in the terminal: the window is to close without a question (nobody may be at it to answer),
        unsaved work kept as its recovery copy and offered back at the next start. A lesson's scene stays with
        the lessons, as File → Quit keeps it; a copy that cannot be written leaves the question to closing."""
        if (self.path is None and self.lessons.keep_scene()) or not self.modified:
            return
        self.copy_kept_for_next_start = self.autosaver.write_now()

    # ----- the recovery copy ---------------------------------------------
    def _on_clean_changed(self, clean: bool) -> None:
        if isValid(self.history.stack):  # not while Qt's stack clears itself in its window's end
            self.update_title()

    def _on_history_changed(self) -> None:
        if not isValid(self.history.stack):
            return  # Qt's stack clears itself as its window is destroyed: the work was dealt with at close
        self.update_title()
        if self.modified:
            self.autosaver.schedule()
        else:
            self.autosaver.discard()

    def offer_to_restore(self) -> None:
        """Offer back, one by one, the work of windows that ended without saving (a crash, a kill).

        Only copies whose window is gone are offered: another window still running keeps its own.
        The first work restored comes into this document, any further one into a window of its own.
        """
        left_behind, notices = find_left_work(self.autosaver.folder)
        if notices:  # damaged copies, set aside: say so, but never stop the start for them
            self.dialogs.show_status(" ".join(notices), RECOVERY_NOTICE_MS)
        restored_here = False
        for left in left_behind:
            if not self.dialogs.ask_restore(restore_question(left, elsewhere=restored_here)):
                left.remove()  # that window's copy only, as the question says (a read-only one stays)
                continue
            if restored_here:
                self.restored_elsewhere.append(self.open_elsewhere(left))
            else:
                self.restore_work(left)
                restored_here = True

    def restore_work(self, left: LeftWork) -> None:
        open_contents(self.scene, left.data, self.history.view)
        self.start(left.source, None)
        self.history.stack.resetClean()  # restored work is still unsaved
        self.update_title()
        # Protected at once, not at the next edit: a second crash must not lose it. The dead
        # window's copy goes only once ours holds the work.
        self.autosaver.adopt(left)
        self.autosaver.write_now()
