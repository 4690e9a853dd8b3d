"""Progress files made to break the store: special files, endless numbers, a BOM, links to nowhere.

Whatever is found under progress.json, the store starts (at once, reading little), says why the file could
not be used, keeps it under a name no earlier copy has, and never raises: progress is a convenience, the
app's start must never depend on it.
"""

import json
import os
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_desktop.model.teaching.prediction import compare
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, ProgressKind, ProgressStore

GOOD = {"format": "attention-desktop-progress", "version": 2, "done": {"challenges": ["twin-keys"]},
        "predictions": {"rounds": 3, "total_score": 210.0, "winners_right": 2, "best_score": 90.0}}


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def started(seconds=10.0) -> ProgressStore:
    """ProgressStore() as the window makes it, failing the test if it hangs or raises."""
    outcome = {}

    def load():
        try:
            outcome["store"] = ProgressStore()
        except BaseException as error:  # noqa: BLE001 - the test inspects whatever came out
            outcome["error"] = error

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "reading the progress file hung"
    assert "error" not in outcome, outcome
    return outcome["store"]


def with_rounds(digits: str) -> bytes:
    return json.dumps(GOOD).replace('"rounds": 3', f'"rounds": {digits}').encode()


def a_fifo(path):
    os.mkfifo(path)


def a_link_to_dev_zero(path):
    path.symlink_to("/dev/zero")


def a_folder(path):
    path.mkdir()


def written(content: bytes):
    return lambda path: path.write_bytes(content)


HOSTILE = {
    "400-digit rounds": (written(with_rounds("9" * 400)), "400 digits"),
    "25-digit rounds": (written(with_rounds("9" * 25)), "rounds and winners right must be whole numbers"),
    "negative rounds": (written(with_rounds("-1")), "record of predictions is damaged"),
    "a score of 1e308": (written(json.dumps(GOOD).replace("210.0", "1e308").encode()), "damaged"),
    "NaN": (written(json.dumps(GOOD).replace("210.0", "NaN").encode()), "NaN is not a number"),
    "a FIFO": (a_fifo, "a pipe (FIFO), not a progress file"),
    "a link to /dev/zero": (a_link_to_dev_zero, "a device, not a progress file"),
    "a folder": (a_folder, "a folder, not a progress file"),
    "binary garbage": (written(bytes(range(256)) * 8), "not UTF-8 text"),
    "deep nesting": (written(b'{"format": "attention-desktop-progress", "x": ' + b"[" * 100_000 + b"]" * 100_000
                             + b"}"), "nested too deeply"),
    "over the size limit": (written(b'{"pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'),
                            "progress files are limited to 1,048,576"),
    "UTF-16": (written(json.dumps(GOOD).encode("utf-16")), "not UTF-8 text"),
}


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.timing
def test_a_hostile_progress_file_starts_empty_says_why_and_is_kept_whole(data_dir, name):
    make, reason = HOSTILE[name]
    path = data_dir / "progress.json"
    make(path)
    before = os.lstat(path)
    began = time.perf_counter()
    store = started()
    assert time.perf_counter() - began < 2.0  # read at once: nothing blocked, nothing read to the end
    assert store.done_ids("challenges") == set() and store.prediction_record().rounds == 0
    assert reason in store.notice and store.notice.startswith("Earlier progress could not be read (")
    assert os.lstat(path).st_ino == before.st_ino  # only reading: the file stays as it was
    store.mark_done(ProgressKind.EXERCISES, "row-for-sat")
    kept = data_dir / "progress.json.bad"
    assert os.lstat(kept).st_ino == before.st_ino  # renamed itself (a link stays a link, a pipe a pipe)
    assert store.notice.endswith("it was kept as progress.json.bad") and store.last_error is None
    assert started().done_ids("exercises") == {"row-for-sat"}  # new progress is saved again


