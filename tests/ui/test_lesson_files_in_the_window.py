"""A teacher's own lesson file, opened by a student: File → Open Lesson…, its scene, text, exercises and
challenges in the window, its hidden switches gone until another lesson opens; a broken file changes nothing."""

from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from attn_desktop.model import Role
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.head_reading import read
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind, SetVector, ShowMe
from attn_desktop.model.teaching.lesson_file import OWN_SCENE, LessonChallenge, LessonExercise
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import Condition, Quantity, evaluate
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import choose_from_menu_bar, drag_arrow, drag_on_canvas, matrix_cells, settle_layout

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen

WEIGHT_IT_CAT = Quantity("weight", query="it", key="cat")


def teachers_lesson():
    """Lesson 3 made a teacher's own: a new title, HTML in its text, the √d_k switch hidden, one computed
    exercise and one challenge."""
    lesson = builtin_lesson_file("self-attention")
    return replace(
        lesson, title="Ms Rao's <b>pronouns</b>", text="# Who is it?\n\nDrag *k·cat*. <img src='x.png'>",
        hidden_controls=("scale-switch",),
        exercises=(LessonExercise(id="w-it-cat", prompt="How much weight does it give cat?", kind=AnswerKind.NUMBER,
                                  quantities=(WEIGHT_IT_CAT,), tolerance=0.01, hint="<i>Softmax</i> the row."),),
        challenges=(LessonChallenge(id="cat-small", title="Make it give cat less than 1%",
                                    conditions=(Condition(WEIGHT_IT_CAT, compare="<", value=0.01),)),),
    )


def open_from_the_menu(qtbot, window, monkeypatch, path) -> None:
    filters = []

    def chosen(parent, caption, folder, file_filter, *args, **kwargs):
        filters.append(file_filter)
        return str(path), file_filter

    monkeypatch.setattr(QFileDialog, "getOpenFileName", chosen)
    choose_from_menu_bar(qtbot, window, ["File", "Open Lesson…"])
    assert "*.attn-lesson" in filters[0]
    window.activateWindow()  # (offscreen, the closed menu stays the active window: the keys would go nowhere)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def visible_entries(menu) -> list[str]:
    return [action.text().replace("&", "") for action in menu.actions() if action.isVisible()]


