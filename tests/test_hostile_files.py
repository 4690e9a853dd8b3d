"""Scene files made to break the loader: broken text, numbers too big to be numbers, special files.

Each must be refused with one SceneFileError line saying where and what, at
once (no hang, no unbounded read) and never with any other exception.
"""

import json
import os
import re
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.model import SceneFileError
from attn_desktop.model.files.json_reading import MAX_FILE_BYTES, load_json_file
from attn_desktop.model.files.safe_write import write_json_atomically
from attn_desktop.model.scene_files import (
    new_scene,
    read_scene_data,
    save_scene,
    scene_data_from_bytes,
    scene_data_from_document,
    scene_data_from_text,
    scene_document,
)

VECTORS_SCENE = {"tokens": ["a", "b"], "queries": [[1, 0], [0, 1]], "keys": [[1, 0], [0, 1]], "values": [[1], [2]]}
PROJECTION_SCENE = {
    "tokens": ["a", "b"], "embeddings": [[1, 0], [0, 1]],
    "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]],
}


def scene_text(base=VECTORS_SCENE, **changes) -> str:
    document = dict(base, **changes)
    return json.dumps(document)  # ensure_ascii: a lone surrogate is written as the escape \ud800, as tools do


def refusal(text_or_bytes) -> str:
    with pytest.raises(SceneFileError) as caught:
        if isinstance(text_or_bytes, bytes):
            scene_data_from_bytes(text_or_bytes)
        else:
            scene_data_from_text(text_or_bytes)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300, message
    return message


# ----- text that cannot be encoded ------------------------------------------------------------

BROKEN = ["\ud800", "\udc00", "\udfff", "cat\ud83d", "\ude00dog", "\ud800\ud800"]


@pytest.mark.parametrize("broken", BROKEN)
@pytest.mark.parametrize(
    "changes, field",
    [
        (lambda b: {"title": b}, "title"),
        (lambda b: {"tokens": ["a", b]}, "tokens[1]"),
        (lambda b: {"tokens": [b, "b"]}, "tokens[0]"),
        (lambda b: {"queries": [[1, 1]], "query_tokens": [b]}, "query_tokens[0]"),
    ],
)
def test_a_broken_character_in_any_text_is_refused_naming_the_field(broken, changes, field):
    message = refusal(scene_text(**changes(broken)))
    assert message.startswith(f"{field}: not valid text (a broken character, like half an emoji"), message
    message.encode("utf-8")  # the message itself can be printed and shown


def test_a_broken_character_in_a_projection_scene_is_refused():
    assert refusal(scene_text(PROJECTION_SCENE, tokens=["a", "\ud800"])).startswith("tokens[1]: not valid text")


def test_a_broken_character_in_the_format_marker_is_reported_printably():
    message = refusal(scene_text(format="\ud800"))
    assert message.startswith("format: expected") and "\\ud800" in message
    message.encode("utf-8")


@pytest.mark.parametrize("whole", ["😀", "猫", "e\u0301", "a😀b"])
def test_whole_characters_load_and_save_faithfully(tmp_path, whole):
    text = scene_text(title=f"t{whole}", tokens=[whole, "b"])
    scene = new_scene(scene_data_from_text(text))
    path = tmp_path / "s.json"
    save_scene(scene, path)
    again = read_scene_data(path)
    assert again.tokens == [whole, "b"] and again.title == f"t{whole}"


def test_a_scene_refuses_a_broken_character_as_a_token_name():
    scene = new_scene(scene_data_from_text(scene_text()))
    with pytest.raises(ValueError, match="broken character"):
        scene.add_token("x\ud800")
    with pytest.raises(ValueError, match="broken character"):
        scene.rename_token(0, "\udc00")
    assert scene.tokens == ["a", "b"]


def test_a_document_with_broken_text_is_still_saved_faithfully(tmp_path):
    """Should broken text ever reach a save (a title set in code), the work is written, not lost."""
    path = tmp_path / "s.json"
    write_json_atomically(path, dict(VECTORS_SCENE, title="half \ud83d"))
    assert json.loads(path.read_text(encoding="utf-8"))["title"] == "half \ud83d"
    with pytest.raises(SceneFileError, match=r"s.json: title: not valid text"):
        read_scene_data(path)


# ----- numbers too big to be numbers ----------------------------------------------------------

def raw_scene(**raw_fields: str) -> str:
    """A scene whose named fields are given as raw JSON text (numbers json.dumps could not write)."""
    document = dict(VECTORS_SCENE)
    for name in raw_fields:
        document[name] = f"@{name}@"
    text = json.dumps(document)
    for name, raw in raw_fields.items():
        text = text.replace(f'"@{name}@"', raw)
    return text


DIGITS_400 = "9" * 400
DIGITS_5000 = "1" * 5000


