"""Hand in and collect, with no network: three students answer a teacher's lesson file with the keyboard and
hand in through File → Hand In…; the teacher collects the folder (File → Collect Results…), sees one row
per student with their verdicts, and exports a CSV a spreadsheet reads back."""

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from attn_desktop.model import Role
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.lesson_file import LessonChallenge, LessonExercise
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import Condition, Quantity, evaluate
from attn_desktop.model.teaching.lesson_results import write_results_file
from attn_desktop.model.teaching.lesson_results_reading import read_results_file
from attn_desktop.ui.lessons.collected_results_dialog import CollectedResultsDialog
from attn_desktop.ui.lessons.hand_in_dialog import HandInDialog

from tests.support.in_the_window import choose_from_menu_bar

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen

WEIGHT_IT_CAT = Quantity("weight", query="it", key="cat")


def class_lesson():
    lesson = builtin_lesson_file("self-attention")
    return replace(
        lesson, title="Ms Rao's pronouns", hidden_controls=(),
        exercises=(
            LessonExercise(id="w-it-cat", prompt="How much weight does it give cat?", kind=AnswerKind.NUMBER,
                           quantities=(WEIGHT_IT_CAT,), tolerance=0.01),
            LessonExercise(id="softmax-sum", prompt="What do a row's weights add up to?", kind=AnswerKind.CHOICE,
                           choices=("0", "1", "it depends"), correct_choice=1),
        ),
        challenges=(LessonChallenge(id="cat-small", title="Make it give cat less than 1%",
                                    conditions=(Condition(WEIGHT_IT_CAT, compare="<", value=0.01),)),),
    )


def open_lesson(qtbot, window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(path), ""))
    choose_from_menu_bar(qtbot, window, ["File", "Open Lesson…"])
    assert window.shown_errors == []
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def answer_by_keyboard(qtbot, window, number: str | None, choice: int | None) -> None:
    """Type the number and press Return; pick the choice with the space bar, as a keyboard user does."""
    number_widget, choice_widget = window.lesson_panel.exercise_widgets
    if number is not None:
        number_widget.answer_edit.setFocus()
        qtbot.keyClicks(number_widget.answer_edit, number)
        qtbot.keyClick(number_widget.answer_edit, Qt.Key.Key_Return)
    if choice is not None:
        button = choice_widget.choice_buttons[choice]
        button.setFocus()
        qtbot.keyClick(button, Qt.Key.Key_Space)
        assert button.isChecked()


def hand_in(qtbot, window, monkeypatch, folder: Path, name: str) -> Path:
    """File → Hand In…: the name typed in the dialog, Return, and the file saved where the dialog suggests."""
    suggested = []

    def save_where_suggested(parent, caption, path, file_filter, *args, **kwargs):
        suggested.append(Path(path))
        return str(folder / Path(path).name), file_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_where_suggested)
    window.documents.last_folder = folder
    choose_from_menu_bar(qtbot, window, ["File", "Hand In…"])
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), HandInDialog))
    dialog = QApplication.activeModalWidget()
    assert dialog.name_edit.accessibleName() == "Your name"
    qtbot.waitUntil(dialog.name_edit.hasFocus)  # the keys go to the name first
    assert not dialog.hand_in_button.isEnabled()  # no name, no hand-in
    qtbot.keyClicks(dialog.name_edit, name)
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(suggested) == 1)
    assert suggested[0] == folder / f"{name} - Ms Rao's pronouns.attn-results"
    assert window.shown_errors == []
    return folder / suggested[0].name


