"""A lesson's scene is the lessons' to keep: switching lessons or quitting after a Show me (or a drag) never
asks and never loses it, the lesson opens on it again, and a restart opens on the lesson it was on.
A scene of the student's own is still asked about before it goes."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_scene, read_scene_data, scene_document
from attn_desktop.model.teaching import lessons
from attn_desktop.paths import scene_path
from attn_desktop.ui.tools.walk import headless, take_step
from attn_desktop.ui.tools.walk_steps import parse_steps
from attn_desktop.ui.window.startup.app import start_window

from tests.support.in_the_window import drag_arrow, settle_layout

SHOWN = [0.0, 2.0]  # lesson 1's query after the Show me of "lookup-ask-up"


def open_lesson(qtbot, window, number):
    qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + number), Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(20)


def show_me_in_lesson_1(qtbot, window):
    open_lesson(qtbot, window, 1)
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "lookup-ask-up")
    qtbot.mouseClick(widget.show_me_button, Qt.MouseButton.LeftButton)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == SHOWN


def lessons_own_scene(lesson_id):
    """The lesson's scene file as a window opens it: with the query the file chose."""
    return scene_document(read_scene_data(scene_path(lessons.lesson(lesson_id).scene)))


def shows_lesson(window, lesson_id):
    """The Lesson panel names LESSON_ID and the canvas holds a scene of that lesson (its tokens)."""
    own = open_scene(scene_path(lessons.lesson(lesson_id).scene))
    return (window.lesson_panel.picker.currentText() == lessons.lesson(lesson_id).title
            and window.lessons.current == lesson_id and window.scene.tokens == own.tokens)


def test_switching_lessons_after_show_me_asks_nothing_and_the_lesson_opens_on_it_again(qtbot, window):
    show_me_in_lesson_1(qtbot, window)
    open_lesson(qtbot, window, 2)
    assert window.asked_questions == [] and shows_lesson(window, "projections")
    assert not window.lesson_panel.kept_bar.isVisible()  # lesson 2 was never changed: as it comes
    open_lesson(qtbot, window, 1)
    assert window.asked_questions == [] and shows_lesson(window, "soft-lookup")
    assert window.reading().vectors(Role.QUERY)[0].tolist() == SHOWN  # as the student left it
    assert window.lesson_panel.kept_bar.isVisible()


def test_start_afresh_gives_the_lessons_own_scene_and_undo_gives_the_changed_one_back(qtbot, window):
    show_me_in_lesson_1(qtbot, window)
    open_lesson(qtbot, window, 3)
    open_lesson(qtbot, window, 1)
    qtbot.mouseClick(window.lesson_panel.fresh_button, Qt.MouseButton.LeftButton)
    assert scene_document(window.scene, window.view_state) == lessons_own_scene("soft-lookup")
    assert not window.lesson_panel.kept_bar.isVisible()
    window.undo_action.trigger()
    assert window.reading().vectors(Role.QUERY)[0].tolist() == SHOWN
    window.redo_action.trigger()
    open_lesson(qtbot, window, 2)  # left as it comes: it opens as it comes, and says nothing
    open_lesson(qtbot, window, 1)
    assert scene_document(window.scene, window.view_state) == lessons_own_scene("soft-lookup")
    assert not window.lesson_panel.kept_bar.isVisible() and window.asked_questions == []


def changed_and_opened_again(qtbot, window):
    """Lesson 1 with a key dragged, left for lesson 3 and opened again: Start afresh shows over its text."""
    open_lesson(qtbot, window, 1)
    drag_arrow(window, Role.KEY, 1, QPointF(-40, 0))
    open_lesson(qtbot, window, 3)
    open_lesson(qtbot, window, 1)
    assert window.lesson_panel.fresh_button.isVisible()
    return scene_document(window.scene, window.view_state)


def press_start_afresh(qtbot, window, by_keyboard):
    button = window.lesson_panel.fresh_button
    if by_keyboard:
        button.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
    else:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.wait(20)


def press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier):
    """A key pressed as a user presses it: to whichever widget has the keyboard focus."""
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)
    qtbot.wait(10)


