"""One exercise: the question, a place to answer, and Check / Hint / Show me."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.model.teaching.exercises import AnswerKind, CheckResult, Exercise, ShowMe
from attn_desktop.ui.widgets.flow_layout import FlowLayout

DONE_MARK, OPEN_MARK = "✓", "○"


class ExerciseWidget(QFrame):
    show_me_requested = Signal(object)  # ShowMe
    solved = Signal(str)  # the exercise id
    verdict_shown = Signal(object)  # the label that says it: the panel scrolls to it
    announcement = Signal(str)  # the verdict in words, once per Check: for a screen reader

    def __init__(self, exercise: Exercise, done: bool, number: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.exercise = exercise
        self.number = number  # its place among the lesson's exercises: "Question 2"
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.mark_label = QLabel(DONE_MARK if done else OPEN_MARK)
        self.mark_label.setToolTip(tr("✓ once you have answered it right (remembered between runs)"))
        self.heading_label = QLabel()
        self.heading_label.setWordWrap(True)  # a narrow panel wraps it rather than growing past its edge
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        self.answer_edit: QLineEdit | None = None
        self.choice_buttons: list[QRadioButton] = []
        self.choice_texts: list[tuple[QRadioButton, _ChoiceText]] = []
        self.check_button = QPushButton(tr("Check"))
        self.hint_button = QPushButton(tr("Hint"))
        self.show_me_button = QPushButton(tr("Show me"))
        self.result_label = QLabel("")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._word_result: Callable[[], str] | None = None  # words the verdict or hint shown, in the language of the day

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(self.mark_label)
        top.addWidget(self.heading_label, 1)
        layout.addLayout(top)
        layout.addWidget(self.prompt_label)
        layout.addWidget(self._answer_area())
        if exercise.tolerance_text:
            self.tolerance_label = tolerance = QLabel()
            tolerance.setWordWrap(True)
            layout.addWidget(tolerance)
        # A row that goes on to a second line when the column is too narrow for the three: each button keeps its
        # whole word ("Comprobar", "Muéstramelo", "演示给我看"), and the row never widens the lesson's column.
        buttons = FlowLayout(last_to_far_edge=False)
        for button in (self.check_button, self.hint_button, self.show_me_button):
            button.setMinimumWidth(1)  # (0 would mean "unset": the button's full-label minimum)
            buttons.addWidget(button)
        layout.addLayout(buttons)
        layout.addWidget(self.result_label)

        self.check_button.clicked.connect(self.check)
        self.hint_button.clicked.connect(self.show_hint)
        self.show_me_button.setEnabled(exercise.show_me is not None)
        self.show_me_button.setToolTip(tr("Set the canvas up so you can see the answer"))
        self.show_me_button.clicked.connect(self._request_show_me)
        self.reword()

    def reword(self) -> None:
        """The exercise's texts in the student's language (at the start, and after a change of language)."""
        exercise = self.exercise
        if exercise.source:
            # Translators: an exercise's heading, e.g. "Question 2 · Part 1, your turn" (where the lesson asks it).
            heading = tr("<b>Question {number}</b> · {source}").format(number=self.number,
                                                                       source=exercise.say(exercise.source))
        else:  # a teacher's lesson file names no part of a lesson
            # Translators: an exercise's heading in a teacher's own lesson, e.g. "Question 2".
            heading = tr("<b>Question {number}</b>").format(number=self.number)
        self.heading_label.setText(heading)
        self.prompt_label.setText(exercise.say(exercise.prompt))
        if exercise.tolerance_text:
            self.tolerance_label.setText(f"<small>{exercise.tolerance_text}</small>")  # markup around a translated text
        for choice, (button, text) in zip(exercise.choices, self.choice_texts):
            button.setAccessibleName(exercise.say(choice))
            text.setText(exercise.say(choice))
        if self.answer_edit is not None:
            labels = [exercise.say(label) for label in exercise.labels]
            self.answer_edit.setPlaceholderText(", ".join(labels) if len(labels) > 1 else tr("your answer"))
            self.answer_edit.setAccessibleName(tr("Answer to question {number}").format(number=self.number))
        if self._word_result is not None:
            self.result_label.setText(self._word_result())

    def _answer_area(self) -> QWidget:
        area = QWidget()
        layout = QVBoxLayout(area)
        layout.setContentsMargins(0, 0, 0, 0)
        if self.exercise.kind is AnswerKind.CHOICE:
            group = QButtonGroup(area)
            for index, _choice in enumerate(self.exercise.choices):
                button = QRadioButton()
                group.addButton(button, index)
                text = _ChoiceText("", button)
                layout.addLayout(_choice_row(button, text))
                self.choice_buttons.append(button)
                self.choice_texts.append((button, text))
        else:
            self.answer_edit = QLineEdit()
            self.answer_edit.returnPressed.connect(self.check)
            layout.addWidget(self.answer_edit)
        return area

    def plain_texts_only(self) -> None:
        """An exercise from a lesson file: its prompt, choices, hints and verdicts are the file's words, shown as
        the characters they are (a QLabel would otherwise take text that looks like HTML for HTML)."""
        for label in (self.prompt_label, self.result_label, *(text for _button, text in self.choice_texts)):
            label.setTextFormat(Qt.TextFormat.PlainText)

    def tab_stops(self) -> list[QWidget]:
        """Its controls in reading order: the answer (or the choices), then Check, Hint and Show me."""
        answers: list[QWidget] = [self.answer_edit] if self.answer_edit is not None else list(self.choice_buttons)
        return [*answers, self.check_button, self.hint_button, self.show_me_button]

    def show_hint(self) -> None:
        self._show_result(lambda: tr("Hint: {hint}").format(hint=self.exercise.say(self.exercise.hint)))

    def response(self) -> str | int:
        if self.answer_edit is not None:
            return self.answer_edit.text()
        chosen = [index for index, button in enumerate(self.choice_buttons) if button.isChecked()]
        return chosen[0] if chosen else -1

    def check(self) -> None:
        response = self.response()
        result = self.exercise.check(response)
        # The answer as checked, not as edited since: a change of language words the same verdict again.
        self._show_result(lambda: _verdict(self.exercise.check(response)))
        self.verdict_shown.emit(self.result_label)
        # Translators: a screen reader's announcement of an exercise's verdict: "Question 2: Right. …".
        self.announcement.emit(tr("Question {number}: {verdict}").format(number=self.number, verdict=result.message))
        if result.correct:
            self.mark_label.setText(DONE_MARK)
            self.solved.emit(self.exercise.id)

    def _show_result(self, word_result: Callable[[], str]) -> None:
        self._word_result = word_result
        self.result_label.setText(word_result())

    def _request_show_me(self) -> None:
        show_me: ShowMe | None = self.exercise.show_me
        if show_me is not None:
            self.show_me_requested.emit(show_me)


def _verdict(result: CheckResult) -> str:
    return ("✓ " if result.correct else "✗ ") + result.message


class _ChoiceText(QLabel):
    """A choice's text, wrapped to the panel's width; clicking it picks the choice."""

    def __init__(self, text: str, button: QRadioButton) -> None:
        super().__init__(text)
        self.button = button
        self.setWordWrap(True)
        self.setBuddy(button)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.button.click()


def _choice_row(button: QRadioButton, text: _ChoiceText) -> QHBoxLayout:
    # A radio button's own text never wraps and would push the narrow panel wider than its dock.
    row = QHBoxLayout()
    row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
    row.addWidget(text, 1)
    return row
