"""The Lessons menu, the Lesson panel's exercises and the Grids panel, driven like a student would."""

import re

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from attn_desktop.model import Role
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import drag_arrow, drag_arrow_to, matrix_cells, settle_layout, table_column


def open_lesson(qtbot, window, number):
    """By its shortcut, as the Lessons menu gives it: Ctrl+1 … Ctrl+9, then Alt+0 and Alt+1 for lessons 10 and 11."""
    key, modifier = ((Qt.Key(Qt.Key.Key_0 + number), Qt.KeyboardModifier.ControlModifier) if number <= 9
                     else (Qt.Key(Qt.Key.Key_0 + number % 10), Qt.KeyboardModifier.AltModifier))
    qtbot.keyClick(window, key, modifier)
    qtbot.wait(20)  # let the new panels lay themselves out before clicking into them


def test_the_app_opens_on_the_scaled_attention_lesson(window):
    assert window.lesson_panel.picker.currentText() == "4. Scaled attention"
    assert "√d_k" in window.lesson_panel.formula_label.text()


def test_soft_lookup_lesson_shows_the_blend_on_a_number_line(qtbot, window):
    open_lesson(qtbot, window, 1)
    assert window.lesson_panel.picker.currentText() == "1. Soft lookup"
    assert table_column(window, 0) == ["apple", "pear", "plum"]
    assert table_column(window, 3) == ["59%", "8%", "33%"]
    assert window.output_panel.vector_label.text() == "(3.49)"
    assert window.canvas.output_arrow.label == "answer 3.49"
    assert window.canvas.arrows[Role.VALUE][1].tip.toTuple() == (5.0, window.reading().selected_weights[1])
    # Drag the query up toward pear's key: pear's weight and the answer grow.
    drag_arrow(window, Role.QUERY, 0, QPointF(-60, -90))
    assert float(window.output_panel.vector_label.text().strip("()")) > 3.49
    assert window.reading().selected_weights[1] > 0.08
    assert window.canvas.arrows[Role.VALUE][1].tip.y() == window.reading().selected_weights[1]  # stem height = weight


def test_projection_lesson_grids_and_word_vectors(qtbot, window):
    open_lesson(qtbot, window, 2)
    assert window.docks[DockId.GRIDS].isVisible()
    scene = window.scene
    assert np.round(window.reading().vectors(Role.QUERY)[2], 6).tolist() == [1.6, 1.2]
    # Type a new number into W_Q's top-left cell, as a student would.
    table = window.grid_editor.tables["w_q"]
    cell = table.visualItemRect(table.item(0, 0)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.keyClick(table, Qt.Key.Key_1)  # typing on a cell starts editing it, as in a spreadsheet
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.text() == "1"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.reading().grids["w_q"][0, 0] == 1.0)  # Qt commits a cell edit on the next loop pass
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [1.0, 2.0]
    # Drag the word vector x·it: its query, key and value follow.
    before = window.reading().vectors(Role.QUERY)[2].copy()
    drag_arrow(window, Role.EMBEDDING, 2, QPointF(40, 0))
    assert not np.allclose(window.reading().vectors(Role.QUERY)[2], before)
    assert np.allclose(window.reading().vectors(Role.VALUE)[2], scene.vectors(Role.EMBEDDING)[2])  # W_V is the identity


def test_no_grids_switch_makes_each_word_match_itself(qtbot, window):
    open_lesson(qtbot, window, 2)
    box = window.grid_editor.no_grids_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on the tick box itself
    assert not window.scene.use_grids
    cells = [[float(text) for text in row] for row in matrix_cells(window)]
    assert [int(np.argmax(row)) for row in cells] == [0, 1, 2]


def test_self_attention_lesson_numbers(qtbot, window):
    open_lesson(qtbot, window, 3)
    assert matrix_cells(window) == [["0.07", "0.55", "0.37"], ["0.82", "0.02", "0.17"], ["0.54", "0.07", "0.39"]]
    assert window.output_panel.vector_label.text() == "(0.77, 0.38)"


def test_an_exercise_refuses_a_wrong_answer_then_takes_the_right_one_and_remembers(qtbot, window, private_data_dir):
    open_lesson(qtbot, window, 3)
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "row-for-sat")
    qtbot.keyClicks(widget.answer_edit, "0.5, 0.2, 0.3")
    qtbot.keyClick(widget.answer_edit, Qt.Key.Key_Return)
    assert widget.result_label.text().startswith("✗")
    widget.answer_edit.clear()
    qtbot.keyClicks(widget.answer_edit, "82%, 2%, 17%")
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓") and widget.mark_label.text() == "✓"
    assert "1 of 2 answered" in window.lesson_panel.progress_label.text()
    assert ProgressStore().is_done("exercises", "row-for-sat")  # a new run sees it


