"""A lesson file's challenges, in the Lesson panel under its exercises: each ticked while its conditions hold.

The Challenges panel is built around the four built-in challenges (code of their own, remembered between
runs); a lesson file's are conditions over named quantities (LessonChallenge.met), checked on the scene as
it is after each change. Its titles and hints come from the file: shown as plain text, never as HTML.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Change, Scene, SceneFileError
from attn_desktop.model.teaching.lesson_file import LessonChallenge
from attn_desktop.ui.lessons.challenges_panel import DONE_COLOR, OPEN_COLOR, TICK_DONE, TICK_OPEN
from attn_desktop.ui.scene_link import follow_scene


@dataclass
class LessonChallengeRow:
    challenge: LessonChallenge
    tick_label: QLabel
    title_label: QLabel


class LessonFileChallenges(QWidget):
    announcement = Signal(str)  # a challenge just met, in words: for a screen reader

    def __init__(self, challenges: tuple[LessonChallenge, ...], scene: Scene, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        heading = QLabel(tr("<b>Challenges</b>"))
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        self.rows: list[LessonChallengeRow] = []
        for index, challenge in enumerate(challenges):
            tick = QLabel()
            tick.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            title = QLabel(challenge.title)
            title.setTextFormat(Qt.TextFormat.PlainText)  # the file's words, never its markup
            title.setWordWrap(True)
            if challenge.hint:
                title.setToolTip(_plain_tip(challenge.hint))
            grid.addWidget(tick, index, 0)
            grid.addWidget(title, index, 1)
            self.rows.append(LessonChallengeRow(challenge, tick, title))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addLayout(grid)
        self._met = [False] * len(self.rows)
        self._done = [False] * len(self.rows)  # met at some time since the lesson opened: what a hand-in reports
        self._show(announce=False)
        follow_scene(self, scene, self._on_scene_changed)

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.NUMBERS | Change.SELECTION | Change.SETTINGS | Change.STRUCTURE):
            self._show(announce=True)

    def _show(self, announce: bool) -> None:
        for position, row in enumerate(self.rows):
            met = _met(row.challenge, self.scene)
            if announce and met and not self._met[position]:
                # Translators: a screen reader's announcement: "Challenge met: <the lesson's challenge>"
                self.announcement.emit(tr("Challenge met: {title}").format(title=row.challenge.title))
            self._met[position] = met
            self._done[position] = self._done[position] or met
            row.tick_label.setText(TICK_DONE if met else TICK_OPEN)
            row.tick_label.setStyleSheet(f"color: {DONE_COLOR if met else OPEN_COLOR}")
            row.tick_label.setAccessibleName(tr("complete") if met else tr("not complete yet"))

    def challenges_done(self) -> list[tuple[str, bool]]:
        """Each challenge's id, and whether it was met since the lesson opened (a challenge done stays done when
        the student goes on to move the arrows again)."""
        return [(row.challenge.id, done) for row, done in zip(self.rows, self._done)]


def _met(challenge: LessonChallenge, scene: Scene) -> bool:
    """Whether the challenge holds now; a scene changed past what its quantities name (a word removed) does not."""
    try:
        return challenge.met(scene)
    except (SceneFileError, ValueError, IndexError, KeyError):
        return False


def _plain_tip(text: str) -> str:
    """A tooltip shows rich text when its text looks like it: the file's hint, escaped, shows as it is."""
    return "<p>" + html.escape(text) + "</p>"
