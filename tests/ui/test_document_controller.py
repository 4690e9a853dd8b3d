"""The document controller alone: a bare scene and history, and scripted dialogs instead of real ones.

Each test is something a user would check: what the title says, which question comes and when,
what a file holds afterwards, and that a refusal or Cancel leaves the work as it was.
"""

import json
import os
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest

from attn_desktop.model import HeadReading, Role, Scene, ViewState, read
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.scene_files import load_into, open_scene, save_scene, scene_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document.autosave import Autosaver
from attn_desktop.ui.document.document_controller import DocumentController, SaveChanges
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.settings import remember_recent

from tests.support.crash import pretend_the_process_died

TITLE_END = " — Attention Desktop"


class ScriptedDialogs:
    """Records every question and message; answers from scripts a test fills (a question not scripted fails)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, object]] = []
        self.open_paths: list[Path | None] = []
        self.save_paths: list[Path | None] = []
        self.save_changes: list[SaveChanges] = []
        self.copy_elsewhere: list[bool] = []
        self.restore: list[bool] = []
        self.errors: list[tuple[str, str]] = []
        self.statuses: list[str] = []
        self.title = ""

    def _answer(self, kind: str, detail: object, answers: list):
        self.asked.append((kind, detail))
        assert answers, f"not expected to ask: {kind} ({detail})"
        return answers.pop(0)

    def ask_open_path(self, folder: Path) -> Path | None:
        return self._answer("open", folder, self.open_paths)

    def ask_save_path(self, suggested: Path) -> Path | None:
        return self._answer("save as", suggested, self.save_paths)

    def ask_save_changes(self) -> SaveChanges:
        return self._answer("save changes", None, self.save_changes)

    def ask_copy_elsewhere(self, question: str) -> bool:
        return self._answer("copy elsewhere", question, self.copy_elsewhere)

    def ask_restore(self, question: str) -> bool:
        return self._answer("restore", question, self.restore)

    def show_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))

    def show_status(self, message: str, milliseconds: int) -> None:
        self.statuses.append(message)

    def set_title(self, title: str) -> None:
        self.title = title

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.asked]


def shown(doc: DocumentController) -> HeadReading:
    """The scene's first head as the document's window looks at it."""
    return HeadReading(doc.scene, doc.history.view, at=(0, 0))


class LessonShelf:
    """The lessons as the controller sees them: which one is shown, and the app's own scenes."""

    def __init__(self, scene: Scene, view: ViewState) -> None:
        self.scene, self.view = scene, view
        self.shown: list[str | None] = []

    def show(self, lesson_id: str | None) -> None:
        self.shown.append(lesson_id)

    def load_builtin(self, name: str) -> bool:
        load_into(self.scene, scene_path(name), self.view)
        return True

    def keep_scene(self) -> bool:
        return False  # these documents are the student's own scenes


@pytest.fixture
def doc(qapp, tmp_path):
    view = ViewState()  # the window's, as the window opens the file: "sat" chosen
    scene = open_scene(scene_path(DEFAULT_SCENE), view)
    history = EditHistory(scene, view)
    dialogs = ScriptedDialogs()
    elsewhere: list = []
    controller = DocumentController(
        scene, history, Autosaver(scene, view, folder=tmp_path / "data"), dialogs, LessonShelf(scene, view),
        open_elsewhere=lambda left: elsewhere.append(left) or f"window for {left.data.title}",
        start_folder=tmp_path / "documents",
    )
    controller.update_title()
    controller.opened_elsewhere = elsewhere
    yield controller
    controller.autosaver.discard()
    history.stack.clear()


def edit(doc) -> None:
    """A user's edit: k·cat moved to (0.5, 0.5)."""
    doc.history.do(move_arrow(shown(doc), Role.KEY, 1, before=shown(doc).vectors(Role.KEY)[1], after=[0.5, 0.5]))


def saved_file(tmp_path, name="mine.json", title="Mine") -> Path:
    view = ViewState()  # the file's own query chosen, and saved with it
    scene = open_scene(scene_path(DEFAULT_SCENE), view)
    scene.title = title
    path = tmp_path / name
    save_scene(scene, path, view)
    return path


# ----- the title ---------------------------------------------------------------------------------

