"""The Positions lab in the window, driven by keys and clicks as a student would: Shuffle moves the words in the
Attention matrix panel and Undo brings them back, the positions' sliders move the readings and the clock hands,
the RoPE switch waits for a model's head, and the lab fits a classroom projector."""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from attn_desktop.model import Role
from attn_desktop.model.commands import open_contents
from attn_desktop.model.files.scene_types import DirectScene, TakenFrom
from attn_desktop.model.scene_files import load_into
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.positions_lab import first_pair, turn_pair
from attn_desktop.paths import scene_path
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.tools.walk_audit import audit_walk

from tests.support.audit_criteria import problems_in
from tests.support.in_the_window import (
    drag_arrow,
    matrix_cells,
    on_a_1024_by_768_screen,
    settle_layout,
    wait_until_arranged,
)


def open_lab(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.docks[DockId.POSITIONS_LAB].isVisible())
    qtbot.waitUntil(lambda: window.positions_lab.order_page is not None
                    and not window.positions_lab.visibleRegion().isEmpty())
    return window.positions_lab


def click_page(qtbot, lab, title):
    button = next(button for button in lab.chooser.buttons if button.text() == title)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lab.pages.currentIndex() == lab.chooser.buttons.index(button))
    assert button.isChecked() and sum(other.isChecked() for other in lab.chooser.buttons) == 1


def matrix_by_words(window) -> dict[tuple[str, str], str]:
    """Each cell of the Attention matrix panel under its row's word and its column's (the two "the"s told apart
    by their vectors, as the words are)."""
    scene, cells = window.scene, matrix_cells(window)
    words = [(token, tuple(scene.vectors(Role.QUERY)[i])) for i, token in enumerate(scene.tokens)]
    return {(words[r], words[c]): cells[r][c] for r in range(len(words)) for c in range(len(words))}


def test_shuffle_moves_the_matrix_panel_s_rows_and_columns_with_their_words_and_undo_restores(qtbot, window):
    lab = open_lab(qtbot, window)
    tokens, cells, by_words = list(window.scene.tokens), matrix_cells(window), matrix_by_words(window)
    page = lab.order_page
    assert not page.first_order_button.isEnabled()
    assert "Every word's output is the same in both orders" in page.outputs_label.text()
    qtbot.mouseClick(page.shuffle_button, Qt.MouseButton.LeftButton)
    assert sorted(window.scene.tokens) == sorted(tokens) and window.scene.tokens != tokens
    assert matrix_cells(window) != cells and matrix_by_words(window) == by_words  # each number moved with its words
    assert window.undo_action.text() == "&Undo Shuffle the sentence"
    assert page.first_order_button.isEnabled()
    assert "Every word's output is the same in both orders" in page.outputs_label.text()
    rows = page.outputs_table.row_texts()
    assert [row[0] for row in rows] == list(window.scene.tokens) and all(row[1] == row[2] for row in rows)
    chosen = window.reading().selected
    assert rows[chosen][1] == window.output_panel.vector_label.text()  # the Output panel's numbers, word for word
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.scene.tokens == tokens and matrix_cells(window) == cells
    assert not page.first_order_button.isEnabled()
    for _ in range(2):  # twice shuffled, once back: the first order, as one more undoable step
        qtbot.mouseClick(page.shuffle_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.first_order_button, Qt.MouseButton.LeftButton)
    assert window.scene.tokens == tokens and matrix_cells(window) == cells
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.scene.tokens != tokens and matrix_by_words(window) == by_words


def test_the_order_page_shows_both_orders_weights(qtbot, window):
    lab = open_lab(qtbot, window)
    page = lab.order_page
    shown = page.comparison
    assert page.first_grid.tokens == window.scene.tokens
    assert page.second_grid.tokens == [window.scene.tokens[i] for i in shown.order]
    # The sentence's grid reads what the Attention matrix panel reads (no mask in this scene).
    assert [[page.first_grid.cell_text(r, c) for c in range(6)] for r in range(6)] == matrix_cells(window)


