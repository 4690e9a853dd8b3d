"""The command line, run as a user runs it: export, errors, --version, --self-test."""

import json
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop import __version__
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.project_root import ROOT
from tests.support.seed_numbers import MATRIX, SAT

pytestmark = pytest.mark.slow  # every test runs the app in a child process


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "attn_desktop", *args], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


def test_export_writes_every_number_of_the_default_scene(tmp_path):
    out = tmp_path / "out.json"
    done = run("export", str(scene_path(DEFAULT_SCENE)), "-o", str(out))
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["tokens"] == ["The", "cat", "sat", "on", "the", "mat"]
    assert document["query_tokens"] == document["tokens"]
    assert document["selected"] == SAT and document["scale"] is True and document["causal"] is False
    assert np.round(document["scores"][SAT], 2).tolist() == [-2.52, 5.88, 2.28, -0.96, -3.48, 3.78]
    assert np.round(document["scaled_scores"][SAT], 2).tolist() == [-1.78, 4.16, 1.61, -0.68, -2.46, 2.67]
    assert [round(w * 100) for w in document["weights"][SAT]] == [0, 76, 6, 1, 0, 17]
    assert [[f"{w:.2f}" for w in row] for row in document["weights"]] == MATRIX
    assert np.round(document["output"][SAT], 2).tolist() == [1.54, 0.48]
    assert document["queries"][2] == [2.4, 0.6] and document["keys"][1] == [2.2, 1.0]


def test_export_to_stdout_with_a_causal_mask_writes_null_for_masked_scores(tmp_path):
    scene = json.loads(scene_path(DEFAULT_SCENE).read_text(encoding="utf-8"))
    scene["causal"] = True
    path = tmp_path / "causal.json"
    path.write_text(json.dumps(scene), encoding="utf-8")
    done = run("export", str(path), "-o", "-")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["causal"] is True
    assert document["scaled_scores"][2][3:] == [None, None, None]
    assert document["weights"][2][3:] == [0, 0, 0]
    assert sum(document["weights"][2]) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"{\"tokens\": [", "not valid JSON"),
        (b"\xff\xfe garbage", "not UTF-8 text"),
        (b'{"tokens": ["a"], "queries": [["1"]], "keys": [[1]], "values": [[1]]}', 'queries[0][0]: expected a number, found the text "1"'),
        (b'{"tokens": ["a"], "queries": [[NaN]], "keys": [[1]], "values": [[1]]}', "NaN is not a number"),
        (b'{"tokens": ["a"], "queries": [[1]], "keys": [[1]], "values": [[1]], "selected": 5}', "selected: 5 is out of range"),
    ],
)
def test_bad_scene_exits_2_with_one_line_and_no_output_file(tmp_path, content, expected):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    out = tmp_path / "out.json"
    done = run("export", str(bad), "-o", str(out))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("attn-desktop: error: ") and "bad.json" in lines[0] and expected in lines[0]
    assert not out.exists() and done.stdout == ""