def test_the_title_names_the_scene_and_marks_unsaved_work_until_it_is_undone(doc):
    assert doc.dialogs.title == "The cat sat on the mat" + TITLE_END
    edit(doc)
    assert doc.dialogs.title == "*The cat sat on the mat" + TITLE_END
    doc.history.stack.undo()
    assert doc.dialogs.title == "The cat sat on the mat" + TITLE_END


def test_a_saved_scene_is_named_by_its_file(doc, tmp_path):
    assert doc.open_scene(saved_file(tmp_path))
    assert doc.dialogs.title == "mine.json" + TITLE_END and doc.path == tmp_path / "mine.json"


# ----- opening ----------------------------------------------------------------------------------

def test_opening_a_broken_file_shows_one_message_and_keeps_the_scene(doc, tmp_path):
    edit(doc)
    doc.history.stack.setClean()  # saved somewhere: no question first
    before = scene_document(doc.scene)
    broken = tmp_path / "broken.json"
    broken.write_text('{"tokens": ["a", "b"], "queries": [[1, 0], [0, "x"]]', encoding="utf-8")
    doc.dialogs.open_paths.append(broken)
    doc.choose_and_open()
    [(title, message)] = doc.dialogs.errors
    assert title == "Cannot open scene" and message.startswith(str(broken)) and "\n" not in message
    assert scene_document(doc.scene) == before and doc.path is None
    assert doc.dialogs.title == "The cat sat on the mat" + TITLE_END
    doc.dialogs.open_paths.append(None)  # the next Open starts where the user was looking
    doc.choose_and_open()
    assert doc.dialogs.asked[-1] == ("open", tmp_path)


def test_a_folder_chosen_as_a_scene_is_a_message_too(doc, tmp_path):
    assert not doc.open_scene(tmp_path)
    [(title, message)] = doc.dialogs.errors
    assert title == "Cannot open scene" and message.startswith(str(tmp_path))


def test_opening_a_file_starts_afresh_with_no_lesson_and_remembers_the_folder(doc, tmp_path):
    edit(doc)
    doc.history.stack.setClean()
    (tmp_path / "class").mkdir()
    path = saved_file(tmp_path / "class")
    doc.dialogs.open_paths.append(path)
    doc.choose_and_open()
    assert doc.scene.title == "Mine" and read(doc.scene).vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert doc.history.stack.count() == 0 and not doc.modified  # nothing to undo in a file just opened
    assert doc.lessons.shown[-1] is None  # one's own scene has no lesson
    doc.dialogs.open_paths.append(None)  # the next Open starts in that folder; Cancel changes nothing
    doc.choose_and_open()
    assert doc.dialogs.asked[-1] == ("open", tmp_path / "class")
    assert doc.scene.title == "Mine"


def test_the_first_dialog_opens_in_the_given_folder(doc, tmp_path):
    doc.dialogs.open_paths.append(None)
    doc.choose_and_open()
    assert doc.dialogs.asked == [("open", tmp_path / "documents")]


# ----- unsaved changes -----------------------------------------------------------------------------

@pytest.mark.parametrize("replace", ["new", "open"])
def test_cancel_at_the_unsaved_changes_question_keeps_everything(doc, tmp_path, replace):
    edit(doc)
    doc.dialogs.save_changes.append(SaveChanges.CANCEL)
    if replace == "new":
        doc.new_scene()
    else:
        assert doc.open_scene(saved_file(tmp_path)) is False
    assert doc.dialogs.kinds() == ["save changes"]
    assert read(doc.scene).vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and doc.scene.title == "The cat sat on the mat"
    assert doc.history.stack.count() == 1 and doc.dialogs.title.startswith("*")
    doc.history.stack.undo()  # the edit can still be taken back
    assert read(doc.scene).vectors(Role.KEY)[1].tolist() == [2.2, 1.0]


def test_discard_lets_the_new_scene_in(doc):
    edit(doc)
    doc.dialogs.save_changes.append(SaveChanges.DISCARD)
    doc.new_scene()
    assert doc.scene.title == "Untitled" and doc.path is None and not doc.modified
    assert doc.dialogs.title == "Untitled" + TITLE_END
    assert doc.lessons.shown[-1] == "scaled-attention"  # the new scene is that lesson's scene


