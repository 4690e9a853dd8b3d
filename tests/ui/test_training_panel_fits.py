"""The Training panel at 1024 × 768, normal and presenting, as a class sees it after induction's loss has dropped:
nothing to scroll sideways (the task's text and Reset whole), every tab title of its column whole (not "ode"
for Code), the loss and accuracy curves large enough to read, and the "plateau" mark beside the curve, not
over it."""

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtWidgets import QScrollArea, QTabBar, QToolButton

from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

pytestmark = pytest.mark.slow

CURVE_LEAST_PX = (155, 110)  # a plot's drawing area, width × height: ~140 × 100 could not be read from a desk


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def train_until_the_loss_drops(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    qtbot.waitUntil(lambda: window.docks[DockId.TRAINING].isVisible())
    panel = window.training_panel
    panel.choose_task("induction")
    qtbot.waitUntil(lambda: panel.current_params is not None and panel.steps_taken == 0, timeout=5000)
    panel.pace_box.setCurrentIndex(panel.pace_box.count() - 1)  # as fast as possible
    click(qtbot, panel.train_button)
    qtbot.waitUntil(lambda: panel.drop_marks.drop_step is not None, timeout=90_000)
    click(qtbot, panel.pause_button)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)
    wait_until_arranged(qtbot, window)
    return panel


def scroll_area_of(widget) -> QScrollArea:
    while not isinstance(widget, QScrollArea):
        widget = widget.parentWidget()
    return widget


def outside_sideways(widget, viewport) -> bool:
    box = QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size())
    return box.left() < 0 or box.right() >= viewport.width()


def cut_tab_titles(window) -> list[str]:
    """Titles of the tab bar that holds Training which are not wholly in sight (a bar scrolling its tabs)."""
    bars = [bar for bar in window.findChildren(QTabBar) if bar.isVisible()
            and window.training_panel.parentWidget() is not None
            and window.docks[DockId.TRAINING].windowTitle() in [bar.tabText(index) for index in range(bar.count())]]
    cut = []
    for bar in bars:
        scrolling = any(button.isVisible() for button in bar.findChildren(QToolButton))
        for index in range(bar.count()):
            tab = bar.tabRect(index)
            if scrolling or not bar.rect().contains(tab):
                cut.append(bar.tabText(index))
    return cut


def plot_area(plot) -> QRect:
    return plot.getViewBox().sceneBoundingRect().toRect()


def text_box(label) -> QRectF:
    """Where the label's text is drawn, in the scene's pixels."""
    return label.textItem.mapRectToScene(label.textItem.boundingRect())


def curve_points_under(label, curve) -> int:
    """How many of the curve's drawn points lie inside the label's text (both in the plot's scene)."""
    box = text_box(label)
    view = curve.getViewBox()
    xs, ys = curve.getData()
    return sum(box.contains(view.mapViewToScene(QPointF(x, y))) for x, y in zip(xs, ys))


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
@pytest.mark.parametrize("code", ["en", "es"])
def test_the_training_panel_fits_a_1024_screen_with_curves_to_read(qtbot, window, monkeypatch, presenting, code):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    window.switch_language(code)  # Spanish: the longer words ("Entrenamiento", "meseta")
    panel = train_until_the_loss_drops(qtbot, window)
    scroll = scroll_area_of(panel.curves)  # the one the panel scrolls in
    viewport = scroll.viewport()

    assert scroll.horizontalScrollBar().maximum() == 0, f"{panel.minimumSizeHint().width()} > {viewport.width()}"
    for widget in (panel.task_description, panel.reset_button, panel.keep_button, panel.curves):
        assert not outside_sideways(widget, viewport), widget
    if not presenting:
        assert cut_tab_titles(window) == []

    curves = panel.curves
    for plot in (curves.loss_plot, curves.accuracy_plot):
        area = plot_area(plot)
        assert area.width() >= CURVE_LEAST_PX[0] and area.height() >= CURVE_LEAST_PX[1], area
    marks = panel.drop_marks
    assert marks.plateau.isVisible() and marks.plateau_label.isVisible()
    curves.grab()  # painted as on screen (a text's place among the curves is settled as it is painted)
    view = curves.loss_plot.getViewBox().sceneBoundingRect()
    for label in (marks.plateau_label, marks.drop_label):
        assert curve_points_under(label, curves.loss_curve) == 0, label.format
        assert view.contains(text_box(label)), label.format  # whole: not "eseta" for "meseta"
    assert not text_box(marks.plateau_label).intersects(text_box(marks.drop_label))

    window.presentation_action.setChecked(False)


