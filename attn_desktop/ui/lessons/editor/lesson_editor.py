"""The lesson editor: a window of its own beside the main one, where a teacher writes a lesson file.

Its title and text (a safe Markdown subset, shown as the student will see it as it is typed), its exercises and
challenges, the controls it hides and the parts it locks; File → Save Lesson As… (Ctrl+S), and a Student view
switch that opens the lesson in the main window as a student gets it. The editor holds the lesson as a
LessonFile (lesson()), and what it does not show of a file it opened is kept as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenuBar,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.model.teaching.lesson_file import LessonExercise, LessonFile
from attn_desktop.model.teaching.lesson_rich_text import lesson_rich_text
from attn_desktop.ui.lessons.editor.challenges_box import ChallengesBox
from attn_desktop.ui.lessons.editor.controls_box import ControlsBox
from attn_desktop.ui.lessons.editor.exercises_box import ExercisesBox
from attn_desktop.ui.lessons.editor.quantity_fields import labelled_row

EDITOR_SIZE = (440, 700)  # beside the main window on a 1024 × 768 screen
CORNER_WIDTH = 220  # shrunk to its Student view switch: wide enough for its title


class LessonEditor(QWidget):
    save_requested = Signal()
    edit_requested = Signal()  # File → Edit Lesson…: another file into this editor
    student_view_switched = Signal(bool)
    closed = Signal()

    def __init__(self, lesson: LessonFile, parent: QWidget | None = None) -> None:
        # A window of its own that stays above the main window (a dialog's place, without its modality): as a
        # plain window, the first click on the matrix to ask for a weight sent it behind the main window.
        super().__init__(parent, Qt.WindowType.Dialog)
        self.setObjectName("LessonEditor")
        self.setWindowTitle(tr("Lesson Editor"))
        self.setAccessibleName(tr("Lesson Editor"))
        self.title_edit, self.text_edit = QLineEdit(), QPlainTextEdit()
        self.text_edit.setTabChangesFocus(True)  # Tab leaves the text for the next field, as in every other box
        self.preview_label = QLabel()
        self.preview_label.setTextFormat(Qt.TextFormat.RichText)  # built by lesson_rich_text: every character escaped
        self.preview_label.setWordWrap(True)
        self.preview_label.setAccessibleName(tr("Preview of the lesson's text"))
        self.exercises, self.challenges, self.controls = ExercisesBox(), ChallengesBox(), ControlsBox()
        self.student_view_box = QCheckBox(tr("St&udent view"))
        self.student_view_box.setAccessibleName(tr("Student view: the lesson in the window as a student gets it"))
        self._lay_out(self._menu_bar())
        self.title_edit.textChanged.connect(self._show_preview)
        self.text_edit.textChanged.connect(self._show_preview)
        self.student_view_box.toggled.connect(self._on_student_view)
        self.resize(*EDITOR_SIZE)
        self.may_close: Callable[[], bool] = lambda: True  # its owner asks about unsaved changes
        self._editing_geometry: QRect | None = None  # where it stood before the student's view shrank it
        self.set_lesson(lesson)

    def _menu_bar(self) -> QMenuBar:
        bar = QMenuBar(self)
        menu = bar.addMenu(tr("&File"))
        self.save_action = QAction(tr("&Save Lesson As…"), self)
        self.save_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Save))
        self.save_action.triggered.connect(self.save_requested)
        self.edit_action = QAction(tr("&Edit Lesson…"), self)
        self.edit_action.triggered.connect(self.edit_requested)
        self.close_action = QAction(tr("&Close"), self)
        self.close_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Close))
        self.close_action.triggered.connect(self.close)
        for action in (self.save_action, self.edit_action, self.close_action):
            menu.addAction(action)
            self.addAction(action)  # its keys work wherever the editor has them
        return bar

    def _lay_out(self, bar: QMenuBar) -> None:
        form = QFormLayout()
        self.title_label = labelled_row(form, tr("&Title:"), self.title_edit, tr("Lesson title"))
        self.text_label = labelled_row(form, tr("Te&xt:"), self.text_edit,
                                       tr("Lesson text: # heading, *emphasis*, **strong**, - and 1. lists"))
        self.text_edit.setMinimumHeight(90)
        self.text_edit.setMaximumHeight(160)
        form.addRow(QLabel(tr("Preview:")), self.preview_label)
        inside = QWidget()
        column = QVBoxLayout(inside)
        column.addLayout(form)
        for part in (self.exercises, self.challenges, self.controls):
            column.addWidget(part)
        scroll = self.form_scroll = QScrollArea()
        scroll.setWidget(inside)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to its fields, which it scrolls into view
        self.menu_bar = bar
        outer = self.outer_layout = QVBoxLayout(self)
        outer.setMenuBar(bar)
        outer.addWidget(scroll)
        outer.addWidget(self.student_view_box, alignment=Qt.AlignmentFlag.AlignLeading)  # its click area: its words

    # ----- the lesson ---------------------------------------------------
    def set_lesson(self, lesson: LessonFile) -> None:
        """Show LESSON for editing (the student view, if on, is switched off first by its owner)."""
        self.base = lesson  # what the editor does not show is kept from here
        self.title_edit.setText(lesson.title)
        self.text_edit.setPlainText(lesson.text)
        for part in (self.exercises, self.challenges, self.controls):
            part.set_scene(lesson.scene)
        self.exercises.set_exercises(lesson.exercises)
        self.challenges.set_challenges(lesson.challenges)
        self.controls.set_chosen(lesson.hidden_controls, lesson.locked)
        QWidget.setTabOrder(self.controls.last_box, self.student_view_box)
        self._show_preview()

    def lesson(self) -> LessonFile:
        """The lesson as the editor holds it now."""
        return replace(self.base, title=self.title_edit.text(), text=self.text_edit.toPlainText(),
                       exercises=tuple(self.exercises.exercises), challenges=tuple(self.challenges.challenges),
                       hidden_controls=self.controls.hidden(), locked=self.controls.locked())

    def add_exercise(self, exercise: LessonExercise) -> None:
        self.exercises.add_exercise(exercise)

    @property
    def exercise_ids(self) -> list[str]:
        return self.exercises.ids

    # ----- student view -------------------------------------------------
    def set_student_view(self, on: bool) -> None:
        """Tick or untick the switch without asking for the view again (its owner could not open it)."""
        self.student_view_box.blockSignals(True)
        self.student_view_box.setChecked(on)
        self.student_view_box.blockSignals(False)
        self._follow_student_view(on)

    def _on_student_view(self, on: bool) -> None:
        self._follow_student_view(on)
        self.student_view_switched.emit(on)

    def _follow_student_view(self, on: bool) -> None:
        """While the student's view is on, the lesson stands still: what is shown is what was written. The editor
        shrinks to its switch in the main window's bottom trailing corner (over the status bar), so the Lesson
        panel it stood over shows the text and exercises as the student gets them; off, it is back where it was."""
        for part in (self.title_edit, self.text_edit, self.exercises, self.challenges, self.controls):
            part.setEnabled(not on)
        self.edit_action.setEnabled(not on)
        if on == self.form_scroll.isHidden():
            return
        if on:
            self._editing_geometry = self.geometry()
        self.form_scroll.setVisible(not on)
        self.menu_bar.setVisible(not on)
        if on:
            self.outer_layout.activate()  # its size without the form, now
            self.resize(max(self.sizeHint().width(), CORNER_WIDTH), self.minimumSizeHint().height())
            self._to_the_corner()
        elif self._editing_geometry is not None:
            self.setGeometry(self._editing_geometry)

    def _to_the_corner(self) -> None:
        window = self.parentWidget()
        if window is None:
            return
        # Its frame as the window manager draws it (the title bar): the margins it had before it shrank
        margins = self.frameGeometry().size() - self.geometry().size()
        frame, size = window.frameGeometry(), self.size() + margins
        x = frame.left() if window.isRightToLeft() else frame.right() - size.width()
        self.move(x, frame.bottom() - size.height())

    def _show_preview(self) -> None:
        self.preview_label.setText(lesson_rich_text(self.title_edit.text(), self.text_edit.toPlainText()))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.may_close():
            event.ignore()
            return
        super().closeEvent(event)
        self.closed.emit()