def test_show_me_sets_up_the_canvas(qtbot, window):
    open_lesson(qtbot, window, 1)
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "lookup-ask-up")
    qtbot.mouseClick(widget.show_me_button, Qt.MouseButton.LeftButton)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [0.0, 2.0]
    assert window.output_panel.vector_label.text() == "(4.51)"
    assert widget.result_label.text() == ""  # the exercise (and anything typed) stays put


def test_a_choice_exercise(qtbot, window):
    open_lesson(qtbot, window, 2)
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.kind == "choice")
    qtbot.mouseClick(widget.choice_buttons[0], Qt.MouseButton.LeftButton, pos=widget.choice_buttons[0].rect().center())
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✗")
    button = widget.choice_buttons[widget.exercise.correct_choice]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓")


def accuracy_label(window):
    return window.statusBar().findChild(QLabel, "taskAccuracyLabel")


def test_the_trained_heads_lesson_opens_with_ctrl_5_on_a_trained_reverse_head(qtbot, window):
    lessons_menu = window.menus[MenuId.LESSONS]
    assert "5. What trained heads learn" in [action.text() for action in lessons_menu.actions()]
    open_lesson(qtbot, window, 5)
    assert window.lesson_panel.picker.currentText() == "5. What trained heads learn"
    assert "learned" in window.lesson_panel.formula_label.text()
    assert table_column(window, 0) == ["0:3", "1:1", "2:4", "3:1", "4:5"]
    cells = [[float(text) for text in row] for row in matrix_cells(window)]
    assert [int(np.argmax(row)) for row in cells] == [4, 3, 2, 1, 0]  # the anti-diagonal, as the lesson says
    qtbot.waitUntil(lambda: accuracy_label(window).isVisible())
    assert accuracy_label(window).text().startswith("Accuracy on reverse: 100.0 %")


def test_dragging_a_word_vector_of_the_trained_head_costs_accuracy(qtbot, window):
    open_lesson(qtbot, window, 5)
    qtbot.waitUntil(lambda: accuracy_label(window).isVisible())
    drag_arrow(window, Role.EMBEDDING, 0, QPointF(-150, 120))
    qtbot.waitUntil(lambda: "100.0 %" not in accuracy_label(window).text())
    assert float(accuracy_label(window).text().split(": ")[1].split(" %")[0]) < 100.0


def test_the_trained_heads_exercises_are_checked(qtbot, window, private_data_dir):
    open_lesson(qtbot, window, 5)
    widgets = {w.exercise.id: w for w in window.lesson_panel.exercise_widgets}
    assert set(widgets) == {"trained-reverse-position-0", "trained-reverse-middle", "trained-reverse-needs-positions"}
    row_0 = widgets["trained-reverse-position-0"]
    qtbot.keyClicks(row_0.answer_edit, "0")
    qtbot.mouseClick(row_0.check_button, Qt.MouseButton.LeftButton)
    assert row_0.result_label.text().startswith("✗")
    row_0.answer_edit.clear()
    qtbot.keyClicks(row_0.answer_edit, "4")
    qtbot.mouseClick(row_0.check_button, Qt.MouseButton.LeftButton)
    assert row_0.result_label.text().startswith("✓") and row_0.mark_label.text() == "✓"
    assert "1 of 3 answered" in window.lesson_panel.progress_label.text()
    why = widgets["trained-reverse-needs-positions"]
    button = why.choice_buttons[why.exercise.correct_choice]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
    qtbot.mouseClick(why.check_button, Qt.MouseButton.LeftButton)
    assert why.result_label.text().startswith("✓")
    assert "2 of 3 answered" in window.lesson_panel.progress_label.text()
    assert ProgressStore().is_done("exercises", "trained-reverse-position-0")


def test_show_me_picks_the_row_the_trained_heads_question_asks_about(qtbot, window):
    open_lesson(qtbot, window, 5)
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "trained-reverse-middle")
    window.reading().select_query(4)
    qtbot.mouseClick(widget.show_me_button, Qt.MouseButton.LeftButton)
    assert window.reading().selected_token == "2:4"
    assert int(np.argmax(window.reading().selected_weights)) == 2


