"""Each panel on its own, with a bare scene and no main window: what it shows, and how it follows the scene.

The scene is changed the way commands change it (set_vector, select_query, set_scale, …), and each
test reads what the panel displays — its labels, the texts it paints, the rows it lists — rather
than what the scene holds. Where a panel takes input, real mouse and key events drive it.
The numbers are the reference demo's ("The cat sat on the mat", tests/support/seed_numbers.py).
"""

import contextlib
import io

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.model.scene_files import load_into, open_reading
from attn_desktop.model.teaching.exercises import apply_steps
from attn_desktop.model.teaching.lessons import lesson
from attn_desktop.model.teaching.progress import ProgressKind, ProgressStore
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.lessons.challenges_panel import ChallengesPanel
from attn_desktop.ui.lessons.lesson_panel import LessonPanel
from attn_desktop.ui.panels.code_panel import COPIED_TEXT, CodePanel
from attn_desktop.ui.panels.matrix_frame import OUTLINE_COLOR
from attn_desktop.ui.panels.matrix_view import MatrixView
from attn_desktop.ui.panels.output_panel import OutputPanel
from attn_desktop.ui.panels.query_picker import QueryPicker
from attn_desktop.ui.panels.shapes_panel import ShapesPanel
from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

from tests.support.seed_numbers import MATRIX, SAT_OUTPUT, SAT_WEIGHTS, SHAPES, TOKENS

THE, CAT, SAT, ON, THE_LOWER, MAT = range(6)
SELECTED_ROW_OUTLINE = OUTLINE_COLOR  # the band round the chosen query's row (white: no cell is white)


@pytest.fixture(autouse=True)
def pyqtgraph_as_in_the_app():
    configure_pyqtgraph()


@pytest.fixture
def reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def scene(reading):
    return reading.scene


@pytest.fixture
def shown(qtbot):
    """Show a panel alone at a size a dock gives it."""

    def show(panel, width=420, height=360):
        qtbot.addWidget(panel)
        panel.resize(width, height)
        panel.show()
        qtbot.waitExposed(panel)
        return panel

    return show


# ----- Output -------------------------------------------------------------------------------

def test_output_panel_shows_the_chosen_querys_output_and_follows_every_change(reading, scene, shown):
    panel = shown(OutputPanel(reading))
    assert (panel.query_label.text(), panel.attends_label.text()) == ("sat", "cat, 76%")
    assert panel.vector_label.text() == SAT_OUTPUT

    reading.select_query(CAT)  # cat's row of the matrix: 0.04, 0.16, 0.58, 0.19, 0.01, 0.01
    assert (panel.query_label.text(), panel.attends_label.text()) == ("cat", "sat, 58%")
    assert panel.vector_label.text() == "(-0.22, 1.22)"
    assert panel.blend_label.text().startswith("= 0.58 × v_sat + 0.19 × v_on + 0.16 × v_cat")

    reading.select_query(SAT)
    scene.set_scale(False)  # softmax of the raw scores is sharper: cat 87%
    assert panel.attends_label.text() == "cat, 87%"
    assert panel.vector_label.text() == "(1.68, 0.59)"

    scene.set_scale(True)
    scene.set_causal(True)  # sat sees The, cat and itself only
    assert panel.attends_label.text() == "cat, 93%"
    assert "3 masked" in panel.blend_label.text()


# ----- Weights chart ------------------------------------------------------------------------

def test_weights_chart_draws_a_bar_and_a_percentage_per_key(reading, scene, shown):
    chart = shown(WeightsChart(reading), 520, 360)
    assert chart.tick_label_texts() == TOKENS
    assert [label.toPlainText() for label in chart.value_labels] == SAT_WEIGHTS
    assert [round(h * 100) for h in chart.shown_heights()] == [0, 76, 6, 1, 0, 17]

    scene.set_vector(Role.KEY, CAT, (0.0, 0.0))  # k·cat to the origin: mat takes the lead
    assert [label.toPlainText() for label in chart.value_labels] == ["1%", "5%", "24%", "2%", "0%", "68%"]
    assert [round(h * 100) for h in chart.shown_heights()] == [1, 5, 24, 2, 0, 68]
    largest = chart.value_labels[MAT]
    assert largest.isVisible()  # the weight a student looks for always keeps its number

    scene.set_causal(True)
    assert [label.toPlainText() for label in chart.value_labels][ON:] == ["masked"] * 3

    scene.rename_token(MAT, "rug")
    assert chart.tick_label_texts() == TOKENS[:MAT] + ["rug"]


# ----- Attention matrix ---------------------------------------------------------------------

def matrix_cells(view, scene):
    return [[view.cell_text(row, column) for column in range(scene.n_tokens)] for row in range(scene.n_queries)]


