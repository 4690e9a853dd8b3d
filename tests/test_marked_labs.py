"""The labs' and the Training panel's texts go through the catalog, and their numbers are written as the
language writes them.

Under the pseudo-language en_XA every catalog text reads "⟦Åççéñţéd···⟧": a text a student reads in plain
English there never went through the catalog. Spanish has no translations yet, but its decimal comma.
Each panel is built alone, as the window builds it, not the whole window.
"""

from __future__ import annotations

import pytest

from attn_desktop.model.teaching.scaling_lab import D_K_MIN
from attn_desktop.model.training.tasks import TASKS, parse_example
from attn_desktop.model.training.training import StepMetrics
from attn_desktop.ui.positions_lab.page_chooser import PageChooser
from attn_desktop.ui.positions_lab.positions_lab_panel import PAGE_TITLES
from attn_desktop.ui.positions_lab.real_head_page import RealHeadPage
from attn_desktop.ui.scaling_lab.scaling_lab_panel import ScalingLabPanel
from attn_desktop.ui.training.training_panel import TrainingPanel
from attn_desktop.ui.training.training_texts import status_text
from attn_desktop.ui.window.startup.app import configure_pyqtgraph


def pseudo(text: str) -> bool:
    return text.startswith("⟦") and text.endswith("⟧")


def shown_scaling_lab(qtbot) -> ScalingLabPanel:
    configure_pyqtgraph()
    lab = ScalingLabPanel()
    qtbot.addWidget(lab)
    lab.resize(320, 600)
    lab.show()  # the plots are made the first time the lab is seen
    qtbot.waitExposed(lab)
    return lab


def shown_training_panel(qtbot) -> TrainingPanel:
    configure_pyqtgraph()
    panel = TrainingPanel()
    qtbot.addWidget(panel)  # closed at the end of the test, which stops its thread
    panel.resize(300, 740)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.current_params is not None, timeout=3000)
    return panel


def test_the_scaling_labs_reading_tooltip_and_axes_are_from_the_catalog(qtbot, speaking):
    speaking("en_XA")
    lab = shown_scaling_lab(qtbot)
    assert pseudo(lab.reading_label.text()) and "<b>d_k = 2</b>" in lab.reading_label.text()
    assert pseudo(lab.reading_label.toolTip())
    assert pseudo(lab.slider.accessibleName()) and pseudo(lab.slider.toolTip())
    assert lab.spread_plot is not None
    assert pseudo(lab.spread_plot.getPlotItem().getAxis("left").labelText)


def test_the_scaling_lab_rewords_itself_when_the_language_changes(qtbot, speaking):
    lab = shown_scaling_lab(qtbot)
    assert lab.reading_label.text().startswith("<b>d_k = 2</b>: the scores")
    speaking("en_XA")
    assert pseudo(lab.reading_label.text())
    assert lab.entropy_plot is not None and pseudo(lab.entropy_plot.getPlotItem().getAxis("left").labelText)


def test_the_scaling_lab_writes_its_figures_with_a_decimal_comma_in_spanish(qtbot, speaking):
    speaking("es")
    lab = shown_scaling_lab(qtbot)
    assert lab.d_k == D_K_MIN == 2
    assert "(√2&nbsp;=&nbsp;1,41)" in lab.reading_label.text()  # √2 = 1.41 in English


def test_the_positions_labs_page_names_and_the_real_head_page_are_from_the_catalog(qtbot, speaking):
    speaking("en_XA")
    chooser = PageChooser(PAGE_TITLES)
    qtbot.addWidget(chooser)
    assert [button.text() for button in chooser.buttons][3].startswith("⟦Réål héåd")
    assert all(pseudo(button.text()) for button in chooser.buttons)
    page = RealHeadPage()
    qtbot.addWidget(page)
    assert pseudo(page.rope_box.text()) and pseudo(page.intro.text()) and pseudo(page.open_button.text())


def test_the_training_panels_tasks_and_status_are_from_the_catalog(qtbot, speaking):
    speaking("en_XA")
    panel = shown_training_panel(qtbot)
    task_names = [panel.task_box.itemText(i) for i in range(panel.task_box.count())]
    assert len(task_names) == 5 and all(pseudo(name) for name in task_names)
    assert pseudo(panel.task_description.text())
    assert pseudo(panel.train_button.text()) and pseudo(panel.pace_box.currentText())
    first_line, second_line = panel.status_label.text().split("\n")
    assert pseudo(first_line) and pseudo(second_line)  # "Step 0", "Paused: press Train or Step"
    panel.choose_task("translate")  # its own view's words, and its curve's
    view = panel.translation
    assert pseudo(panel.task_description.text()) and pseudo(panel.curves.accuracy_plot.getAxis("left").labelText)
    assert all(pseudo(box.text()) for box in view.knock_out_boxes.values())
    assert pseudo(view.sentence_list_label.text()) and pseudo(view.sentence_box.placeholderText())


def test_the_training_panels_status_follows_a_change_of_language(qtbot, speaking):
    panel = shown_training_panel(qtbot)
    assert panel.status_label.text() == "Step 0\nPaused: press Train or Step"
    assert panel.task_box.currentText() == "Reverse"
    speaking("en_XA")
    assert all(pseudo(line) for line in panel.status_label.text().split("\n"))
    assert pseudo(panel.task_box.currentText()) and pseudo(panel.example_box.toolTip())


def test_a_typed_example_with_one_unknown_word_says_so_in_the_singular(speaking):
    speaking("en_XA")
    with pytest.raises(ValueError) as one:
        parse_example(TASKS["reverse"], "3 1 4 1 x")
    assert pseudo(str(one.value)) and " îš " in str(one.value) and " åré " not in str(one.value)
    with pytest.raises(ValueError) as two:
        parse_example(TASKS["reverse"], "3 1 4 y x")
    assert " åré " in str(two.value)


def test_the_training_status_writes_loss_and_accuracy_with_a_decimal_comma_in_spanish(speaking):
    last = StepMetrics(step=120, loss=0.345, accuracy=0.88)
    assert status_text(120, last, False, 0.885) == (
        "Step 120 · loss 0.34 · accuracy 88 %\nPaused · 88.5 % right on 1,000 new examples")
    speaking("es")
    assert status_text(120, last, False, 0.885) == (
        "Paso 120 · pérdida 0,34 · precisión 88 %\nEn pausa · 88,5 % de aciertos en 1\u202f000 ejemplos nuevos")