def test_bad_scene_never_replaces_an_existing_output(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("previous results", encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    assert run("export", str(bad), "-o", str(out)).returncode == 2
    assert out.read_text(encoding="utf-8") == "previous results"


def test_opening_a_bad_scene_in_the_gui_exits_2_before_any_window(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tokens": []}', encoding="utf-8")
    done = run(str(bad))
    assert done.returncode == 2 and "tokens: the list is empty" in done.stderr and "Traceback" not in done.stderr


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"Attention Desktop {__version__}"


def test_self_test_drives_a_real_drag_and_passes():
    done = run("--self-test")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dragging k·cat moved it" in done.stdout and "FAIL" not in done.stdout
    assert done.stderr == ""  # no platform chatter a newcomer could take for a failure


def test_self_test_opens_every_built_in_scene_and_lesson_with_the_seed_numbers():
    done = run("--self-test")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for name in ("lessons/1_soft_lookup.json", "lessons/2_projections.json", "lessons/3_self_attention.json",
                 "lessons/5_trained_reverse.json", DEFAULT_SCENE):
        assert any(line.startswith(f"ok   built-in scene {name}: ") for line in lines), name
    assert "ok   lesson 1. Soft lookup: weights for ask ['59%', '8%', '33%']" in lines
    assert "ok   lesson 3. Every word looks at every word: weights for it ['54%', '7%', '39%']" in lines
    assert "ok   lesson 4. Scaled attention: weights for sat ['0%', '76%', '6%', '1%', '0%', '17%']" in lines
    assert "ok   lesson 5. What trained heads learn: weights for 0:3 ['0%', '0%', '0%', '0%', '100%']" in lines
    assert "ok   icon attn-desktop.svg 256x256" in lines  # through Qt's SVG plugin


_SELF_TEST_FROM_BUNDLE = """
import sys
sys._MEIPASS = sys.argv[1]  # where a frozen app looks for its resources first (attn_desktop/paths.py)
from attn_desktop.cli import main
sys.exit(main(["--self-test"]))
"""


def test_self_test_fails_and_names_a_damaged_scene_and_a_missing_icon_of_a_broken_install(tmp_path):
    import shutil

    installed = tmp_path / "attn_desktop" / "resources"
    shutil.copytree(ROOT / "resources", installed)
    (installed / "scenes" / "lessons" / "2_projections.json").write_text('{"tokens": ["it"', encoding="utf-8")
    (installed / "icons" / "attn-desktop-64.png").unlink()
    done = subprocess.run([sys.executable, "-c", _SELF_TEST_FROM_BUNDLE, str(tmp_path)], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 3, failed  # the file, the lesson that needs it, the icon; nothing hangs on a dialog
    assert failed[0].startswith("FAIL built-in scene lessons/2_projections.json: ")
    assert failed[1] == ("FAIL lesson 2. Three vectors from one word: its scene lessons/2_projections.json "
                         "is missing or damaged")
    assert failed[2] == "FAIL icon attn-desktop-64.png 0x0"
    assert "ok   lesson 3. Every word looks at every word: weights for it ['54%', '7%', '39%']" in done.stdout


def test_export_of_a_projection_scene_writes_the_derived_vectors():
    done = run("export", str(scene_path("lessons/2_projections.json")), "-o", "-")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["kind"] == "projection"
    assert np.round(document["queries"][2], 6).tolist() == [1.6, 1.2]
    assert np.round(document["keys"][2], 6).tolist() == [1.2, 0.8]
    assert document["values"][2] == [0.6, 0.8] and document["embeddings"][2] == [0.6, 0.8]
    assert np.round(document["output"][2], 2).tolist() == [0.77, 0.38]


def test_export_of_a_soft_lookup():
    done = run("export", str(scene_path("lessons/1_soft_lookup.json")), "-o", "-")
    document = json.loads(done.stdout)
    assert document["query_tokens"] == ["ask"] and document["values"] == [[3.0], [5.0], [4.0]]
    assert np.round(document["weights"][0], 2).tolist() == [0.59, 0.08, 0.33]
    assert round(document["output"][0][0], 2) == 3.49


def test_a_bad_projection_scene_exits_2(tmp_path):
    bad = tmp_path / "grids.json"
    bad.write_text(json.dumps({"tokens": ["a"], "embeddings": [[1, 0]], "w_q": [[1, 0]], "w_k": [[1, 0], [0, 1]],
                               "w_v": [[1], [1]]}), encoding="utf-8")
    done = run("export", str(bad), "-o", str(tmp_path / "out.json"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "w_q: has 1 rows but the word vectors have 2 numbers" in done.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("variables", [{"LC_ALL": "C"}, {"LC_ALL": "POSIX"}, {"LANG": "C"}])
def test_a_c_locale_as_in_containers_and_cron_gets_no_qt_warning(variables):
    import os

    env = {name: value for name, value in os.environ.items() if not name.startswith(("LC_", "LANG"))}
    done = run("--self-test", env={**env, **variables})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""  # Qt's four lines about switching from "C" to "C.UTF-8" are not ours to show