@pytest.mark.parametrize(
    "text, expected",
    [
        (raw_scene(queries=f"[[{DIGITS_400}, 0], [0, 1]]"), "a whole number with 400 digits is far too large"),
        (raw_scene(keys=f"[[1, -{DIGITS_400}], [0, 1]]"), "400 digits"),
        (raw_scene(values=f"[{DIGITS_400}, 2]"), "400 digits"),
        (raw_scene(queries=f"[[{DIGITS_5000}, 0], [0, 1]]"), "5,000 digits"),
        (raw_scene(ignored=DIGITS_5000), "5,000 digits"),
        (raw_scene(title=DIGITS_5000), "5,000 digits"),
        (raw_scene(selected=DIGITS_400), "400 digits"),
        (raw_scene(selected="1" + "0" * 25), "selected: a whole number of about 26 digits is out of range"),
        (raw_scene(version=DIGITS_5000), "5,000 digits"),
        (raw_scene(version="1" + "0" * 20), "version: the file is version a whole number of about 21 digits"),
        (raw_scene(queries=f"[[{DIGITS_400}.5, 0], [0, 1]]"), "queries[0][0]: inf is not a finite number"),
        (raw_scene(queries="[[1e400, 0], [0, 1]]"), "queries[0][0]: inf is not a finite number"),
        (raw_scene(queries="[[-1e99999, 0], [0, 1]]"), "queries[0][0]: -inf is not a finite number"),
        (raw_scene(keys="[[12345678901, 0], [0, 1]]"), "keys[0][0]: 12345678901 is too large"),
    ],
)
def test_numbers_too_big_are_refused_in_one_line(text, expected):
    assert expected in refusal(text)


def test_a_long_number_is_located_by_line_and_column():
    text = raw_scene(keys=f"[[1, 0], [0, {DIGITS_5000}]]").replace(", ", ",\n")
    message = refusal(text)
    assert "5,000 digits" in message and "(line " in message and "column " in message


def test_digits_inside_text_are_not_numbers():
    data = scene_data_from_text(scene_text(title="1" * 150))
    assert data.title == "1" * 150


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"selected": 10**5000}, "selected: a whole number of about 5,001 digits is out of range"),
        ({"keys": [[10**5000, 0], [0, 1]]}, "keys[0][0]: a whole number of about 5,001 digits is too large"),
        ({"keys": [[10**400, 0], [0, 1]]}, "keys[0][0]: a whole number of about 401 digits is too large"),
        ({"values": [-(10**400), 1]}, "values[0]: a whole number of about 401 digits is too large"),
        ({"title": 10**5000}, "title: expected text, found a whole number of about 5,001 digits"),
        ({"tokens": ["a", 10**5000]}, "tokens[1]: expected a name (text), found a whole number"),
        ({"version": 10**5000}, "version: the file is version a whole number"),
    ],
)
def test_a_decoded_document_with_huge_integers_is_refused(changes, expected):
    """The autosave copy and scene_from_document hand the validator Python objects, not text."""
    with pytest.raises(SceneFileError, match=re.escape(expected)):
        scene_data_from_document(dict(VECTORS_SCENE, **changes))


@pytest.mark.parametrize("depth", [2_000, 100_000])
@pytest.mark.parametrize("opener, closer", [("[", "]"), ('{"a":', "}")])
def test_deep_nesting_is_refused(depth, opener, closer):
    nested = opener * depth + "1" + closer * depth
    assert "nested too deeply" in refusal(raw_scene(extra=nested))


def test_deep_nesting_at_the_top_level_is_refused():
    assert "nested too deeply" in refusal('{"a":' * 100_000 + "1" + "}" * 100_000)


# ----- special files, links and the size limit ------------------------------------------------

def load_with_a_deadline(path, seconds=10):
    """read_scene_data in a thread: a hang fails the test instead of stalling the run."""
    outcome = {}

    def load():
        try:
            outcome["data"] = read_scene_data(path)
        except BaseException as error:  # noqa: BLE001 - the test inspects whatever came out
            outcome["error"] = error

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"loading {path} hung"
    return outcome


def assert_refused(path, *expected):
    outcome = load_with_a_deadline(path)
    error = outcome.get("error")
    assert isinstance(error, SceneFileError), outcome
    assert "\n" not in str(error) and all(text in str(error) for text in expected), str(error)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_at_once(device):
    assert_refused(device, device, "a device, not a scene file")


def test_a_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    assert_refused(fifo, "scene.json: a pipe (FIFO), not a scene file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_symlink_to_a_device_is_refused(tmp_path, device):
    link = tmp_path / "autosave.json"
    link.symlink_to(device)
    assert_refused(link, "autosave.json: a device")


def test_a_symlink_to_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "scene.json").symlink_to(tmp_path / "pipe")
    assert_refused(tmp_path / "scene.json", "a pipe (FIFO)")


def test_a_folder_a_symlink_loop_and_a_dangling_link_are_refused(tmp_path):
    assert_refused(tmp_path, "a folder")
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    assert_refused(tmp_path / "loop.json", "loop.json: cannot read the file")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone.json")
    assert_refused(tmp_path / "dangling.json", "dangling.json: cannot read the file (No such file")


def test_a_symlink_to_a_good_scene_loads(tmp_path):
    (tmp_path / "real.json").write_text(scene_text(), encoding="utf-8")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    assert load_with_a_deadline(tmp_path / "link.json")["data"].tokens == ["a", "b"]


