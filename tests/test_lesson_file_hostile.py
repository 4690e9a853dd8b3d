"""Lesson files come from other machines: every broken or hostile one is refused with one line naming
what is wrong (one exception type), or, where nothing in it can do harm, opened safely. Nothing is
followed, fetched or run, and no HTML is kept as anything but text."""

import copy
import json
import os

import pytest

from attn_desktop.model.teaching.lesson_file import LessonFileError
from attn_desktop.model.teaching.lesson_file_reading import MAX_LESSON_BYTES, lesson_from_bytes, read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import lesson_document

from tests.test_lesson_file import small_lesson

BASE = lesson_document(small_lesson())


def changed(change):
    document = copy.deepcopy(BASE)
    change(document)
    return json.dumps(document, ensure_ascii=False).encode("utf-8")


def put(path, value):
    def change(document):
        place = document
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = value
    return change


def drop(path):
    def change(document):
        place = document
        for step in path[:-1]:
            place = place[step]
        del place[path[-1]]
    return change


def nested(depth):
    return b'{"format": "attn-lesson", "version": 1, "title": ' + b"[" * depth + b"]" * depth + b"}"


REFUSED = {
    "empty file": b"",
    "not json": b"<html><script>alert(1)</script></html>",
    "not utf-8": b'{"title": "\xff\xfe"}',
    "a list at the top": b"[]",
    "nan": changed(put(["exercises", 1, "answer"], [0])).replace(b"[0]", b"[NaN]"),
    "infinity tolerance": changed(put(["exercises", 0, "tolerance"], 0)).replace(
        b'"tolerance": 0', b'"tolerance": 1e999'),
    "5000-digit number": changed(put(["exercises", 1, "answer"], [0])).replace(b"[0]", b"[" + b"9" * 5000 + b"]"),
    "nested 100000 deep": nested(100_000),
    "nested 40 deep": nested(40),
    "wrong format": changed(put(["format"], "attention-desktop-scene")),
    "newer version": changed(put(["version"], 2)),
    "version as text": changed(put(["version"], "1")),
    "no scene": changed(drop(["scene"])),
    "no title": changed(drop(["title"])),
    "unknown top field": changed(put(["script"], "rm -rf /")),
    "unknown exercise field": changed(put(["exercises", 0, "onclick"], "x")),
    "title a number": changed(put(["title"], 3)),
    "title too long": changed(put(["title"], "x" * 10_000)),
    "text too long": changed(put(["text"], "x" * 300_000)),
    "text with a control character": changed(put(["text"], "bell \u0007")),
    "lone surrogate": changed(put(["title"], "SURROGATE")).replace(b"SURROGATE", b"\\ud800"),
    "language not a tag": changed(put(["language"], "../../etc/passwd")),
    "scene broken": changed(put(["scene", "keys"], [[1, 2]])),
    "scene a path": changed(put(["scene"], "/etc/passwd")),
    "scene by url": changed(put(["scene"], "https://example.com/x.json")),
    "show me scene a path": changed(put(["exercises", 0, "show_me", "scene"], "../../secret.json")),
    "show me scene absolute": changed(put(["exercises", 0, "show_me", "scene"], "/etc/passwd")),
    "show me step unknown": changed(put(["exercises", 0, "show_me", "steps"], [{"run": "ls"}])),
    "show me query out of range": changed(put(["exercises", 0, "show_me", "steps"], [{"choose_query": 99}])),
    "show me vector too wide": changed(put(["challenges", 0, "show_me", "steps"], [
        {"set_vector": {"role": "query", "index": 0, "vector": [1, 2, 3]}}])),
    "show me grids on a direct scene": changed(put(["exercises", 0, "show_me", "steps"], [{"set_grids": False}])),
    "unknown quantity": changed(put(["exercises", 0, "quantities", 0, "quantity"], "__import__")),
    "token that does not exist": changed(put(["exercises", 0, "quantities", 0, "key"], "dog")),
    "query that does not exist": changed(put(["challenges", 0, "conditions", 0, "query"], "dog")),
    "repeat index past the end": changed(put(["exercises", 0, "quantities", 0, "key"], "cat#2")),
    "output component out of range": changed(put(["exercises", 0, "quantities", 0], {
        "quantity": "output", "query": "it", "component": 7})),
    "head out of range": changed(put(["exercises", 0, "quantities", 0, "at"], [0, 5])),
    "unknown comparison": changed(put(["challenges", 0, "conditions", 0, "compare"], "~=")),
    "heaviest key with a value": changed(put(["challenges", 0, "conditions", 0], {
        "quantity": "heaviest_key", "query": "it", "compare": ">=", "value": 1})),
    "heaviest key equals nobody": changed(put(["challenges", 0, "conditions", 0], {
        "quantity": "heaviest_key", "query": "it", "equals": "dog"})),
    "too many exercises": changed(put(["exercises"], [BASE["exercises"][1]] * 1000)),
    "same id twice": changed(put(["exercises"], [BASE["exercises"][1], BASE["exercises"][1]])),
    "id with a slash": changed(put(["exercises", 1, "id"], "../x")),
    "choice out of range": changed(put(["exercises", 2, "correct_choice"], 5)),
    "choice as true": changed(put(["exercises", 2, "correct_choice"], True)),
    "one choice": changed(put(["exercises", 2, "choices"], ["only"])),
    "numbers without labels": changed(drop(["exercises", 1, "labels"])),
    "answer and quantities": changed(put(["exercises", 0, "answer"], [1])),
    "negative tolerance": changed(put(["exercises", 1, "tolerance"], -1)),
    "unknown kind": changed(put(["exercises", 1, "kind"], "essay")),
    "unknown panel": changed(put(["panels", "window"], ["evilDock"])),
    "unknown control": changed(put(["hidden_controls"], ["file-menu"])),
    "locked arrow not in the scene": changed(put(["locked"], ["k·dog"])),
    "locked a made role": changed(put(["locked"], ["embedding"])),
    "predict round for a missing query": changed(put(["predict_rounds"], [{"query": "dog"}])),
    "challenge with no condition": changed(put(["challenges", 0, "conditions"], [])),
    "exercises an object": changed(put(["exercises"], {"0": {}})),
}


