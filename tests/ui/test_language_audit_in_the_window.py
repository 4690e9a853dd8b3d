"""The audit's `untranslated_texts` also lists texts left in another language than the one chosen (issue 42):
the window's title, the shown panels' titles, a verdict shown, an untouched lesson's sentence. Each test
builds the situation in the real window and reads it back; the same window in its own language lists none."""

import pytest
from PySide6.QtCore import QPointF

from attn_desktop.language.catalog import translations_for
from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools import language_audit
from attn_desktop.ui.tools.language_audit import untranslated_texts

from tests.support.in_the_window import drag_arrow, settle_layout


def chosen_language_is(monkeypatch, code: str) -> None:
    """The audit told the language chosen is CODE while the window still speaks English: what a switch to CODE
    that reached nothing would leave."""
    monkeypatch.setattr(language_audit, "current_language", lambda: code)


def test_an_english_window_has_nothing_in_another_language(qtbot, window):
    assert window.open_lesson("two-heads")
    settle_layout(qtbot, window)
    assert untranslated_texts(window) == []


def test_a_window_title_in_spanish_is_listed(window):
    spanish = translations_for("es").gettext("Predict, then see")
    assert spanish != "Predict, then see"
    window.setWindowTitle(f"*{spanish} — Attention Desktop")
    assert window.windowTitle() in untranslated_texts(window)


def test_a_panel_title_in_arabic_is_listed(window):
    dock = window.docks[DockId.MATRIX]
    arabic = translations_for("ar").gettext(dock.windowTitle())
    assert arabic != dock.windowTitle()
    dock.setWindowTitle(arabic)
    assert arabic in untranslated_texts(window)


def test_a_verdict_left_in_english_after_a_switch_to_spanish_is_listed(qtbot, window, monkeypatch):
    assert window.open_lesson("soft-lookup")
    exercise = window.lesson_panel.exercise_widgets[0]
    exercise.check_button.click()  # not solved yet: "✗ …"
    qtbot.waitUntil(exercise.result_label.isVisible)
    verdict = exercise.result_label.text()
    assert verdict and verdict not in untranslated_texts(window)
    chosen_language_is(monkeypatch, "es")
    assert verdict in untranslated_texts(window)


def test_an_untouched_lessons_sentence_left_in_another_language_is_listed(qtbot, window, monkeypatch):
    assert window.open_lesson("two-heads")
    sentence = "lesson sentence: " + " ".join(window.scene.tokens)
    chosen_language_is(monkeypatch, "es")
    assert sentence in untranslated_texts(window)
    chosen_language_is(monkeypatch, "zh_CN")
    assert sentence in untranslated_texts(window)


def test_a_lesson_scene_the_teacher_changed_keeps_its_words(qtbot, window, monkeypatch):
    assert window.open_lesson("soft-lookup")
    settle_layout(qtbot, window)
    drag_arrow(window, Role.KEY, 1, QPointF(30, -20))
    chosen_language_is(monkeypatch, "es")
    assert not any(text.startswith("lesson sentence:") for text in untranslated_texts(window))


@pytest.mark.parametrize("code", ["es", "ar"])
def test_a_window_switched_to_a_language_says_its_title_in_it(qtbot, window, code):
    window.switch_language(code)
    settle_layout(qtbot, window)
    assert window.windowTitle() not in untranslated_texts(window)
    window.switch_language("en")


def test_the_audit_reads_the_weights_charts_percentages(window):
    """The chart draws its percentages itself (bar_labels.py): the audit reads them as it reads text items."""
    window.scene.set_causal(True)  # the keys after "sat" are masked: the chart says so in words
    shown = list(language_audit.shown_texts(window))
    chart = window.weights_chart
    assert [text for text in chart.shown_value_texts() if text]  # the chart shows some
    for text in chart.shown_value_texts():
        if text:
            assert text in shown
    assert "masked" in chart.shown_value_texts()


def test_the_weights_charts_masked_follows_a_switch_to_spanish(window):
    window.scene.set_causal(True)
    masked = translations_for("es").gettext("masked")
    assert masked != "masked"
    try:
        window.switch_language("es")
        assert masked in window.weights_chart.shown_value_texts()
        assert "masked" not in untranslated_texts(window)
    finally:
        window.switch_language("en")
