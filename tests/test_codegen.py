"""The code panel's script: plain NumPy that reproduces the scene, number for number."""

import contextlib
import io
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop import paths
from attn_desktop.model import HeadReading, Role, Scene, read
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.scene_files import open_reading, reading_from_document

from tests.support.project_root import ROOT

SOFT_LOOKUP = {
    "tokens": ["apple", "pear", "plum"],
    "query_tokens": ["ask"],
    "queries": [[2, 0]],
    "keys": [[1, 0], [0, 1], [0.7, 0.7]],
    "values": [3, 5, 4],
    "scale": False,
}
PROJECTION = {
    "tokens": ["cat", "sat", "it"],
    "embeddings": [[1, 0], [0, 1], [0.6, 0.8]],
    "w_q": [[0, 2], [2, 0]],
    "w_k": [[2, 0], [0, 1]],
    "w_v": [[1, 0], [0, 1]],
    "scale": False,
    "selected": 2,
}


def default_reading() -> HeadReading:
    """The demo's scene with the query its file chose ("sat")."""
    return open_reading(paths.scene_path(paths.DEFAULT_SCENE))


def run(code: str) -> tuple[dict, list[str]]:
    """Execute the script as a student would; return its variables and the lines it printed."""
    namespace: dict = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - running the generated script is the test
    return namespace, printed.getvalue().splitlines()


def assert_matches_the_app(scene: Scene, namespace: dict) -> None:
    np.testing.assert_allclose(namespace["weights"], read(scene).result.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(namespace["output"], read(scene).result.output, rtol=0, atol=1e-12)


def test_the_default_scene_prints_the_demo_numbers():
    shown = default_reading()
    scene = shown.scene
    namespace, printed = run(numpy_code(shown))
    assert printed == [
        "sat attends to: The 0%, cat 76%, sat 6%, on 1%, the 0%, mat 17%",
        "output for sat: [1.54 0.48]",
        "shapes: (6, 6) (6, 2)",
    ]
    assert_matches_the_app(scene, namespace)


def test_the_default_script_reads_like_the_course_demo():
    code = numpy_code(default_reading())
    for line in (
        'tokens = ["The", "cat", "sat", "on", "the", "mat"]',
        "Q = np.array([[1.6, 0.4], [0.3, 2.0], [2.4, 0.6], [1.5, -1.2], [1.4, -0.8], [-0.5, 2.0]])",
        "scores = Q @ K.T / np.sqrt(d_k)   # every query against every key",
        "weights = softmax(scores)         # each row sums to 1",
        'i = tokens.index("sat")',
    ):
        assert line in code.splitlines()


@pytest.mark.slow
def test_the_script_runs_as_it_stands_in_a_fresh_python(tmp_path):
    code = numpy_code(default_reading())
    # Run it away from the project, so nothing of the app can be imported by accident.
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "sat attends to: The 0%, cat 76%, sat 6%, on 1%, the 0%, mat 17%",
        "output for sat: [1.54 0.48]",
    ]


def test_the_script_follows_the_scene_after_a_drag():
    shown = default_reading()
    scene = shown.scene
    scene.set_vector(Role.KEY, 1, [-2.2, -1.0])  # cat's key turned away from sat's query
    namespace, printed = run(numpy_code(shown))
    assert "K = np.array([[-1.2, 0.6], [-2.2, -1.0]," in numpy_code(shown)
    assert printed[0].startswith("sat attends to: The ") and "cat 76%" not in printed[0]
    assert_matches_the_app(scene, namespace)


def test_scaling_off_drops_the_square_root_and_says_so():
    shown = default_reading()
    scene = shown.scene
    scene.set_scale(False)
    code = numpy_code(shown)
    assert "np.sqrt" not in code
    assert "# Scaling is off in this scene: the scores are not divided by sqrt(d_k)." in code
    namespace, _ = run(code)
    assert_matches_the_app(scene, namespace)
    # Without the divisor the softmax is sharper: sat gives cat even more than its scaled 76%.
    assert 0.86 < namespace["weights"][2, 1] < 0.87


def test_causal_mask_hides_later_keys_before_the_softmax():
    shown = default_reading()
    scene = shown.scene
    scene.set_causal(True)
    code = numpy_code(shown)
    assert "-np.inf" in code and "# Causal mask" in code
    namespace, printed = run(code)
    weights = namespace["weights"]
    assert np.all(weights[np.triu_indices(6, k=1)] == 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1, atol=1e-12)
    assert_matches_the_app(scene, namespace)
    assert printed[0] == "sat attends to: The 0%, cat 93%, sat 7%, on 0%, the 0%, mat 0%"


