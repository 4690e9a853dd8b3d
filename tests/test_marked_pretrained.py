"""The Model heads panel's texts come from the catalog (the pseudo-language en_XA shows it: "⟦Åll ĥéåðš···⟧"),
and the numbers a student reads there are written as the language writes them (a decimal comma in Spanish).

No model is needed: the panel's parts are built empty, and a model-file problem comes from a file that is no model.
"""

from __future__ import annotations

import pytest

from attn_desktop.language.pseudo import pseudo_text
from attn_desktop.model.pretrained.gguf_file import check_is_gguf
from attn_desktop.model.pretrained.llama import ModelFileError
from attn_desktop.ui.pretrained.all_heads_page import AllHeadsPage
from attn_desktop.ui.pretrained.head_list import head_item_text
from attn_desktop.ui.pretrained.next_token_view import NextTokenView, moved_most_text, temperature_label
from attn_desktop.ui.pretrained.pretrained_heads_panel import ModelHeadsPanel


def pseudo(text: str) -> bool:
    return text.startswith("\u27e6") and text.endswith("\u27e7")


def tab_names(panel: ModelHeadsPanel) -> list[str]:
    return [panel.tabs.tabText(index) for index in range(panel.tabs.count())]


def test_the_panels_tabs_and_hint_speak_the_language_chosen_before_it_is_built(qtbot, speaking):
    speaking("en_XA")
    panel = ModelHeadsPanel()
    qtbot.addWidget(panel)
    assert all(pseudo(name) for name in tab_names(panel)), tab_names(panel)
    assert pseudo(panel.model_label.text().removeprefix("<b>").removesuffix("</b>"))  # "No model loaded."
    assert pseudo(panel.all_heads.head_label.text())  # the grid's hint
    assert pseudo(panel.next_view.generate_button.text())


def test_the_tabs_are_reworded_and_measured_again_when_the_language_changes(qtbot, speaking):
    panel = ModelHeadsPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    panel.show()
    qtbot.waitExposed(panel)
    assert tab_names(panel) == ["All heads", "Find heads", "Next token", "Logit lens"]
    speaking("en_XA")
    assert all(pseudo(name) for name in tab_names(panel)), tab_names(panel)
    panel.resize(160, 600)  # too narrow for the (longer) full names: the short ones, translated
    qtbot.waitUntil(lambda: tab_names(panel) == [pseudo_text(name) for name in ("Heads", "Find", "Next", "Lens")])


def test_the_knocked_out_line_counts_heads_with_the_plural_of_the_language(qtbot, speaking):
    page = AllHeadsPage()
    qtbot.addWidget(page)
    page.show_knocked_out(frozenset({(3, 1)}), "")
    assert page.knock_label.text() == "1 head knocked out (L3 H1)."
    page.show_knocked_out(frozenset({(3, 1), (4, 0)}), "")
    assert page.knock_label.text() == "2 heads knocked out (L3 H1, L4 H0)."
    speaking("en_XA")
    page.show_knocked_out(frozenset({(3, 1), (4, 0)}), "")
    heads = ", ".join(pseudo_text("L{layer} H{head}").format(layer=layer, head=head) for layer, head in ((3, 1), (4, 0)))
    assert page.knock_label.text() == pseudo_text("{count} heads knocked out ({heads}).").format(count=2, heads=heads)


def test_a_file_that_is_no_model_is_refused_in_the_language_chosen(tmp_path, speaking):
    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("hello, not a model")
    with pytest.raises(ModelFileError, match='this one with "hell"'):
        check_is_gguf(not_a_model)
    speaking("en_XA")
    with pytest.raises(ModelFileError) as refused:
        check_is_gguf(not_a_model)
    assert pseudo(str(refused.value)) and "notes.gguf" in str(refused.value)


def test_shown_percentages_and_the_temperature_have_a_decimal_comma_in_spanish(qtbot, speaking):
    assert head_item_text(3, 1, 0.1234) == "Layer 3, head 1 \u2014 12.3 %"
    view = NextTokenView()  # built in English: it re-words itself when the language changes
    qtbot.addWidget(view)
    assert view.temperature_label.text() == "Temperature 1.00"
    speaking("es")
    assert head_item_text(3, 1, 0.1234) == "Capa 3, cabeza 1 \u2014 12,3 %"
    assert temperature_label(0.5) == "Temperatura 0,50"
    assert moved_most_text(2, " Paris", 0.243, 0.2414) == ("Con 2 cabezas desactivadas, «\u2423Paris» es el que más "
                                                           "cambió: 24,3 % \u2192 24,1 %.")
    assert view.temperature_label.text() == "Temperatura 1,00"