def test_the_strength_slider_makes_the_orders_differ(qtbot, window):
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Added")
    page = lab.added_page
    assert page.strength == 1.0 and "The two orders now differ" in page.sinusoidal.verdict.text()
    page.slider.setFocus()
    qtbot.keyClick(page.slider, Qt.Key.Key_Home)
    assert page.strength_label.text() == "α = 0.0" and "still look the same" in page.sinusoidal.verdict.text()
    page.kind_box.setCurrentIndex(1)  # Learned: lesson 5's head
    assert "cannot tell places apart" in page.learned.verdict.text()
    qtbot.keyClick(page.slider, Qt.Key.Key_End)
    assert page.strength == 2.0 and "mirror place" in page.learned.verdict.text()


def test_the_m_slider_turns_q_and_the_readout_and_the_clock_hands_follow(qtbot, window):
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Rotated")
    page = lab.rotated_page
    reading = window.shown
    key = int(np.argmax(reading.selected_weights))  # the key drawn first: the one the query favours
    assert page.key_box.currentText() == reading.tokens[key] == "cat"
    q, k = first_pair(reading.vectors(Role.QUERY)[reading.selected]), first_pair(reading.vectors(Role.KEY)[key])
    hands_before = page.clocks.angles.copy()
    page.m_slider.setFocus()
    for _ in range(3):
        qtbot.keyClick(page.m_slider, Qt.Key.Key_Right)
    assert (page.m, page.n) == (7, 0) and page.m_label.text() == "m = 7"
    assert f"<b>{turn_pair(q, k, 7, 0).score:.2f}</b>" in page.readout.text()
    turned = np.mod(page.clocks.angles - hands_before, 2 * np.pi)  # three positions more: each pair by 3·θ_i
    assert turned[0] == pytest.approx(3.0) and 0 < turned[-1] < 0.001
    assert np.all(np.diff(turned) < 0)  # the fast pairs turn most, the slow ones least
    score = turn_pair(q, k, 7, 0).score
    for slider in (page.n_slider, page.m_slider):  # both three places on: m − n held, the same score
        slider.setFocus()
        for _ in range(3):
            qtbot.keyClick(slider, Qt.Key.Key_Right)
    assert (page.m, page.n) == (10, 3) and f"<b>{score:.2f}</b>" in page.readout.text()
    _, flat = page.along_m.curve_data(0)
    np.testing.assert_allclose(flat, flat[0], atol=1e-12)


@pytest.mark.parametrize("base", [None, 10000.0], ids=["not installed", "read from the file"])
def test_the_clocks_turn_at_the_base_of_the_model_file_or_say_it_is_not_installed(qtbot, window, monkeypatch, base):
    monkeypatch.setattr("attn_desktop.ui.positions_lab.rotated_page.installed_rope_base", lambda: base)
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Rotated")
    page = lab.rotated_page
    qtbot.waitUntil(lambda: page.base_looked_up)
    text = page.clocks_intro.text()
    if base is None:
        assert "base 100,000 (SmolLM2's base; the model file is not installed)" in text
        assert page.clocks.angles[1] == pytest.approx(4 * 100000.0 ** (-2 / 64))  # m − n = 4
    else:
        assert "base 10,000 read from SmolLM2's model file" in text
        assert page.clocks.angles[1] == pytest.approx(4 * 10000.0 ** (-2 / 64))


def test_dragging_the_query_on_the_canvas_moves_the_lab_s_q(qtbot, window):
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Rotated")
    page = lab.rotated_page
    settle_layout(qtbot, window)  # the canvas made way for the lab: its arrows where a person sees them
    before = page.pair_plot.q_before.tip.copy()
    seen = []
    drag_arrow(window, Role.QUERY, window.shown.selected, QPointF(40, -30), after_each_move=lambda step: seen.append(
        page.pair_plot.q_before.tip.copy()))
    q_now = first_pair(window.shown.vectors(Role.QUERY)[window.shown.selected])
    assert not np.allclose(q_now, before)
    np.testing.assert_allclose(page.pair_plot.q_before.tip, q_now)
    assert len({tuple(tip) for tip in seen}) > 2  # it followed the drag, not only its end


