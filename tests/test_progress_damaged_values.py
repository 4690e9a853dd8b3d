"""Values in progress.json the app cannot use are copied aside before anything replaces them, and one damaged
kept scene costs that scene, not the student's progress (issue 44, round-4 findings F1 and F2: a kept scene that
is text or a list, or "scenes"/"lessons" that are lists, vanished on the first edit; one NaN, one endless
number, deep nesting or sheer size inside one kept scene moved the whole file to progress.json.bad)."""

import json
import logging

import pytest

from attn_desktop.model.teaching import progress as progress_module
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, ProgressStore

MARKER = "the student's own marker 7f3a"
PREDICTIONS = {"rounds": 12, "total_score": 861.5, "winners_right": 9, "best_score": 97.0}


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def write_progress(data_dir, lessons_text):
    """progress.json as raw text, so that it can hold what json.dumps never writes (NaN, endless numbers)."""
    text = ('{"format": "attention-desktop-progress", "version": 2, "done": {"challenges": ["scaled-focus"]}, '
            f'"predictions": {json.dumps(PREDICTIONS)}, "lessons": {lessons_text}}}')
    (data_dir / "progress.json").write_text(text, encoding="utf-8")


def on_disk(data_dir):
    return json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))


def copies(data_dir):
    return sorted(path.name for path in data_dir.iterdir() if path.name != "progress.json")


def assert_progress_kept(store, data_dir):
    assert store.done_ids("challenges") == {"scaled-focus"}
    assert store.prediction_record().rounds == 12
    saved = on_disk(data_dir)
    assert saved["done"]["challenges"] == ["scaled-focus"] and saved["predictions"]["rounds"] == 12


def lessons_with(open_lesson, scenes_text):
    return '{"open": "' + open_lesson + '", "scenes": ' + scenes_text + "}"


def scenes(**texts):
    return "{" + ", ".join(f'"{lesson.replace("_", "-")}": {text}' for lesson, text in texts.items()) + "}"


QUOTED = json.dumps(MARKER)
SHAPES = {  # F1: each holds MARKER where the app expects an object
    "scene_text": (lessons_with("soft-lookup", scenes(soft_lookup=QUOTED)), "progress.json.soft-lookup.scene.json"),
    "scene_list": (lessons_with("soft-lookup", scenes(soft_lookup=f"[{QUOTED}, 2]")),
                   "progress.json.soft-lookup.scene.json"),
    "scenes_list": (lessons_with("soft-lookup", f'[{{"title": {QUOTED}}}]'), "progress.json.scenes.json"),
    "lessons_list": (f'[{{"open": "soft-lookup", "title": {QUOTED}}}]', "progress.json.lessons.json"),
}


@pytest.mark.parametrize("case", sorted(SHAPES))
def test_a_value_of_the_wrong_shape_is_copied_aside_before_the_first_edit_replaces_it(data_dir, caplog, case):
    lessons_text, copy_name = SHAPES[case]
    write_progress(data_dir, lessons_text)
    store = ProgressStore()
    with caplog.at_level(logging.WARNING):
        store.leave_lesson("soft-lookup", {"title": "edited"})  # the student's first change, then leaving
    assert copies(data_dir) == [copy_name]
    assert MARKER in (data_dir / copy_name).read_text(encoding="utf-8")
    assert on_disk(data_dir)["lessons"]["scenes"] == {"soft-lookup": {"title": "edited"}}
    assert_progress_kept(store, data_dir)
    logged = [record.getMessage() for record in caplog.records]
    assert len(logged) == 1 and copy_name in logged[0]


def test_the_open_lessons_scene_of_the_wrong_shape_is_set_aside_when_the_lesson_opens(data_dir, caplog):
    write_progress(data_dir, SHAPES["scene_text"][0])
    store = ProgressStore()
    assert store.kept_lesson_scene("soft-lookup") is None
    problem = store.kept_scene_problem("soft-lookup")
    assert problem
    with caplog.at_level(logging.WARNING):
        copy = store.set_aside_kept_scene("soft-lookup", problem)
    assert copy == data_dir / "progress.json.soft-lookup.scene.json"
    assert json.loads(copy.read_text(encoding="utf-8")) == MARKER
    assert "soft-lookup" not in on_disk(data_dir)["lessons"]["scenes"]
    assert "progress.json.soft-lookup.scene.json" in store.notice and len(caplog.records) == 1


def scene_text(**replaced):
    fields = {"format": '"attention-scene"', "version": "3", "title": '"mine"', "tokens": '["a", "b"]',
              "queries": "[[1.0, 2.0]]"}
    fields.update(replaced)
    return "{" + ", ".join(f'"{key}": {value}' for key, value in fields.items()) + "}"