def train_translate_100_steps(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    qtbot.waitUntil(lambda: window.docks[DockId.TRAINING].isVisible())
    panel = window.training_panel
    panel.choose_task("translate")
    qtbot.waitUntil(lambda: panel.current_params is not None and panel.steps_taken == 0, timeout=5000)
    panel.pace_box.setCurrentIndex(panel.pace_box.count() - 1)  # as fast as possible
    click(qtbot, panel.train_button)
    qtbot.waitUntil(lambda: panel.steps_taken >= 100, timeout=30_000)
    click(qtbot, panel.pause_button)
    qtbot.waitUntil(lambda: not panel.is_running and panel.translation.exact_match is not None, timeout=5000)
    wait_until_arranged(qtbot, window)
    return panel


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
@pytest.mark.parametrize("code", ["en", "es"])
def test_the_training_panel_on_translate_fits_a_1024_screen(qtbot, window, monkeypatch, presenting, code):
    from attn_desktop.ui.tools.layout_audit import audit_window
    from attn_desktop.ui.tools.walk_audit import audit_walk

    from tests.support.audit_criteria import problems_in

    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    window.switch_language(code)
    panel = train_translate_100_steps(qtbot, window)
    view = panel.translation
    scroll = scroll_area_of(view)
    viewport = scroll.viewport()

    assert scroll.horizontalScrollBar().maximum() == 0, f"{panel.minimumSizeHint().width()} > {viewport.width()}"
    for widget in (panel.task_description, panel.reset_button, panel.keep_button, panel.curves, view.sentence_list,
                   view.sentence_box, view.matrix, view.decoded_label, view.exact_match_label,
                   *view.knock_out_boxes.values()):
        assert not outside_sideways(widget, viewport), widget
    for box in view.knock_out_boxes.values():  # the switch's words whole
        assert box.width() >= box.sizeHint().width(), box.text()
    assert view.matrix.cell_side() >= 24  # a cell large enough to see its shade from a desk
    assert view.matrix.height() >= view.matrix.heightForWidth(view.matrix.width())  # every row whole
    for plot in (panel.curves.loss_plot, panel.curves.accuracy_plot):
        area = plot_area(plot)
        assert area.width() >= CURVE_LEAST_PX[0] and area.height() >= CURVE_LEAST_PX[1], area
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    if code == "en":  # (in Spanish the audit also finds the window's own English scene, not the panel's)
        assert problems_in({**audit_window(window), **audit_walk(window)}) == []
    else:
        assert view.knock_out_boxes[("cross", 0, 0)].text() != "Knock out the cross-attention head"
    window.presentation_action.setChecked(False)


def test_keeping_the_translator_as_a_scene_while_presenting_then_leaving_presentation(qtbot, window, monkeypatch):
    """Presenting at 1024 × 768, the translator's cross-attention head kept as a scene, then F11 off: the window
    comes back whole at its size. Leaving presentation had nested the window's arrangements inside its own resizes
    until the app crashed (the docks' minimums midway grew the window; keeping its size resized it back; each resize
    arranged again)."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=True)
    panel = train_translate_100_steps(qtbot, window)
    click(qtbot, panel.keep_button)
    qtbot.waitUntil(lambda: window.scene.target_vectors is not None)
    wait_until_arranged(qtbot, window)
    window.presentation_action.setChecked(False)
    wait_until_arranged(qtbot, window)
    assert window.size().toTuple() == (1024, 768)
    assert window.matrix_view.isVisible() and window.canvas.isVisible()