def test_save_at_the_question_saves_first_and_a_cancelled_save_keeps_the_scene(doc, tmp_path):
    edit(doc)
    other = saved_file(tmp_path, "other.json", "Other")
    doc.dialogs.save_changes.extend([SaveChanges.SAVE, SaveChanges.SAVE])
    doc.dialogs.save_paths.append(None)  # first: Save As cancelled, so nothing is replaced
    assert doc.open_scene(other) is False
    assert read(doc.scene).vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and doc.modified
    doc.dialogs.save_paths.append(tmp_path / "kept")  # then saved (as kept.json), and the file opens
    assert doc.open_scene(other)
    assert json.loads((tmp_path / "kept.json").read_text(encoding="utf-8"))["keys"][1] == [0.5, 0.5]
    assert doc.scene.title == "Other" and doc.dialogs.title == "other.json" + TITLE_END


def test_nothing_is_asked_when_nothing_changed(doc):
    doc.new_scene()
    assert doc.dialogs.asked == []


def test_closing_asks_first_and_cancel_keeps_the_window(doc):
    edit(doc)
    doc.autosaver.write_now()
    doc.dialogs.save_changes.extend([SaveChanges.CANCEL, SaveChanges.DISCARD])
    assert doc.close() is False and doc.autosaver.path.exists()
    assert doc.close() is True and not doc.autosaver.path.exists()  # let go: its recovery copy goes too


# ----- saving ---------------------------------------------------------------------------------------

def test_save_as_offers_a_name_from_the_title_and_adds_json(doc, tmp_path):
    edit(doc)
    doc.dialogs.save_paths.append(tmp_path / "lesson plan")
    assert doc.save()
    assert doc.dialogs.asked == [("save as", tmp_path / "documents" / "the-cat-sat-on-the-mat.json")]
    saved = tmp_path / "lesson plan.json"
    assert json.loads(saved.read_text(encoding="utf-8"))["keys"][1] == [0.5, 0.5]
    assert doc.path == saved and doc.dialogs.title == "lesson plan.json" + TITLE_END and not doc.modified


def test_a_typed_extension_is_kept(doc, tmp_path):
    doc.dialogs.save_paths.append(tmp_path / "notes.scene")
    assert doc.choose_and_save() and (tmp_path / "notes.scene").exists() and not (tmp_path / "notes.scene.json").exists()


def test_ctrl_s_on_an_opened_file_writes_it_without_asking(doc, tmp_path):
    path = saved_file(tmp_path)
    assert doc.open_scene(path)
    edit(doc)
    assert doc.save() and doc.dialogs.asked == []
    assert json.loads(path.read_text(encoding="utf-8"))["keys"][1] == [0.5, 0.5]
    assert doc.dialogs.title == "mine.json" + TITLE_END


def test_a_read_only_file_offers_a_copy_elsewhere(doc, tmp_path):
    path = saved_file(tmp_path)
    assert doc.open_scene(path)
    os.chmod(path, stat.S_IRUSR)
    before = path.read_bytes()
    edit(doc)
    doc.dialogs.copy_elsewhere.append(False)  # declined: the file as it was, the work still unsaved
    assert doc.save() is False
    [(kind, question)] = doc.dialogs.asked
    assert kind == "copy elsewhere" and question == "mine.json is read-only. Save a copy elsewhere?"
    assert path.read_bytes() == before and doc.dialogs.title.startswith("*") and doc.dialogs.errors == []
    doc.dialogs.copy_elsewhere.append(True)  # accepted: Save As, offered beside the file
    doc.dialogs.save_paths.append(tmp_path / "copy.json")
    assert doc.save()
    assert doc.dialogs.asked[-1] == ("save as", tmp_path / "mine.json")
    assert doc.path == tmp_path / "copy.json" and path.read_bytes() == before
    assert doc.dialogs.title == "copy.json" + TITLE_END


def test_a_failed_save_says_why_and_keeps_the_star(doc, tmp_path):
    edit(doc)
    doc.dialogs.save_paths.append(tmp_path / "no such folder" / "mine.json")
    assert doc.save() is False
    [(title, message)] = doc.dialogs.errors
    assert title == "Cannot save scene" and message.startswith(str(tmp_path / "no such folder"))
    assert doc.modified and doc.path is None and doc.dialogs.title.startswith("*")


def test_export_names_follow_the_scene_and_its_folder(doc, tmp_path):
    assert doc.suggested_name("-results.json") == tmp_path / "documents" / "the-cat-sat-on-the-mat-results.json"
    assert doc.open_scene(saved_file(tmp_path))
    assert doc.suggested_name(".png") == tmp_path / "mine.png"


# ----- recent files ------------------------------------------------------------------------------

