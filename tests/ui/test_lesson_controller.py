"""Lessons without the whole window: only the parts a lesson touches, around a real Lesson panel."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from attn_desktop.model import Role, ViewState, read
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.lessons.lesson_controller import LessonController
from attn_desktop.ui.lessons.lesson_panel import LessonPanel


class GridRoom:
    """The window's layout as far as the lessons go: it shows the Grids panel when the scene makes its vectors
    with grids (as the declared panels do) and counts the times it made room for them."""

    def __init__(self, grids: QDockWidget, uses_grids) -> None:
        self.grids, self.uses_grids = grids, uses_grids
        self.made = 0
        self.presenting = False
        self.showing_heads = False  # the canvas, not several heads, in the middle
        self.subject: frozenset = frozenset()

    def make_room_for_grids(self) -> None:
        wanted = self.uses_grids()
        if wanted and self.grids.isHidden():
            self.made += 1
        self.grids.setVisible(wanted)

    def open_companion(self, name: str | None) -> None:
        self.companion = name

    def show_wide(self, name: str) -> None:
        pass


class PredictionSwitch:
    def __init__(self) -> None:
        self.lessons_predicting: list[bool] = []

    def follow_lesson(self, lesson_predicts: bool) -> None:
        self.lessons_predicting.append(lesson_predicts)


class LessonWindow(QMainWindow):
    """A window with a Lesson dock and a Grids dock; it says yes or no to replacing the scene as told."""

    def __init__(self) -> None:
        super().__init__()
        self.view_state = ViewState()  # the window's own view
        self.scene = open_scene(scene_path(DEFAULT_SCENE), self.view_state)
        self.history = EditHistory(self.scene, self.view_state, self)
        self.lesson_panel = LessonPanel(ProgressStore())
        self.docks = {}
        for name, widget in ((DockId.LESSON, self.lesson_panel), (DockId.GRIDS, None)):
            self.docks[name] = dock = QDockWidget(name, self)
            dock.setWidget(widget)
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        self.dock_layout = GridRoom(self.docks[DockId.GRIDS], lambda: bool(self.scene.head(0, 0).grids))
        self.predictions = PredictionSwitch()
        self.may_replace = True
        self.errors: list[tuple[str, str]] = []
        self.lessons = LessonController(self.scene, self.view_state, self.history, self.lesson_panel,
                                        self.docks[DockId.LESSON], self.docks[DockId.GRIDS], self.dock_layout,
                                        self.predictions,
                                        self.show_lesson_code, self.show_error)
        self.lessons.document = self  # it stands for the document too

    def maybe_save_changes(self) -> bool:
        return self.may_replace

    def start(self, path, lesson_id) -> None:
        self.history.reset()
        self.lessons.show(lesson_id)

    def show_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))

    def show_lesson_code(self, lesson_id) -> None:
        self.lesson_code_for = lesson_id


@pytest.fixture
def host(qtbot):
    window = LessonWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.lessons.show(None)  # a scene of one's own, without grids, as the app starts
    yield window
    window.history.reset()  # an undo stack emptied while Qt deletes it would call back into Python


def test_a_lesson_with_grids_shows_its_text_and_the_grids(host):
    assert not host.docks[DockId.GRIDS].isVisible()
    assert host.lessons.open("projections")
    projections = lessons.lesson("projections")
    assert host.lessons.current == "projections"
    assert host.lesson_panel.formula_label.text() == projections.formula
    assert host.docks[DockId.GRIDS].isVisible() and host.dock_layout.made == 1
    assert host.lessons.open("soft-lookup")
    assert not host.docks[DockId.GRIDS].isVisible()


def test_work_that_may_not_be_replaced_keeps_scene_and_lesson(host):
    host.lessons.show("scaled-attention")
    before = read(host.scene).vectors(Role.QUERY).tolist()
    host.may_replace = False
    assert not host.lessons.open("soft-lookup")
    assert host.lessons.current == "scaled-attention" and read(host.scene).vectors(Role.QUERY).tolist() == before


def test_show_me_is_one_step_that_undo_takes_back(host):
    assert host.lessons.open("projections")
    before = read(host.scene).vectors(Role.QUERY).tolist()
    show_me = next(e.show_me for e in exercises_for("projections") if e.show_me and e.show_me.steps)
    host.lessons.apply_show_me(show_me)
    assert host.history.stack.count() == 1 and host.history.stack.undoText() == "Show me"
    host.history.stack.undo()
    assert read(host.scene).vectors(Role.QUERY).tolist() == before


def test_a_missing_builtin_scene_is_one_message_and_changes_nothing(host):
    before = read(host.scene).vectors(Role.QUERY).tolist()
    assert not host.lessons.load_builtin("no-such-lesson.json")
    assert [title for title, _ in host.errors] == ["Cannot open lesson"]
    assert read(host.scene).vectors(Role.QUERY).tolist() == before
