"""`attn-desktop export` to CSV, PNG and SVG, run as a teacher runs it to make a handout."""

import csv
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.project_root import ROOT
from tests.support.seed_numbers import MATRIX, TOKENS

pytestmark = pytest.mark.slow  # every test runs the app in a child process

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SCENE = str(scene_path(DEFAULT_SCENE))


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "attn_desktop", *args], check=False, cwd=ROOT, capture_output=True, text=True,
        timeout=120, env=env,
    )


def load_image(path):
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not an image Qt can read"
    return image


def distinct_colours(image) -> int:
    from PySide6.QtGui import QImage

    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() * image.height() // 4)
    return len(np.unique(pixels.reshape(image.height(), -1)[:, : image.width()]))


def assert_one_error_line(done, *expected: str) -> None:
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("attn-desktop: error: ") and all(text in lines[0] for text in expected), lines[0]
    assert done.stdout == ""


def test_csv_is_the_weights_matrix_with_token_labels(tmp_path):
    out = tmp_path / "weights.csv"
    done = run("export", SCENE, "-o", str(out))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[0] == ["query \\ key", *TOKENS] and [row[0] for row in rows[1:]] == TOKENS
    assert [[f"{float(cell):.2f}" for cell in row[1:]] for row in rows[1:]] == MATRIX


def test_csv_export_needs_no_qt(tmp_path):
    out = tmp_path / "weights.csv"
    code = (
        "import sys\n"
        "from attn_desktop.cli import main\n"
        f"assert main(['export', {SCENE!r}, '-o', {str(out)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]" and out.exists()


def test_png_shows_the_canvas_and_matrix_at_twice_the_size(tmp_path):
    small, large = tmp_path / "small.png", tmp_path / "handout.png"
    for out, extra in ((small, ["--scale", "1"]), (large, [])):
        done = run("export", SCENE, "-o", str(out), *extra)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert out.read_bytes().startswith(PNG_SIGNATURE)
    image = load_image(large)
    assert image.width() > 600 and distinct_colours(image) > 50  # a real picture, not a blank page
    one = load_image(small)
    assert abs(image.width() - 2 * one.width()) <= 1 and abs(image.height() - 2 * one.height()) <= 1


def test_svg_is_an_svg_picture_titled_with_the_scene_and_formula(tmp_path):
    out = tmp_path / "handout.svg"
    done = run("export", SCENE, "-o", str(out))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.findtext("{http://www.w3.org/2000/svg}title") == "The cat sat on the mat — softmax(QKᵀ/√d_k)"
    assert "k·cat 76%" in "".join(root.itertext())  # the canvas's labels are text, sharp in print


def test_a_picture_export_leaves_the_users_progress_autosave_and_settings_alone(tmp_path):
    data, config = tmp_path / "my-data", tmp_path / "my-config"
    data.mkdir()
    (data / "progress.json").write_text(
        '{"format": "attention-desktop-progress", "version": 1, "done": {}}', encoding="utf-8"
    )
    (data / "autosave.json").write_text("my unsaved work", encoding="utf-8")
    before = {path.name: path.read_bytes() for path in data.iterdir()}
    env = {**os.environ, "ATTN_DESKTOP_DATA_DIR": str(data), "XDG_CONFIG_HOME": str(config), "HOME": str(tmp_path)}
    done = run("export", SCENE, "-o", str(tmp_path / "handout.png"), env=env)
    assert done.returncode == 0, done.stderr
    assert {path.name: path.read_bytes() for path in data.iterdir()} == before
    assert not config.exists()  # no window layout or recent files saved on the user's behalf


def test_an_unknown_extension_exits_2_naming_the_formats(tmp_path):
    for name in ("handout.pdf", "handout"):
        out = tmp_path / name
        done = run("export", SCENE, "-o", str(out))
        assert_one_error_line(done, name, ".json", ".csv", ".png", ".svg")
        assert not out.exists()


@pytest.mark.parametrize("scale", ["0.1", "9", "big", "nan", "inf"])
def test_a_bad_scale_exits_2(tmp_path, scale):
    out = tmp_path / "handout.png"
    done = run("export", SCENE, "-o", str(out), "--scale", scale)
    assert_one_error_line(done, "--scale", "0.25", "8")
    assert not out.exists()


@pytest.mark.parametrize("name", ["out.json", "out.csv", "out.png", "out.svg"])
def test_a_bad_scene_exits_2_and_writes_nothing_in_any_format(tmp_path, name):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tokens": ["a"], "queries": [["1"]], "keys": [[1]], "values": [[1]]}', encoding="utf-8")
    done = run("export", str(bad), "-o", str(tmp_path / name))
    assert_one_error_line(done, "bad.json", 'queries[0][0]: expected a number, found the text "1"')
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.json"]

