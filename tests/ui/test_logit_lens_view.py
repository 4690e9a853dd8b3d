"""The Logit lens view alone, on made-up guesses: the position chooser (mouse and keys), the table
of every layer's five likeliest tokens, and the sentence saying where the answer forms."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from attn_desktop.ui.pretrained.logit_lens_view import WAITING_TEXT, LogitLensView, lens_summary

TOKENS = ["The", " capital", " of", " France", " is"]
SHOWN = ["0: The", "1: \u2423capital", "2: \u2423of", "3: \u2423France", "4: \u2423is"]
LAYERS = 30
POPUP_WARNING = "This plugin does not support grabbing the keyboard"  # the combo's list, offscreen


def guesses(top_by_layer: dict[int, str], final_p: float = 0.83) -> list[list[tuple[str, float]]]:
    """30 layers of five (token, p): " the" on top unless top_by_layer says otherwise; the last layer's top has final_p."""
    rows = []
    for layer in range(LAYERS):
        top = top_by_layer.get(layer, " the")
        p = final_p if layer == LAYERS - 1 else 0.2 + 0.01 * layer
        rest = [token for token in (" Paris", " France", " the", " a", " located", ",") if token != top][:4]
        rows.append([(top, p)] + [(token, 0.05 / (rank + 1)) for rank, token in enumerate(rest)])
    return rows


PARIS_FROM_22 = {**{layer: " Paris" for layer in range(22, LAYERS)}, 15: " Paris",
                 **{layer: " France" for layer in range(16, 22)}}


@pytest.fixture
def view(qtbot):
    view = LogitLensView()
    qtbot.addWidget(view)
    view.resize(300, 560)  # a side column at 1024 × 768
    view.show()
    qtbot.waitExposed(view)
    view.show_tokens(TOKENS)
    return view


def chosen(view):
    positions: list[int] = []
    view.position_chosen.connect(positions.append)
    return positions


# ----- the position ------------------------------------------------------------------------------
def test_the_chooser_lists_every_position_with_its_spaces_shown_and_starts_at_the_last(view):
    box = view.position_box
    assert [box.itemText(index) for index in range(box.count())] == SHOWN
    assert box.currentText() == "4: \u2423is" and view.position == 4


@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_choosing_a_position_with_the_mouse_asks_for_it(qtbot, view):
    positions = chosen(view)
    box = view.position_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    popup = box.view()
    qtbot.waitUntil(popup.isVisible)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a combo box ignores a release this soon after opening
    item = popup.visualRect(box.model().index(3, 0)).center()
    qtbot.mouseMove(popup.viewport(), item)
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=item)
    assert positions == [3] and box.currentText() == "3: \u2423France" and view.position == 3


def test_choosing_a_position_with_the_keys_asks_for_it(qtbot, view):
    positions = chosen(view)
    box = view.position_box
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_Up)
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert positions == [3, 2] and box.currentText() == "2: \u2423of"
    qtbot.keyClick(box, Qt.Key.Key_Down)  # the last position cannot go further down
    qtbot.keyClick(box, Qt.Key.Key_Down)
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert positions == [3, 2, 3, 4]


def test_the_same_tokens_keep_the_choice_and_new_ones_start_at_the_end_again(qtbot, view):
    positions = chosen(view)
    view.position_box.setFocus()
    qtbot.keyClick(view.position_box, Qt.Key.Key_Home)
    assert positions == [0]
    view.show_tokens(list(TOKENS))  # the same sentence again (a head knocked out, say)
    assert view.position == 0 and view.position_box.currentText() == "0: The"
    view.show_tokens(["Hello", " world"])
    assert view.position == 1 and view.position_box.currentText() == "1: \u2423world"
    assert positions == [0]  # the owner's changes are not the user's choices


def test_the_owner_showing_another_position_moves_the_chooser_quietly(view):
    positions = chosen(view)
    view.show_lens(1, guesses({}))
    assert view.position_box.currentText() == "1: \u2423capital" and view.position == 1 and positions == []


