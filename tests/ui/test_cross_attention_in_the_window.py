"""A cross-attention scene in the window (issue 46, part 1): File → New Cross-Attention Scene opens "el gato negro
duerme" read while writing "the black cat sleeps"; the target's word vectors y share the word vectors' plot, move with
the mouse and the arrow keys, and every panel shows target rows by source columns with the numbers NumPy gives."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAccessible

from attn_desktop.model import Role, explain
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.palette import ROLE_COLORS

from tests.support.in_the_window import drag_arrow, matrix_cells, table_column

SOURCE = ["el", "gato", "negro", "duerme"]
TARGET = ["the", "black", "cat", "sleeps"]


def numpy_weights(scene) -> np.ndarray:
    """The weights as a student would compute them with NumPy from the scene's own numbers: queries from the
    target's y, keys from the source's x."""
    grids = scene.layers[0].heads[0].grids
    q = scene.vectors(Role.TARGET) @ grids["w_q"]
    k = scene.vectors(Role.EMBEDDING) @ grids["w_k"]
    scores = q @ k.T / np.sqrt(k.shape[1])
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def reddish_pixels(canvas, colour) -> list[tuple[int, int]]:
    """The canvas's pixels within a small distance of COLOUR, as (x, y)."""
    image = canvas.viewport().grab().toImage()
    wanted = np.array(colour.getRgb()[:3])
    return [(x, y) for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
            if np.abs(np.array(image.pixelColor(x, y).getRgb()[:3]) - wanted).max() <= 12]


@pytest.fixture
def cross_window(window, qtbot):
    window.menu_actions["new_cross_action"].trigger()
    qtbot.wait(50)
    return window


def test_the_new_cross_attention_scene_reads_spanish_while_writing_english(cross_window):
    scene = cross_window.scene
    assert (scene.tokens, scene.query_tokens) == (SOURCE, TARGET)
    weights = numpy_weights(scene)
    # The alignment crosses: black reads negro (the third word), cat reads gato (the second).
    assert [SOURCE[column] for column in weights.argmax(axis=1)] == ["el", "negro", "gato", "duerme"]
    assert matrix_cells(cross_window) == [[explain.number(w) for w in row] for row in weights]
    assert cross_window.windowTitle().startswith("el gato negro duerme")


def test_the_target_words_share_the_word_vectors_plot_in_their_own_colour(cross_window):
    canvas = cross_window.canvas
    targets = canvas.arrows[Role.TARGET]
    assert [arrow.label for arrow in targets] == [f"y·{word}" for word in TARGET]
    assert [arrow.label for arrow in canvas.arrows[Role.EMBEDDING]] == [f"x·{word}" for word in SOURCE]
    assert [arrow.label.split()[0] for arrow in canvas.arrows[Role.KEY]] == [f"k·{word}" for word in SOURCE]  # "k·el 1%"
    assert canvas.arrows[Role.QUERY][cross_window.reading().selected].label == "q·black"  # the chosen query
    # x and y in one plot, as the same grids read both: three plots, as every projection scene has.
    y_plot = canvas.plots.plot_for(Role.TARGET)
    assert y_plot is canvas.x_plot and len(canvas.plots.shown_plots()) == 3
    assert y_plot.titleLabel.text == "Word vectors x and y"
    assert len({ROLE_COLORS[role].name() for role in Role}) == len(Role)
    # The y arrows are painted in the target's own colour, inside their plot (measured on the painted pixels).
    painted = reddish_pixels(canvas, ROLE_COLORS[Role.TARGET])
    plot_area = canvas.mapFromScene(y_plot.sceneBoundingRect()).boundingRect()
    assert len(painted) > 100 and all(plot_area.contains(x, y) for x, y in painted)
    np.testing.assert_allclose([arrow.tip.toTuple() for arrow in targets], cross_window.scene.vectors(Role.TARGET))


def test_dragging_y_black_moves_its_query_and_every_panel_follows_numpy(cross_window):
    window = cross_window
    window.reading().select_query(1)  # black
    before = window.scene.vectors(Role.TARGET)[1].copy()
    drag_arrow(window, Role.TARGET, 1, QPointF(40, -70))
    after = window.scene.vectors(Role.TARGET)[1]
    assert after[0] > before[0] + 0.2 and after[1] > before[1] + 0.4  # right and up, as dragged
    np.testing.assert_allclose(window.reading().vectors(Role.QUERY)[1], after)  # W_Q is the identity here
    weights = numpy_weights(window.scene)
    assert matrix_cells(window) == [[explain.number(w) for w in row] for row in weights]
    assert table_column(window, 3) == [explain.percent(w) for w in weights[1]]
    np.testing.assert_allclose(window.canvas.arrows[Role.TARGET][1].tip.toTuple(), after)
    window.undo_action.trigger()  # one drag, one step
    np.testing.assert_array_equal(window.scene.vectors(Role.TARGET)[1], before)


def test_the_arrow_keys_step_a_target_word_and_the_screen_reader_names_it(qtbot, cross_window):
    window = cross_window
    canvas = window.canvas
    canvas.setFocus()
    canvas.drags.focus_arrow((Role.TARGET, 2))
    start = window.scene.vectors(Role.TARGET)[2].copy()
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    np.testing.assert_allclose(window.scene.vectors(Role.TARGET)[2], start + [0.1, 0.0])
    assert matrix_cells(window) == [[explain.number(w) for w in row] for row in numpy_weights(window.scene)]
    interface = QAccessible.queryAccessibleInterface(canvas)
    children = [interface.child(index) for index in range(interface.childCount())]
    named = {child.text(QAccessible.Text.Name): child.text(QAccessible.Text.Description) for child in children}
    assert named["y·cat"].startswith("target word vector of 'cat', x 0.20, y 1.90")
    assert named["k·gato"].startswith("key of 'gato'") and named["q·cat"].startswith("query of 'cat'")


