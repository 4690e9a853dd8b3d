"""Every exercise, answered in Spanish, Chinese and Arabic, is checked as it is in English: typed with the keys
(numbers with the language's decimal mark) or chosen with a click, right and wrong, with its verdict, its
explanation and its hint in the student's language."""

import pytest
from PySide6.QtCore import QPoint, Qt

from attn_desktop.language import number
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.exercises import EXERCISES
from attn_desktop.ui.lessons.exercise_widget import ExerciseWidget

LANGUAGES = ("es", "zh_CN", "ar")


def _typed(answer: tuple[float, ...]) -> str:
    """The right numbers as a student of the language types them: "0,82 0,02 0,17" in Spanish."""
    return " ".join(number(value, 4).strip("\u200e") for value in answer)


def _answer(qtbot, widget: ExerciseWidget, right: bool) -> None:
    exercise = widget.exercise
    if exercise.kind is AnswerKind.CHOICE:
        index = exercise.correct_choice if right else (exercise.correct_choice + 1) % len(exercise.choices)
        button = widget.choice_buttons[index]
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    else:
        numbers = exercise.answer if right else tuple(value + 10 * exercise.tolerance + 7 for value in exercise.answer)
        widget.answer_edit.clear()
        qtbot.keyClicks(widget.answer_edit, _typed(numbers))
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_exercise_is_checked_in_the_students_language(qtbot, speaking, code):
    speaking(code)
    for exercise in EXERCISES:
        widget = ExerciseWidget(exercise, done=False)
        qtbot.addWidget(widget)
        widget.show()
        assert widget.prompt_label.text() != exercise.prompt or not exercise.prompt.strip()  # (translated)

        _answer(qtbot, widget, right=False)
        wrong = widget.result_label.text()
        assert wrong.startswith("✗ "), (exercise.id, wrong)

        _answer(qtbot, widget, right=True)
        right = widget.result_label.text()
        assert right.startswith("✓ "), (exercise.id, right)
        assert exercise.say(exercise.explanation) in right  # the explanation, in the language
        assert widget.mark_label.text() == "✓"
