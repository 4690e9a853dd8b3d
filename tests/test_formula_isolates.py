"""Which runs of a right-to-left text are formulas to isolate (Qt-free): mathematics written in Latin letters,
whole, and nothing else — not a number, a Latin word, rich text's tags, a placeholder's value, or a formula
whose operands are Arabic words (it reads in the sentence's direction)."""

import pytest

from attn_desktop.language.isolates import in_isolate, isolate_formulas, outside_isolates


def shown(text: str) -> str:
    return isolate_formulas(text).replace("\u2066", "⟦").replace("\u2069", "⟧").replace("\u00a0", " ")


@pytest.mark.parametrize(("text", "isolated"), [
    ("اقسم على √d_k قبل softmax", "اقسم على ⟦√d_k⟧ قبل softmax"),
    ("المخرج = [head₁ | head₂] W_O", "المخرج = ⟦[head₁ | head₂] W_O⟧"),
    ("عند d_k = 2، تقسم", "عند ⟦d_k = 2⟧، تقسم"),
    ("softmax({inner} + القناع السببي)", "⟦softmax({inner} + القناع السببي)⟧"),  # a function's brackets, whole
    ("الوسيط scale=؛", "الوسيط ⟦scale=⟧؛"),
    ("(المسافة −4) عند m = 3، n = 7", "(المسافة −4) عند ⟦m = 3⟧، ⟦n = 7⟧"),
    ("<b>d_k = {d_k}</b>&nbsp;=&nbsp;", "<b>⟦d_k = {d_k}⟧</b>&nbsp;=&nbsp;"),  # tags and entities stay out
])
def test_formulas_in_an_arabic_sentence_are_isolated_whole(text, isolated):
    assert shown(text) == isolated


@pytest.mark.parametrize("text", [
    "الإجابة 1.4 تقريبًا",  # a number
    "قارن باستخدام PyTorch 2.1 أو أحدث",  # Latin words
    "{head} · {name}",  # values that may be Arabic words: their order is the sentence's
    "المخرج = Σ الوزن",  # signs between Arabic words
    "الفرق = ½ Σ |التخمين − الحقيقي|",  # a formula of Arabic words
    "<span style='color:{raw_color}'>نص</span>",  # a tag's attributes
])
def test_what_is_not_a_formula_written_in_latin_letters_stays_as_it_is(text):
    assert isolate_formulas(text) == text


def test_a_text_with_isolates_is_left_as_its_translator_wrote_it():
    text = "على \u2066√d_k\u2069"
    assert isolate_formulas(text) == text and outside_isolates(text) == "على "
    assert in_isolate("x") == "\u2068x\u2069"


def test_a_short_formula_is_never_broken_across_lines():
    """A line broken inside an isolate puts its halves at the two ends of a right-to-left line."""
    isolated = isolate_formulas("المخرج = [head₁ | head₂] W_O")
    formula = isolated[isolated.index("\u2066") + 1:isolated.index("\u2069")]
    assert formula == "[head₁ | head₂] W_O".replace(" ", "\u00a0")
