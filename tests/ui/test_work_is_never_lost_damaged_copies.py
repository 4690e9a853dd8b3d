"""A damaged recovery copy never stops the start: it is set aside with a notice, and a good one beside it is
still offered."""

import os

import pytest

from attn_desktop.ui.document import autosave
from attn_desktop.ui.window.startup.app import default_scene

from tests.support.crash import pretend_the_process_died
from tests.support.in_the_window import table_column
from tests.support.never_lost import (
    Buttons,
    a_dangling_link,
    a_fifo,
    a_folder,
    a_link_to_dev_urandom,
    a_link_to_dev_zero,
    binary_garbage,
    deeply_nested,
    empty,
    five_thousand_digits,
    huge_integers,
    not_a_scene,
    start_again,
)

DAMAGE = [deeply_nested, huge_integers, five_thousand_digits, a_fifo, a_link_to_dev_zero, a_link_to_dev_urandom,
          binary_garbage, a_folder, a_dangling_link, not_a_scene, empty]


@pytest.mark.parametrize("name", ["autosave-4242-badc0de.json", "autosave.json"])
@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_recovery_copy_is_set_aside_with_a_notice(
        qtbot, window, asked, deadline, no_tracebacks, private_data_dir, damage, name):
    private_data_dir.mkdir(exist_ok=True)
    copy = private_data_dir / name
    damage(copy)
    again = start_again(qtbot, window)
    assert asked == []  # nothing to offer, nothing to answer
    notice = again.statusBar().currentMessage()
    [aside] = [p.name for p in private_data_dir.iterdir() if "-damaged-" in p.name]
    assert notice.startswith("A damaged recovery copy (") and notice.endswith(f"was set aside as {aside}.")
    assert "\n" not in notice and aside.startswith(copy.stem + "-damaged-")
    assert not os.path.lexists(copy)
    assert table_column(again, 0) == default_scene().tokens  # the app started as usual
    assert find_left_nothing(private_data_dir)  # and the next start is not bothered again


def find_left_nothing(folder) -> bool:
    left, notices = autosave.find_left_work(folder)
    return left == [] and notices == []


def test_a_damaged_copy_beside_a_good_one_does_not_hide_it(qtbot, window, asked, private_data_dir):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    pretend_the_process_died(window)
    binary_garbage(private_data_dir / "autosave-99-abc.json")
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert not again.scene.scale and "set aside" in again.statusBar().currentMessage()
    again.history.reset()
