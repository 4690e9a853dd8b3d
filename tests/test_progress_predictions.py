"""Predict, then see is remembered between runs: progress files of version 2, and older ones still open."""

import json

import pytest

from attn_desktop.model.teaching.prediction import SessionScore, compare
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, FORMAT_VERSION, ProgressStore


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def saved(data_dir):
    return json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))


def test_rounds_are_remembered_by_a_new_store(data_dir):
    store = ProgressStore()
    assert store.prediction_record() == SessionScore()
    store.record_prediction(compare([0.5, 0.3, 0.2], [0.2, 0.5, 0.3]))  # 70, winner wrong
    store.record_prediction(compare([0, 1, 0], [0.1, 0.8, 0.1]))  # 80, winner right
    again = ProgressStore()
    record = again.prediction_record()
    assert (record.rounds, record.winners_right) == (2, 1)
    assert record.average == pytest.approx(75.0) and record.best_score == pytest.approx(80.0)
    assert saved(data_dir)["version"] == FORMAT_VERSION == 2


def test_two_windows_add_their_rounds_together(data_dir):
    first, second = ProgressStore(), ProgressStore()
    first.record_prediction(compare([1, 0], [1, 0]))
    second.record_prediction(compare([1, 0], [0, 1]))
    assert ProgressStore().prediction_record().rounds == 2


def test_a_version_1_file_opens_keeps_its_ticks_and_is_written_as_version_2(data_dir):
    data_dir.mkdir()
    old = {"format": "attention-desktop-progress", "version": 1,
           "done": {"challenges": ["twin-keys"], "exercises": ["row-for-sat"]}}
    (data_dir / "progress.json").write_text(json.dumps(old), encoding="utf-8")
    store = ProgressStore()
    assert store.is_done("exercises", "row-for-sat") and store.prediction_record().rounds == 0
    store.record_prediction(compare([1, 0], [1, 0]))
    written = saved(data_dir)
    assert written["version"] == 2 and written["done"] == old["done"]
    assert written["predictions"] == {"rounds": 1, "total_score": 100.0, "winners_right": 1, "best_score": 100.0}
    assert not (data_dir / "progress.json.bad").exists()


def test_a_damaged_prediction_record_is_moved_aside_like_any_damaged_file(data_dir):
    data_dir.mkdir()
    damaged = {"format": "attention-desktop-progress", "version": 2, "done": {"exercises": ["row-for-sat"]},
               "predictions": {"rounds": "many"}}
    (data_dir / "progress.json").write_text(json.dumps(damaged), encoding="utf-8")
    store = ProgressStore()
    assert store.prediction_record() == SessionScore() and not store.is_done("exercises", "row-for-sat")
    store.record_prediction(compare([1, 0], [1, 0]))
    assert json.loads((data_dir / "progress.json.bad").read_text(encoding="utf-8")) == damaged
    assert saved(data_dir)["predictions"]["rounds"] == 1
