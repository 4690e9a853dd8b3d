"""Recovery copies: restored work is protected again at once, each window keeps one copy of its own, and another
window's live copy is never offered or taken."""

import json

from attn_desktop.model import Role, ViewState, read
from attn_desktop.model.scene_files import scene_document
from attn_desktop.ui.document import autosave
from attn_desktop.ui.window.startup.app import default_scene

from tests.support.crash import pretend_the_process_died
from tests.support.never_lost import Buttons, autosave_write, full_disk, save_as_answers, start_again


def test_restored_work_is_copied_again_at_once_so_a_second_crash_loses_nothing(qtbot, window, asked):
    window.scene.set_vector(Role.KEY, 1, [0.5, 0.5])
    window.autosaver.write_now()
    first_copy = window.autosaver.path
    pretend_the_process_died(window)
    window.question_answers.extend([Buttons.Yes, Buttons.Yes])
    again = start_again(qtbot, window)
    assert again.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5]
    assert not first_copy.exists()
    assert json.loads(again.autosaver.path.read_text(encoding="utf-8"))["scene"]["keys"][1] == [0.5, 0.5]
    pretend_the_process_died(again)  # a second crash, before any edit
    third = start_again(qtbot, window)
    assert [title for title, _ in asked] == ["Restore unsaved work?"] * 2
    assert read(third.scene).vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and third.windowTitle().startswith("*")
    for w in (again, third):
        w.history.reset()


def test_restored_work_whose_new_copy_cannot_be_written_keeps_the_old_copy(qtbot, window, monkeypatch, asked):
    window.scene.set_causal(True)
    window.autosaver.write_now()
    first_copy = window.autosaver.path
    pretend_the_process_died(window)
    monkeypatch.setattr(autosave, "write_json_atomically", full_disk)
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert again.scene.causal and first_copy.exists()  # the only copy of the work is not thrown away
    assert again.unprotected_label.isVisible()
    monkeypatch.setattr(autosave, "write_json_atomically", autosave_write)  # room on the disk again
    again.autosaver.write_now()
    assert not first_copy.exists() and again.autosaver.path.exists() and not again.unprotected_label.isVisible()
    again.history.reset()


def test_saving_restored_work_removes_every_copy_of_it(qtbot, window, tmp_path, monkeypatch, asked):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    pretend_the_process_died(window)
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    save_as_answers(monkeypatch, tmp_path / "kept.json")
    again.menu_actions["save_action"].trigger()
    assert json.loads((tmp_path / "kept.json").read_text(encoding="utf-8"))["scale"] is False
    assert sorted(p.name for p in window.autosaver.folder.glob("autosave*.json")) == []


def test_a_second_window_does_not_offer_or_delete_the_first_ones_live_work(qtbot, window, asked):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    second = start_again(qtbot, window)
    assert asked == [] and window.autosaver.path.exists()
    second.scene.set_causal(True)
    second.autosaver.write_now()
    assert second.autosaver.path != window.autosaver.path
    third = start_again(qtbot, window)
    assert asked == [] and window.autosaver.path.exists() and second.autosaver.path.exists()
    assert json.loads(window.autosaver.path.read_text(encoding="utf-8"))["scene"]["scale"] is False
    assert json.loads(second.autosaver.path.read_text(encoding="utf-8"))["scene"]["causal"] is True
    second.history.reset()
    assert third.scene.scale


def test_no_deletes_only_the_dead_windows_copy(qtbot, window, asked):
    live = start_again(qtbot, window)
    live.scene.set_causal(True)
    live.autosaver.write_now()
    window.scene.set_scale(False)
    window.autosaver.write_now()
    dead_copy = window.autosaver.path
    pretend_the_process_died(window)
    window.question_answers.append(Buttons.No)
    start_again(qtbot, window)
    assert len(asked) == 1 and "No deletes this copy" in asked[0][1]
    assert not dead_copy.exists() and live.autosaver.path.exists()
    live.history.reset()


def test_the_shared_copy_of_an_earlier_version_is_offered_and_taken_over(qtbot, window, asked, private_data_dir):
    view = ViewState()  # the file's own query chosen, and kept with it
    scene = default_scene(view)
    scene.set_vector(Role.KEY, 1, [0.25, 0.75])
    private_data_dir.mkdir(exist_ok=True)
    legacy = private_data_dir / "autosave.json"
    legacy.write_text(json.dumps({"source": None, "scene": scene_document(scene, view)}), encoding="utf-8")
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert again.reading().vectors(Role.KEY)[1].tolist() == [0.25, 0.75]
    assert not legacy.exists() and again.autosaver.path.exists()
    again.history.reset()


def test_closing_normally_leaves_no_copy_and_no_lock(qtbot, window, private_data_dir):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    assert sorted(p.suffix for p in private_data_dir.glob("autosave-*")) == [".json", ".lock"]
    window.question_answers.append(Buttons.Discard)
    assert window.close()
    assert list(private_data_dir.glob("autosave*")) == []