@pytest.mark.parametrize("raw", REFUSED.values(), ids=REFUSED.keys())
def test_a_hostile_lesson_file_is_refused_in_one_line(raw):
    with pytest.raises(LessonFileError) as refused:
        lesson_from_bytes(raw)
    message = str(refused.value)
    assert message and "\n" not in message and len(message) < 400 and "Traceback" not in message


OPENED_SAFELY = {
    "html in the text stays text": changed(put(["text"], "<img src=x onerror=alert(1)> <b>bold</b>")),
    "a url in the text stays text": changed(put(["text"], "see https://example.com/lesson")),
    "right-to-left marks in a title": changed(put(["title"], "\u202edlrow\u202c")),
    "a byte order mark": b"\xef\xbb\xbf" + changed(lambda document: None),
}


@pytest.mark.parametrize("raw", OPENED_SAFELY.values(), ids=OPENED_SAFELY.keys())
def test_a_strange_but_harmless_lesson_file_opens_with_its_text_as_text(raw):
    lesson = lesson_from_bytes(raw)
    assert lesson.text == json.loads(raw.decode("utf-8-sig"))["text"]


def test_a_lesson_file_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "big.attn-lesson"
    path.write_bytes(b" " * (MAX_LESSON_BYTES + 1))
    with pytest.raises(LessonFileError, match="big.attn-lesson"):
        read_lesson_file(path)


def test_a_folder_and_a_pipe_named_as_lessons_are_refused_without_hanging(tmp_path):
    folder = tmp_path / "folder.attn-lesson"
    folder.mkdir()
    with pytest.raises(LessonFileError, match="folder.attn-lesson"):
        read_lesson_file(folder)
    pipe = tmp_path / "pipe.attn-lesson"
    os.mkfifo(pipe)
    with pytest.raises(LessonFileError, match="pipe.attn-lesson"):
        read_lesson_file(pipe)