@pytest.mark.parametrize("by_keyboard", [False, True], ids=["clicked", "by-keyboard"])
def test_start_afresh_leaves_the_lesson_unmodified_and_the_keys_on_its_scene(qtbot, window, by_keyboard):
    left = changed_and_opened_again(qtbot, window)
    press_start_afresh(qtbot, window, by_keyboard)
    assert scene_document(window.scene, window.view_state) == lessons_own_scene("soft-lookup")
    assert not window.windowTitle().startswith("*"), window.windowTitle()  # the lesson's own scene: nothing changed
    assert QApplication.focusWidget() is window.canvas  # the keys go on to the scene it brought back
    press(qtbot, Qt.Key.Key_Tab)  # Tab picks an arrow...
    press(qtbot, Qt.Key.Key_Right)  # ...and the arrow key moves it
    assert scene_document(window.scene, window.view_state) != lessons_own_scene("soft-lookup")
    assert window.windowTitle().startswith("*")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the nudge back: the lesson's own again
    assert not window.windowTitle().startswith("*")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Start afresh back: the student's scene
    assert scene_document(window.scene, window.view_state) == left
    assert window.windowTitle().startswith("*")  # not the lesson's own scene (kept with the lessons all the same)
    assert window.asked_questions == []


def test_start_afresh_on_a_lesson_scene_saved_as_a_file_leaves_the_file_unsaved(qtbot, window, tmp_path, monkeypatch):
    changed_and_opened_again(qtbot, window)
    monkeypatch.setattr(window.dialogs, "ask_save_path", lambda suggested: tmp_path / "mine.json")
    window.menu_actions["save_as_action"].trigger()
    press_start_afresh(qtbot, window, by_keyboard=False)
    assert window.windowTitle().startswith("*mine.json")  # the file still holds the student's scene


def test_a_scene_of_ones_own_is_still_asked_about_before_a_lesson_replaces_it(qtbot, window):
    window.menu_actions["new_action"].trigger()  # File → New: the student's own, untitled
    drag_arrow(window, Role.KEY, 1, QPointF(-40, 0))
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    open_lesson(qtbot, window, 2)
    assert window.asked_questions == ["Unsaved changes"]
    assert window.lessons.current != "projections" and window.windowTitle().startswith("*")


def test_a_lesson_scene_saved_as_a_file_is_the_students_own_from_then_on(qtbot, window, tmp_path, monkeypatch):
    show_me_in_lesson_1(qtbot, window)
    monkeypatch.setattr(window.dialogs, "ask_save_path", lambda suggested: tmp_path / "mine.json")
    window.menu_actions["save_as_action"].trigger()
    drag_arrow(window, Role.KEY, 1, QPointF(-40, 0))
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    open_lesson(qtbot, window, 2)
    assert window.asked_questions == ["Unsaved changes"] and window.scene_path == tmp_path / "mine.json"


def test_quitting_in_a_changed_lesson_asks_nothing_and_the_app_starts_again_on_it(qtbot, window):
    show_me_in_lesson_1(qtbot, window)
    window.save_window_state()
    assert window.close() and window.asked_questions == []
    again = start_window(None, None)  # `attn-desktop` started again, without a file
    qtbot.addWidget(again)
    again.restore_window_state()
    again.show()
    settle_layout(qtbot, again)
    assert shows_lesson(again, "soft-lookup") and again.lesson_panel.kept_bar.isVisible()
    assert again.reading().vectors(Role.QUERY)[0].tolist() == SHOWN
    again.history.reset()


def test_the_first_start_opens_the_default_scenes_lesson(qtbot):
    first = start_window(None, None)
    qtbot.addWidget(first)
    assert shows_lesson(first, lessons.DEFAULT_SCENE_LESSON) and not first.lesson_panel.kept_bar.isVisible()
    assert scene_document(first.scene, first.view_state) == lessons_own_scene(lessons.DEFAULT_SCENE_LESSON)


def test_a_walks_restart_opens_on_the_lesson_it_was_on_with_that_lessons_scene(qtbot, window):
    headless(window)
    for step in parse_steps("lesson:scaled-attention,lesson:projections,restart"):
        window = take_step(window, step, lambda shown: settle_layout(qtbot, shown), lambda gone: None)
    qtbot.addWidget(window)
    assert shows_lesson(window, "projections")
    assert scene_document(window.scene, window.view_state) == lessons_own_scene("projections")