def outlined_rows(view, scene):
    """The rows with the chosen-query outline painted along their top edge."""
    image = view.grab().toImage()
    ratio = image.devicePixelRatio()
    rows = []
    for row in range(scene.n_queries):
        cell = view.cell_rect(row, scene.n_tokens // 2)
        pixel = image.pixelColor(int(cell.center().x() * ratio), int((cell.top() + 1) * ratio))
        if pixel.rgb() == SELECTED_ROW_OUTLINE.rgb():
            rows.append(row)
    return rows


def test_matrix_shows_every_weight_and_a_click_chooses_a_row(reading, scene, shown, qtbot):
    view = shown(MatrixView(reading))
    assert matrix_cells(view, scene) == MATRIX
    assert view.shown_title() == ["Attention weights, softmax(QKᵀ/√d_k)"]
    assert outlined_rows(view, scene) == [SAT]

    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.cell_rect(CAT, ON).center().toPoint())
    assert reading.selected == CAT and outlined_rows(view, scene) == [CAT]
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert reading.selected == SAT and outlined_rows(view, scene) == [SAT]

    scene.set_scale(False)  # the title is painted from a cached layout: it must be told
    assert view.shown_title() == ["Attention weights, softmax(QKᵀ)"]
    assert matrix_cells(view, scene)[SAT] == ["0.00", "0.87", "0.02", "0.00", "0.00", "0.11"]

    scene.set_causal(True)
    assert matrix_cells(view, scene)[THE] == ["1.00", "—", "—", "—", "—", "—"]


# ----- Shapes -------------------------------------------------------------------------------

def test_shapes_panel_follows_the_number_of_tokens_and_the_scene(reading, scene, shown):
    panel = shown(ShapesPanel(reading))
    assert panel.text().startswith(SHAPES)
    scene.add_token("rug")
    assert panel.text().startswith("Q, K, V are 7 × 2. QKᵀ is 7 × 7, one row per query.")
    load_into(scene, scene_path("lessons/1_soft_lookup.json"), reading.view)  # one query, three keys, values of one number
    assert panel.text().startswith("Q is 1 × 2, K is 3 × 2, V is 3 × 1. QKᵀ is 1 × 3")


# ----- Challenges ---------------------------------------------------------------------------

def test_challenges_panel_says_what_is_missing_for_the_chosen_query(reading, scene, shown, tmp_path):
    panel = shown(ChallengesPanel(reading, ProgressStore(tmp_path / "progress.json")), 420, 520)
    assert panel.summary_label.text() == "0 of 4 complete"
    focus = panel.rows[0].status_label
    assert focus.text() == "q·sat puts 75.9% on k·cat; it needs 95% or more on one key."
    reading.select_query(CAT)
    assert focus.text() == "q·cat puts 58.3% on k·sat; it needs 95% or more on one key."
    reading.select_query(SAT)
    scene.set_vector(Role.KEY, CAT, (6.6, 3.0))  # k·cat three times longer along q·sat
    assert panel.rows[0].tick_label.text() == "✓" and panel.summary_label.text() == "1 of 4 complete"
    assert focus.text().startswith("Done: q·sat puts") and focus.text().endswith("on k·cat.")


# ----- Code ---------------------------------------------------------------------------------

