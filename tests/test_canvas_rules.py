"""The canvas's plain-number rules, without a display: how an arrow's look tells its weight
(attn_desktop/geometry/weight_style.py) and how many plots go in a row (geometry/plot_arrangement.py)."""

import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.geometry.plot_arrangement import columns_that_draw_largest, grid_places, number_line_range
from attn_desktop.geometry.weight_style import (
    FADED_QUERY_EMPHASIS,
    MASKED_EMPHASIS,
    MIN_WEIGHT_EMPHASIS,
    crowded,
    even_split,
    query_style,
    weight_label,
    weighted_styles,
)

from tests.support.project_root import ROOT

TIPS = np.array([(0.0, 0.0), (2.0, 1.0), (-1.0, 2.0)])


def test_more_weight_draws_a_key_wider_and_stronger_and_a_masked_one_dashed_and_faint():
    styles = weighted_styles(np.array([0.0, 1.0, 0.5]), np.array([True, True, False]), line_scale=2.0)
    assert styles[0] == (3.0, MIN_WEIGHT_EMPHASIS, False)
    assert styles[1] == (11.0, 1.0, False)
    assert styles[2] == (7.0, MASKED_EMPHASIS, True)


def test_the_chosen_query_is_bold_and_the_others_faded():
    assert query_style(True, 1.0) == (3.5, 1.0)
    assert query_style(False, 1.7) == (2.0 * 1.7, FADED_QUERY_EMPHASIS)


def test_labels_name_the_weight_unless_veiled_masked_or_too_small_in_a_crowd():
    assert weight_label("k·cat", 0.755, True, crowded=False, veiled=False, hidden_text="?") == "k·cat 76%"
    assert weight_label("k·cat", 0.755, True, crowded=False, veiled=True, hidden_text="?") == "k·cat ?"
    assert weight_label("k·the", 0.0, False, crowded=False, veiled=False, hidden_text="?") == "k·the masked"
    assert weight_label("k·a", 0.01, True, crowded=True, veiled=False, hidden_text="?") == ""
    assert weight_label("k·a", 0.2, True, crowded=True, veiled=False, hidden_text="?") == "k·a"
    assert weight_label("k·a", 0.01, True, crowded=True, veiled=True, hidden_text="?") == "k·a"  # no weight told
    assert not crowded(16) and crowded(17)


def test_veiled_weights_are_an_even_split():
    np.testing.assert_array_equal(even_split(4), [0.25] * 4)
    assert even_split(0).shape == (0,)


@pytest.mark.parametrize(("width", "height", "count", "columns"), [
    (1800, 400, 3, 3),  # wide and short: one row
    (400, 1800, 3, 1),  # tall and narrow: one column
    (200, 900, 2, 1),  # two plots of 110 pixels do not fit side by side
])
def test_the_plots_go_in_as_many_columns_as_draw_the_arrows_largest(width, height, count, columns):
    assert columns_that_draw_largest(width, height, count, TIPS, label_height=16.0, current=2) == columns


def test_plots_a_class_can_drag_in_come_before_arrows_drawn_largest():
    # A 1280 × 720 canvas, two plots: one above the other draws these arrows larger, but 186 pixels high;
    # side by side each plot is over 200 pixels both ways.
    wide_arrows = np.array([(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (-1.0, 0.2)])
    assert columns_that_draw_largest(620, 490, 2, wide_arrows, label_height=16.0, current=1) == 2
    assert columns_that_draw_largest(620, 490, 2, wide_arrows, label_height=16.0, current=2) == 2


def test_a_canvas_near_the_balance_keeps_its_columns():
    # One column draws the arrows a few per cent larger here: no clear gain, so two columns stay (and one stays).
    assert columns_that_draw_largest(1160, 900, 2, TIPS, label_height=16.0, current=2) == 2
    assert columns_that_draw_largest(1160, 900, 2, TIPS, label_height=16.0, current=1) == 1


def test_plots_are_placed_in_reading_order():
    assert grid_places(3, 2) == [(0, 0), (0, 1), (1, 0)]
    assert grid_places(2, 1) == [(0, 0), (1, 0)]


def test_a_number_line_shows_every_number_and_room_for_the_answer_s_marker():
    assert number_line_range(np.array([-1.0, 3.0, 0.0])) == ((-2.0, 4.0), (-0.05, 1.25))
    assert number_line_range(np.array([0.0, 0.5])) == ((-0.25, 0.75), (-0.05, 1.25))


@pytest.mark.slow
def test_the_canvas_rules_need_no_qt():
    code = (
        "import sys\n"
        "import attn_desktop.geometry.plot_arrangement, attn_desktop.geometry.weight_style\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