def test_opened_and_saved_files_come_first_in_the_recent_list(doc, tmp_path):
    first, second = saved_file(tmp_path, "first.json"), saved_file(tmp_path, "second.json")
    assert doc.open_scene(first) and doc.open_scene(second)
    doc.dialogs.save_paths.append(tmp_path / "third.json")
    assert doc.choose_and_save()
    assert [path.name for path in doc.recent_files()] == ["third.json", "second.json", "first.json"]
    doc.open_recent(first)
    assert doc.path == first and doc.recent_files()[0] == first.resolve()


def test_a_recent_file_that_is_gone_is_said_and_forgotten(doc, tmp_path):
    gone = tmp_path / "gone.json"
    remember_recent(gone)
    doc.open_recent(gone)
    assert doc.dialogs.errors == [("Cannot open scene", f"{gone}: the file is no longer there")]
    assert gone.resolve() not in doc.recent_files()
    assert doc.scene.title == "The cat sat on the mat"


# ----- the recovery copy -------------------------------------------------------------------------

def test_an_edit_is_copied_aside_and_saving_removes_the_copy(doc, qtbot, tmp_path):
    edit(doc)
    qtbot.waitUntil(doc.autosaver.path.exists, timeout=5000)  # written a moment after the edit
    copy = json.loads(doc.autosaver.path.read_text(encoding="utf-8"))
    assert copy["scene"]["keys"][1] == [0.5, 0.5] and copy["source"] is None
    doc.dialogs.save_paths.append(tmp_path / "mine.json")
    assert doc.save() and not doc.autosaver.path.exists()


def left_behind(tmp_path, title: str, source: Path | None = None) -> Path:
    """A window that died with unsaved work in the same data folder; its recovery copy."""
    scene = open_scene(scene_path(DEFAULT_SCENE))
    scene.title = title
    scene.set_vector(Role.KEY, 1, [0.5, 0.5])
    dead = SimpleNamespace(autosaver=Autosaver(scene, ViewState(), folder=tmp_path / "data"))
    dead.autosaver.source_path = source
    assert dead.autosaver.write_now()
    pretend_the_process_died(dead)
    return dead.autosaver.path


@pytest.mark.slow
def test_work_a_crash_left_is_offered_and_comes_back_unsaved(doc, tmp_path):
    source = saved_file(tmp_path, "lesson.json")
    dead_copy = left_behind(tmp_path, "Before the crash", source)
    doc.dialogs.restore.append(True)
    doc.offer_to_restore()
    [(kind, question)] = doc.dialogs.asked
    assert kind == "restore" and "\u201cBefore the crash\u201d (lesson.json)" in question
    assert "window of its own" not in question
    assert doc.scene.title == "Before the crash" and read(doc.scene).vectors(Role.KEY)[1].tolist() == [0.5, 0.5]
    assert doc.path == source and doc.modified and doc.dialogs.title == "*lesson.json" + TITLE_END
    assert doc.autosaver.path.exists() and not dead_copy.exists()  # protected again at once, in our own copy


@pytest.mark.slow
def test_declined_work_is_deleted_and_a_second_one_opens_elsewhere(doc, tmp_path):
    copies = {title: left_behind(tmp_path, title) for title in ("Declined", "Second", "First")}
    for age, title in enumerate(("First", "Second", "Declined")):  # offered newest first
        os.utime(copies[title], (1_000_000 - age, 1_000_000 - age))
    doc.dialogs.restore.extend([True, True, False])
    doc.offer_to_restore()
    questions = [question for _, question in doc.dialogs.asked]
    assert "\u201cFirst\u201d (never saved)" in questions[0] and "window of its own" not in questions[0]
    assert "\u201cSecond\u201d" in questions[1] and "It opens in a window of its own." in questions[1]
    assert "\u201cDeclined\u201d" in questions[2]
    assert doc.scene.title == "First"
    assert [left.data.title for left in doc.opened_elsewhere] == ["Second"]
    assert doc.restored_elsewhere == ["window for Second"]
    assert not copies["Declined"].exists()


def test_a_damaged_copy_is_set_aside_with_a_notice_and_nothing_asked(doc, tmp_path):
    damaged = tmp_path / "data" / "autosave-1-00000000.json"
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_text("{ not json", encoding="utf-8")
    doc.offer_to_restore()
    assert doc.dialogs.asked == [] and not damaged.exists()
    [notice] = doc.dialogs.statuses
    assert "damaged recovery copy" in notice
