"""The challenges panel on its own: a bare scene, a progress store in a temporary folder."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QWidget

from attn_desktop.model import Role, read
from attn_desktop.model.scene_files import open_reading, open_scene
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, ProgressKind, ProgressStore
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.lessons.challenges_panel import SAVE_AFTER_STILL_MS, ChallengesPanel

CAT, SAT, MAT = 1, 2, 5
FOCUS, EVEN, TWINS, DOWN_RIGHT = range(4)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


@pytest.fixture
def reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def scene(reading):
    return reading.scene


@pytest.fixture
def make_panel(qtbot, data_dir):
    def make(scene):
        panel = ChallengesPanel(scene, ProgressStore(data_dir / "progress.json"))
        qtbot.addWidget(panel)
        panel.resize(420, 520)
        panel.show()
        qtbot.waitExposed(panel)
        return panel

    return make


def ticks(panel):
    return [row.tick_label.text() for row in panel.rows]


def make_twin_keys(scene, twin=MAT, original=CAT):
    scene.set_vector(Role.KEY, twin, read(scene).vectors(Role.KEY)[original].copy())


def saved_challenges(data_dir):
    """What a new run of the app would read from the progress file."""
    return ProgressStore(data_dir / "progress.json").done_ids(ProgressKind.CHALLENGES)




def test_it_opens_with_nothing_complete(make_panel, reading, scene):
    panel = make_panel(reading)
    assert panel.summary_label.text() == "0 of 4 complete"
    assert ticks(panel) == ["○"] * 4
    assert panel.rows[FOCUS].text_label.text().startswith("With scaling on, make the chosen query")
    assert "75.9% on k·cat" in panel.rows[FOCUS].status_label.text()
    assert "(1.54, 0.48)" in panel.rows[DOWN_RIGHT].status_label.text()


def test_meeting_a_challenge_ticks_it_and_remembers_it(make_panel, reading, scene, data_dir, qtbot):
    panel = make_panel(reading)
    make_twin_keys(scene)
    assert ticks(panel) == ["○", "○", "✓", "○"]
    assert panel.summary_label.text() == "1 of 4 complete"
    assert panel.rows[TWINS].status_label.text().startswith("Done: k·cat and k·mat")
    qtbot.waitUntil(lambda: saved_challenges(data_dir) == {"twin-keys"})
    assert ProgressStore().done_ids("challenges") == {"twin-keys"}  # the default location is the same folder


def test_a_completed_challenge_stays_ticked_when_undone_and_on_the_next_run(make_panel, reading, scene, qtbot, data_dir):
    panel = make_panel(reading)
    make_twin_keys(scene)
    scene.set_vector(Role.KEY, MAT, (1.8, -0.9))
    assert ticks(panel)[TWINS] == "✓"
    assert panel.rows[TWINS].status_label.text().startswith("Completed earlier. Right now: Move one key onto another")

    qtbot.waitUntil(lambda: saved_challenges(data_dir) == {"twin-keys"})
    next_run = make_panel(open_reading(scene_path(DEFAULT_SCENE)))
    assert next_run.summary_label.text() == "1 of 4 complete"
    assert ticks(next_run) == ["○", "○", "✓", "○"]


def test_the_status_names_what_cannot_be_seen(make_panel, reading, scene):
    panel = make_panel(reading)
    scene.set_scale(False)
    scene.set_vector(Role.KEY, CAT, (6.6, 3.0))
    assert panel.rows[FOCUS].status_label.text() == "Scaling is off: this one counts only with ÷√d_k on."
    assert ticks(panel)[FOCUS] == "○"
    assert "A query or key has moved (k·cat)" in panel.rows[DOWN_RIGHT].status_label.text()
    scene.set_scale(True)
    assert ticks(panel)[FOCUS] == "✓"


def test_values_only_meet_the_last_challenge(make_panel, reading, scene):
    panel = make_panel(reading)
    scene.set_vector(Role.VALUE, CAT, (1.8, -0.8))
    assert ticks(panel)[DOWN_RIGHT] == "✓"
    assert "down and to the right" in panel.rows[DOWN_RIGHT].status_label.text()


def test_a_scene_opened_already_solved_does_not_count_until_made_again(make_panel, reading, scene):
    panel = make_panel(reading)
    solved = open_scene(scene_path(DEFAULT_SCENE))
    make_twin_keys(solved, twin=4, original=0)  # k·the onto k·The
    scene.replace(solved.to_data())  # File → Open of a scene someone saved with twin keys
    assert panel.summary_label.text() == "0 of 4 complete"
    assert ticks(panel) == ["○"] * 4
    assert "already true when you started" in panel.rows[TWINS].status_label.text()
    scene.set_vector(Role.KEY, 4, (-1.4, -0.2))
    make_twin_keys(scene, twin=4, original=0)
    assert panel.summary_label.text() == "1 of 4 complete"
    assert ticks(panel) == ["○", "○", "✓", "○"]


def test_opening_a_scene_takes_its_vectors_as_the_new_start(make_panel, reading, scene):
    panel = make_panel(reading)
    moved = open_scene(scene_path(DEFAULT_SCENE))
    moved.set_vector(Role.KEY, MAT, (1.0, 1.0))
    scene.replace(moved.to_data())
    assert "has moved" not in panel.rows[DOWN_RIGHT].status_label.text()


def test_restart_asks_first_then_clears_the_ticks(make_panel, reading, scene, qtbot, monkeypatch):
    panel = make_panel(reading)
    make_twin_keys(scene)
    questions = []

    def answer(choice):
        def question(parent, title, text, *args, **kwargs):
            questions.append(title)
            return choice
        return question

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    qtbot.mouseClick(panel.restart_button, Qt.MouseButton.LeftButton)
    assert questions == ["Restart challenges"]
    assert panel.summary_label.text() == "1 of 4 complete"

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    qtbot.mouseClick(panel.restart_button, Qt.MouseButton.LeftButton)
    assert panel.summary_label.text() == "0 of 4 complete"
    assert ticks(panel) == ["○"] * 4
    assert ProgressStore().done_ids("challenges") == set()
    # The twins are still on one point; to count again they must be made again.
    assert "already true when you started" in panel.rows[TWINS].status_label.text()


def test_a_progress_file_that_cannot_be_saved_is_said_once_and_nothing_crashes(make_panel, reading, scene, data_dir, qtbot, writes):
    data_dir.mkdir(parents=True)
    (data_dir / "progress.json").symlink_to(data_dir / "not-mounted" / "progress.json")  # a link to nowhere
    panel = make_panel(reading)
    assert panel.notice_label.isHidden()
    make_twin_keys(scene)
    assert ticks(panel)[TWINS] == "✓"
    qtbot.waitUntil(panel.notice_label.isVisible)
    assert len(writes) == 1
    assert panel.notice_label.text().startswith("Your progress is kept for this session only")
    scene.set_vector(Role.KEY, MAT, (1.8, -0.9))  # the twins apart and together again: no second try to write
    make_twin_keys(scene)
    qtbot.wait(2 * SAVE_AFTER_STILL_MS)
    assert len(writes) == 1 and ticks(panel)[TWINS] == "✓"


# ----- when progress is written ------------------------------------------------------------


@pytest.fixture
def canvas_stand_in(qtbot):
    """Something to hold the mouse button down on, as a hand does on the canvas during a drag."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(200, 200)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_progress_is_written_once_the_drag_is_over_not_during_it(make_panel, reading, scene, data_dir, qtbot, writes, canvas_stand_in):
    panel = make_panel(reading)
    QTest.mousePress(canvas_stand_in, Qt.MouseButton.LeftButton, pos=QPoint(100, 100))
    make_twin_keys(scene)  # a move of the drag meets the challenge
    assert ticks(panel)[TWINS] == "✓" and panel.summary_label.text() == "1 of 4 complete"  # shown at once
    qtbot.wait(3 * SAVE_AFTER_STILL_MS)  # the hand rests, the button still down
    assert writes == [] and saved_challenges(data_dir) == set()
    QTest.mouseRelease(canvas_stand_in, Qt.MouseButton.LeftButton, pos=QPoint(120, 100))
    qtbot.waitUntil(lambda: saved_challenges(data_dir) == {"twin-keys"})
    assert len(writes) == 1


def test_a_challenge_met_again_and_again_in_one_drag_is_written_once(make_panel, reading, scene, data_dir, qtbot, writes):
    panel = make_panel(reading)
    for _ in range(5):  # across the line and back, move after move
        make_twin_keys(scene)
        scene.set_vector(Role.KEY, MAT, (1.8, -0.9))
    scene.set_vector(Role.VALUE, CAT, (1.8, -0.8))  # and a second challenge in the same gesture
    assert ticks(panel) == ["○", "○", "✓", "✓"]
    qtbot.waitUntil(lambda: saved_challenges(data_dir) == {"twin-keys", "sat-down-right"})
    qtbot.wait(2 * SAVE_AFTER_STILL_MS)
    assert len(writes) == 1


def test_closing_the_panel_writes_at_once(make_panel, reading, scene, data_dir, writes):
    panel = make_panel(reading)
    make_twin_keys(scene)
    assert writes == []
    panel.close()  # the window closing hides it before the pause has passed
    assert saved_challenges(data_dir) == {"twin-keys"} and len(writes) == 1
