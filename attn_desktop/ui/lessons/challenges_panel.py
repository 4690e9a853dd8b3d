"""The challenges panel: four goals, a tick for each one completed, and what is still missing.

Widgets a test (or a reader) looks at:
  summary_label     "N of 4 complete" (completed ever, on this run or an earlier one)
  rows              one ChallengeRow per challenge, in the order of model.challenges.CHALLENGES:
    .tick_label     "✓" once completed (on any run), "○" until then
    .text_label     what to do; its tooltip is the hint
    .status_label   what is true right now: "Done: …" while met, otherwise what is missing
  restart_button    clears the ticks after a confirmation
  notice_label      hidden unless progress could not be saved

What counts as completed, and what is written to the progress file, is the
model's ChallengeTracker; this panel shows it, and tells it when the student's
gesture is over so it can write (see _save_when_still). During a drag on the
canvas the tracker is told where the hand rests or lets go, not at every move
(see hold_during_drag): the move's frame does not wait for the challenges.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QHideEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import ntr, tr
from attn_desktop.model import Change, HeadReading, Scene
from attn_desktop.model.teaching.challenges import CHALLENGES, Challenge, ChallengeStatus, ChallengeTracker
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.steady_label_box import SteadyLabelBox
from attn_desktop.ui.view_state.checked_at_rest import CheckedAtRest
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TIP, WeightsVeil
from attn_desktop.ui.widgets.flow_layout import FlowLayout

TICK_DONE = "✓"
TICK_OPEN = "○"
DONE_COLOR = "#176f2c"   # green, and the tick's shape says the same for anyone who cannot see it
OPEN_COLOR = "#57606a"  # both 4.5 : 1 or more on the panel's grey (WCAG 1.4.3; #6e7781 was 3.95 : 1)
SAVE_AFTER_STILL_MS = 300  # a drag pauses between moves for far less; a finished gesture stays still longer


@dataclass
class ChallengeRow:
    challenge: Challenge
    tick_label: QLabel
    text_label: QLabel
    status_label: QLabel


class ChallengesPanel(QWidget):
    announcement = Signal(str)  # a challenge just completed, in words: for a screen reader

    def __init__(self, scene: Scene | HeadReading, progress: ProgressStore, parent: QWidget | None = None,
                 veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)
        # "Done: sat puts 95% on cat" tells a weight: while the student predicts, the rows wait.
        self.veil = veil if veil is not None else WeightsVeil(self)
        self.veil.changed.connect(self._show)
        self.tracker = ChallengeTracker(self.reading, progress)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(SAVE_AFTER_STILL_MS)
        self._save_timer.timeout.connect(self._save_when_still)
        self._at_rest = CheckedAtRest(self, self._check)  # mid-drag, where the hand rests or lets go
        application = QCoreApplication.instance()
        if application is not None:
            application.aboutToQuit.connect(self._save_now)  # a quit that hides nothing first
        self.summary_label = QLabel(self)
        bold = self.summary_label.font()
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.2)
        self.summary_label.setFont(bold)
        # Longer in other languages ("Completados: 0 de 4"): on a line of its own narrower than it, it wraps.
        self.summary_label.setWordWrap(True)
        self.restart_button = QPushButton(tr("Restart challenges"), self)
        self.restart_button.setToolTip(tr("Clear the ticks and start the four challenges again"))
        self.restart_button.clicked.connect(self.ask_to_restart)
        self.notice_label = QLabel(self)
        self.notice_label.setWordWrap(True)
        self.notice_label.hide()
        self.rows = [self._make_row(challenge) for challenge in CHALLENGES]
        # What is true right now changes as you drag: each status in a box that keeps the panel's layout still.
        self._status_boxes = {row.challenge.id: SteadyLabelBox(row.status_label, self) for row in self.rows}
        self._lay_out()
        self._show()
        follow_scene(self, self.reading, self._on_scene_changed)

    # ----- building ------------------------------------------------------
    def _make_row(self, challenge: Challenge) -> ChallengeRow:
        tick = QLabel(self)
        big = tick.font()
        big.setPointSizeF(big.pointSizeF() * 1.8)
        big.setBold(True)
        tick.setFont(big)
        tick.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        tick.setMinimumWidth(tick.fontMetrics().horizontalAdvance(TICK_DONE + TICK_OPEN))
        text = QLabel(tr(challenge.title), self)
        text.setWordWrap(True)
        text.setToolTip(tr(challenge.hint))
        status = QLabel(self)
        status.setWordWrap(True)
        status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        italic = status.font()
        italic.setItalic(True)
        status.setFont(italic)
        return ChallengeRow(challenge, tick, text, status)

    def _lay_out(self) -> None:
        # The count and the Restart button on one line where they fit, the button under the count where they do
        # not (longer in other languages, they would widen the lesson's column and narrow the canvas's plots).
        header = FlowLayout()
        header.add_widgets(self.summary_label, self.restart_button)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(2)
        for index, row in enumerate(self.rows):
            top = 3 * index  # text, status, then an empty row: air that makes each challenge read as one item
            grid.addWidget(row.tick_label, top, 0, 2, 1)
            grid.addWidget(row.text_label, top, 1)
            grid.addWidget(self._status_boxes[row.challenge.id], top + 1, 1)
            grid.setRowMinimumHeight(top + 2, 8)
        rows = QWidget()
        rows_layout = QVBoxLayout(rows)
        rows_layout.setContentsMargins(0, 0, 0, 0)
        rows_layout.addLayout(grid)
        rows_layout.addStretch(1)
        # A short dock (the √d_k lab under the lesson's tabs) scrolls to the challenges rather than
        # squeezing their wrapped lines over each other.
        scrolled = QScrollArea()
        scrolled.setAccessibleName(tr("Challenges"))  # a screen reader names the box it scrolls
        scrolled.setWidget(rows)
        scrolled.setWidgetResizable(True)
        scrolled.setFrameShape(QFrame.Shape.NoFrame)
        scrolled.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(header)
        layout.addWidget(self.notice_label)
        layout.addWidget(scrolled, 1)

    # ----- following the lesson and the scene ----------------------------
    def follow_lesson(self, lesson_id: str | None) -> None:
        """Another lesson is open (None: a scene of the student's own): the challenges count only in their own."""
        self.tracker.follow_lesson(lesson_id)
        self._show()

    def hold_during_drag(self, dragging: bool) -> None:
        """An arrow is dragged (True) or let go (False). Mid-drag the challenges are checked where the hand rests
        and where it lets go, not at every move (see checked_at_rest.py): a completion then ticks and is said
        once the hand stops, where the arrow is."""
        self._at_rest.hold(dragging)

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.NUMBERS | Change.SELECTION):  # (a key pointed at: nothing a challenge looks at)
            self._at_rest.change(change)

    def _check(self, change: Change) -> None:
        completed_before = self.tracker.completed_ids()
        self.tracker.update(change)
        self._announce_completed(completed_before)
        if self.tracker.has_unsaved:
            self._save_timer.start()  # (re)started by every change: it fires once the scene is still
        self._show()

    def _announce_completed(self, completed_before: set[str]) -> None:
        """Each challenge completed by this change, said once (with what is true now, the model's own words)."""
        just_completed = self.tracker.completed_ids() - completed_before
        for challenge, status in zip(CHALLENGES, self.tracker.statuses):
            if challenge.id in just_completed:
                # Translators: a screen reader's announcement: "Challenge complete: <what was asked>. <what is true now>"
                self.announcement.emit(tr("Challenge complete: {title}. {note}").format(
                    title=tr(challenge.title), note=status.note))

    def _save_when_still(self) -> None:
        """Write a new completion once the gesture that made it is over.

        The tick showed at once; the file write (which may take tens of milliseconds)
        waits until no change has come for SAVE_AFTER_STILL_MS and no mouse button is
        held, so it never lands between two moves of a drag, even a drag paused mid-way.
        """
        if QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton:
            self._save_timer.start()
            return
        self.tracker.save()
        self._show()  # a failed write shows its notice

    def hideEvent(self, event: QHideEvent) -> None:
        # The window closing (or the panel's dock) hides the panel: write now rather than lose a tick.
        self._save_now()
        super().hideEvent(event)

    def _save_now(self) -> None:
        if self.tracker.has_unsaved:
            self._save_timer.stop()
            self.tracker.save()

    # ----- showing -------------------------------------------------------
    def _show(self, *_: object) -> None:
        if self.veil.on:
            for row in self.rows:
                self._status_boxes[row.challenge.id].set_text(tr(HIDDEN_TIP))
            return
        completed = self.tracker.completed_ids()
        for row, status in zip(self.rows, self.tracker.statuses):
            self._show_row(row, status, row.challenge.id in completed)
        done, total = self.tracker.completed_count, len(CHALLENGES)
        _set_text(self.summary_label, ntr("{done} of {total} complete", "{done} of {total} complete", total).format(
            done=done, total=total))
        error = self.tracker.save_error
        _set_text(self.notice_label, tr("Your progress is kept for this session only: {error}").format(error=error) if error else "")
        self.notice_label.setVisible(bool(error))

    def _show_row(self, row: ChallengeRow, status: ChallengeStatus, complete: bool) -> None:
        tick = TICK_DONE if complete else TICK_OPEN
        if row.tick_label.text() != tick:  # a style sheet is costly to apply: only when the tick flips
            row.tick_label.setText(tick)
            row.tick_label.setStyleSheet(f"color: {DONE_COLOR if complete else OPEN_COLOR}")
            row.tick_label.setAccessibleName(tr("complete") if complete else tr("not complete yet"))
        self._status_boxes[row.challenge.id].set_text(_status_text(status, complete))

    # ----- restarting ----------------------------------------------------
    def ask_to_restart(self) -> None:
        answer = QMessageBox.question(
            self,
            tr("Restart challenges"),
            tr("Clear the ticks of all four challenges and start again?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self._save_timer.stop()
            self.tracker.restart()
            self._show()


def _status_text(status: ChallengeStatus, complete: bool) -> str:
    if status.met and not complete:
        return tr("This was already true when you started, so it has not counted yet: change it back, then make "
                  "it happen.")
    if complete and not status.met:
        return tr("Completed earlier. Right now: {note}").format(note=status.note)
    return status.note


def _set_text(label: QLabel, text: str) -> None:
    # Word-wrapped labels re-lay out the panel on every setText; a drag move usually changes nothing here.
    if label.text() != text:
        label.setText(text)