def test_a_file_just_over_the_limit_is_refused_and_one_at_the_limit_is_read(tmp_path):
    text = scene_text()
    at_limit = tmp_path / "at.json"
    at_limit.write_text(text + " " * (MAX_FILE_BYTES - len(text)), encoding="utf-8")
    assert read_scene_data(at_limit).tokens == ["a", "b"]
    over = tmp_path / "over.json"
    over.write_text(text + " " * (MAX_FILE_BYTES + 1 - len(text)), encoding="utf-8")
    assert_refused(over, "over.json: the file is 4,194,305 bytes; scenes are limited to 4,194,304")


def test_a_name_with_a_newline_or_undecodable_bytes_stays_one_line(tmp_path):
    assert_refused(tmp_path / "two\nlines.json", "two\\nlines.json: cannot read the file")
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/bad\xffname.json")
    assert_refused(odd, "bad\\xffname.json: cannot read the file")


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"\x00\x01\x02\xff" * 100, "not UTF-8 text"),
        (bytes(range(256)) * 16, "not UTF-8 text"),
        (b"", "not valid JSON"),
        (b"\xef\xbb\xbf", "not valid JSON"),
        (b'{"tokens": ["\\ud800"]}', "tokens[0]: not valid text"),
    ],
)
def test_garbage_autosave_copies_are_refused_by_the_json_reader(tmp_path, content, expected):
    path = tmp_path / "autosave.json"
    path.write_bytes(content)
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_document(load_json_file(path))
    assert str(caught.value).startswith(f"{path}: ") or "tokens[0]" in str(caught.value)
    assert expected in str(caught.value)


def test_the_json_reader_has_the_scene_limits(tmp_path):
    fifo = tmp_path / "autosave.json"
    os.mkfifo(fifo)
    with pytest.raises(SceneFileError, match="autosave.json: a pipe"):
        load_json_file(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SceneFileError, match="deep.json: not usable JSON: it is nested too deeply"):
        load_json_file(deep)
    assert load_json_file(_written(tmp_path / "ok.json", '{"scene": {"a": [1, 2.5]}}')) == {"scene": {"a": [1, 2.5]}}


def _written(path, text):
    path.write_text(text, encoding="utf-8")
    return path


# ----- fuzzing: hostile values in every field ---------------------------------------------------

hostile_scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**600), max_value=10**600),
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=6),
    st.sampled_from(["\ud800", "\udfff", "a\ud83d", "", " ", "x" * 41, "😀"]),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=12,
)
FIELDS = [
    "tokens", "query_tokens", "queries", "keys", "values", "title", "selected", "scale", "causal", "format",
    "version", "embeddings", "w_q", "w_k", "w_v", "use_grids",
]


@settings(max_examples=400, deadline=None)
@given(
    base=st.sampled_from([VECTORS_SCENE, PROJECTION_SCENE]),
    field=st.sampled_from(FIELDS),
    value=hostile_values,
    path=st.lists(st.integers(0, 3), max_size=2),
)
def test_a_hostile_value_anywhere_raises_only_scene_file_error(base, field, value, path):
    document = json.loads(json.dumps(base))
    target, key = document, field
    for step in path:  # sometimes put the value deeper: inside a row, a cell
        current = target.get(key) if isinstance(target, dict) else target[key]
        if not isinstance(current, list) or step >= len(current):
            break
        target, key = current, step
    target[key] = value
    for attempt in (lambda: scene_data_from_document(document), lambda: scene_data_from_text(json.dumps(document))):
        try:
            data = attempt()
        except SceneFileError as error:
            assert "\n" not in str(error)
            str(error).encode("utf-8")  # printable in a dialog and on stderr
        else:
            scene_document(new_scene(data))  # whatever loads can be used and saved


@settings(max_examples=300, deadline=None)
@given(
    prefix=st.sampled_from(["[", "{", '{"tokens":', "-", "1", '"', "\\", "[1e", '{"a":[']),
    body=st.binary(max_size=80),
    repeat=st.integers(1, 3000),
)
def test_hostile_bytes_raise_only_scene_file_error(prefix, body, repeat):
    try:
        scene_data_from_bytes(prefix.encode() * repeat + body)
    except SceneFileError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize(
    "text, column",
    [
        ('{"t": "NaN", "x": NaN}', 19),
        ('{"t": "a\\"NaN", "x": NaN}', 22),
        ('{"t": "a\\\\", "x": NaN}', 19),
        ('{"t": "' + "1" * 50 + '", "x": ' + "2" * 50 + "}", 66),
    ],
)
def test_the_place_named_is_outside_strings(text, column):
    assert refusal(text).endswith(f"(line 1 column {column})")


@pytest.mark.timing
def test_a_4_megabyte_file_with_a_long_number_at_the_end_is_refused_quickly():
    import time

    text = '{"title": "' + "x" * (MAX_FILE_BYTES - 5100) + '", "n": ' + "1" * 5000 + "}"
    started = time.perf_counter()
    assert "5,000 digits" in refusal(text)
    assert time.perf_counter() - started < 1.0
