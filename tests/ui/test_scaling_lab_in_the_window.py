"""Lesson 6 and its √d_k lab in the window, driven by keys and clicks as a student would."""

import contextlib
import io

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QTabBar

from attn_desktop.model import explain
from attn_desktop.model.teaching import scaling_lab
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.layout_audit import _labels_cut
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import matrix_cells, on_a_1024_by_768_screen, wait_until_arranged


def open_lab_lesson(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.docks[DockId.SCALING_LAB].isVisible())
    qtbot.wait(20)


def bring_tab_forward(qtbot, window, title):
    if title == "√d_k lab":  # under the lesson's text, not a tab: in view already
        qtbot.waitUntil(lambda: not window.scaling_lab.visibleRegion().isEmpty())
        return
    bar = next(bar for bar in window.findChildren(QTabBar) if title in [bar.tabText(i) for i in range(bar.count())])
    index = next(i for i in range(bar.count()) if bar.tabText(i) == title)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: not window.scaling_lab.visibleRegion().isEmpty() if title == "√d_k lab" else True)


def type_width(qtbot, lab, d_k):
    box = lab.width_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, str(d_k))
    qtbot.keyClick(box, Qt.Key.Key_Return)


def test_the_lesson_opens_its_text_and_the_lab_beside_it(qtbot, window):
    open_lab_lesson(qtbot, window)
    assert window.lesson_panel.picker.currentText() == "6. Why divide by √d_k"
    assert window.docks[DockId.LESSON].isVisible() and not window.lesson_panel.visibleRegion().isEmpty()
    assert len(window.lesson_panel.exercise_widgets) == 3
    bring_tab_forward(qtbot, window, "√d_k lab")
    lab = window.scaling_lab
    shown = scaling_lab.reading(2)
    assert lab.d_k == 2 and f"<b>{explain.number(shown.raw_spread)}</b>" in lab.reading_label.text()


def test_typing_a_width_reads_the_spread_and_answers_the_exercise(qtbot, window, private_data_dir):
    open_lab_lesson(qtbot, window)
    bring_tab_forward(qtbot, window, "√d_k lab")
    lab = window.scaling_lab
    type_width(qtbot, lab, 64)
    shown = scaling_lab.reading(64)
    text = lab.reading_label.text()
    assert lab.d_k == 64 and lab.slider.value() == 64 and "<b>d_k = 64</b>" in text
    assert f"<b>{explain.number(shown.raw_spread)}</b> (√64&nbsp;=&nbsp;8.00)" in text  # kept on one line
    assert f"<b>{explain.number(shown.scaled_spread)}</b>" in text
    # The marks on both plots sit at the width chosen, on the curves.
    assert lab.spread_plot.raw_dot.getData()[1].tolist() == [shown.raw_spread]
    assert lab.entropy_plot.scaled_dot.getData()[1].tolist() == [shown.scaled_entropy]
    assert lab.spread_plot.marker_line.value() == pytest.approx(1.80618, abs=1e-5)  # log10(64)
    # The student reads the number off the lab and types it into the exercise.
    bring_tab_forward(qtbot, window, "Lesson")
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "dk-spread-64")
    qtbot.keyClicks(widget.answer_edit, "5.7")
    qtbot.keyClick(widget.answer_edit, Qt.Key.Key_Return)
    assert widget.result_label.text().startswith("✗")
    widget.answer_edit.clear()
    qtbot.keyClicks(widget.answer_edit, explain.number(shown.raw_spread))
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓") and "1 of 3 answered" in window.lesson_panel.progress_label.text()


def test_the_slider_moves_with_the_keyboard(qtbot, window):
    open_lab_lesson(qtbot, window)
    bring_tab_forward(qtbot, window, "√d_k lab")
    lab = window.scaling_lab
    lab.slider.setFocus()
    qtbot.keyClick(lab.slider, Qt.Key.Key_End)
    assert lab.d_k == 512 and lab.width_box.value() == 512
    assert f"<b>{explain.number(scaling_lab.reading(512).raw_spread)}</b>" in lab.reading_label.text()
    qtbot.keyClick(lab.slider, Qt.Key.Key_PageDown)
    qtbot.keyClick(lab.slider, Qt.Key.Key_Left)
    assert lab.d_k == 512 - 32 - 1 and "<b>d_k = 479</b>" in lab.reading_label.text()