def test_cross_attention_names_its_queries_separately():
    shown = reading_from_document({
        "tokens": ["The", "cat", "sat"],
        "query_tokens": ["Le", "chat"],
        "queries": [[1, 0], [0, 1]],
        "keys": [[1, 0], [0, 1], [1, 1]],
        "values": [[1, 0], [0, 1], [0.5, 0.5]],
        "selected": 1,
    })
    scene = shown.scene
    code = numpy_code(shown)
    assert 'query_tokens = ["Le", "chat"]' in code
    assert 'i = query_tokens.index("chat")' in code
    namespace, printed = run(code)
    assert namespace["weights"].shape == (2, 3)
    assert printed[0].startswith("chat attends to: The ")
    assert printed[2] == "shapes: (2, 3) (2, 2)"
    assert_matches_the_app(scene, namespace)


def test_scalar_values_make_a_soft_lookup_that_prints_one_number():
    shown = reading_from_document(SOFT_LOOKUP)
    scene = shown.scene
    code = numpy_code(shown)
    assert "V = np.array([[3.0], [5.0], [4.0]])" in code
    namespace, printed = run(code)
    assert namespace["V"].shape == (3, 1)
    assert np.round(namespace["weights"][0], 2).tolist() == [0.59, 0.08, 0.33]
    assert printed[:2] == ["ask attends to: apple 59%, pear 8%, plum 33%", "output for ask: 3.49"]
    assert_matches_the_app(scene, namespace)


def test_a_projection_scene_builds_q_k_v_from_word_vectors_and_grids():
    shown = reading_from_document(PROJECTION)
    scene = shown.scene
    code = numpy_code(shown)
    assert "X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])" in code
    assert "Wq = np.array([[0.0, 2.0], [2.0, 0.0]])" in code
    assert "Q, K, V = X @ Wq, X @ Wk, X @ Wv" in code
    namespace, printed = run(code)
    assert np.round(namespace["weights"][2], 2).tolist() == [0.54, 0.07, 0.39]
    assert np.round(namespace["output"][2], 2).tolist() == [0.77, 0.38]
    assert printed[1] == "output for it: [0.77 0.38]"
    assert_matches_the_app(scene, namespace)


def test_a_projection_scene_with_the_grids_off_uses_the_identity():
    shown = reading_from_document(PROJECTION)
    scene = shown.scene
    scene.set_use_grids(False)
    namespace, _ = run(numpy_code(shown))
    np.testing.assert_array_equal(namespace["Wq"], np.eye(2))
    np.testing.assert_array_equal(namespace["Q"], namespace["X"])
    assert_matches_the_app(scene, namespace)


def test_every_number_is_written_exactly():
    awkward = [[0.1 + 0.2, 1 / 3], [1e-7, -0.0], [123456789.123, -2.5e-300]]
    shown = reading_from_document({"tokens": ["a", "b", "c"], "queries": awkward, "keys": awkward, "values": awkward})
    scene = shown.scene
    namespace, _ = run(numpy_code(shown))
    for name, role in (("Q", Role.QUERY), ("K", Role.KEY), ("V", Role.VALUE)):
        np.testing.assert_array_equal(namespace[name], scene.vectors(role))
    assert_matches_the_app(scene, namespace)


def test_a_repeated_token_name_picks_the_selected_row_not_the_first():
    shown = reading_from_document({
        "tokens": ["the", "cat", "the"],
        "queries": [[1, 0], [0, 1], [-1, 0]],
        "keys": [[1, 0], [0, 1], [-1, 0]],
        "values": [[1, 0], [0, 1], [-1, 0]],
        "selected": 2,
    })
    scene = shown.scene
    namespace, printed = run(numpy_code(shown))
    assert namespace["i"] == 2
    assert printed[1] == f"output for the: {np.round(read(scene).result.output[2], 2)}"


def test_odd_names_and_titles_stay_inside_their_strings_and_comments():
    shown = reading_from_document({
        "title": 'two lines\nraise SystemExit("escaped the comment")',
        "tokens": ['say "hi"', "back\\slash", "{braces}", "new\nline"],
        "queries": [[1, 0], [0, 1], [1, 1], [0, 0]],
        "keys": [[1, 0], [0, 1], [1, 1], [0, 0]],
        "values": [[1, 0], [0, 1], [1, 1], [0, 0]],
    })
    scene = shown.scene
    code = numpy_code(shown)
    namespace, printed = run(code)
    assert namespace["tokens"] == scene.tokens
    assert printed[0].startswith('say "hi" attends to: say "hi" ')
    assert code.splitlines()[0].startswith("# two lines raise SystemExit")


def test_the_script_needs_only_numpy():
    code = numpy_code(reading_from_document(PROJECTION))
    imports = [line for line in code.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import numpy as np"]


@pytest.mark.parametrize("module", ["attn_desktop.model.exports.codegen", "attn_desktop.model.exports.torch_check"])
@pytest.mark.slow
def test_the_code_modules_load_neither_qt_nor_torch(module):
    probe = (
        f"import sys, {module}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6', 'torch')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
