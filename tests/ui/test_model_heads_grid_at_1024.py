"""The real model's grid of heads on a 1024 × 768 projector, driven through the window with the pointer: once a
head is opened the grid stays readable (thumbnails of 24 px and more), and every click, right-click, Ctrl+click
and K acts on exactly the head under the pointer, however the line over the grid changes as the pointer enters.

SmolLM2's shape (30 layers of 9 query heads reading 3 key/value heads) in a tiny random model: the window
lays out the same grid, and runs it in milliseconds."""

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.pretrained.head_grid_geometry import GAP

from tests.support.in_the_window import POPUP_WARNING, on_a_1024_by_768_screen, wait_until_arranged
from tests.support.model_heads_window import loaded_heads, wait_for_run
from tests.support.pointer import click_at, in_window, pointer_to, right_click_menu
from tests.support.tiny_llama import write_tiny_llama

LAYERS, HEADS = 30, 9
READABLE_PX = 24  # a thumbnail's side a class reads its pattern at, from the back of the room


@pytest.fixture(scope="module")
def smollm2_shaped_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "SmolLM2-135M-Instruct.gguf"
    write_tiny_llama(path, layer_count=LAYERS, head_count=HEADS, kv_head_count=3, width=36,
                     name="SmolLM2-135M-Instruct")
    return path