def test_tab_walks_the_target_words_too(qtbot, cross_window):
    canvas = cross_window.canvas
    walked = [arrow for arrow in canvas.drags.draggable_arrows()]
    assert [(Role.TARGET, index) for index in range(4)] == [arrow for arrow in walked if arrow[0] is Role.TARGET]


def test_the_causal_switch_is_off_and_says_why(cross_window):
    action = cross_window.causal_action
    assert not action.isEnabled()
    assert "another sentence" in action.toolTip()
    cross_window.menu_actions["new_action"].trigger()  # back to self-attention: the switch works again
    assert cross_window.causal_action.isEnabled()


def test_the_code_panel_script_reproduces_the_window_after_a_drag(qtbot, cross_window):
    from tests.test_codegen import run

    window = cross_window
    window.docks[DockId.CODE].show()
    window.docks[DockId.CODE].raise_()
    window.code_panel.set_on_screen(True)
    window.reading().select_query(2)  # cat
    drag_arrow(window, Role.TARGET, 2, QPointF(-50, 30))
    namespace, printed = run(window.code_panel.editor.toPlainText())
    np.testing.assert_array_equal(namespace["weights"], window.reading().result.weights)
    shown = [row for row in matrix_cells(window)]
    assert shown == [[explain.number(w) for w in row] for row in namespace["weights"]]
    assert printed[0] == "cat attends to: " + ", ".join(
        f"{token} {weight:.0%}" for token, weight in zip(SOURCE, namespace["weights"][2]))


def test_the_pytorch_button_agrees_on_target_and_source_of_other_lengths(qtbot, cross_window):
    pytest.importorskip("torch")
    window = cross_window
    window.scene.add_token("profundamente")  # five source words read by four target words
    assert window.reading().result.weights.shape == (4, 5)
    window.docks[DockId.CODE].show()
    qtbot.mouseClick(window.code_panel.torch_button, Qt.MouseButton.LeftButton)
    assert window.code_panel.torch_result.text().startswith("PyTorch agrees")


def test_the_shapes_panel_says_where_q_and_where_k_and_v_come_from(cross_window):
    window = cross_window
    window.scene.add_token("profundamente")
    text = window.shapes_panel.text()
    assert text.startswith("Q is 4 × 2, K is 5 × 2, V is 5 × 2. QKᵀ is 4 × 5, one row per query.")
    assert text.endswith("Q is made from the target's 4 words y, K and V from the source's 5 words x.")


def test_the_description_names_both_sentences_and_whose_arrows_are_whose(qtbot, cross_window):
    window = cross_window
    window.docks[DockId.DESCRIPTION].toggleViewAction().trigger()  # as View → Description does
    qtbot.wait(50)
    screen = window.description_panel.part_labels[0].text()
    assert ("two sentences: 4 source words (el, gato, negro, duerme), each with a word vector x, a key and a value "
            "arrow, and 4 target words (the, black, cat, sleeps), each with a word vector y and a query arrow") in screen
    assert "The chosen query is q·black. Its heaviest key is k·negro" in window.description_panel.part_labels[2].text()


def test_the_matrix_has_target_rows_and_source_columns_and_the_table_the_source_keys(cross_window):
    window = cross_window
    interface = QAccessible.queryAccessibleInterface(window.matrix_view)
    children = [interface.child(index) for index in range(interface.childCount())]
    columns = [child.text(QAccessible.Text.Name) for child in children if child.role() == QAccessible.Role.ColumnHeader]
    rows = [child.text(QAccessible.Text.Name) for child in children if child.role() == QAccessible.Role.RowHeader]
    assert (rows, columns) == (TARGET, SOURCE)
    cells = [child.text(QAccessible.Text.Name) for child in children if child.role() == QAccessible.Role.Cell]
    assert cells[4 + 2] == f"black → negro: {explain.number(numpy_weights(window.scene)[1, 2])}"
    model = window.score_panel.model
    assert [model.headerData(row, Qt.Orientation.Vertical) for row in range(model.rowCount())] == SOURCE
    assert window.output_panel.query_label.text() == "black"


def test_a_target_word_is_renamed_in_the_sentence_panel_and_undone(qtbot, cross_window):
    from PySide6.QtWidgets import QLineEdit

    window = cross_window
    window.docks[DockId.SENTENCE].raise_()
    qtbot.wait(20)
    panel = window.sentence_panel
    targets = panel.target_list
    assert targets.isVisible() and targets.accessibleName() == "Target words"
    assert [targets.item(row).text() for row in range(targets.count())] == TARGET
    item = targets.item(1)
    qtbot.mouseClick(targets.viewport(), Qt.MouseButton.LeftButton, pos=targets.visualItemRect(item).center())
    qtbot.keyClick(targets, Qt.Key.Key_F2)
    editor = targets.findChild(QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "dark")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.scene.query_tokens[1] == "dark")
    assert window.scene.tokens == SOURCE  # the source is left alone
    assert [arrow.label for arrow in window.canvas.arrows[Role.TARGET]][1] == "y·dark"
    assert window.output_panel.query_label.text() == "dark"
    window.undo_action.trigger()
    assert window.scene.query_tokens == TARGET
    assert targets.item(1).text() == "black"
    window.menu_actions["new_action"].trigger()  # a scene without a target sentence has no list of target words
    assert not panel.target_list.isVisible()
