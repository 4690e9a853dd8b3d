"""The plane the canvas draws wide vectors in: projection, lifting a drag back, and odd inputs."""

import numpy as np
import pytest

from attn_desktop.model.view_plane import ViewPlane, pca_plane


def spread_mostly_in_two_directions(seed=0, n=12, width=64):
    """Vectors that vary a lot along two directions and a little along the rest."""
    rng = np.random.default_rng(seed)
    directions = np.linalg.qr(rng.normal(size=(width, 2)))[0].T
    return (rng.normal(0, 5, (n, 2)) @ directions + rng.normal(0, 0.01, (n, width)) + rng.normal(0, 1, width)), directions


def assert_orthonormal(plane: ViewPlane):
    np.testing.assert_allclose(plane.basis @ plane.basis.T, np.eye(2), atol=1e-12)


def test_the_pca_plane_finds_the_two_directions_the_vectors_spread_along():
    vectors, directions = spread_mostly_in_two_directions()
    plane = pca_plane(vectors)
    assert plane.basis.shape == (2, 64) and plane.width == 64
    assert_orthonormal(plane)
    # The same plane as the one the vectors were made in (each true direction lies in it).
    np.testing.assert_allclose(np.linalg.norm(directions @ plane.basis.T, axis=1), 1.0, atol=1e-3)
    assert 0.95 < plane.spread <= 1.0
    assert plane.share_of_spread(vectors) == pytest.approx(plane.spread)


def test_the_spread_is_the_share_of_variance_the_two_largest_directions_hold():
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(20, 8))
    plane = pca_plane(vectors)
    singular = np.linalg.svd(vectors - vectors.mean(axis=0), compute_uv=False)
    assert plane.spread == pytest.approx((singular[:2] ** 2).sum() / (singular**2).sum(), rel=1e-12)


def test_projecting_then_lifting_gives_back_the_same_vector_and_a_lift_lands_where_dragged():
    vectors, _ = spread_mostly_in_two_directions(seed=1)
    plane = pca_plane(vectors)
    for vector in vectors:
        x, y = plane.project(vector)
        np.testing.assert_allclose(plane.lift(vector, x, y), vector, atol=1e-12)
        moved = plane.lift(vector, x + 1.5, y - 0.25)
        np.testing.assert_allclose(plane.project(moved), [x + 1.5, y - 0.25], atol=1e-12)


def test_a_drag_moves_a_vector_only_within_the_plane():
    vectors, _ = spread_mostly_in_two_directions(seed=2)
    plane = pca_plane(vectors)
    vector = vectors[3]
    moved = plane.lift(vector, 4.0, -7.0)
    step = moved - vector
    off_plane = step - plane.basis.T @ (plane.basis @ step)
    np.testing.assert_allclose(off_plane, 0.0, atol=1e-12)  # what the plane does not show is kept
    assert np.linalg.norm(step) > 1.0


def test_the_origin_stays_at_the_origin_so_arrows_still_start_there():
    plane = pca_plane(spread_mostly_in_two_directions()[0])
    np.testing.assert_array_equal(plane.project(np.zeros(64)), [0.0, 0.0])


@pytest.mark.parametrize("vectors", [
    np.tile([1.0, 2.0, -3.0, 0.5], (5, 1)),  # all equal
    np.array([[0.3, -1.2, 4.0, 2.2]]),  # one token
    np.zeros((4, 4)),  # all at the origin
    np.outer(np.arange(1.0, 6.0), [1.0, 1.0, 0.0, 0.0]),  # all on one line
    np.array([[1e-300, 0.0, 0.0], [0.0, 1e-300, 0.0]]),  # tiny
    np.array([[1e8, -1e8, 1e8], [1e8, 1e8, -1e8]]),  # huge
])
def test_degenerate_vectors_still_give_a_sane_plane(vectors):
    plane = pca_plane(vectors)
    assert np.all(np.isfinite(plane.basis)) and np.isfinite(plane.spread)
    assert_orthonormal(plane)
    assert 0.0 <= plane.spread <= 1.0
    for vector in vectors:
        back = plane.lift(vector, *plane.project(vector))
        np.testing.assert_allclose(back, vector, atol=1e-9 * max(1.0, np.abs(vector).max()))


def test_vectors_that_do_not_spread_are_drawn_along_their_own_direction():
    """All equal, or one token: the plane holds the vector itself, so its arrow shows at full length."""
    vector = np.array([1.0, 2.0, -3.0, 0.5])
    for vectors in (np.tile(vector, (3, 1)), vector[None]):
        plane = pca_plane(vectors)
        assert np.linalg.norm(plane.project(vector)) == pytest.approx(np.linalg.norm(vector))
        assert plane.spread == 1.0


def test_the_same_vectors_always_give_the_same_picture():
    vectors, _ = spread_mostly_in_two_directions(seed=4)
    first, again = pca_plane(vectors), pca_plane(vectors.copy())
    np.testing.assert_array_equal(first.basis, again.basis)
    # each axis points the way the vectors do on average
    assert np.all(first.basis @ vectors.mean(axis=0) >= 0)


@pytest.mark.parametrize("vectors, message", [
    (np.zeros((3, 1)), "at least two numbers"),
    (np.zeros((0, 4)), "at least one vector"),
    (np.array([[1.0, np.nan]]), "finite"),
])
def test_what_has_no_plane_is_refused(vectors, message):
    with pytest.raises(ValueError, match=message):
        pca_plane(vectors)