@pytest.fixture
def heads_at_1024(qtbot, window, monkeypatch, smollm2_shaped_path):
    """The window at 1024 × 768 with the Model heads panel open on SmolLM2's shape, its sentence run."""
    monkeypatch.setattr(pack, "find_pack_model", lambda: smollm2_shaped_path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    panel = loaded_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    return panel


def _thumbnail_centre(window, panel, layer, head) -> QPoint:
    """Where a head's thumbnail shows in the window now (scrolled into view first, as a teacher scrolls to it)."""
    box = panel.grid.cell_rect(layer, head)
    panel.grid_scroll.ensureVisible(box.center().x(), box.center().y(), box.width(), box.height())
    QTest.qWait(5)
    return in_window(window, panel.grid, panel.grid.cell_rect(layer, head).center())


def _away(window) -> QPoint:
    """A point on the canvas, off the grid: the pointer comes into the grid from there."""
    return in_window(window, window.central_stack, window.central_stack.rect().center())


def _open_by_pointer(qtbot, window, panel, layer, head) -> None:
    point = _thumbnail_centre(window, panel, layer, head)
    pointer_to(window, _away(window))
    pointer_to(window, point)
    click_at(window, point)
    qtbot.waitUntil(lambda: f"Layer {layer}, head {head} of" in window.windowTitle(), timeout=3000)


@pytest.mark.slow
def test_the_grid_stays_readable_and_in_place_after_a_head_is_opened(qtbot, window, heads_at_1024):
    panel = heads_at_1024
    dock = window.docks[DockId.MODEL_HEADS]
    before = dock.geometry()
    _open_by_pointer(qtbot, window, panel, 4, 1)
    wait_until_arranged(qtbot, window)
    grid, scroll = panel.grid, panel.grid_scroll
    assert grid.cell_size() - GAP >= READABLE_PX, (grid.cell_size(), dock.width())
    # The panel keeps its place and its width (its height gives the bottom row the lines the head's output needs)
    assert dock.geometry().topLeft() == before.topLeft() and abs(dock.width() - before.width()) <= 4, \
        (before, dock.geometry())
    # Every head of a layer in sight, side by side: no sideways scrolling of the grid or of the panel
    assert grid.width() <= scroll.viewport().width()
    assert not dock.widget().horizontalScrollBar().isVisible()
    last = in_window(window, grid, grid.cell_rect(0, HEADS - 1).bottomRight())
    assert dock.geometry().contains(last)
    assert window.canvas.width() >= 0.25 * window.width()


def _idle(qtbot, panel) -> None:
    """The model has answered: no run under way (Generate is enabled again)."""
    qtbot.waitUntil(panel.next_view.generate_button.isEnabled, timeout=10_000)


def _probed_heads():
    """Every head of layer 23 (the one the issue's class missed), and every layer's head 4."""
    return [(23, head) for head in range(HEADS)] + [(layer, 4) for layer in range(LAYERS) if layer != 23]


@pytest.mark.slow
@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_a_click_and_a_right_click_act_on_the_head_under_the_pointer(qtbot, window, heads_at_1024):
    panel = heads_at_1024
    _open_by_pointer(qtbot, window, panel, 4, 1)
    wait_until_arranged(qtbot, window)
    for layer, head in _probed_heads():
        point = _thumbnail_centre(window, panel, layer, head)  # aimed before the pointer enters the grid
        pointer_to(window, _away(window))
        pointer_to(window, point)
        items = right_click_menu(qtbot, window, point)
        assert items[:2] == [f"Open layer {layer}, head {head}", f"Knock out layer {layer}, head {head}"], items
        pointer_to(window, _away(window))
        pointer_to(window, point)
        click_at(window, point)
        qtbot.waitUntil(lambda layer=layer, head=head: f"Layer {layer}, head {head} of" in window.windowTitle(), timeout=3000)


def _wait_until_knocked_out(qtbot, window, panel, heads) -> None:
    """The grid marks exactly HEADS knocked out (else: what it marks, and where the panel and grid were)."""
    def marked() -> None:
        assert panel.grid.knocked_out == heads, (panel.grid.knocked_out, window.docks[DockId.MODEL_HEADS].geometry(),
                                                 panel.grid.mapTo(window, QPoint(0, 0)))
    qtbot.waitUntil(marked, timeout=10_000)


@pytest.mark.slow
def test_ctrl_click_and_k_knock_out_the_head_under_the_pointer_and_show_it(qtbot, window, heads_at_1024):
    panel = heads_at_1024
    _open_by_pointer(qtbot, window, panel, 4, 1)
    wait_until_arranged(qtbot, window)
    _idle(qtbot, panel)
    grid = panel.grid
    for layer, head in _probed_heads():
        point = _thumbnail_centre(window, panel, layer, head)
        pointer_to(window, _away(window))
        pointer_to(window, point)
        click_at(window, point, modifiers=Qt.KeyboardModifier.ControlModifier)
        # Something to see: the head crossed out, and the line naming the heads off says it
        _wait_until_knocked_out(qtbot, window, panel, {(layer, head)})
        qtbot.waitUntil(lambda layer=layer, head=head: f"L{layer} H{head})" in panel.knock_label.text() and panel.knock_label.isVisible())
        _idle(qtbot, panel)
        QTest.keyClick(grid, Qt.Key.Key_K)  # K over the same head: on again
        _wait_until_knocked_out(qtbot, window, panel, set())
        _idle(qtbot, panel)
        # K over another head, with the keyboard's head elsewhere: the one under the pointer
        other = (layer, (head + 1) % HEADS)
        point = _thumbnail_centre(window, panel, *other)
        pointer_to(window, point)
        QTest.keyClick(grid, Qt.Key.Key_K)
        _wait_until_knocked_out(qtbot, window, panel, {other})
        _idle(qtbot, panel)
        QTest.keyClick(grid, Qt.Key.Key_K)
        _wait_until_knocked_out(qtbot, window, panel, set())
        _idle(qtbot, panel)


@pytest.mark.parametrize("width", [210, 290])  # the column after a head opened; one a teacher may drag to
def test_pointing_at_heads_and_knocking_them_out_never_moves_the_grid(qtbot, width):
    """The line over the grid names the head pointed at in more words than its hint, and a line names the heads
    knocked out: in a column as narrow as a teacher may drag it, neither moves a thumbnail (the issue's class
    right-clicked layer 23 and was offered layer 22)."""
    import numpy as np

    from attn_desktop.ui.pretrained.all_heads_page import AllHeadsPage

    page = AllHeadsPage()
    qtbot.addWidget(page)
    page.resize(width, 500)
    page.show()
    qtbot.waitExposed(page)
    grid = page.grid
    grid.set_attention(np.random.default_rng(0).random((LAYERS, HEADS, 6, 6)))
    grid.set_kv_group_size(3)
    grid.set_descriptions({(layer, head): "first-token head (52 %)" for layer in range(LAYERS) for head in range(HEADS)})
    page.show_run_text("10 tokens in 0.12 s.")
    qtbot.wait(20)
    scroll = page.grid_scroll
    where = scroll.mapTo(page, QPoint(0, 0))  # the grid's frame: the thumbnails move with it
    page.show_knocked_out(frozenset({(23, 4)}), "'cat' moved most: 34 % → 41 %.")
    qtbot.wait(20)
    assert page.knock_label.isVisible() and scroll.mapTo(page, QPoint(0, 0)) == where
    for head in range(HEADS):
        box = grid.cell_rect(23, head)
        scroll.ensureVisible(box.center().x(), box.center().y(), box.width(), box.height())
        qtbot.wait(5)
        scrolled = scroll.verticalScrollBar().value()
        pointer_to(page, in_window(page, grid, box.center()))
        assert page.head_label.text().startswith(f"Layer 23, head {head}")
        assert scroll.mapTo(page, QPoint(0, 0)) == where and scroll.verticalScrollBar().value() == scrolled, head
    grid.setFocus()
    QTest.keyClick(grid, Qt.Key.Key_Left)  # the keyboard's head, "… (Enter opens it, K knocks it out)"
    assert page.head_label.text().endswith("(Enter opens it, K knocks it out)")
    assert scroll.mapTo(page, QPoint(0, 0)) == where


@pytest.mark.slow
def test_the_opened_heads_matrix_writes_its_row_labels_whole(qtbot, window, heads_at_1024, monkeypatch):
    """A long sentence's head on a 1024 × 768 screen: rows shorter than a line of text. Each row label drawn is a
    whole line high, centred on its row (a box the row's height cut the words' tops and bottoms off)."""
    from PySide6.QtGui import QFontMetricsF

    from attn_desktop.ui.panels import matrix_view
    from attn_desktop.ui.panels.matrix_layout import CORNER_TEXT

    from tests.support.model_heads_window import type_sentence

    panel = heads_at_1024
    sentence = "the cat sat on the mat because it was tired and the dog ran to the door"
    type_sentence(qtbot, panel, sentence)
    wait_for_run(qtbot, panel, sentence)
    _open_by_pointer(qtbot, window, panel, 2, 3)
    wait_until_arranged(qtbot, window)
    drawn: list[tuple] = []
    real_paint_labels = matrix_view.paint_labels

    class Recording:
        def __init__(self, painter):
            self._painter = painter

        def __getattr__(self, name):
            return getattr(self._painter, name)

        def drawText(self, rect, flags, text):
            drawn.append((rect, text))
            self._painter.drawText(rect, flags, text)

    monkeypatch.setattr(matrix_view, "paint_labels", lambda painter, *args: real_paint_labels(Recording(painter), *args))
    view = window.matrix_view
    view._static_layer = None  # paint the labels again, now
    view.grab()
    grid = view.grid_rect()
    row = grid.height() / len(view.reading.query_tokens)
    line = QFontMetricsF(view.font()).height()
    assert row < line  # the case in question: rows shorter than the labels' line
    row_labels = [(rect, text) for rect, text in drawn if rect.left() == 0 and text != CORNER_TEXT]
    assert len(row_labels) >= 5
    _, _, (row_font, _) = view.drawn_labels()  # rows this short have their names set smaller, not cut
    drawn_line = QFontMetricsF(row_font).height()
    for rect, text in row_labels:
        assert rect.height() >= drawn_line - 0.01, (text, rect, drawn_line)
        assert grid.top() - drawn_line / 2 <= rect.center().y() <= grid.bottom() + drawn_line / 2


@pytest.mark.slow
def test_generate_moves_nothing_in_the_panel(qtbot, window, heads_at_1024):
    """The Next token tab at 1024 × 768: a teacher clicks Generate again and again at the same place; the
    tokens, the tabs and the button hold still as the step and its key-value cache appear."""
    panel = heads_at_1024
    tabs = panel.tabs
    click_at(window, in_window(window, tabs.tabBar(), tabs.tabBar().tabRect(2).center()))
    qtbot.waitUntil(lambda: tabs.currentIndex() == 2)
    qtbot.wait(50)
    button = panel.next_view.generate_button

    def where():
        return {"button": QRect(in_window(window, button, QPoint(0, 0)), button.size()),
                "tabs": QRect(in_window(window, tabs, QPoint(0, 0)), tabs.size()),
                "dock": window.docks[DockId.MODEL_HEADS].geometry()}

    before = where()
    for step in range(1, 4):
        point = in_window(window, button, button.rect().center())
        pointer_to(window, point)
        click_at(window, point)
        qtbot.waitUntil(lambda step=step: panel.generated_count == step and button.isEnabled(), timeout=10_000)
        qtbot.wait(50)
        assert panel.next_view.cache_box.isVisible()
        assert where() == before, step


@pytest.mark.slow
def test_lesson_10s_real_head_opens_beside_the_lesson_text(qtbot, window, monkeypatch, smollm2_shaped_path):
    """Exercise 3 of lesson 10 asks about the head the lab's button opens: the lesson's text and its exercises
    stay in the Lesson panel, in front, while the head comes onto the canvas."""
    from attn_desktop.model.pretrained.head_kinds import CLEAR_PREVIOUS_TOKEN_HEAD

    monkeypatch.setattr(pack, "find_pack_model", lambda: smollm2_shaped_path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    window.lessons.open("positions")
    wait_until_arranged(qtbot, window)
    lab = window.positions_lab
    button = next(button for button in lab.chooser.buttons if button.text() == "Real head")
    click_at(window, in_window(window, button, button.rect().center()))
    qtbot.waitUntil(lambda: lab.real_head_page.open_button.isVisible())
    open_button = lab.real_head_page.open_button
    click_at(window, in_window(window, open_button, open_button.rect().center()))
    layer, head = CLEAR_PREVIOUS_TOKEN_HEAD
    qtbot.waitUntil(lambda: f"Layer {layer}, head {head} of" in window.windowTitle(), timeout=10_000)
    qtbot.wait(50)
    lesson_dock = window.docks[DockId.LESSON]
    assert window.lesson_panel.lesson is not None and window.lesson_panel.lesson.id == "positions"
    assert lesson_dock.isVisible() and not lesson_dock.visibleRegion().isEmpty()
    assert window.docks[DockId.POSITIONS_LAB].isVisible()


def _arrangement(window) -> dict:
    """Each shown panel's place and size in the window."""
    return {name: dock.geometry() for name, dock in window.docks.items() if dock.isVisible()}


def _differences(start: dict, now: dict, slack: int = 4) -> list:
    """The panels shown in one arrangement and not the other, or placed or sized otherwise (beyond SLACK px).
    Left open (see the commit): the restarted bottom row is up to one line of the output taller, so the
    Output panel's top and height get one line more."""
    if set(start) != set(now):
        return [("panels", sorted(set(start) ^ set(now)))]
    line = 16
    return [(name, start[name], now[name]) for name in start
            if any(abs(a - b) > (line if name == DockId.OUTPUT and index in (1, 3) else slack)
                   for index, (a, b) in enumerate(zip(start[name].getRect(), now[name].getRect())))]


def _restart(qtbot, window, monkeypatch):
    """The window closed (its state saved) and the app started again, as it starts: the last lesson reopened,
    then the state kept for this screen (1024 × 768: the offscreen screen's 800 × 600 would shrink the
    restored window, a real projector's does not)."""
    from PySide6.QtWidgets import QMainWindow

    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import show_as_started, start_window

    def restore_on_a_1024_screen(self, geometry):
        restored = QMainWindow.restoreGeometry(self, geometry)
        self.resize(1024, 768)
        return restored

    monkeypatch.setattr(MainWindow, "restoreGeometry", restore_on_a_1024_screen)

    window.save_window_state()
    window.hide()
    again = start_window(None, None)
    qtbot.addWidget(again)
    show_as_started(again)
    qtbot.waitExposed(again)
    wait_until_arranged(qtbot, again)
    qtbot.wait(200)
    return again


@pytest.mark.slow
def test_a_restart_after_the_real_model_gives_back_lesson_10_as_it_opened(qtbot, window, monkeypatch,
                                                                           smollm2_shaped_path):
    monkeypatch.setattr(pack, "find_pack_model", lambda: smollm2_shaped_path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    window.lessons.open("positions")
    wait_until_arranged(qtbot, window)
    opened = _arrangement(window)
    assert DockId.POSITIONS_LAB in opened
    panel = loaded_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    _open_by_pointer(qtbot, window, panel, 4, 1)
    wait_until_arranged(qtbot, window)
    again = _restart(qtbot, window, monkeypatch)
    assert again.lessons.current == "positions"
    assert _differences(opened, _arrangement(again)) == []
    third = _restart(qtbot, again, monkeypatch)  # and a later restart: the same again, no column grown
    assert _differences(opened, _arrangement(third)) == []
    for restarted in (again, third):
        restarted.history.reset()


@pytest.mark.slow
def test_presenting_the_real_models_grid_keeps_it_readable(qtbot, window, heads_at_1024, monkeypatch):
    """F11 on a 1024 × 768 projector with a head opened from the grid: large type, and the grid still 24 px."""
    panel = heads_at_1024
    _open_by_pointer(qtbot, window, panel, 4, 1)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=True)
    wait_until_arranged(qtbot, window)
    grid, scroll = panel.grid, panel.grid_scroll
    assert window.docks[DockId.MODEL_HEADS].isVisible()
    assert grid.cell_size() - GAP >= READABLE_PX, (grid.cell_size(), window.docks[DockId.MODEL_HEADS].width())
    assert grid.width() <= scroll.viewport().width()
    assert window.canvas.width() >= 0.25 * window.width()
    window.presentation_action.setChecked(False)


def test_focus_back_from_a_menu_or_the_window_scrolls_nothing_while_tab_brings_the_current_head_into_view(qtbot):
    """A closed menu or a raised window gives the grid its focus back: nothing scrolls (the teacher's next click
    would miss). Tab, the keyboard arriving, scrolls its head into view."""
    import numpy as np
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    from attn_desktop.ui.pretrained.all_heads_page import AllHeadsPage

    holder = QWidget()
    qtbot.addWidget(holder)
    before = QLineEdit()
    page = AllHeadsPage()
    column = QVBoxLayout(holder)
    column.addWidget(before)
    column.addWidget(page)
    holder.resize(360, 400)
    holder.show()
    qtbot.waitExposed(holder)
    page.grid.set_attention(np.random.default_rng(0).random((LAYERS, HEADS, 4, 4)))
    page.grid.set_current(LAYERS - 1, 0)  # far down: out of sight
    bar = page.grid_scroll.verticalScrollBar()
    for reason in (Qt.FocusReason.PopupFocusReason, Qt.FocusReason.ActiveWindowFocusReason,
                   Qt.FocusReason.MouseFocusReason):
        before.setFocus()
        page.grid.setFocus(reason)
        qtbot.wait(5)
        assert bar.value() == 0, reason
    before.setFocus()
    page.grid.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.wait(5)
    assert bar.value() > 0


@pytest.mark.slow
def test_presenting_the_model_heads_panel_keeps_presentations_width(qtbot, window, monkeypatch, smollm2_shaped_path):
    """F11 on a 1024 × 768 projector, then Lessons → Heads of a Real Model…: the panel as wide as presentation's
    design makes it, and still that wide once a head is opened, the grid clicked and the menu chosen again
    (the menu had widened it to the everyday window's share, and opening a head narrowed it again)."""
    monkeypatch.setattr(pack, "find_pack_model", lambda: smollm2_shaped_path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=True)
    wait_until_arranged(qtbot, window)
    panel = loaded_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    dock = window.docks[DockId.MODEL_HEADS]
    widths = {"heads": dock.width()}
    _open_by_pointer(qtbot, window, panel, 23, 4)
    wait_until_arranged(qtbot, window)
    widths["opened"] = dock.width()
    _open_by_pointer(qtbot, window, panel, 23, 4)  # a click on the opened head
    wait_until_arranged(qtbot, window)
    widths["clicked"] = dock.width()
    window.menu_actions["model_heads_action"].trigger()
    wait_until_arranged(qtbot, window)
    widths["menu again"] = dock.width()
    assert max(widths.values()) - min(widths.values()) <= 4, widths
    assert panel.grid.cell_size() - GAP >= READABLE_PX, (panel.grid.cell_size(), widths)
    window.presentation_action.setChecked(False)


@pytest.mark.parametrize("width", [210, 290])
def test_scrolled_to_the_last_layer_knocking_out_and_restoring_moves_no_thumbnail(qtbot, width):
    """At the grid's end, the line naming the heads off appears, grows to two lines with the run's effect and
    hides again: the last layer's thumbnails stay under the pointer (a frame that grew as the line hid scrolled
    back, and a Ctrl+click aimed at layer 29 knocked out layer 28)."""
    import numpy as np

    from attn_desktop.ui.pretrained.all_heads_page import AllHeadsPage

    page = AllHeadsPage()
    qtbot.addWidget(page)
    page.resize(width, 500)
    page.show()
    qtbot.waitExposed(page)
    grid = page.grid
    grid.set_attention(np.random.default_rng(0).random((LAYERS, HEADS, 6, 6)))
    grid.set_kv_group_size(3)
    qtbot.wait(20)
    scroll = page.grid_scroll
    bar = scroll.verticalScrollBar()
    page.show_knocked_out(frozenset({(29, 4)}), "'cat' moved most.")  # the line there as the teacher scrolls down
    qtbot.wait(20)
    bar.setValue(bar.maximum())
    qtbot.wait(20)

    def last_layer_on_screen() -> QPoint:
        return grid.mapTo(page, grid.cell_rect(LAYERS - 1, 4).center())

    where = last_layer_on_screen()
    for knocked, effect in [({(29, 4)}, ""), ({(29, 4)}, "'␣mat' moved most: 34 % → 41 %, and '␣the' fell."),
                            (set(), ""), ({(29, 4), (28, 1)}, "'cat' moved most."), (set(), "")]:
        page.show_knocked_out(frozenset(knocked), effect)
        qtbot.wait(20)
        assert last_layer_on_screen() == where, (knocked, effect, bar.value(), bar.maximum())
        assert page.knock_label.isVisible() == bool(knocked)
