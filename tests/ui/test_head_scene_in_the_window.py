"""A head taken from a model, in the window: 64-wide vectors drawn in their PCA plane and dragged there
with real mouse events, every panel computing what the model's head computes."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QInputDialog

from attn_desktop.model import Role, explain, read
from attn_desktop.model.pretrained.head_scene import scene_data_for_head
from attn_desktop.model.scene_files import save_scene

from tests.support.in_the_window import drag_arrow, matrix_cells, settle_layout, table_column, tip_on_screen
from tests.support.random_model_run import causal_softmax_attention, random_model_run

LAYER, HEAD = 1, 2


@pytest.fixture(scope="module")
def run():
    return random_model_run(model_name="SmolLM2-135M-Instruct")


@pytest.fixture
def head_window(qtbot, window, run, tmp_path):
    """The window with layer 1, head 2 opened from a file, as the app saves a head taken from the model."""
    path = tmp_path / "head.json"
    save_scene(scene_data_for_head(run, LAYER, HEAD), path)
    assert window.documents.open_scene(path)
    settle_layout(qtbot, window)
    qtbot.wait(20)  # the View menu's check follows the canvas after the event loop turns once
    return window


def full_title(plot) -> str:
    """The title as a student reads it: the plot's own, or on hover the whole of a shortened one."""
    return plot.titleLabel.toolTip() or plot.titleLabel.text


def shown_weights(window) -> list[str]:
    return table_column(window, 3)


def assert_panels_show(window, weights_row):
    assert shown_weights(window) == [explain.percent(w) for w in weights_row]
    assert matrix_cells(window)[window.reading().selected] == [explain.number(w) for w in weights_row]
    np.testing.assert_allclose(window.weights_chart.shown_heights(), weights_row, atol=1e-12)


def test_a_head_opens_in_its_pca_plane_and_says_what_it_holds(head_window, run):
    window, canvas = head_window, head_window.canvas
    assert (canvas.drags.planes.showing_pca and window.menu_actions["pca_plane_action"].isChecked()
            and window.menu_actions["pca_plane_action"].isEnabled())
    assert "PCA plane of q and k:" in full_title(canvas.qk_plot) and "% of spread" in full_title(canvas.qk_plot)
    assert "PCA plane of v:" in full_title(canvas.vo_plot)
    notice = canvas.plots.notice
    assert "causal mask on" in notice.sentence and "√64" in notice.sentence and "RoPE" in notice.sentence
    box = canvas.mapFromScene(notice.sceneBoundingRect()).boundingRect()
    assert notice.isVisible() and canvas.viewport().rect().contains(box)
    # Every panel shows the model's own weights for the last token.
    selected = window.reading().selected
    assert window.reading().selected_token == "tired"
    assert_panels_show(window, run.attention[LAYER, HEAD][selected])
    # The tips are the vectors' coordinates in the plane.
    plane = canvas.plane_for(Role.KEY)
    np.testing.assert_allclose(canvas.arrows[Role.KEY][3].tip.toTuple(), plane.project(run.keys[LAYER, HEAD][3]))


def test_dragging_a_key_in_the_pca_plane_moves_it_within_the_plane_and_every_panel_follows(head_window, run):
    window, scene, canvas = head_window, head_window.scene, head_window.canvas
    model_keys = run.keys[LAYER, HEAD]
    index = int(np.argmax(run.attention[LAYER, HEAD][window.reading().selected]))  # the key the last token looks at most
    plane = canvas.plane_for(Role.KEY)
    start_px = tip_on_screen(window, Role.KEY, index)
    seen = []

    def check_every_move(step):
        keys = window.reading().vectors(Role.KEY)
        expected = causal_softmax_attention(run.queries[LAYER, HEAD], keys)[window.reading().selected]
        assert_panels_show(window, expected)  # the model's rule, on the moved key
        seen.append(keys[index].copy())

    said = []
    canvas.drag_moved.connect(said.append)
    drag_arrow(window, Role.KEY, index, QPointF(-70, 45), steps=6, after_each_move=check_every_move)
    x, y = plane.project(window.reading().vectors(Role.KEY)[index])
    name = scene.arrow_name(Role.KEY, index)
    assert said[-1] == f"{name} = ({explain.number(x)}, {explain.number(y)}) in the PCA plane (a vector of 64 numbers)"
    moved = window.reading().vectors(Role.KEY)[index]
    assert len({tuple(key) for key in seen}) >= 5  # the panels followed every move, not only the release
    step = moved - model_keys[index]
    assert np.linalg.norm(step) > 0.5
    np.testing.assert_allclose(step - plane.basis.T @ (plane.basis @ step), 0.0, atol=1e-9)  # only within the plane
    np.testing.assert_array_equal(np.delete(window.reading().vectors(Role.KEY), index, axis=0), np.delete(model_keys, index, axis=0))
    end_px = tip_on_screen(window, Role.KEY, index)
    assert abs(end_px.x() - start_px.x() + 70) <= 1.5 and abs(end_px.y() - start_px.y() - 45) <= 1.5
    weights = causal_softmax_attention(run.queries[LAYER, HEAD], window.reading().vectors(Role.KEY))
    np.testing.assert_allclose(window.reading().result.weights, weights, rtol=0, atol=1e-9)
    assert not np.allclose(weights, run.attention[LAYER, HEAD])
    # One step of the history puts the model's numbers back exactly.
    assert window.undo_action.text() == f"&Undo Move {scene.arrow_name(Role.KEY, index)}"
    window.undo_action.trigger()
    np.testing.assert_array_equal(window.reading().vectors(Role.KEY), model_keys)
    np.testing.assert_allclose(window.reading().result.weights, run.attention[LAYER, HEAD], rtol=0, atol=1e-9)
    assert_panels_show(window, run.attention[LAYER, HEAD][window.reading().selected])
    window.redo_action.trigger()
    np.testing.assert_array_equal(window.reading().vectors(Role.KEY)[index], moved)


