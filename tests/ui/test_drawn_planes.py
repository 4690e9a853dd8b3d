"""Which plane the canvas draws wide vectors in, what each plot's title says, and drags in a PCA plane."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from attn_desktop.geometry.drawn_planes import DrawnPlanes, PlaneKind
from attn_desktop.model import Role, read
from attn_desktop.model.pretrained.head_scene import scene_data_for_head
from attn_desktop.model.scene_files import new_scene, open_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

from tests.support.in_the_window import drag_on_canvas
from tests.support.random_model_run import random_model_run


@pytest.fixture
def head_scene():
    return new_scene(scene_data_for_head(random_model_run(layers=1, heads=2), 0, 1))


def test_a_head_taken_from_a_model_is_drawn_in_pca_planes_and_titled_so(head_scene):
    planes = DrawnPlanes(read(head_scene))
    assert planes.showing_pca and planes.kind is PlaneKind.PCA
    assert planes.plane_for(Role.QUERY) is planes.plane_for(Role.KEY)  # queries and keys share a plane
    assert planes.plane_for(Role.VALUE) is not planes.plane_for(Role.KEY)  # values have their own
    assert planes.describe(Role.KEY).startswith("PCA plane of q and k: ") and planes.describe(Role.KEY).endswith(
        "% of spread")
    assert planes.describe(Role.VALUE).startswith("PCA plane of v: ")
    assert planes.describe(Role.KEY, short=True).startswith("PCA, ")
    planes.set_dims(4, 9)
    assert not planes.showing_pca and planes.plane_for(Role.KEY) is None
    assert planes.describe(Role.KEY) == "dimensions 5 and 10 of 64"
    key = read(head_scene).vectors(Role.KEY)[2]
    assert planes.tip_of(key, Role.KEY) == (key[4], key[9])


def test_the_share_of_spread_in_the_title_follows_the_vectors_but_the_plane_stays(head_scene):
    planes = DrawnPlanes(read(head_scene))
    plane = planes.plane_for(Role.KEY)
    before = planes.describe(Role.KEY)
    far = plane.lift(read(head_scene).vectors(Role.KEY)[0], 200.0, 0.0)  # far along the plane's first axis
    head_scene.set_vector(Role.KEY, 0, far)
    assert planes.plane_for(Role.KEY) is plane  # a moved arrow never moves the picture under it
    assert planes.describe(Role.KEY) != before and planes.describe(Role.KEY).endswith("% of spread")


def test_a_scene_of_two_numbers_has_no_pca_plane():
    scene = open_scene(scene_path(DEFAULT_SCENE))
    planes = DrawnPlanes(read(scene))
    assert not planes.pca_available and planes.describe(Role.KEY) == ""
    with pytest.raises(ValueError, match="at most two numbers"):
        planes.use_pca(True)
    assert planes.kind is PlaneKind.DIMENSIONS


def test_the_students_choice_of_plane_survives_an_added_word_and_a_new_head_opens_in_pca(head_scene):
    planes = DrawnPlanes(read(head_scene))
    planes.set_dims(0, 2)
    head_scene.add_token("extra")
    planes.scene_reshaped()
    assert planes.kind is PlaneKind.DIMENSIONS
    head_scene.replace(scene_data_for_head(random_model_run(layers=1, heads=2, seed=3), 0, 0))
    planes.scene_reshaped()
    assert planes.kind is PlaneKind.PCA
    head_scene.replace(open_scene(scene_path(DEFAULT_SCENE)).to_data())
    planes.scene_reshaped()
    assert planes.kind is PlaneKind.DIMENSIONS


def test_a_word_vector_of_a_trained_head_drags_within_its_own_pca_plane(qtbot):
    """A projection scene with 16-number word vectors: the x plot gets a PCA plane of x."""
    from attn_desktop.model.training.head_params import init_params
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.trained_head import keep_as_scene

    task = TASKS["reverse"]
    scene = new_scene(keep_as_scene(task, init_params(task, seed=1), task.example_tokens()))
    configure_pyqtgraph()
    canvas = AttentionCanvas(scene)
    qtbot.addWidget(canvas)
    canvas.resize(1100, 500)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.set_pca_plane(True)
    qtbot.wait(30)
    assert "PCA plane of x" in (canvas.x_plot.titleLabel.toolTip() or canvas.x_plot.titleLabel.text)
    assert canvas.plane_for(Role.QUERY) is None  # trained queries and keys have two numbers: drawn as they are
    plane = canvas.plane_for(Role.EMBEDDING)
    before = scene.vectors(Role.EMBEDDING)[1].copy()
    drag_on_canvas(canvas, Role.EMBEDDING, 1, QPointF(30, -25))
    step = scene.vectors(Role.EMBEDDING)[1] - before
    assert np.linalg.norm(step) > 0.05
    np.testing.assert_allclose(step - plane.basis.T @ (plane.basis @ step), 0.0, atol=1e-9)
    np.testing.assert_allclose(read(scene).vectors(Role.KEY), scene.vectors(Role.EMBEDDING) @ read(scene).grids["w_k"])
