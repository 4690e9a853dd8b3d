"""Arabic keeps mathematics reading left to right: each formula of an Arabic text is a left-to-right isolate
(U+2066 … U+2069), so "√d_k" does not become "d_k√" and "[head₁ | head₂] W_O" keeps its brackets — in the
lessons' texts, the panels' labels and the tooltips, checked over the whole catalog and in the window."""

import re

import pytest
from PySide6.QtCore import Qt

from attn_desktop.language.catalog import translations_for
from attn_desktop.language.isolates import outside_isolates

from tests.support.in_the_window import POPUP_WARNING, choose_from_menu_bar, on_a_1024_by_768_screen, settle_layout

pytestmark = pytest.mark.qt_log_ignore(POPUP_WARNING)  # the menus, offscreen

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
NBSP = "\u00a0"
# What is not a formula however it is written: rich text's tags and entities, and the placeholders of values.
NOT_WRITTEN = re.compile(r"<[^<>]*>|&[A-Za-z]+;|\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}")
MATH_SIGNS = set("√·×÷=≈≠≤≥^|[]Σᵀ_₀₁₂₃₄₅₆₇₈₉")
ARABIC_LETTER = re.compile("[\u0600-\u06ff]")


def formulas_outside_isolates(text: str) -> list[str]:
    """The words of TEXT, outside its isolates, that are mathematics written in Latin letters or digits
    ("√d_k", "W_O", "q·k"; not "k·كلب", an arrow's name in the sentence's own words)."""
    words = NOT_WRITTEN.sub(" ", outside_isolates(text)).split()
    return [word for word in words if MATH_SIGNS.intersection(word) and re.search("[A-Za-z0-9]", word)
            and not ARABIC_LETTER.search(word)]


def arabic_texts() -> dict[str, str]:
    catalog = translations_for("ar")
    return {key if isinstance(key, str) else key[0]: text for key, text in catalog._catalog.items() if key}


def test_every_formula_of_the_arabic_catalog_is_isolated():
    texts = arabic_texts()
    assert len(texts) > 1000
    left = {source: formulas_outside_isolates(text) for source, text in texts.items() if formulas_outside_isolates(text)}
    assert left == {}
    unclosed = [source for source, text in texts.items() if text.count(PDI) != sum(map(text.count, "\u2066\u2067\u2068"))]
    assert unclosed == []


@pytest.mark.parametrize(("source", "formula"), [
    ("output = [head₁ | head₂] W_O", "[head₁ | head₂] W_O"),
    ("Divide every score by √d_k before the softmax", "√d_k"),
    ("answer = Σ softmax(q · k) × v", "Σ softmax(q · k) × v"),
    ("softmax({inner} + causal mask)", "softmax({inner} + "),  # (the isolate holds the mask's words too)
])
def test_the_formulas_the_issue_saw_scrambled_are_isolated(source, formula):
    text = translations_for("ar").gettext(source).replace(NBSP, " ")  # (a short formula's spaces do not break)
    assert f"{LRI}{formula}" in text
    assert formula in translations_for("en").gettext(source)  # the English writes the same formula


def switch_to_arabic(qtbot, window):
    choose_from_menu_bar(qtbot, window, ["View", "Language", "العربية"])


def test_in_the_arabic_window_the_formulas_shown_are_isolated(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    settle_layout(qtbot, window)
    switch_to_arabic(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # lesson 7
    assert f"{LRI}[head₁ | head₂] W_O{PDI}".replace(" ", NBSP) in window.lesson_panel.formula_label.text()
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # lesson 4: an untranslated formula
    assert window.lesson_panel.formula_label.text() == f"{FSI}softmax(QKᵀ / √d_k) V{PDI}"
    assert f"{LRI}√d_k{PDI}" in window.lesson_panel.explanation_label.text()
    assert f"{LRI}√d_k{PDI}" in window.scale_action.toolTip()  # a tooltip, re-worded by the switch
    shown = [window.lesson_panel.explanation_label.text(), window.lesson_panel.steps_label.text(),
             window.scale_action.toolTip(), *(w.prompt_label.text() for w in window.lesson_panel.exercise_widgets)]
    assert [formulas_outside_isolates(text) for text in shown] == [[]] * len(shown)


def test_in_the_arabic_window_the_formulas_the_panels_write_are_isolated(qtbot, window, monkeypatch):
    """The worked dot product, the scaled column's header and the mixing of two heads by W_O are written by
    the code, around the sentence's Arabic words: each is one left-to-right isolate."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    settle_layout(qtbot, window)
    switch_to_arabic(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # lesson 4: one head, scaled
    worked = window.score_panel.formula_label.text()
    assert worked.startswith(f"{LRI}q_") and worked.endswith(PDI)
    header = window.score_panel.model.headerData(2, Qt.Orientation.Horizontal)
    assert header == f"{LRI}÷ √2{PDI}"
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # lesson 7: two heads mixed by W_O
    mixing = window.heads_view.mixing_box.mixing_text()
    assert f"{LRI}out·" in mixing and "× W_O = " in mixing and mixing.endswith(PDI)
    # The query's Arabic name ends on a left-to-right mark: the "= [(" after it stays with the numbers.
    assert re.search("out·[\u0600-\u06ff]+\u200e = \\[", mixing)