def test_a_width_out_of_range_cannot_be_typed(qtbot, window):
    open_lab_lesson(qtbot, window)
    bring_tab_forward(qtbot, window, "√d_k lab")
    lab = window.scaling_lab
    type_width(qtbot, lab, 9999)  # the box takes "99" and refuses the digit that would pass 512
    assert lab.d_k == 99 and "<b>d_k = 99</b>" in lab.reading_label.text()
    type_width(qtbot, lab, 0)  # below 2: refused, the width stays
    assert lab.d_k == 99 and lab.width_box.text() == "d_k = 99" and "<b>d_k = 99</b>" in lab.reading_label.text()


def run_script(code):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})  # noqa: S102 - the app's own generated script, as a student would run it
    return printed.getvalue()


def test_the_code_panel_shows_the_labs_script_at_the_width_chosen(qtbot, window):
    open_lab_lesson(qtbot, window)
    bring_tab_forward(qtbot, window, "√d_k lab")
    type_width(qtbot, window.scaling_lab, 256)
    bring_tab_forward(qtbot, window, "Code")
    code = window.code_panel.editor.toPlainText()
    assert "d_k, widest = 256, 512" in code and code.index("import numpy") < code.index("Why divide by sqrt(d_k)")
    printed = run_script(code)  # the scene's script and the lab's, one after the other
    shown = scaling_lab.reading(256)
    assert f"spread of q.k: {shown.raw_spread:.2f}" in printed
    assert f"average entropy: {shown.raw_entropy:.2f} bits" in printed
    window.open_lesson("scaled-attention")  # another lesson: the scene's script alone
    assert "sqrt(d_k): the lab" not in window.code_panel.code() and "widest" not in window.code_panel.code()


def test_row_entropy_in_the_matrix_for_any_scene(qtbot, window):
    view_menu = window.menus[MenuId.VIEW]
    assert window.menu_actions["entropy_action"] in view_menu.actions()
    matrix = window.matrix_view
    width_before = matrix.grid_rect().width()
    window.menu_actions["entropy_action"].trigger()  # View → Row Entropy in the Matrix
    qtbot.wait(20)
    assert matrix.entropy_column.shown and matrix.grid_rect().width() <= width_before
    assert [matrix.entropy_column.text(row) for row in range(6)] == ["1.53", "1.68", "1.05", "1.07", "1.35", "1.74"]
    before = [matrix.entropy_column.text(row) for row in range(6)]
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)  # scaling off: every row sharper
    after = [matrix.entropy_column.text(row) for row in range(6)]
    assert all(float(a) < float(b) for a, b in zip(after, before))
    assert matrix_cells(window)  # the cells keep their numbers beside the column
    # The column is painted: dark text in it, right of the grid and left of the colour bar.
    grid = matrix.grid_rect()
    picture = matrix.grab().toImage()
    column = [picture.pixelColor(x, y).lightness() for x in range(int(grid.right()) + 9, int(grid.right()) + 40)
              for y in range(int(grid.top()), int(grid.bottom()))]
    assert min(column) < 100
    # A tooltip over it explains the number.
    grid = matrix.grid_rect()
    tip = matrix.entropy_column.tip_at(grid.topRight() + QPointF(10, grid.height() / 12), grid, matrix.font())
    assert tip.startswith("Entropy of The's weights: " + after[0] + " bits")


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_the_lab_fits_a_1024_by_768_projector(qtbot, window, monkeypatch, presenting):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    open_lab_lesson(qtbot, window)
    wait_until_arranged(qtbot, window)
    if not presenting:
        bring_tab_forward(qtbot, window, "√d_k lab")
        qtbot.wait(100)
    lab = window.scaling_lab
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    assert not lab.visibleRegion().isEmpty()
    for plot in (lab.spread_plot, lab.entropy_plot):
        assert plot.height() >= 100 and plot.width() >= 200
    assert [cut for cut in _labels_cut(window) if cut.startswith("√d_k")] == []
    assert window.canvas.width() >= 0.25 * window.width()
    window.presentation_action.setChecked(False)