def exercise_heading(widget) -> str:
    """The line over an exercise, as a student reads it (without its bold)."""
    top = widget.layout().itemAt(0).layout()
    return top.itemAt(1).widget().text().replace("<b>", "").replace("</b>", "")


def test_each_lesson_numbers_its_own_questions_from_1(qtbot, window):
    open_lesson(qtbot, window, 1)
    headings = [exercise_heading(w) for w in window.lesson_panel.exercise_widgets]
    assert len(headings) == 2
    assert headings[0].startswith("Question 1") and headings[1].startswith("Question 2")
    assert not any("question 3" in heading.lower() for heading in headings)
    for number in (2, 3, 5, 7, 8):
        open_lesson(qtbot, window, number)
        headings = [exercise_heading(w) for w in window.lesson_panel.exercise_widgets]
        assert [heading.split(" ·")[0] for heading in headings] == [f"Question {n}" for n in range(1, len(headings) + 1)]
        assert [heading.lower().count("question") for heading in headings] == [1] * len(headings)


def arrows_the_steps_ask_to_drag(lesson) -> list[tuple[str, str]]:
    """("k", "cat") for each "Drag k·cat" in a lesson's steps."""
    return re.findall(r"Drag ([qkvx])·([^\s,)]+)", " ".join(lesson.steps))


def test_pressing_the_tip_of_the_arrow_a_step_names_drags_that_arrow(qtbot, window):
    # Lesson 3's scene has k·cat exactly under q·sat: a step must not send the class to a tip that
    # another arrow takes first.
    symbols = {role.symbol: role for role in Role}
    asked = [(number, symbol, token) for number, lesson in enumerate(lessons.LESSONS, start=1)
             if lesson.id != "two-heads" for symbol, token in arrows_the_steps_ask_to_drag(lesson)]
    assert {number for number, _, _ in asked} >= {2, 3, 8}
    for number, symbol, token in asked:
        open_lesson(qtbot, window, number)
        scene, role = window.scene, symbols[symbol]
        index = scene.labels(role).index(token)
        before = {given: scene.vectors(given).copy() for given in scene.inputs}
        drag_arrow(window, role, index, QPointF(30, -30))
        moved = [(given, row) for given in before for row in range(len(before[given]))
                 if not np.array_equal(scene.vectors(given)[row], before[given][row])]
        assert moved == [(role, index)], f"lesson {number}: pressing {symbol}·{token} moved {moved}"


def test_show_me_in_lesson_1_completes_no_challenge(qtbot, window, private_data_dir):
    # Lesson 1's second Show me puts the query at the origin: every key gets 1/3 from the only query,
    # which is what challenge 3 (twin keys) checks for in its own lesson's scene.
    panel = window.challenges_panel
    open_lesson(qtbot, window, 1)
    widget = window.lesson_panel.exercise_widgets[1]
    assert widget.exercise.id == "lookup-no-match"
    qtbot.mouseClick(widget.show_me_button, Qt.MouseButton.LeftButton)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [0.0, 0.0]  # the Show me did its part
    qtbot.wait(400)  # past the challenges' save once the scene is still
    assert [row.tick_label.text() for row in panel.rows] == ["○"] * 4
    assert panel.summary_label.text() == "0 of 4 complete"
    assert not ProgressStore().done_ids("challenges")
    # Nor does lesson 1's own step 3 done by hand: the query dragged to the origin.
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [2.0, 0.0]
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)  # Snap to grid
    drag_arrow_to(window, Role.QUERY, 0, 0.0, 0.0)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [0.0, 0.0]
    assert panel.rows[2].tick_label.text() == "○" and panel.summary_label.text() == "0 of 4 complete"


def test_the_challenges_still_count_in_their_own_lesson(qtbot, window, private_data_dir):
    panel = window.challenges_panel
    open_lesson(qtbot, window, 1)
    open_lesson(qtbot, window, 4)
    assert window.lesson_panel.picker.currentText() == "4. Scaled attention"
    settle_layout(qtbot, window)  # the canvas frames the new scene before the drag measures it
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)  # Snap to grid
    drag_arrow_to(window, Role.KEY, 4, -1.2, 0.6)  # k·the onto k·The
    keys = window.reading().vectors(Role.KEY)
    assert keys[4].tolist() == keys[0].tolist() == [-1.2, 0.6]
    assert panel.rows[2].tick_label.text() == "✓" and panel.summary_label.text() == "1 of 4 complete"
    qtbot.waitUntil(lambda: "twin-keys" in ProgressStore().done_ids("challenges"))