def test_a_bom_from_notepad_is_read_as_the_same_progress(data_dir):
    (data_dir / "progress.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    store = started()
    assert store.is_done("challenges", "twin-keys") and store.prediction_record().rounds == 3
    assert store.notice == ""
    store.record_prediction(compare([1, 0], [1, 0]))
    assert started().prediction_record().rounds == 4 and not (data_dir / "progress.json.bad").exists()


def test_the_largest_sensible_record_still_reads(data_dir):
    record = {"rounds": 10**9, "total_score": 5e10, "winners_right": 10**9, "best_score": 100}
    (data_dir / "progress.json").write_text(json.dumps(dict(GOOD, predictions=record)), encoding="utf-8")
    assert started().prediction_record().rounds == 10**9


def test_a_second_damaged_file_never_overwrites_the_first_kept_copy(data_dir):
    path = data_dir / "progress.json"
    for number, damage in enumerate([b"{first", b"{second", b"{third"], start=1):
        path.write_bytes(damage)
        store = started()
        store.mark_done(ProgressKind.CHALLENGES, f"challenge-{number}")
    assert (data_dir / "progress.json.bad").read_bytes() == b"{first"
    assert (data_dir / "progress.json.bad-2").read_bytes() == b"{second"
    assert (data_dir / "progress.json.bad-3").read_bytes() == b"{third"
    assert store.notice.endswith("it was kept as progress.json.bad-3")


def test_a_file_damaged_by_another_program_while_running_is_kept_too(data_dir):
    store = started()
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys")
    (data_dir / "progress.json").write_bytes(b"\x00 half a copy")
    store.mark_done(ProgressKind.CHALLENGES, "even-spread")  # this run's progress is kept, the damage set aside
    assert (data_dir / "progress.json.bad").read_bytes() == b"\x00 half a copy"
    assert started().done_ids("challenges") == {"twin-keys", "even-spread"}


def test_a_dangling_link_is_written_through_once_its_folder_is_there(data_dir, tmp_path):
    share = tmp_path / "class-share"
    (data_dir / "progress.json").symlink_to(share / "progress.json")
    store = started()
    assert store.notice == ""  # nothing to read yet, nothing lost
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys")
    assert store.notice == (f"Progress is not being saved: {data_dir / 'progress.json'} links to "
                            f"{share / 'progress.json'}, which cannot be written (No such file or directory)")
    assert store.is_done("challenges", "twin-keys")  # kept for this run
    share.mkdir()  # the share is mounted
    store.mark_done(ProgressKind.EXERCISES, "row-for-sat")
    assert store.notice == "" and (data_dir / "progress.json").is_symlink()
    assert json.loads((share / "progress.json").read_text(encoding="utf-8"))["done"] == {
        "challenges": ["twin-keys"], "exercises": ["row-for-sat"]}


def test_the_notice_is_told_to_watchers_only_when_it_changes(data_dir):
    (data_dir / "progress.json").symlink_to(data_dir / "gone" / "progress.json")
    store, told = started(), []
    store.watch(lambda: told.append(store.notice))
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys")
    store.mark_done(ProgressKind.CHALLENGES, "even-spread")  # fails again the same way: told once
    assert len(told) == 1 and told[0].startswith("Progress is not being saved")
    (data_dir / "gone").mkdir()
    store.mark_done(ProgressKind.CHALLENGES, "scaled-focus")
    assert told[1:] == [""]


# ----- fuzzing: hostile values anywhere in a progress file ----------------------------------

hostile_scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**60), max_value=10**60), st.integers(-3, 10**9 + 3),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e308, -0.0, 100.0, 100.000001]),
    st.sampled_from([10**18, 10**20, 10**25, 10**30 - 1, -(10**25)]),  # read as numbers, too big for NumPy
    st.text(max_size=6), st.sampled_from(["\ud800", "challenges", "exercises", "twin-keys", ""]),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
PLACES = [("done",), ("done", "challenges"), ("done", "exercises"), ("predictions",), ("predictions", "rounds"),
          ("predictions", "total_score"), ("predictions", "winners_right"), ("predictions", "best_score"),
          ("lessons",), ("lessons", "open"), ("lessons", "scenes"), ("format",), ("version",), ("extra",)]


def put(document, place, value):
    target = document
    for key in place[:-1]:
        target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else {}
    target[place[-1]] = value


def use_every_way(store: ProgressStore) -> None:
    """Everything the app asks of and does to its progress store; none of it may raise."""
    store.done_ids("challenges")
    assert store.prediction_record().average >= 0
    store.kept_lesson_scene(str(store.last_lesson()))
    _ = store.notice
    store.mark_done(ProgressKind.EXERCISES, "row-for-sat")
    store.record_prediction(compare([0.5, 0.5], [1, 0]))
    store.leave_lesson("soft-lookup", {"title": "kept"})
    store.reset(ProgressKind.CHALLENGES)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(places=st.lists(st.tuples(st.sampled_from(PLACES), hostile_values), min_size=1, max_size=3),
       bom=st.booleans())
def test_hostile_values_anywhere_load_or_are_refused_cleanly(data_dir, places, bom):
    document = json.loads(json.dumps(GOOD))
    for place, value in places:
        put(document, place, value)
    path = data_dir / "progress.json"
    for leftover in data_dir.iterdir():
        leftover.unlink()
    text = json.dumps(document)  # a lone surrogate is written as its escape, as other tools would
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    store = started()
    usable = store.notice == ""
    assert usable or store.done_ids("challenges") == set()  # refused: starts empty, and says why
    assert "\n" not in store.notice
    use_every_way(store)
    assert store.last_error is None
    again = started()
    assert again.notice == "" and again.is_done("exercises", "row-for-sat")  # what was saved reads back
    assert again.prediction_record().rounds == (store.prediction_record().rounds)
    assert os.path.exists(data_dir / "progress.json.bad") != usable  # a refused file is kept, a good one not


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from([b"", b"\xef\xbb\xbf", b'{"format": "attention-desktop-progress", "done": ', b"[", b"{"]),
       body=st.binary(max_size=80), repeat=st.integers(1, 2000))
def test_hostile_bytes_never_escape_the_store(data_dir, prefix, body, repeat):
    path = data_dir / "progress.json"
    for leftover in data_dir.iterdir():
        leftover.unlink()
    path.write_bytes(prefix * repeat + body)
    store = started()
    assert "\n" not in store.notice
    use_every_way(store)
    assert store.last_error is None and started().is_done("exercises", "row-for-sat")


hostile_numbers = st.one_of(
    st.integers(-(10**30) + 1, 10**30 - 1), st.integers(-2, 10**9 + 2), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([10**20, 10**25, 10**30 - 1, 1e308, -0.0, 0, 100, 100.000001]), st.booleans(), st.none(),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.dictionaries(st.sampled_from(["rounds", "total_score", "winners_right", "best_score"]),
                              hostile_numbers, min_size=1))
def test_any_numbers_in_the_prediction_record_load_or_are_refused_cleanly(data_dir, record):
    for leftover in data_dir.iterdir():
        leftover.unlink()
    (data_dir / "progress.json").write_text(json.dumps(dict(GOOD, predictions=record)), encoding="utf-8")
    store = started()
    assert (store.notice == "") == store.is_done("challenges", "twin-keys")
    use_every_way(store)
    assert started().prediction_record().rounds == store.prediction_record().rounds <= 10**9