def run_shown_script(panel) -> str:
    """Run the script the panel shows, as a student who pasted it into Python would."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(panel.editor.toPlainText(), "<code panel>", "exec"), {})  # noqa: S102 - running it is the test
    return printed.getvalue()


def test_code_panel_shows_a_script_that_gives_the_panels_numbers(reading, scene, shown, qtbot):
    panel = shown(CodePanel(reading), 640, 480)
    assert "output for sat: [1.54 0.48]" in run_shown_script(panel)

    reading.select_query(CAT)
    assert "output for cat: [-0.22  1.22]" in run_shown_script(panel)
    scene.set_vector(Role.KEY, CAT, (0.0, 0.0))
    shown_lines = panel.editor.toPlainText().splitlines()
    assert "K = np.array([[-1.2, 0.6], [0.0, 0.0], [0.4, 2.2]," in next(line for line in shown_lines if line.startswith("K ="))

    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == panel.editor.toPlainText() + "\n"
    assert panel.copy_button.text() == COPIED_TEXT


# ----- Query picker -------------------------------------------------------------------------

@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the popup, offscreen
def test_query_picker_lists_the_queries_and_choosing_one_selects_it(reading, scene, shown, qtbot):
    picker = shown(QueryPicker(reading), 200, 30)
    assert [picker.itemText(i) for i in range(picker.count())] == TOKENS
    assert picker.currentText() == "sat"

    qtbot.mouseClick(picker, Qt.MouseButton.LeftButton)  # open the list, then click "the"
    popup = picker.view()
    qtbot.waitUntil(popup.isVisible)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a combo box ignores a release this soon after opening
    item = popup.visualRect(picker.model().index(THE_LOWER, 0)).center()
    qtbot.mouseMove(popup.viewport(), item)
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=item)
    assert reading.selected == THE_LOWER and picker.currentText() == "the"
    assert not popup.isVisible()

    qtbot.keyClick(picker, Qt.Key.Key_Up)
    assert reading.selected == ON

    reading.select_query(THE)  # chosen elsewhere (the canvas, the matrix): the picker shows it
    assert picker.currentText() == "The" and reading.selected == THE
    scene.rename_token(CAT, "dog")
    assert picker.itemText(CAT) == "dog" and picker.currentText() == "The"


# ----- Lesson -------------------------------------------------------------------------------

def exercise_widget(panel, exercise_id):
    return next(widget for widget in panel.exercise_widgets if widget.exercise.id == exercise_id)


def test_lesson_panel_shows_a_lesson_and_remembers_a_right_answer(shown, qtbot, tmp_path, reading, scene):
    progress_file = tmp_path / "progress.json"
    panel = shown(LessonPanel(ProgressStore(progress_file)), 420, 700)
    panel.show_lesson("self-attention")
    assert panel.picker.currentText() == "3. Every word looks at every word"
    assert panel.formula_label.text() == lesson("self-attention").formula
    assert [w.exercise.id for w in panel.exercise_widgets] == ["row-for-sat", "matrix-size"]
    assert panel.progress_label.text() == "<b>Exercises</b> — 0 of 2 answered"

    sat = exercise_widget(panel, "row-for-sat")
    qtbot.keyClicks(sat.answer_edit, "82%, 2%, 17%")
    qtbot.keyClick(sat.answer_edit, Qt.Key.Key_Return)
    assert sat.result_label.text().startswith("✓ Right.") and sat.mark_label.text() == "✓"
    assert panel.progress_label.text() == "<b>Exercises</b> — 1 of 2 answered"
    assert ProgressStore(progress_file).done_ids(ProgressKind.EXERCISES) == {"row-for-sat"}

    with qtbot.waitSignal(panel.show_me_requested) as asked:
        qtbot.mouseClick(sat.show_me_button, Qt.MouseButton.LeftButton)
    load_into(scene, scene_path(asked.args[0].scene), reading.view)  # what the lesson controller does with it
    apply_steps(scene, reading.view, asked.args[0].steps)
    assert reading.selected_token == "sat"

    with qtbot.waitSignal(panel.open_lesson_requested) as opened:
        panel.picker.setFocus()
        qtbot.keyClick(panel.picker, Qt.Key.Key_Up)
    assert opened.args == ["projections"]


def test_lesson_panel_for_a_scene_of_ones_own_has_no_lesson_text(shown, tmp_path):
    panel = shown(LessonPanel(ProgressStore(tmp_path / "progress.json")), 420, 500)
    panel.show_lesson("soft-lookup")
    panel.show_lesson(None)
    assert panel.picker.currentIndex() == -1 and panel.formula_label.text() == ""
    assert panel.explanation_label.text().startswith("Your own scene.")
    assert panel.try_it_label.isHidden() and panel.progress_label.text() == ""


# ----- a closed panel lets go of the scene --------------------------------------------------

PANELS_THAT_FOLLOW_THE_SCENE = {
    "output": OutputPanel,
    "weights chart": WeightsChart,
    "matrix": MatrixView,
    "shapes": ShapesPanel,
    "challenges": lambda scene: ChallengesPanel(scene, ProgressStore()),
    "code": CodePanel,
    "query picker": QueryPicker,
}


@pytest.mark.parametrize("make_panel", PANELS_THAT_FOLLOW_THE_SCENE.values(), ids=PANELS_THAT_FOLLOW_THE_SCENE.keys())
def test_a_closed_panel_no_longer_follows_the_scene(reading, scene, qtbot, make_panel):
    followers_before = scene.subscriber_count
    panel = make_panel(scene)  # held here, as a window's attribute would hold it
    panel.resize(420, 360)
    panel.show()
    qtbot.waitExposed(panel)
    assert scene.subscriber_count > followers_before
    panel.close()
    panel.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert scene.subscriber_count == followers_before
    # Every kind of change, after the panel's widgets are gone: nothing may reach it (it would raise).
    scene.set_vector(Role.KEY, CAT, (1.0, 1.0))
    reading.select_query(THE)
    scene.set_scale(False)
    scene.add_token("rug")