def test_the_rope_switch_waits_for_a_model_s_head(qtbot, window):
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Real head")
    page = lab.real_head_page
    assert not page.rope_box.isEnabled() and page.rope_box.isChecked()
    with qtbot.waitSignal(lab.real_head_requested, timeout=1000):
        qtbot.mouseClick(page.open_button, Qt.MouseButton.LeftButton)
    taken = TakenFrom(model="SmolLM2-135M-Instruct", layer=3, head=1, sentence="The cat sat")
    open_contents(window.scene, DirectScene(tokens=["The", "cat", "sat"], queries=[[1, 0], [0, 1], [1, 1]],
                                            keys=[[1, 0], [0, 1], [1, 1]], values=[[1], [2], [3]], taken_from=taken), window.view_state)
    assert page.rope_box.isEnabled() and page.rope_box.isChecked()
    with qtbot.waitSignal(lab.rope_switched, timeout=1000) as switched:
        qtbot.mouseClick(page.rope_box, Qt.MouseButton.LeftButton, pos=QPoint(8, page.rope_box.height() // 2))
    assert switched.args == [False]


def audit_problems(window):
    return problems_in({**audit_window(window), **audit_walk(window)})


def settled_problems(qtbot, window):
    """The audit's problems once the page just brought forward has laid itself out (Qt does that in a later
    pass of the event loop, later still on a busy machine): none, or those still there after two seconds."""
    try:
        qtbot.waitUntil(lambda: audit_problems(window) == [], timeout=2000)
    except qtbot.TimeoutError:
        pass
    return audit_problems(window)


@pytest.mark.slow
@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_the_lab_fits_a_1024_by_768_projector_on_every_page(qtbot, window, monkeypatch, presenting):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    lab = open_lab(qtbot, window)
    wait_until_arranged(qtbot, window)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    for title in ("Order", "Added", "Rotated", "Real head"):
        click_page(qtbot, lab, title)
        assert not lab.visibleRegion().isEmpty(), title
        assert settled_problems(qtbot, window) == [], title
    assert window.canvas.width() >= 0.25 * window.width()
    window.presentation_action.setChecked(False)


@pytest.mark.slow
def test_beside_a_canvas_of_three_plots_the_lab_leaves_them_room(qtbot, window, monkeypatch):
    """Lesson 10's kind of scene (word vectors and grids: three plots) on a 1024 × 768 screen."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    load_into(window.scene, scene_path("lessons/2_projections.json"), window.view_state)
    assert len(window.canvas.plots.shown_plots()) == 3
    lab = open_lab(qtbot, window)
    wait_until_arranged(qtbot, window)
    for title in ("Order", "Real head"):
        click_page(qtbot, lab, title)
        assert settled_problems(qtbot, window) == [], title
    assert lab.order_page.first_grid.tokens == ["cat", "sat", "it"]


@pytest.mark.slow
def test_the_lab_fits_after_presenting_and_leaving_and_reopening(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    lab = open_lab(qtbot, window)
    click_page(qtbot, lab, "Rotated")
    for presenting in (True, False):
        qtbot.keyClick(window, Qt.Key.Key_F11)
        assert window.presentation_action.isChecked() == presenting
        on_a_1024_by_768_screen(window, monkeypatch, presenting)  # full screen is the projector's 1024 × 768
        wait_until_arranged(qtbot, window)
        assert window.docks[DockId.POSITIONS_LAB].isVisible() and settled_problems(qtbot, window) == [], presenting
    assert not window.isFullScreen()
    window.docks[DockId.POSITIONS_LAB].close()
    open_lab(qtbot, window)
    wait_until_arranged(qtbot, window)
    assert settled_problems(qtbot, window) == [] and not lab.visibleRegion().isEmpty()
    lesson, dock = window.docks[DockId.LESSON], window.docks[DockId.POSITIONS_LAB]
    assert dock.geometry().top() >= lesson.geometry().bottom()  # under the lesson's text, not a tab behind it