def test_a_teachers_lesson_opens_with_its_scene_text_exercise_and_hidden_switch(qtbot, window, monkeypatch, tmp_path):
    lesson = teachers_lesson()
    path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(lesson, path)
    open_from_the_menu(qtbot, window, monkeypatch, path)

    assert window.shown_errors == []
    assert window.windowTitle() == "Ms Rao's <b>pronouns</b> — Attention Desktop"  # (a title bar shows no markup)
    panel = window.lesson_panel
    # The lesson picker, none of the ten chosen, names the teacher's lesson (greyed), not an empty box
    assert panel.picker.currentIndex() == -1 and panel.picker.shown_text().startswith("Ms Rao")
    shown_text = panel.explanation_label.text()
    assert "Ms Rao&#x27;s &lt;b&gt;pronouns&lt;/b&gt;" in shown_text or "Ms Rao's &lt;b&gt;pronouns&lt;/b&gt;" in shown_text
    assert "<img" not in shown_text and "&lt;img" in shown_text  # the file's HTML shown as the characters it is
    assert '<em><a href="arrow:' in shown_text and 'k·cat</a></em>' in shown_text  # the arrow's name, a link
    assert window.scene.tokens == ["cat", "sat", "it"]
    expected = read(lesson.new_scene()).result.weights
    assert matrix_cells(window) == [[f"{weight:.2f}" for weight in row] for row in expected]

    widget = panel.exercise_widgets[0]
    assert widget.prompt_label.text() == "How much weight does it give cat?"
    assert widget.heading_label.text() == "<b>Question 1</b>"  # no part of a lesson to name after a "·"
    right = float(evaluate(WEIGHT_IT_CAT, lesson.new_scene()))
    qtbot.keyClicks(widget.answer_edit, f"{right + 0.2:.3f}")
    qtbot.keyClick(widget.answer_edit, Qt.Key.Key_Return)
    assert widget.result_label.text().startswith("✗")
    qtbot.mouseClick(widget.hint_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text() == "Hint: <i>Softmax</i> the row."  # the file's words, not its markup
    assert widget.result_label.textFormat() == widget.prompt_label.textFormat() == Qt.TextFormat.PlainText
    widget.answer_edit.clear()
    qtbot.keyClicks(widget.answer_edit, f"{right:.3f}")
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓") and widget.mark_label.text() == "✓"

    attention = window.menus[MenuId.ATTENTION]
    assert "Scale by √d_k" not in visible_entries(attention) and "Causal mask" in visible_entries(attention)
    scaled = window.scene.scale
    widget.answer_edit.clearFocus()  # (a text box takes Ctrl+K for itself)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)  # its key does nothing either
    assert window.scene.scale == scaled and not window.scale_action.isEnabled()
    scale_box = window.toolbar_boxes[window.scale_action]
    qtbot.waitUntil(lambda: not scale_box.isVisible())

    window.open_lesson("soft-lookup")
    assert panel.picker.shown_text() == "1. Soft lookup"
    assert "Scale by √d_k" in visible_entries(attention) and window.scale_action.isEnabled()
    qtbot.waitUntil(scale_box.isVisible)
    scaled = window.scene.scale
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert window.scene.scale != scaled


def test_a_lesson_files_challenge_ticks_when_its_condition_holds(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(teachers_lesson(), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    challenges = window.lesson_panel.lesson_file_challenges
    assert challenges is not None and challenges.rows[0].tick_label.text() == "○"
    shown = window.shown
    query_it = shown.vectors(Role.QUERY)[2]
    window.history.do(move_arrow(shown, Role.KEY, 0, shown.vectors(Role.KEY)[0], [-3 * x for x in query_it]))
    assert challenges.rows[0].tick_label.text() == "✓"


def test_a_broken_lesson_file_gets_one_message_and_changes_nothing(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "broken.attn-lesson"
    path.write_text('{"format": "attn-lesson", "version": 1, "title": ', encoding="utf-8")
    tokens_before, title_before = list(window.scene.tokens), window.windowTitle()
    open_from_the_menu(qtbot, window, monkeypatch, path)
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open lesson" and "broken.attn-lesson" in message and "\n" not in message
    assert window.scene.tokens == tokens_before and window.windowTitle() == title_before


def test_locked_arrows_do_not_move_by_mouse_or_keys_until_another_lesson_opens(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "only-the-query.attn-lesson"
    write_lesson_file(replace(teachers_lesson(), locked=("key", "v·cat")), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    settle_layout(qtbot, window)
    shown = window.shown
    value_before, query_before = shown.vectors(Role.VALUE)[0].copy(), shown.vectors(Role.QUERY)[2].copy()

    drag_arrow(window, Role.QUERY, 2, QPointF(60, -40))
    assert not (shown.vectors(Role.QUERY)[2] == query_before).all()  # what the lesson leaves free moves
    keys_before = shown.vectors(Role.KEY).copy()
    # (k·cat's tip is shared: q·cat's takes that drag. A drag from a locked tip pans the view, as from empty paper.)
    drag_arrow(window, Role.KEY, 1, QPointF(60, -40))
    drag_arrow(window, Role.VALUE, 0, QPointF(60, -40))
    assert (shown.vectors(Role.KEY) == keys_before).all() and (shown.vectors(Role.VALUE)[0] == value_before).all()
    window.canvas.setFocus()
    window.canvas.drags.focus_arrow((Role.KEY, 1))
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
    assert "k·sat is fixed in this lesson" in window.statusBar().currentMessage()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Return)  # no dialog to type its numbers either
    assert (shown.vectors(Role.KEY) == keys_before).all()
    assert window.canvas.drags.focused_arrow == (Role.KEY, 1)  # still reached, read and described

    window.open_lesson("soft-lookup")
    settle_layout(qtbot, window)
    keys_before = window.shown.vectors(Role.KEY).copy()
    drag_arrow(window, Role.KEY, 0, QPointF(60, -40))
    assert not (window.shown.vectors(Role.KEY) == keys_before).all()


def test_show_me_sets_up_the_lessons_own_scene_as_one_undoable_step(qtbot, window, monkeypatch, tmp_path):
    show_me = ShowMe(OWN_SCENE, (SetVector(Role.KEY, 0, (-3.0, 0.5)),))
    exercise = replace(teachers_lesson().exercises[0], show_me=show_me)
    path = tmp_path / "shown.attn-lesson"
    write_lesson_file(replace(teachers_lesson(), exercises=(exercise,)), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    widget = window.lesson_panel.exercise_widgets[0]
    qtbot.mouseClick(widget.show_me_button, Qt.MouseButton.LeftButton)
    assert window.shown_errors == []
    assert list(window.shown.vectors(Role.KEY)[0]) == [-3.0, 0.5] and window.scene.tokens == ["cat", "sat", "it"]
    window.undo_action.trigger()
    assert list(window.shown.vectors(Role.KEY)[0]) == [2.0, 0.0]


def test_a_lesson_file_stays_open_through_a_change_of_language(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(teachers_lesson(), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    window.switch_language("es")
    panel = window.lesson_panel
    assert "pronouns" in panel.explanation_label.text() and window.scene.tokens == ["cat", "sat", "it"]
    assert panel.exercise_widgets[0].check_button.text() == "Comprobar"
    assert not window.scale_action.isVisible()  # still hidden: the lesson is still open


def test_locked_word_vectors_do_not_move_in_the_heads_side_by_side(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "two-heads.attn-lesson"
    write_lesson_file(replace(builtin_lesson_file("two-heads"), locked=("x·cat",)), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    column = window.heads_view.columns[1]
    qtbot.mouseClick(column.title_button, Qt.MouseButton.LeftButton)  # its canvas, if one shows at a time
    qtbot.waitUntil(column.canvas.isVisible)
    settle_layout(qtbot, window)
    scene = window.scene
    cat, it = scene.tokens.index("cat"), scene.tokens.index("it")
    left = QPointF(-0.4 * column.canvas.x_plot.getViewBox().width(), 0)
    x_it_before = scene.vectors(Role.EMBEDDING)[it].copy()
    drag_on_canvas(column.canvas, Role.EMBEDDING, it, left)
    assert not (scene.vectors(Role.EMBEDDING)[it] == x_it_before).all()  # a word the lesson leaves free moves
    settle_layout(qtbot, window)
    x_cat_before = scene.vectors(Role.EMBEDDING)[cat].copy()
    drag_on_canvas(column.canvas, Role.EMBEDDING, cat, left)
    assert (scene.vectors(Role.EMBEDDING)[cat] == x_cat_before).all()


def test_hidden_training_and_model_heads_leave_the_lessons_and_view_menus(qtbot, window, monkeypatch, tmp_path):
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Train a Head…, open before
    training = window.docks[DockId.TRAINING]
    qtbot.waitUntil(training.isVisible)
    path = tmp_path / "no-extras.attn-lesson"
    write_lesson_file(replace(teachers_lesson(), hidden_controls=("training", "model-heads")), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    assert not training.isVisible()  # a lesson file, like a built-in lesson, closes another activity's panel
    lessons_menu, view_menu = window.menus[MenuId.LESSONS], window.menus[MenuId.VIEW]
    assert "Train a Head…" not in visible_entries(lessons_menu)
    assert "Heads of a Real Model…" not in visible_entries(lessons_menu)
    assert "Training" not in visible_entries(view_menu) and "Model heads" not in visible_entries(view_menu)
    assert "Attention matrix" in visible_entries(view_menu)
    for key in (Qt.Key.Key_T, Qt.Key.Key_H):
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(20)
    assert not training.isVisible() and not window.docks[DockId.MODEL_HEADS].isVisible()

    window.open_lesson("soft-lookup")
    assert "Train a Head…" in visible_entries(lessons_menu) and "Training" in visible_entries(view_menu)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(training.isVisible)


def test_a_hidden_grids_switch_leaves_the_grids_panel(qtbot, window, monkeypatch, tmp_path):
    box = window.grid_editor.no_grids_box
    path = tmp_path / "grids.attn-lesson"
    write_lesson_file(replace(builtin_lesson_file("projections"), hidden_controls=("grids-switch",)), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(window.docks[DockId.GRIDS].isVisible)
    assert box.isHidden() and window.grid_editor.tables["w_q"].isVisible()  # the grids stay, their switch goes
    window.open_lesson("projections")
    qtbot.waitUntil(box.isVisible)


def test_an_arrow_named_in_the_lessons_text_is_chosen_on_the_canvas_by_tab_and_enter(qtbot, window, monkeypatch,
                                                                                      tmp_path):
    """The text says "Drag *k·cat*" and "look at q·it": Tab to the name and Enter, and that arrow is the one the
    arrow keys move (a query becomes the chosen query too); the Right key then moves k·cat itself."""
    from attn_desktop.model.layers import Role

    lesson = replace(teachers_lesson(), text="Drag *k·cat*, then look at q·it.")
    path = tmp_path / "pointing.attn-lesson"
    write_lesson_file(lesson, path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    label = window.lesson_panel.explanation_label
    label.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(label.hasFocus)
    qtbot.keyClick(label, Qt.Key.Key_Tab)  # the first link: k·cat
    qtbot.keyClick(label, Qt.Key.Key_Return)
    cat = window.scene.tokens.index("cat")
    qtbot.waitUntil(lambda: window.canvas.drags.focused_arrow == (Role.KEY, cat))
    assert window.canvas.hasFocus()
    before = window.scene.vectors(Role.KEY)[cat].copy()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
    assert window.scene.vectors(Role.KEY)[cat][0] > before[0]

    label.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(label, Qt.Key.Key_Tab)
    qtbot.keyClick(label, Qt.Key.Key_Tab)  # the second: q·it
    qtbot.keyClick(label, Qt.Key.Key_Return)
    it = window.scene.query_tokens.index("it")
    qtbot.waitUntil(lambda: window.canvas.drags.focused_arrow == (Role.QUERY, it))
    assert window.view_state.chosen_query(window.scene.n_queries) == it
