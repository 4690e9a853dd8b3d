"""The Lesson panel: the current lesson's explanation, its steps and its exercises."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from attn_desktop.language import is_right_to_left, ntr, tr
from attn_desktop.language.isolates import in_isolate
from attn_desktop.model import Scene
from attn_desktop.model.layers import Role
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lesson_file import LessonFile
from attn_desktop.model.teaching.lesson_locks import named_arrows
from attn_desktop.model.teaching.lesson_rich_text import ARROW_LINK, lesson_rich_text
from attn_desktop.model.teaching.lessons import Lesson
from attn_desktop.model.teaching.progress import ProgressKind, ProgressStore
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.lessons.exercise_widget import DONE_MARK, ExerciseWidget
from attn_desktop.ui.lessons.lesson_file_challenges import LessonFileChallenges
from attn_desktop.ui.widgets.eliding_combo_box import ElidingComboBox

PICKER_MINIMUM_CHARACTERS = 20  # of the lesson picker's title, before it elides: "2. Three vectors from…"
VERDICT_MARGIN = 6  # px between a verdict scrolled into view and the lesson column's edge


class LessonPanel(QWidget):
    open_lesson_requested = Signal(str)  # a lesson id: the window opens its scene
    show_me_requested = Signal(object)  # a ShowMe
    lesson_file_show_me_requested = Signal(object)  # a lesson file's ShowMe: its scene is the file's (OWN_SCENE)
    lesson_shown = Signal(object)  # the lesson's id, None for a scene of the student's own
    fresh_scene_requested = Signal()  # the lesson's scene as it comes, in place of the one the student left
    announcement = Signal(str)  # an exercise's verdict, for a screen reader
    arrow_pointed_at = Signal(object)  # (role, index): an arrow's name clicked in a lesson file's text

    def __init__(self, progress: ProgressStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.progress = progress
        self.lesson: Lesson | None = None
        self.exercise_widgets: list[ExerciseWidget] = []
        self.lesson_file_challenges: LessonFileChallenges | None = None  # a lesson file's, under its exercises
        self.picker = ElidingComboBox()
        self.picker.addItems([tr(item.title) for item in lessons.LESSONS])
        follow_language(self, self._reword)
        self.picker.setAccessibleName(tr("Lesson"))
        # As wide as the column, never wider: the longest title (longer in other languages) would widen the
        # lesson's column and narrow the canvas's plots. A narrower picker elides; its tip has the whole title.
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setMinimumContentsLength(PICKER_MINIMUM_CHARACTERS)
        self.picker.currentTextChanged.connect(self.picker.setToolTip)
        self.picker.activated.connect(lambda index: self.open_lesson_requested.emit(lessons.LESSONS[index].id))
        self.formula_label = QLabel()
        self.formula_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.formula_label.setWordWrap(True)  # a wide formula must not widen the panel past its edge
        font = self.formula_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.formula_label.setFont(font)
        self.explanation_label = QLabel()
        self.explanation_label.setWordWrap(True)
        self.explanation_label.setOpenExternalLinks(False)
        self.explanation_label.linkActivated.connect(self._arrow_link_activated)
        self._linked_arrows: list[tuple[Role, int]] = []  # a lesson file's arrows, by their links' numbers
        self.try_it_label = QLabel(tr("<b>Try it</b>"))  # a heading for the lesson's steps; hidden when there are none
        self.steps_label = QLabel()
        self.steps_label.setWordWrap(True)
        self.exercises_box = QVBoxLayout()
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)  # a longer language's heading must not widen the panel either

        content = QWidget()
        layout = QVBoxLayout(content)
        layout.addWidget(self.formula_label)
        layout.addWidget(self.explanation_label)
        layout.addWidget(self.try_it_label)
        layout.addWidget(self.steps_label)
        layout.addWidget(self.progress_label)
        layout.addLayout(self.exercises_box)
        layout.addStretch(1)
        self.text_scroll = scroll = QScrollArea()
        scroll.setAccessibleName(tr("Lesson text"))  # a screen reader names the box it scrolls
        scroll.setWidgetResizable(True)
        scroll.setWidget(content)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content.setMinimumWidth(0)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(self.picker)
        outer.addWidget(self._kept_scene_bar())
        outer.addWidget(scroll)

    def _kept_scene_bar(self) -> QWidget:
        """Over the text, while the lesson shows its scene as the student left it: saying so, and a way back."""
        self.kept_bar = bar = QWidget()
        self.kept_label = QLabel(tr("The scene is as you left it."))
        self.kept_label.setWordWrap(True)
        self.fresh_button = QPushButton(tr("Start afresh"))
        self.fresh_button.setToolTip(tr("The lesson's scene as it comes (Ctrl+Z gives yours back)"))
        self.fresh_button.clicked.connect(self.fresh_scene_requested)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.kept_label, 1)
        row.addWidget(self.fresh_button)
        bar.hide()
        return bar

    def show_kept_scene(self, kept: bool) -> None:
        self.kept_bar.setVisible(kept)

    def show_lesson(self, lesson_id: str | None) -> None:
        """Show a lesson's text and exercises (None: a scene of the student's own)."""
        self.lesson = lessons.lesson(lesson_id) if lesson_id else None
        self.kept_bar.hide()  # until the lesson says it opened on the scene the student left
        self.text_scroll.verticalScrollBar().setValue(0)  # a new text starts at its top
        for widget in self.exercise_widgets:
            # Hidden and out of the layout at once: until it is deleted, Tab must not reach it or lay it out.
            widget.hide()
            self.exercises_box.removeWidget(widget)
            widget.deleteLater()
        self.exercise_widgets = []
        self._drop_lesson_file_challenges()
        for label in (self.explanation_label, self.formula_label):
            label.setTextFormat(Qt.TextFormat.AutoText)  # the app's own texts, after a lesson file's
        self._arrow_links_reachable(False)
        self._linked_arrows = []
        self.picker.setPlaceholderText("")  # (a lesson file's title, until another lesson or a scene)
        if self.lesson is None:
            self.picker.setCurrentIndex(-1)
            self.formula_label.setText("")
            self.explanation_label.setText(tr("Your own scene. Pick a lesson above (or from the Lessons menu) to follow one."))
            self.steps_label.setText("")
            self.try_it_label.hide()
            self.progress_label.setText("")
            self.lesson_shown.emit(None)
            return
        self.picker.setCurrentIndex(lessons.LESSONS.index(self.lesson))
        self._word_lesson(self.lesson)
        self.try_it_label.setVisible(bool(self.lesson.steps))
        for number, exercise in enumerate(exercises_for(self.lesson.id), start=1):
            widget = ExerciseWidget(exercise, self.progress.is_done(ProgressKind.EXERCISES, exercise.id), number)
            widget.solved.connect(self._on_solved)
            widget.show_me_requested.connect(self.show_me_requested)
            widget.verdict_shown.connect(self._bring_into_view)
            widget.announcement.connect(self.announcement)
            self.exercises_box.addWidget(widget)
            self.exercise_widgets.append(widget)
        self._put_exercises_in_reading_order()
        self._update_progress()
        self.lesson_shown.emit(self.lesson.id)

    def _arrow_links_reachable(self, reachable: bool) -> None:
        """A lesson file's arrow names are links (lesson_rich_text): clicked, or reached by Tab and Enter. A text
        with none stays out of the Tab order, as every built-in lesson's text is."""
        flags = Qt.TextInteractionFlag.TextSelectableByMouse
        if reachable:
            flags |= Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        self.explanation_label.setTextInteractionFlags(flags)
        self.explanation_label.setFocusPolicy(Qt.FocusPolicy.StrongFocus if reachable else Qt.FocusPolicy.NoFocus)

    def _arrow_link_activated(self, href: str) -> None:
        """An arrow's name clicked in a lesson file's text: that arrow, chosen on the canvas."""
        place = href.removeprefix(ARROW_LINK)
        if href.startswith(ARROW_LINK) and place.isdigit() and int(place) < len(self._linked_arrows):
            self.arrow_pointed_at.emit(self._linked_arrows[int(place)])

    def show_lesson_file(self, lesson: LessonFile, scene: Scene) -> None:
        """A teacher's own lesson, on SCENE (its scene, just opened): its title and text (the safe subset, the
        rest escaped), its formula, its exercises checked by the same widgets as the built-in ones, its
        challenges ticked while they hold. The file's words are never taken as HTML."""
        self.picker.setCurrentIndex(-1)
        self.picker.setPlaceholderText(lesson.title)  # none of the ten: the teacher's lesson, by its title
        self.picker.setToolTip(lesson.title)
        self.explanation_label.setTextFormat(Qt.TextFormat.RichText)  # rich text the app built: lesson_rich_text
        self._linked_arrows = named_arrows(scene)
        names = [scene.arrow_name(role, index) for role, index in self._linked_arrows]
        text = lesson_rich_text(lesson.title, lesson.text, names)
        self._arrow_links_reachable(f'href="{ARROW_LINK}' in text)
        self.explanation_label.setText(text)
        self.formula_label.setTextFormat(Qt.TextFormat.PlainText)
        self.formula_label.setText(lesson.formula)
        self.steps_label.setText("")
        self.try_it_label.hide()
        for number, exercise in enumerate(lesson.exercises, start=1):
            widget = ExerciseWidget(exercise.exercise(scene), False, number)
            widget.plain_texts_only()
            # Not remembered between runs: a file's ids could be any lesson's (those results go in a hand-in).
            widget.solved.connect(lambda _id: self._count_lesson_file_answers())
            widget.show_me_requested.connect(self.lesson_file_show_me_requested)
            widget.verdict_shown.connect(self._bring_into_view)
            widget.announcement.connect(self.announcement)
            self.exercises_box.addWidget(widget)
            self.exercise_widgets.append(widget)
        if lesson.challenges:
            self.lesson_file_challenges = LessonFileChallenges(lesson.challenges, scene)
            self.lesson_file_challenges.announcement.connect(self.announcement)
            self.exercises_box.addWidget(self.lesson_file_challenges)
        self._put_exercises_in_reading_order()
        self._count_lesson_file_answers()

    def _count_lesson_file_answers(self) -> None:
        if not self.exercise_widgets:
            self.progress_label.setText("")
            return
        done = sum(widget.mark_label.text() == DONE_MARK for widget in self.exercise_widgets)
        total = len(self.exercise_widgets)
        self.progress_label.setText(ntr("<b>Exercises</b> — {done} of {total} answered",
                                        "<b>Exercises</b> — {done} of {total} answered", total).format(done=done, total=total))

    def _drop_lesson_file_challenges(self) -> None:
        if self.lesson_file_challenges is not None:
            self.lesson_file_challenges.hide()
            self.exercises_box.removeWidget(self.lesson_file_challenges)
            self.lesson_file_challenges.deleteLater()
            self.lesson_file_challenges = None

    def _put_exercises_in_reading_order(self) -> None:
        """Tab goes from the lesson's text to its exercises, one after the other: added to the panel, their
        controls would join the window's Tab chain at its end, after every dock and the toolbar."""
        previous: QWidget = self.text_scroll
        for widget in self.exercise_widgets:
            for control in widget.tab_stops():
                QWidget.setTabOrder(previous, control)
                previous = control

    def _bring_into_view(self, verdict: QWidget) -> None:
        """Scroll just enough for a verdict to be seen: in a short column it lands below the fold, and the
        student would see nothing happen."""
        self._lay_out_up_to_the_scroll_area(verdict)
        viewport = self.text_scroll.viewport()
        if not viewport.rect().contains(QRect(verdict.mapTo(viewport, QPoint(0, 0)), verdict.size())):
            self.text_scroll.ensureWidgetVisible(verdict, 0, VERDICT_MARGIN)

    def _lay_out_up_to_the_scroll_area(self, widget: QWidget) -> None:
        """Lay out now what the verdict's new text only asked for: each widget that grows asks its parent for
        room in turn (the exercise, the lesson's text, the scroll area), so the verdict's place is where it
        will be drawn."""
        child: QWidget | None = widget
        while child is not None and child is not self.text_scroll:
            QCoreApplication.sendPostedEvents(child, QEvent.Type.LayoutRequest)
            child = child.parentWidget()

    def _word_lesson(self, lesson: Lesson) -> None:
        # A formula line reads left to right in Arabic too (its formulas are isolated in the catalog; one that
        # is not translated is set in an isolate of its own, so its brackets stay where they are).
        formula = tr(lesson.formula) if lesson.formula else ""
        self.formula_label.setText(in_isolate(formula) if formula and is_right_to_left() else formula)
        self.explanation_label.setText(tr(lesson.explanation))
        self.steps_label.setText(
            "<ol style='margin-left: -20px'>" + "".join(f"<li>{tr(step)}</li>" for step in lesson.steps) + "</ol>"
        )

    def _reword(self) -> None:
        """The lesson's texts in the language just chosen (the answers typed so far stay)."""
        for index, item in enumerate(lessons.LESSONS):
            self.picker.setItemText(index, tr(item.title))
        if self.lesson is not None:
            self._word_lesson(self.lesson)
            self._update_progress()
        for widget in self.exercise_widgets:
            widget.reword()

    def _on_solved(self, exercise_id: str) -> None:
        self.progress.mark_done(ProgressKind.EXERCISES, exercise_id)
        self._update_progress()

    def _update_progress(self) -> None:
        if not self.exercise_widgets:
            self.progress_label.setText("")
            return
        done = sum(self.progress.is_done(ProgressKind.EXERCISES, w.exercise.id) for w in self.exercise_widgets)
        total = len(self.exercise_widgets)
        self.progress_label.setText(ntr("<b>Exercises</b> — {done} of {total} answered",
                                        "<b>Exercises</b> — {done} of {total} answered", total).format(done=done, total=total))