def test_three_students_hand_in_and_the_teacher_collects_and_exports(qtbot, window, monkeypatch, tmp_path):
    lesson_path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(class_lesson(), lesson_path)
    right = float(evaluate(WEIGHT_IT_CAT, class_lesson().new_scene()))
    folder = tmp_path / "hand-ins"
    folder.mkdir()
    assert not window.hand_in_action.isEnabled()  # no lesson file open: nothing to hand in

    open_lesson(qtbot, window, monkeypatch, lesson_path)
    assert window.hand_in_action.isEnabled()
    answer_by_keyboard(qtbot, window, f"{right:.3f}", choice=1)
    shown = window.shown  # Ana also meets the challenge: it gives cat almost nothing
    window.history.do(move_arrow(shown, Role.KEY, 0, shown.vectors(Role.KEY)[0],
                                 [-3 * x for x in shown.vectors(Role.QUERY)[2]]))
    ana = hand_in(qtbot, window, monkeypatch, folder, "Ana")

    open_lesson(qtbot, window, monkeypatch, lesson_path)  # the next student, afresh
    answer_by_keyboard(qtbot, window, f"{right + 0.3:.3f}", choice=None)
    hand_in(qtbot, window, monkeypatch, folder, "Bo")

    open_lesson(qtbot, window, monkeypatch, lesson_path)
    answer_by_keyboard(qtbot, window, None, choice=2)
    hand_in(qtbot, window, monkeypatch, folder, "Cy")

    handed_in = read_results_file(ana)
    assert handed_in.student == "Ana" and handed_in.lesson.title == "Ms Rao's pronouns"
    assert [(e.id, e.verdict.value) for e in handed_in.exercises] == [("w-it-cat", "right"), ("softmax-sum", "right")]
    assert handed_in.exercises[1].answer == "1" and handed_in.challenges_done == ("cat-small",)
    import hashlib
    assert handed_in.lesson.sha256 == hashlib.sha256(lesson_path.read_bytes()).hexdigest()
    # Another lesson's results in the same folder, and a broken file: told apart, never mixed in.
    other = replace(handed_in, student="Dee", lesson=replace(handed_in.lesson, sha256="0" * 64))
    write_results_file(other, folder / "Dee - old version.attn-results")
    (folder / "broken.attn-results").write_text("{", encoding="utf-8")

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(folder))
    choose_from_menu_bar(qtbot, window, ["File", "Collect Results…"])
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), CollectedResultsDialog))
    dialog = QApplication.activeModalWidget()
    table = dialog.table
    assert table.accessibleName() == "Results: a row per student"
    headers = [table.horizontalHeaderItem(column).text() for column in range(table.columnCount())]
    assert headers[:2] == ["Student", "Handed in"]
    assert [table.item(row, 0).text() for row in range(table.rowCount())] == ["Ana", "Bo", "Cy"]
    verdicts = {table.item(row, 0).text(): [table.item(row, column).text() for column in (2, 3, 4)]
                for row in range(3)}
    assert verdicts == {"Ana": ["✓ right", "✓ right", "✓ done"], "Bo": ["✗ wrong", "– not tried", "○ not done"],
                        "Cy": ["– not tried", "✗ wrong", "○ not done"]}
    assert table.item(1, 2).toolTip() == f"{right + 0.3:.3f}"  # the answer given, under its verdict
    notes = dialog.notes_label.text()
    assert "1 result of another version of" in notes and "broken.attn-results" in notes

    csv_path = tmp_path / "class.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(csv_path), ""))
    dialog.export_button.setFocus()
    qtbot.keyClick(dialog.export_button, Qt.Key.Key_Space)
    qtbot.waitUntil(csv_path.exists)
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    assert rows[0][:1] + rows[0][3:] == ["student", "w-it-cat verdict", "w-it-cat answer", "softmax-sum verdict",
                                         "softmax-sum answer", "cat-small", "challenges done"]
    by_student = {row[0]: row[3:] for row in rows[1:]}
    assert by_student == {"Ana": ["right", f"{right:.3f}", "right", "1", "done", "1"],
                          "Bo": ["wrong", f"{right + 0.3:.3f}", "not tried", "", "not done", "0"],
                          "Cy": ["not tried", "", "wrong", "it depends", "not done", "0"]}
    assert json.loads(ana.read_text(encoding="utf-8"))["format"] == "attn-results"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    window.open_lesson("soft-lookup")  # a built-in lesson: nothing to hand in
    assert not window.hand_in_action.isEnabled()
