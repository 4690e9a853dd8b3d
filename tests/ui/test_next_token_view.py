"""The Next token tab on its own, fed made-up logits: what the bars say at a temperature, the cut-offs drawn on
them, what Generate and Back ask for, the token that moved most when heads are knocked out, the key-value
cache's step, and that it all fits the Model heads column (about 300 px) of a 1024 × 768 screen."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from attn_desktop.model.pretrained.next_token import NextTokenScores, likeliest_ids
from attn_desktop.ui.pretrained.next_token_view import NextTokenView, cache_step_text, count_text
from attn_desktop.ui.pretrained.token_strip import percent, shown_token

VOCAB = 40
WORDS = [" Paris", " the", " a", " London", " its", "\n", " Lyon", " France", " one", " not", " very"]
LONG_TOKEN = " extraordinarily_long_token_name"


def token_text(token: int) -> str:
    if token < len(WORDS):
        return WORDS[token]
    return LONG_TOKEN if token == VOCAB - 1 else f" w{token}"


def make_scores(logits) -> NextTokenScores:
    logits = np.asarray(logits, dtype=np.float32)
    ids = tuple(int(token) for token in likeliest_ids(logits))
    return NextTokenScores(logits, ids, tuple(token_text(token) for token in ids))


def intact_logits() -> np.ndarray:
    logits = np.linspace(-2.0, -4.0, VOCAB)
    logits[:6] = [3.0, 2.0, 1.4, 1.0, 0.5, 0.2]
    logits[VOCAB - 1] = 0.8  # a long token among the bars
    return logits


def softmax(logits, temperature: float) -> np.ndarray:
    scaled = np.asarray(logits, dtype=np.float64) / temperature
    shares = np.exp(scaled - scaled.max())
    return shares / shares.sum()


@pytest.fixture
def view(qtbot):
    shown = NextTokenView()
    qtbot.addWidget(shown)
    shown.resize(300, 700)
    shown.show()
    qtbot.waitExposed(shown)
    shown.show_prediction(make_scores(intact_logits()))
    return shown


def expected_numbers(scores: NextTokenScores, temperature: float) -> list[str]:
    probabilities = softmax(scores.logits, temperature)
    return [percent(probabilities[token]) for token in scores.top_ids]


def painted_numbers(view) -> list[str]:
    return [number for _token, number in view.bars.painted_rows()]


def test_the_bars_say_softmax_at_the_temperature_the_keys_set(qtbot, view):
    scores = view.scores
    qtbot.waitUntil(lambda: painted_numbers(view) == expected_numbers(scores, 1.0))
    assert view.temperature_label.text() == "Temperature 1.00"
    view.temperature_slider.setFocus()
    for _ in range(10):
        qtbot.keyClick(view.temperature_slider, Qt.Key.Key_Left)
    assert view.temperature_label.text() == "Temperature 0.50"
    qtbot.waitUntil(lambda: painted_numbers(view) == expected_numbers(scores, 0.5))
    assert painted_numbers(view)[0] == "82 %"  # the likeliest token takes more when T falls

    for _ in range(8):
        qtbot.keyClick(view.temperature_slider, Qt.Key.Key_PageUp)  # 0.25 each, up to the slider's end
    assert view.temperature_label.text() == "Temperature 2.50"
    qtbot.waitUntil(lambda: painted_numbers(view) == expected_numbers(scores, 2.5))
    qtbot.keyClick(view.temperature_slider, Qt.Key.Key_End)
    assert view.temperature_label.text() == "Temperature 3.00"
    qtbot.keyClick(view.temperature_slider, Qt.Key.Key_Home)
    assert view.temperature_label.text() == "Temperature 0.10"
    qtbot.waitUntil(lambda: painted_numbers(view)[0] == "100 %")


def test_tokens_show_their_spaces_and_long_ones_are_elided(qtbot, view):
    qtbot.waitUntil(lambda: len(view.bars.painted_rows()) == 10)
    tokens = [token for token, _number in view.bars.painted_rows()]
    assert tokens[0] == "\u2423Paris" and "\u21b5" in tokens  # " Paris" and the line break, as the strip shows them
    long = next(token for token in tokens if token.startswith(shown_token(LONG_TOKEN)[:5]))
    assert long.endswith("\u2026") and len(long) < len(LONG_TOKEN)


def test_top_k_keeps_the_first_bars_and_draws_its_line(qtbot, view):
    view.top_k_box.setFocus()
    for _ in range(3):
        qtbot.keyClick(view.top_k_box, Qt.Key.Key_Up)
    assert view.top_k == 3 and view.kept == 3
    qtbot.waitUntil(lambda: view.bars.painted_cut_label() == "top-k 3")
    assert view.bars.row_top(3) > view.bars.row_top(2) + view.bars.row_top(1) - view.bars.row_top(0)  # the gap

    for _ in range(3):
        qtbot.keyClick(view.top_k_box, Qt.Key.Key_Down)
    assert view.top_k_box.text() == "off"
    qtbot.waitUntil(lambda: view.bars.painted_cut_label() == "")


def test_top_p_keeps_the_fewest_tokens_reaching_p(qtbot, view):
    view.top_p_box.setFocus()
    qtbot.keyClick(view.top_p_box, Qt.Key.Key_Down)
    qtbot.keyClick(view.top_p_box, Qt.Key.Key_Down)
    assert view.top_p == 0.9
    sorted_shares = np.sort(softmax(view.scores.logits, 1.0))[::-1]
    expected = int(np.argmax(np.cumsum(sorted_shares) >= 0.9)) + 1
    assert view.kept == expected
    qtbot.waitUntil(lambda: view.bars.painted_cut_label() == "top-p 0.90")
    qtbot.keyClick(view.temperature_slider, Qt.Key.Key_Home)  # T 0.1: the first token alone reaches 0.90
    assert view.kept == 1


def test_generate_most_likely_emits_the_top_token(qtbot, view):
    with qtbot.waitSignal(view.generate_requested) as emitted:
        qtbot.mouseClick(view.generate_button, Qt.MouseButton.LeftButton)
    assert emitted.args == [0]  # " Paris"
    assert not view.new_draw_button.isEnabled()  # a draw changes nothing here


def draws(qtbot, view, count: int) -> list[int]:
    drawn: list[int] = []
    view.generate_requested.connect(drawn.append)
    for _ in range(count):
        qtbot.mouseClick(view.generate_button, Qt.MouseButton.LeftButton)
    view.generate_requested.disconnect(drawn.append)
    return drawn


def choose_sample(qtbot, view) -> None:
    view.choice_box.setFocus()
    qtbot.keyClick(view.choice_box, Qt.Key.Key_Down)
    assert view.choice_box.currentText() == "Sample"


def test_sample_draws_only_among_the_kept_and_the_seed_repeats_them(qtbot, view):
    choose_sample(qtbot, view)
    for _ in range(3):
        qtbot.keyClick(view.top_k_box, Qt.Key.Key_Up)
    for _ in range(20):
        qtbot.keyClick(view.temperature_slider, Qt.Key.Key_Right)  # T 2: the three share the draws
    first = draws(qtbot, view, 40)
    assert set(first) <= set(view.scores.top_ids[:3]) and len(set(first)) == 3

    again = NextTokenView()  # another computer in the class: the same seed, the same draws
    qtbot.addWidget(again)
    again.show_prediction(view.scores)
    choose_sample(qtbot, again)
    again.top_k_box.setValue(3)
    again.temperature_slider.setValue(view.temperature_slider.value())
    assert draws(qtbot, again, 40) == first

    qtbot.mouseClick(again.new_draw_button, Qt.MouseButton.LeftButton)
    assert again.seed == 1 and "seed 1" in again.new_draw_button.toolTip()
    assert draws(qtbot, again, 40) != first


def test_back_asks_only_when_there_is_a_token_to_take_away(qtbot, view):
    assert not view.back_button.isEnabled()
    view.set_can_go_back(True)
    with qtbot.waitSignal(view.back_requested):
        qtbot.mouseClick(view.back_button, Qt.MouseButton.LeftButton)


def test_busy_stops_generate_and_back_until_the_model_answers(qtbot, view):
    view.set_can_go_back(True)
    view.set_busy(True)
    assert not view.generate_button.isEnabled() and not view.back_button.isEnabled()
    view.set_busy(False)
    assert view.generate_button.isEnabled() and view.back_button.isEnabled()


def test_nothing_to_generate_before_a_sentence_has_run(qtbot):
    empty = NextTokenView()
    qtbot.addWidget(empty)
    assert not empty.generate_button.isEnabled()
    assert "appears here" in empty.status_label.text()


def moved_text(view) -> str:
    return view.moved_label.text().replace("\u00a0", " ")  # a token's space does not break its line


def test_knocked_heads_show_the_intact_bars_and_the_token_that_moved_most(qtbot, view):
    knocked_logits = intact_logits()
    knocked_logits[0] = 1.2  # " Paris" falls
    intact, knocked = make_scores(intact_logits()), make_scores(knocked_logits)
    view.show_prediction(knocked, intact, knocked_count=2)
    was, now = softmax(intact.logits, 1.0)[0], softmax(knocked.logits, 1.0)[0]
    assert moved_text(view) == f"With 2 heads knocked out, '\u2423Paris' moved most: {percent(was)} \u2192 {percent(now)}."
    assert view.moved_label.isVisible()
    both = f"{percent(was).removesuffix(' %')}\u2192{percent(now)}"  # the intact model's first
    qtbot.waitUntil(lambda: dict(view.bars.painted_rows()).get("\u2423Paris") == both)

    view.show_prediction(intact)  # every head back
    assert not view.moved_label.isVisible()
    qtbot.waitUntil(lambda: dict(view.bars.painted_rows()).get("\u2423Paris") == percent(was))


def test_one_knocked_head_is_named_in_the_singular(qtbot, view):
    knocked_logits = intact_logits()
    knocked_logits[1] = 2.9
    view.show_prediction(make_scores(knocked_logits), make_scores(intact_logits()), knocked_count=1)
    assert moved_text(view).startswith("With 1 head knocked out, '\u2423the' moved most:")


def test_a_generation_step_shows_the_new_row_and_what_the_cache_saved(qtbot, view):
    assert not view.cache_box.isVisible()
    weights = np.tril(np.ones((13, 13)))
    weights /= weights.sum(axis=1, keepdims=True)
    view.show_cache_step(weights, 12, "L3 H5", 4_900_000, 63_000_000, 160_000_000)
    assert view.cache_box.isVisible()
    assert "L3 H5" in view.cache_title.text()
    assert view.cache_label.text() == (
        "Step 1: 1 new query row; the keys and values of 12 tokens came from the cache. 4.9 M multiply-adds "
        "instead of 63 M (58 M saved; 160 M saved since the sentence was typed).")
    assert (view.cache_matrix.size_in_tokens, view.cache_matrix.cached_rows) == (13, 12)
    view.show_cache_step(np.tril(np.ones((14, 14))) / 14, 13, "L3 H5", 5_000_000, 68_000_000, 223_000_000)
    assert view.cache_label.text().startswith("Step 2: 1 new query row; the keys and values of 13 tokens")

    view.clear_cache_step()  # a sentence typed anew
    assert not view.cache_box.isVisible()
    view.show_cache_step(weights, 10, "L0 H0", 9_000_000, 60_000_000, 51_000_000)
    assert view.cache_label.text().startswith("Step 1: 3 new query rows; the keys and values of 10 tokens")


def test_counts_read_as_a_class_reads_them():
    assert [count_text(n) for n in (950, 4_900, 63_000, 4_940_000, 158_000_000, 1_230_000_000)] == [
        "950", "4.9 k", "63 k", "4.9 M", "158 M", "1.2 G"]
    assert cache_step_text(2, 1, 1, 10, 20, 30).startswith("Step 2: 1 new query row; the keys and values of 1 token ")


def right_edge_in(view, widget) -> int:
    return widget.mapTo(view, widget.rect().bottomRight()).x()


# 300 px at 1024 × 768; presentation mode's column there is about 205 px with type 1.15 × larger (1.6 × on a
# full-HD screen, where the column is wider).
@pytest.mark.parametrize(("font_scale", "width"), [(1.0, 300), (1.15, 205), (1.6, 260)])
def test_it_fits_the_model_heads_column(qtbot, view, font_scale, width):
    """Nothing sticks out or is squeezed below its size, numbers and elided tokens fit beside their bars, and
    the chart is as tall as its rows."""
    font = QFont(view.font())
    font.setPointSizeF(font.pointSizeF() * font_scale)
    view.setFont(font)
    view.show_prediction(make_scores(intact_logits() - 1), make_scores(intact_logits()), knocked_count=2)
    view.top_k_box.setValue(3)
    view.set_can_go_back(True)
    view.show_cache_step(np.tril(np.ones((20, 20))) / 20, 19, "L29 H8", 4_900_000, 63_000_000, 160_000_000)
    assert view.minimumSizeHint().width() <= width
    view.resize(width, 1000)
    qtbot.waitUntil(lambda: len(view.bars.painted_rows()) == 10 and "\u2192" in painted_numbers(view)[0])
    qtbot.wait(20)  # rows that stack are laid out again
    for widget in (view.generate_button, view.choice_box, view.back_button, view.new_draw_button, view.top_k_box,
                   view.top_p_box, view.temperature_label, view.temperature_slider, view.bars, view.cache_matrix,
                   view.cache_label):
        assert right_edge_in(view, widget) < view.width(), widget
        assert widget.width() >= widget.minimumSizeHint().width(), widget
    row_height = view.bars.fontMetrics().height()
    assert 10 * row_height < view.bars.height() < 10 * row_height + 80
    metrics = view.bars.fontMetrics()
    tokens, numbers = zip(*view.bars.painted_rows())
    assert all(metrics.horizontalAdvance(token) <= 0.3 * view.bars.width() for token in tokens)
    assert (max(map(metrics.horizontalAdvance, tokens)) + max(map(metrics.horizontalAdvance, numbers)) + 40
            <= view.bars.width())  # and a bar between them


def test_a_wide_column_keeps_the_buttons_side_by_side_and_a_narrow_one_stacks_them(qtbot, view):
    view.resize(300, 800)
    qtbot.waitUntil(lambda: view.generate_button.y() == view.choice_box.y())
    font = QFont(view.font())
    font.setPointSizeF(font.pointSizeF() * 1.6)
    view.setFont(font)
    view.resize(190, 800)
    qtbot.waitUntil(lambda: view.generate_button.y() > view.choice_box.y())
    view.resize(400, 800)
    qtbot.waitUntil(lambda: view.generate_button.y() == view.choice_box.y())


def test_pointing_at_an_elided_token_names_it_whole(qtbot, view):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    index = view.scores.top_ids.index(VOCAB - 1)
    point = QPoint(10, view.bars.row_top(index) + 3)
    QApplication.sendEvent(view.bars, QHelpEvent(QEvent.Type.ToolTip, point, view.bars.mapToGlobal(point)))
    share = softmax(view.scores.logits, 1.0)[VOCAB - 1]
    qtbot.waitUntil(lambda: QToolTip.text() == f"'{LONG_TOKEN}': {percent(share)}")
    QToolTip.hideText()


def test_a_cut_beyond_the_bars_says_how_many_it_keeps(qtbot, view):
    view.top_p_box.setValue(0.99)
    view.temperature_slider.setValue(view.temperature_slider.maximum())  # T 3: the shares spread past ten tokens
    sorted_shares = np.sort(softmax(view.scores.logits, 3.0))[::-1]
    kept = int(np.argmax(np.cumsum(sorted_shares) >= 0.99)) + 1
    assert kept > 10
    assert view.status_label.text() == f"top-p 0.99 keeps {kept} tokens, more than shown."
    assert view.status_label.isVisible()
    qtbot.waitUntil(lambda: len(view.bars.painted_rows()) == 10 and view.bars.painted_cut_label() == "")


def test_a_sentence_typed_anew_draws_again_from_the_seed_shown(qtbot, view):
    choose_sample(qtbot, view)
    view.temperature_slider.setValue(view.temperature_slider.maximum())
    first = draws(qtbot, view, 20)
    assert len(set(first)) > 3  # T 3: many tokens are drawn
    view.clear_cache_step()
    assert draws(qtbot, view, 20) == first


def test_a_change_that_rounds_away_gets_one_more_figure_and_a_newline_token_shows_its_mark():
    from attn_desktop.ui.pretrained.next_token_view import moved_text

    assert moved_text(" of", 0.2432, 0.2411) == "'\u2423of' moved most: 24.3 % \u2192 24.1 %."
    assert moved_text("\n", 0.5, 0.25) == "'\u21b5' moved most: 50 % \u2192 25 %."


def test_generate_waits_when_the_model_can_read_no_more(qtbot, view):
    view.set_room_for_more(False, "The model reads at most 256 tokens")
    assert not view.generate_button.isEnabled() and view.generate_button.toolTip() == "The model reads at most 256 tokens"
    view.set_busy(False)
    assert not view.generate_button.isEnabled()
    view.set_room_for_more(True)
    assert view.generate_button.isEnabled()
