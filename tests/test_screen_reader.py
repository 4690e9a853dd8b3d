"""The real app as a screen reader (Orca) sees it: over AT-SPI, from the system's Python with pyatspi, the app
on an X server inside a D-Bus session with its accessibility on (tests/support/screen_reader_walk.py walks it).

Lesson 3's arrows are there by name with their values in their descriptions; a key press on the focused arrow
changes its description and brings exactly one announcement, whose numbers are the model's; and no focusable
node on screen is left without a name, in English, Spanish, Chinese and Arabic. Skipped where dbus-run-session,
Xvfb, openbox, xdotool, the accessibility bus or pyatspi is missing (CI installs them).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attn_desktop.language import set_language
from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.model.spoken import step_announcement
from attn_desktop.paths import scene_path

from tests.support.project_root import ROOT
from tests.test_real_window import window_manager, xvfb_display

SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
LESSON_3 = "lessons/3_self_attention.json"
NUDGE = 0.1  # one press of the Right arrow key (drag_controller.SMALL_NUDGE)


def _has_pyatspi() -> bool:
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return False
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, check=False).returncode == 0


_missing = [tool for tool in ("dbus-run-session", "Xvfb", "openbox", "xdotool") if shutil.which(tool) is None]
if not os.access(BUS_LAUNCHER, os.X_OK):
    _missing.append("at-spi2-core's bus launcher")
if not _missing and not _has_pyatspi():
    _missing.append("python3-pyatspi")
# Slow: each test starts the app on an X server.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(_missing), reason=f"missing: {', '.join(_missing)}")]

# What a screen reader's user can act on: a focusable node on screen, but not a label (which is read by its
# text; an exercise's empty verdict line takes a click's focus so that it can be selected and copied).
NOT_CONTROLS = frozenset({"label", "static"})


def walk(tmp_path: Path, language: str, press: bool) -> dict:
    """The app on lesson 3 in LANGUAGE, as AT-SPI shows it (with PRESS: after a Right arrow on k·cat)."""
    report = tmp_path / f"walk-{language}.json"
    home = tmp_path / language
    with xvfb_display("1024x768x24") as display, window_manager(display, home / "openbox"):
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT),
               "ATTN_DESKTOP_DATA_DIR": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
        done = subprocess.run(["dbus-run-session", "--", SYSTEM_PYTHON, str(ROOT / "tests" / "support" / "screen_reader_walk.py"),
                               str(report), language, "press" if press else "look", sys.executable, "-m", "attn_desktop"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=150, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(report.read_text(encoding="utf-8"))


def test_lesson_3s_arrows_are_read_by_name_and_a_step_is_said_once_with_the_models_numbers(tmp_path):
    seen = walk(tmp_path, "en", press=True)
    reading = open_reading(scene_path(LESSON_3))
    arrows = {child["name"]: child["description"] for child in seen["canvas"]}
    for role in reading.roles:
        for index, token in enumerate(reading.labels(role)):
            x, y = reading.vectors(role)[index]
            assert arrows[reading.arrow_name(role, index)].endswith(f"of '{token}', x {x:.2f}, y {y:.2f}")
    assert seen["focused"][-1] == "k·cat"  # Tab inside the canvas moved the screen reader's focus to the arrow
    # The window's chosen query is the one its output arrow is named by; the same step on the model:
    reading.select_query(reading.query_tokens.index(seen["output"].split("·", 1)[1]))
    cat = reading.labels(Role.KEY).index("cat")
    before = reading.result.weights.copy()
    x, y = reading.vectors(Role.KEY)[cat]
    reading.scene.set_vector(Role.KEY, cat, [x + NUDGE, y])
    set_language("en")
    expected = step_announcement(reading, Role.KEY, cat, before, (x + NUDGE, y))
    assert seen["before"] == f"key of 'cat', x {x:.2f}, y {y:.2f}"
    assert seen["after"] == f"key of 'cat', x {x + NUDGE:.2f}, y {y:.2f}"
    assert [said["text"] for said in seen["announcements"]] == [expected]


def test_lesson_3s_matrix_and_score_table_are_tables_of_named_cells_with_the_models_numbers(tmp_path):
    seen = walk(tmp_path, "en", press=False)
    reading = open_reading(scene_path(LESSON_3))
    tokens, queries = reading.tokens, reading.query_tokens
    expected = [("table column header", token) for token in tokens]
    for row, query in enumerate(queries):
        expected.append(("table row header", query))
        expected += [("table cell", f"{query} → {key}: {reading.result.weights[row, column]:.2f}")
                     for column, key in enumerate(tokens)]
    assert [(cell["role"], cell["name"]) for cell in seen["matrix"]] == expected
    query = reading.selected
    weights = {f"{reading.selected_token} → {key}: weight {round(100 * reading.result.weights[query, column])}%"
               for column, key in enumerate(tokens)}
    score_cells = {cell["name"] for cell in seen["scores"] if cell["role"] == "table cell"}
    assert weights <= score_cells, sorted(score_cells)  # the score table's cells name the query and the key too


@pytest.mark.parametrize("language", ["en", "es", "zh_CN", "ar"])
def test_no_focusable_node_on_screen_is_left_without_a_name(tmp_path, language):
    seen = walk(tmp_path, language, press=False)
    unnamed = [node["role"] for node in seen["nodes"] if node["focusable"] and node["showing"]
               and node["role"] not in NOT_CONTROLS and not node["name"].strip()]
    assert not unnamed, f"{language}: focusable nodes without a name, by role: {unnamed}"
    # Lesson 3's nine arrows and the output, in every language (the tokens are the language's words).
    symbols = sorted(child["name"].split("·")[0] for child in seen["canvas"])
    assert symbols == ["k"] * 3 + ["out"] + ["q"] * 3 + ["v"] * 3
    assert all(child["description"] for child in seen["canvas"])
