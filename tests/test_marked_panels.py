"""The panels and the canvas speak the student's language: their texts come from the catalog (the
pseudo-language en_XA shows every catalog text as "⟦Åççéñţéd···⟧") and their numbers are written as the
language writes them (Spanish: 0,54 and (2,20; 1,00)); a number typed with a decimal comma is taken.
Each panel is built alone on a scene, not in the main window."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from attn_desktop.model import Role, read
from attn_desktop.model.scene_files import open_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.canvas.coordinate_dialog import CoordinateDialog
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.language.app_language import add_app_fonts
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.panels.output_panel import OutputPanel
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.score_table_model import SCORE, TOKEN, WEIGHT

PSEUDO = re.compile(r"^⟦.*·⟧$", re.DOTALL)
SPANISH_DECIMAL = re.compile(r"^−?-?\d+,\d\d$")


def shown(qtbot, widget, width=520, height=420):
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def headers(panel: ScoreTablePanel) -> list[str]:
    model = panel.model
    return [str(model.headerData(column, Qt.Orientation.Horizontal)) for column in range(model.columnCount())]


@pytest.fixture
def cat_scene():
    return open_scene(scene_path(DEFAULT_SCENE))


class DrawnAsTheyAre:
    """The canvas as far as the coordinate dialog asks: two numbers drawn, no PCA plane."""

    dims = (0, 1)

    def set_dims(self, first: int, second: int) -> None:
        self.dims = (first, second)

    def plane_for(self, role):
        return None


def test_the_score_tables_headers_come_from_the_catalog(qtbot, cat_scene, speaking):
    speaking("en_XA")
    panel = shown(qtbot, ScoreTablePanel(cat_scene))
    key, product, _divisor, weight = headers(panel)
    assert PSEUDO.match(key) and PSEUDO.match(weight), headers(panel)
    assert product == "q · k"  # a formula, not words: the same in every language
    assert PSEUDO.match(panel.model.horizontalHeaderItem(TOKEN).toolTip())


def test_a_plot_title_comes_from_the_catalog(qtbot, cat_scene, speaking):
    speaking("en_XA")
    canvas = shown(qtbot, AttentionCanvas(cat_scene), 1100, 500)
    qtbot.wait(30)
    title = canvas.qk_plot.titleLabel.toolTip() or canvas.qk_plot.titleLabel.text
    assert PSEUDO.match(title), title


def test_the_coordinate_dialog_asks_and_refuses_in_the_language(qtbot, cat_scene, speaking, monkeypatch):
    speaking("en_XA")
    parent = QWidget()
    qtbot.addWidget(parent)
    asked, errors = [], []
    answers = [("1 2 3", True), ("1 2 3", True)]  # three numbers for a vector of two, twice: refused, said why

    def get_text(parent, title, label, *args, **kwargs):
        asked.append((title, label))
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    reading = read(cat_scene)
    dialog = CoordinateDialog(parent, reading, EditHistory(cat_scene, reading.view), DrawnAsTheyAre(),
                              lambda *error: errors.append(error), lambda text, ms: None)
    dialog.type_coordinates(Role.KEY, 1)
    title, prompt = asked[0]
    assert PSEUDO.match(title) and PSEUDO.match(prompt) and "k·cat" in prompt
    (error_title, problem), = errors
    assert PSEUDO.match(error_title) and PSEUDO.match(problem) and "k·cat" in problem


def test_spanish_scores_and_output_have_a_decimal_comma(qtbot, cat_scene, speaking):
    speaking("es")
    table = shown(qtbot, ScoreTablePanel(cat_scene))
    scores = [table.model.item(row, SCORE).text() for row in range(table.model.rowCount())]
    assert scores and all(SPANISH_DECIMAL.match(score) for score in scores), scores
    assert all(table.model.item(row, WEIGHT).text().endswith("%") for row in range(table.model.rowCount()))
    output = shown(qtbot, OutputPanel(cat_scene))
    assert re.fullmatch(r"\(-?\d+,\d\d; -?\d+,\d\d\)", output.vector_label.text()), output.vector_label.text()
    assert "; " in output.formula_label.text() and "." not in output.formula_label.text()


def test_an_arrows_tooltip_writes_its_vector_the_spanish_way(qtbot, cat_scene, speaking):
    speaking("es")
    canvas = shown(qtbot, AttentionCanvas(cat_scene), 1100, 500)
    assert canvas.drags.describe(Role.KEY, 1) == "k·cat = (2,20; 1,00)"
    assert canvas.qk_plot.getAxis("left").tickStrings([0.5, 1.0], 1, 0.5) == ["0,5", "1,0"]  # the axes' numbers too


def test_the_grid_editor_takes_a_number_typed_with_a_decimal_comma(qtbot, speaking):
    speaking("es")
    scene = open_scene(scene_path("lessons/2_projections.json"))
    reading = read(scene)
    grids = shown(qtbot, GridEditor(reading, EditHistory(scene, reading.view)))
    table = grids.tables["w_q"]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    qtbot.keyClick(table, Qt.Key.Key_1)
    editor = table.findChild(QLineEdit)
    qtbot.keyClicks(editor, ",5")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: read(scene).grids["w_q"][0, 0] == 1.5)
    assert table.item(0, 0).text() == "1,5"  # shown back the Spanish way


def test_a_chinese_score_table_shows_every_key_in_the_room_it_asks_for(qtbot, cat_scene, speaking):
    speaking("zh_CN")  # a one-letter header ("键") and one-letter keys: the narrowest columns
    while cat_scene.n_tokens > 3:
        cat_scene.remove_token(cat_scene.n_tokens - 1)
    for index, name in enumerate(("猫", "它", "坐")):
        cat_scene.rename_token(index, name)
    panel = ScoreTablePanel(cat_scene)
    panel.setFont(with_the_app_fonts(panel.font()))
    panel = shown(qtbot, panel, *panel.minimumSizeHint().toTuple())
    qtbot.wait(10)
    assert not panel.table.horizontalScrollBar().isVisible()
    assert panel.visible_row_count() == 3 and not panel.more_rows_note.isVisible()


def test_arabic_output_texts_have_the_height_their_letters_need(qtbot, cat_scene, speaking):
    speaking("ar")  # Arabic letters come from a fallback font whose lines are taller than the app font's
    panel = OutputPanel(cat_scene)
    panel.setFont(with_the_app_fonts(panel.font()))
    panel = shown(qtbot, panel, width=360, height=300)
    qtbot.wait(10)
    for index, name in enumerate(("قط", "هو", "جلس", "على", "ال", "حصيرة")):  # the Latin names laid out first
        cat_scene.rename_token(index, name)
    qtbot.wait(10)
    for label in (panel.query_label, panel.attends_label, panel.vector_label, panel.formula_label):
        needed = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
        assert needed <= label.height(), label.text()


def with_the_app_fonts(font: QFont) -> QFont:
    """FONT, once the fonts the app carries for Chinese and Arabic are there for Qt's fallback, as in the app."""
    add_app_fonts()
    return QFont(font)