DAMAGED = {  # F2: what the JSON parser refuses, inside one kept scene
    "nan": (scene_text(queries="[[NaN, 2.0]]"), "NaN"),
    "endless_version": (scene_text(version="9" * 400), "400"),
    "deep_title": (scene_text(title="[" * 5000 + "]" * 5000), "deep"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_one_damaged_kept_scene_costs_that_scene_not_the_progress(data_dir, caplog, case):
    damaged, said = DAMAGED[case]
    other = scene_text(title='"the other lesson, intact"')
    write_progress(data_dir, lessons_with("scaled-attention", scenes(scaled_attention=damaged, projections=other)))
    store = ProgressStore()
    assert store.read_problem is None and store.notice == ""
    assert store.done_ids("challenges") == {"scaled-focus"} and store.prediction_record().rounds == 12
    assert store.last_lesson() == "scaled-attention"
    assert store.kept_lesson_scene("projections")["title"] == "the other lesson, intact"
    assert store.kept_lesson_scene("scaled-attention") is None
    assert said in store.kept_scene_problem("scaled-attention")
    assert (data_dir / "progress.json").read_text(encoding="utf-8").count(damaged) == 1  # reading writes nothing
    with caplog.at_level(logging.WARNING):
        store.mark_done("exercises", "first-row")  # any change: the damaged scene is copied aside first
    assert copies(data_dir) == ["progress.json.scaled-attention.scene.json"]
    assert (data_dir / "progress.json.scaled-attention.scene.json").read_text(encoding="utf-8").strip() == damaged
    saved = on_disk(data_dir)
    assert saved["lessons"]["scenes"] == {"projections": json.loads(other)}
    assert_progress_kept(store, data_dir)
    logged = [record.getMessage() for record in caplog.records]
    assert len(logged) == 1 and "scaled-attention" in logged[0] and said in logged[0]


def test_a_kept_scene_that_takes_the_file_past_its_limit_is_the_one_set_aside(data_dir, caplog):
    words = json.dumps([f"word{number}" for number in range(120_000)])  # about 1.4 MB
    huge, small = scene_text(tokens=words), scene_text(title='"small"')
    write_progress(data_dir, lessons_with("soft-lookup", scenes(soft_lookup=huge, projections=small)))
    assert (data_dir / "progress.json").stat().st_size > progress_module.MAX_FILE_BYTES
    store = ProgressStore()
    assert store.read_problem is None
    assert store.kept_lesson_scene("projections")["title"] == "small"
    assert store.kept_scene_problem("soft-lookup")
    with caplog.at_level(logging.WARNING):
        store.leave_lesson("projections", None)
    assert copies(data_dir) == ["progress.json.soft-lookup.scene.json"]
    assert json.loads((data_dir / "progress.json.soft-lookup.scene.json").read_text(encoding="utf-8")) \
        == json.loads(huge)
    assert_progress_kept(store, data_dir)
    assert len(caplog.records) == 1


def test_a_file_far_past_any_limit_is_still_set_aside_whole(data_dir, caplog):
    (data_dir / "progress.json").write_bytes(b" " * (progress_module.MAX_READ_BYTES + 1))
    store = ProgressStore()
    assert store.read_problem
    with caplog.at_level(logging.WARNING):
        store.mark_done("challenges", "scaled-focus")
    assert copies(data_dir) == ["progress.json.bad"]
    assert len(caplog.records) == 1 and "progress.json.bad" in caplog.records[0].getMessage()


def test_damage_outside_the_kept_scenes_still_sets_the_whole_file_aside_with_a_log_line(data_dir, caplog):
    write_progress(data_dir, '{"open": "soft-lookup"}')
    path = data_dir / "progress.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"version": 2', '"version": ' + "9" * 400),
                    encoding="utf-8")
    store = ProgressStore()
    assert store.read_problem and "400" in store.read_problem
    with caplog.at_level(logging.WARNING):
        store.mark_done("challenges", "twin-keys")
    assert copies(data_dir) == ["progress.json.bad"]
    logged = [record.getMessage() for record in caplog.records]
    assert len(logged) == 1 and "progress.json.bad" in logged[0]


def test_the_log_line_speaks_the_students_language(data_dir, caplog, speaking):
    write_progress(data_dir, SHAPES["scene_text"][0])
    speaking("es")
    store = ProgressStore()
    with caplog.at_level(logging.WARNING):
        store.set_aside_kept_scene("soft-lookup", store.kept_scene_problem("soft-lookup"))
    logged = caplog.records[0].getMessage()
    assert "soft-lookup" in logged and "could not" not in logged and "lección" in logged
