"""The lesson file's part of `snapshot --audit` (ui/tools/lesson_file_audit.py), read from the real window: a control
is offered while a menu, the toolbar or a shortcut reaches it, and not once a lesson file hides it."""

from dataclasses import replace

import pytest

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.ui.tools.lesson_file_audit import actions_of, audit_lesson_file, offered_actions

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")

HIDDEN = ("scale-switch", "training")


def test_what_a_student_is_offered_before_and_after_a_lesson_file_hides_it(window):
    offered = offered_actions(window)
    for control in HIDDEN:  # the everyday window offers each
        assert actions_of(window, control) and all(action in offered for action in actions_of(window, control))
    lesson = replace(builtin_lesson_file("self-attention"), title="Hidden switches", hidden_controls=HIDDEN)
    assert window.lesson_files.open_lesson(lesson)
    offered = offered_actions(window)
    assert not [action.text() for control in HIDDEN for action in actions_of(window, control) if action in offered]
    audit = audit_lesson_file(window)
    assert audit["title"] == "Hidden switches" and "Hidden switches" in audit["window_title"]
    assert audit["hidden_controls"] == list(HIDDEN) and audit["hidden_controls_offered"] == []
    assert window.menu_actions.actions["causal_action"] in offered  # what it does not hide stays


def test_a_window_with_no_lesson_file_says_so(window):
    audit = audit_lesson_file(window)
    assert audit["title"] is None and audit["hidden_controls"] == audit["hidden_controls_offered"] == []