def test_typed_coordinates_in_the_pca_plane_are_the_planes(head_window, run, monkeypatch):
    window, scene = head_window, head_window.scene
    plane = window.canvas.plane_for(Role.QUERY)
    last = scene.n_queries - 1
    asked = []

    def answer(parent, title, label, *args, **kwargs):
        asked.append((label, kwargs.get("text")))
        return "1.5, -0.5", True

    monkeypatch.setattr(QInputDialog, "getText", answer)
    window.coordinates.type_coordinates(Role.QUERY, last)
    label, offered = asked[0]
    assert "in the PCA plane (2 numbers" in label
    assert [float(x) for x in offered.split(",")] == pytest.approx(plane.project(run.queries[LAYER, HEAD][last]),
                                                                   abs=1e-4)
    query = read(scene).vectors(Role.QUERY)[last]
    np.testing.assert_allclose(plane.project(query), [1.5, -0.5], atol=1e-12)
    step = query - run.queries[LAYER, HEAD][last]
    np.testing.assert_allclose(step - plane.basis.T @ (plane.basis @ step), 0.0, atol=1e-9)
    expected = causal_softmax_attention(read(scene).vectors(Role.QUERY), run.keys[LAYER, HEAD])[last]
    assert_panels_show(window, expected)


def test_switching_between_two_dimensions_and_the_pca_plane(qtbot, head_window, monkeypatch):
    window, canvas = head_window, head_window.canvas
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("3, 7", True))
    window.coordinates.choose_dims()
    assert not canvas.drags.planes.showing_pca and not window.menu_actions["pca_plane_action"].isChecked()
    assert "dimensions 3 and 7 of 64" in full_title(canvas.qk_plot)
    key = window.reading().vectors(Role.KEY)[2]
    assert canvas.arrows[Role.KEY][2].tip.toTuple() == (key[2], key[6])
    window.menu_actions["pca_plane_action"].trigger()  # View → Draw the PCA Plane
    assert canvas.drags.planes.showing_pca and window.menu_actions["pca_plane_action"].isChecked()
    assert "PCA plane of q and k" in full_title(canvas.qk_plot)
    window.menu_actions["pca_plane_action"].trigger()  # and off again: the chosen dimensions
    assert not canvas.drags.planes.showing_pca and "dimensions 3 and 7 of 64" in full_title(canvas.qk_plot)


def test_a_scene_of_two_numbers_has_no_plane_to_choose_and_leaving_a_head_leaves_its_plane(qtbot, head_window):
    window = head_window
    window.documents.new_scene()
    qtbot.wait(20)
    assert not window.canvas.drags.planes.showing_pca and not window.menu_actions["pca_plane_action"].isEnabled()
    assert window.canvas.plots.notice.scene() is None  # only a scene taken from a model carries the notice
    assert full_title(window.canvas.qk_plot) == "Queries and keys"


def test_a_heads_values_get_a_scale_of_their_own(qtbot, window, run, tmp_path):
    """A real head's values are far shorter than its queries and keys: on one scale they would be dots.
    The values plot frames its own arrows; an ordinary scene keeps one scale for both plots."""
    canvas = window.canvas

    def units_per_pixel(plot) -> float:
        return plot.getViewBox().viewPixelSize()[0]

    assert units_per_pixel(canvas.vo_plot) == pytest.approx(units_per_pixel(canvas.qk_plot), rel=0.05)  # one scale
    data = scene_data_for_head(run, LAYER, HEAD)
    data.values = (np.asarray(data.values) / 10).tolist()  # as in SmolLM2: values a tenth as long
    path = tmp_path / "short-values.json"
    save_scene(data, path)
    assert window.documents.open_scene(path)
    settle_layout(qtbot, window)
    tips = canvas.drags.tip_of
    values = np.array([tips(v, Role.VALUE) for v in window.reading().vectors(Role.VALUE)])
    (x_low, x_high), (y_low, y_high) = canvas.vo_plot.viewRange()
    value_span = max(np.ptp(values[:, 0]), np.ptp(values[:, 1]))
    assert max(x_high - x_low, y_high - y_low) < 4 * value_span  # the values fill their plot
    assert units_per_pixel(canvas.vo_plot) < 0.5 * units_per_pixel(canvas.qk_plot)
    assert x_low <= values[:, 0].min() and values[:, 0].max() <= x_high
    assert y_low <= values[:, 1].min() and values[:, 1].max() <= y_high
