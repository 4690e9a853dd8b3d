"""Your lessons: the teacher's folder of lesson files, listed in the Lessons menu after the built-in ten.

Lessons → Choose Your Lessons Folder… keeps the folder with the app's other settings. Each time the Lessons menu
opens, the folder's lesson files are listed under that entry by title (LessonFolderReader: at most MAX_LISTED,
each read whole and checked, unchanged ones not read again), each opening as File → Open Lesson… opens one. A
file that cannot be read is left out, and one greyed entry says how many and, pointed at, why; a folder that is
gone (a USB stick taken out) is one greyed entry saying so, never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from attn_desktop.language import ntr, tr
from attn_desktop.model.teaching.lesson_folder import MAX_LISTED, LessonFolder, LessonFolderReader
from attn_desktop.ui.settings import lessons_folder, remember_lessons_folder

MAX_REASONS_SHOWN = 10  # lines of "file: why" in the greyed entry's tooltip
TITLE_WIDTH_CHARS = 60  # a longer title is cut (…): the menu stays as wide as the built-in lessons' titles, or so


class YourLessonsMenu(QObject):
    def __init__(self, menu: QMenu, choose_action: QAction, open_path: Callable[[Path], object],
                 start_folder: Callable[[], Path], parent: QWidget) -> None:
        """MENU: the Lessons menu; its entries go right after CHOOSE_ACTION (Choose Your Lessons Folder…).
        OPEN_PATH opens a lesson file (LessonFileOpener.open_path); START_FOLDER, where the folder dialog begins
        when no folder is chosen yet."""
        super().__init__(parent)
        self.menu, self.choose_action, self.open_path = menu, choose_action, open_path
        self.start_folder, self.parent_widget = start_folder, parent
        self.reader = LessonFolderReader()
        self.entries: list[QAction] = []  # the folder's entries now in the menu
        menu.setToolTipsVisible(True)  # a file's path, or why a file is left out
        menu.aboutToShow.connect(self.refresh)

    def choose_folder(self) -> bool:
        """Lessons → Choose Your Lessons Folder…: the folder kept for the next time the menu opens."""
        chosen = lessons_folder()
        start = chosen if chosen is not None and chosen.is_dir() else self.start_folder()
        folder = QFileDialog.getExistingDirectory(self.parent_widget, tr("Choose Your Lessons Folder"), str(start))
        if not folder:
            return False
        remember_lessons_folder(Path(folder))
        return True

    def refresh(self) -> None:
        """The folder's entries, read now (the menu is opening)."""
        for action in self.entries:
            self.menu.removeAction(action)
            action.deleteLater()
        folder = lessons_folder()
        self.entries = [] if folder is None else self._entries(self.reader.read_folder(folder))
        before = self._after_choose_action()
        if before is None:
            self.menu.addActions(self.entries)
        else:
            self.menu.insertActions(before, self.entries)

    def _after_choose_action(self) -> QAction | None:
        """The menu's entry after Choose Your Lessons Folder… (None: it is the last): the list goes before it."""
        actions = self.menu.actions()
        place = actions.index(self.choose_action) + 1 if self.choose_action in actions else len(actions)
        return actions[place] if place < len(actions) else None

    def _entries(self, listed: LessonFolder) -> list[QAction]:
        if listed.problem:
            return [self._greyed(listed.problem, tr("Plug the drive back in, or choose another folder."))]
        entries = [self._lesson_entry(lesson.title, lesson.path) for lesson in listed.lessons]
        if listed.refused:
            reasons = "\n".join(reason for _path, reason in listed.refused[:MAX_REASONS_SHOWN])
            entries.append(self._greyed(ntr("{count} lesson file left out: it cannot be read",
                                            "{count} lesson files left out: they cannot be read",
                                            len(listed.refused)).format(count=len(listed.refused)), reasons))
        if listed.not_listed:
            entries.append(self._greyed(ntr("{count} more lesson file not listed (the first {limit} are)",
                                            "{count} more lesson files not listed (the first {limit} are)",
                                            listed.not_listed).format(count=listed.not_listed, limit=MAX_LISTED),
                                        str(listed.folder)))
        if not entries:
            entries.append(self._greyed(tr("No lessons in {folder}").format(folder=listed.folder.name),
                                        str(listed.folder)))
        return entries

    def _lesson_entry(self, title: str, path: Path) -> QAction:
        """TITLE on one line, cut to TITLE_WIDTH_CHARS average characters (a title may be 200 long, with line
        breaks): the whole title and the file in its tooltip."""
        one_line = " ".join(title.split())
        metrics = self.menu.fontMetrics()
        shown = metrics.elidedText(one_line, Qt.TextElideMode.ElideRight,
                                   TITLE_WIDTH_CHARS * metrics.averageCharWidth())
        action = QAction(shown.replace("&", "&&"), self.menu)  # a title's & is a character, not a key
        action.setToolTip(f"{one_line}\n{path}" if shown != one_line else str(path))
        action.setStatusTip(str(path))
        action.triggered.connect(lambda _checked=False, path=path: self.open_path(path))
        return action

    def _greyed(self, text: str, tooltip: str) -> QAction:
        action = QAction(text, self.menu)
        action.setEnabled(False)
        action.setToolTip(tooltip)
        action.setStatusTip(tooltip.splitlines()[0] if tooltip else "")
        return action