# ----- the table ---------------------------------------------------------------------------------
def test_the_table_shows_each_layers_tokens_and_percentages(view):
    view.show_lens(4, guesses(PARIS_FROM_22))
    rows = view.shown_rows()
    assert len(rows) == LAYERS
    assert rows[0] == ("0", "\u2423the", "20 %", "\u2423Paris  \u2423France  \u2423a  \u2423located")
    assert rows[16][:3] == ("16", "\u2423France", "36 %")
    assert rows[29][:3] == ("29", "\u2423Paris", "83 %")
    assert view.table.item(29, 0).toolTip() == ("After layer 29: \u2423Paris 83 %, \u2423France 5.0 %, \u2423the 2.5 %, "
                                                "\u2423a 1.7 %, \u2423located 1.2 %")


def test_the_final_answer_is_highlighted_wherever_it_is_on_top(view):
    view.show_lens(4, guesses(PARIS_FROM_22))
    assert view.highlighted_layers() == [15, *range(22, LAYERS)]
    view.show_lens(4, guesses({LAYERS - 1: " France"}))  # the same items, new rows: old highlights go
    assert view.highlighted_layers() == [LAYERS - 1]


def test_the_sentence_names_the_layer_where_the_answer_comes(view):
    view.show_lens(4, guesses(PARIS_FROM_22))
    assert view.summary == "'\u2423Paris' is the top guess from layer 22 on (first at layer 15; after the last layer: 83 %)."
    view.show_lens(4, guesses({layer: " Paris" for layer in range(22, LAYERS)}))
    assert view.summary == "'\u2423Paris' is the top guess from layer 22 on (after the last layer: 83 %)."
    view.show_lens(4, guesses({LAYERS - 1: " Paris"}, final_p=0.41))
    assert view.summary == "'\u2423Paris' is the top guess only after the last layer (41 %)."
    assert lens_summary(guesses({}, final_p=0.004)) == "'\u2423the' is the top guess from layer 0 on (after the last layer: 0.4 %)."


def test_waiting_greys_the_old_rows_and_a_problem_clears_them(view):
    view.show_lens(4, guesses(PARIS_FROM_22))
    view.show_waiting()
    assert view.summary == WAITING_TEXT and not view.table.isEnabled() and len(view.shown_rows()) == LAYERS
    view.show_problem("The model could not read this sentence.")
    assert view.summary == "The model could not read this sentence." and view.shown_rows() == []
    view.show_lens(4, guesses(PARIS_FROM_22))
    assert view.table.isEnabled() and len(view.shown_rows()) == LAYERS and "layer 22" in view.summary
    view.show_lens(4, [])  # nothing to show: says so, shows no numbers
    assert view.shown_rows() == [] and view.summary == "The model gave no layers to read."


@pytest.mark.parametrize("scale", [1.0, 1.5], ids=["normal", "presenting"])
def test_thirty_layers_fit_a_300_px_column_compactly(qtbot, view, scale):
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * scale)
    view.setFont(font)
    view.show_lens(4, guesses(PARIS_FROM_22))
    qtbot.wait(10)
    table, header = view.table, view.table.horizontalHeader()
    assert view.width() == 300 and view.position_box.width() <= 300
    assert not table.horizontalScrollBar().isVisible()
    assert header.sectionPosition(3) + header.sectionSize(3) <= table.viewport().width()
    assert table.verticalScrollBar().isVisible()  # 30 rows scroll
    assert table.rowHeight(0) <= QFontMetrics(font).height() + 6
    bold = QFontMetrics(table.item(29, 1).font())
    assert header.sectionSize(1) >= bold.horizontalAdvance("\u2423France") + 6  # the top token reads whole
    assert header.sectionSize(2) >= QFontMetrics(font).horizontalAdvance("83 %")
    assert header.sectionSize(3) >= 60  # some of the next four show; the tooltip has them all
