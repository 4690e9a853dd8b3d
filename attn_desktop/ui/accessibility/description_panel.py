"""The Description panel: what a screen reader says about the screen, for a teacher to read beside the lab.

Above, the screen's description in four parts (what is shown, the controls, the state now, a hint: see
model/teaching/screen_description.py), the same words F1 speaks. Below, every announcement the window made,
oldest first, newest at the bottom, as selectable text: what a blind student has heard so far.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Change
from attn_desktop.model.teaching.screen_description import ScreenDescription
from attn_desktop.ui.accessibility.announcer import LOG_LENGTH, Announcer
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.scene_link import Followable, follow_scene_in_sight
from attn_desktop.ui.view_state.checked_at_rest import CheckedAtRest

LOG_LINES_SHOWN = 4  # the log's least height: a few announcements, the description gets the rest


class DescriptionPanel(QWidget):
    """The description DESCRIBE builds for the screen as it is now, and ANNOUNCER's log; follows SCENE."""

    def __init__(self, scene: Followable, announcer: Announcer, describe: Callable[[], ScreenDescription],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.announcer, self._describe = announcer, describe
        self.part_labels = [self._part_label() for _ in range(4)]
        self.say_button = QPushButton()
        self.say_button.clicked.connect(self.speak)
        self.log_title = QLabel()
        self.log_title.setWordWrap(True)  # (whole, it set the column's least width: the plots paid for it)
        self.log_view = QPlainTextEdit()
        self.log_view.setReadOnly(True)  # (read-only text is still selected and copied by mouse and keys)
        self.log_view.setMaximumBlockCount(LOG_LENGTH)  # as many as the announcer keeps
        self.log_view.setTabChangesFocus(True)  # Tab leaves the log: no keyboard trap
        self.log_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                              | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.log_view.setMinimumHeight(self.log_view.fontMetrics().lineSpacing() * LOG_LINES_SHOWN)
        self.log_title.setBuddy(self.log_view)
        self._lay_out()
        for text in announcer.log:
            self.log_view.appendPlainText(text)
        announcer.announced.connect(self._log)
        self._at_rest = CheckedAtRest(self, self._on_scene_settled)  # mid-drag, where the hand rests or lets go
        follow_scene_in_sight(self, scene, self._at_rest.change)
        follow_language(self, self._reword)
        self._reword()

    @staticmethod
    def _part_label() -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def _lay_out(self) -> None:
        parts = QWidget()
        parts_layout = QVBoxLayout(parts)
        for label in self.part_labels:
            parts_layout.addWidget(label)
        parts_layout.addWidget(self.say_button, 0, Qt.AlignmentFlag.AlignLeft)
        parts_layout.addStretch(1)
        # A short dock scrolls the description rather than squeezing its wrapped lines (or growing the column).
        scrolled = QScrollArea()
        scrolled.setWidget(parts)
        scrolled.setWidgetResizable(True)
        scrolled.setFrameShape(QFrame.Shape.NoFrame)
        scrolled.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(scrolled, 3)
        layout.addWidget(self.log_title)
        layout.addWidget(self.log_view, 2)

    # ----- the description ----------------------------------------------------------------
    def description(self) -> ScreenDescription:
        return self._describe()

    def refresh(self) -> ScreenDescription:
        """The four parts for the screen as it is now, shown; returned for whoever speaks them."""
        description = self.description()
        for label, (title, text) in zip(self.part_labels, description.parts(), strict=True):
            label.setText(f"<b>{escape(title)}</b><br>{escape(text)}")  # (a screen reader reads it whole)
        return description

    def speak(self) -> None:
        """The description said once, politely, by the window's announcer (F1, or the panel's button)."""
        self.announcer.announce(self.refresh().spoken())

    def follow_activity(self, *_: object) -> None:
        """Another lesson or activity is open: its description (a lesson's scene arrives before the lesson is)."""
        if self.isVisible():
            self.refresh()

    def hold_during_drag(self, dragging: bool) -> None:
        """An arrow is dragged (True) or let go (False): mid-drag the four parts are written where the hand rests
        and where it lets go, not at every move (see checked_at_rest.py): the drag's frames do not wait for them."""
        self._at_rest.hold(dragging)

    def _on_scene_settled(self, change: Change) -> None:
        if change & (Change.NUMBERS | Change.SELECTION) and self.isVisible():
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()  # another lesson or activity may have opened while the panel was closed (or behind a tab)

    def _reword(self) -> None:
        self.say_button.setText(tr("Say the description"))
        self.say_button.setToolTip(tr("Have the screen reader say these four parts (F1 anywhere in the window)"))
        # Translators: the heading over the list of everything the screen reader was told.
        self.log_title.setText(tr("Announcements, newest at the bottom"))
        self.log_view.setAccessibleName(tr("Announcements"))
        if self.isVisible():  # (closed, it words the description as it opens)
            self.refresh()

    # ----- the log --------------------------------------------------------------------------
    def _log(self, text: str) -> None:
        self.log_view.appendPlainText(text)
        self.log_view.verticalScrollBar().setValue(self.log_view.verticalScrollBar().maximum())
