"""Lesson A → B → A, again and again, gives back A's arrangement every time: nothing the layout does on the way
(another lesson's panels hidden, the bottom row's panels laid out at other widths) may add up. Lesson 3 (self-
attention) and lesson 7 (two heads, which hides the bottom row) at a projector's 1024 × 768 and 1280 × 720: the
bottom row came back 14 px taller after the first round, its panels' words wrapped in the width they had before."""

from __future__ import annotations

import pytest

from tests.ui.test_window_holds_still import SCREENS, moved_panels, on_a_screen, open_lesson, panel_geometry, settled

pytestmark = pytest.mark.slow

ROUNDS = 3


@pytest.mark.parametrize("screen", SCREENS)
def test_lesson_a_b_a_three_times_gives_back_lesson_as_arrangement_every_time(qtbot, window, monkeypatch, screen):
    on_a_screen(window, monkeypatch, SCREENS[screen])
    open_lesson(qtbot, window, "self-attention")
    opened = panel_geometry(window)
    assert {"outputDock", "weightsDock", "lessonDock"} <= opened.keys()  # the bottom row and the lesson, in sight
    for round_number in range(1, ROUNDS + 1):
        open_lesson(qtbot, window, "two-heads")
        open_lesson(qtbot, window, "self-attention")
        assert moved_panels(opened, panel_geometry(window)) == {}, f"round {round_number} did not come back"


@pytest.mark.parametrize("screen", SCREENS)
def test_lesson_3_opened_after_lesson_7_and_a_language_and_back_keep_the_window_and_its_panels(
        qtbot, window, monkeypatch, screen):
    """The walk "a language and back": lesson 3 opened after lesson 7 (whose bottom row was hidden) had its bottom
    row 14 px taller than lesson 3 opened afresh, and a change of direction (Arabic, then English) grew the window
    past the screen while the reading panels were placed again."""
    on_a_screen(window, monkeypatch, SCREENS[screen])
    size = window.size()
    open_lesson(qtbot, window, "self-attention")
    afresh = panel_geometry(window)
    open_lesson(qtbot, window, "two-heads")
    open_lesson(qtbot, window, "self-attention")
    opened = panel_geometry(window)
    assert moved_panels(afresh, opened) == {}, "lesson 3 after lesson 7 is not lesson 3 as it opens"
    for language in ("ar", "en"):
        window.switch_language(language)
        settled(qtbot, window)
    assert window.size() == size, "the window grew during the switches"
    assert moved_panels(opened, panel_geometry(window)) == {}, "English, Arabic, English"

