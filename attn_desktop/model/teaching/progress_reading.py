"""Reading progress.json so that one damaged value costs that value, never the student's progress.

The JSON parser refuses a whole document for one NaN, one endless number or nesting too deep anywhere in it,
and a file over its size limit is refused unread. Most of progress.json's bulk and nearly all its risk is in
the kept lesson scenes, so when the whole document is refused, each kept scene (and then "lessons" as a
whole) is parsed on its own: those that fail are cut out, and the rest is parsed again. A file over
MAX_FILE_BYTES (but readable, up to MAX_READ_BYTES) loses its biggest kept scenes until it fits. What is cut out
is returned as an Unusable value with its text exactly as the file held it, for the store to copy aside
before anything replaces it. Only a file that still cannot be parsed (damage outside the kept scenes, or more
than MAX_READ_BYTES) is refused whole (SceneFileError), to be set aside as before.

Values of the wrong shape where the app expects an object ("lessons" or "scenes" a list, a kept scene a text)
are cut out the same way (unusable_shapes), so the first change the student makes cannot replace them unseen.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import parse_json_text
from attn_desktop.model.files.values import SceneFileError, describe

LESSONS = "lessons"
SCENES = "scenes"
MAX_FILE_BYTES = 1024 * 1024  # thousands of ids and a few kept scenes fit; kept scenes beyond it are set aside
MAX_READ_BYTES = 4 * 1024 * 1024  # the scene files' own limit: a file beyond it is not read at all

_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]', re.DOTALL)  # numbers and words need no token
_FOLLOWED = {(), (LESSONS,), (LESSONS, SCENES)}  # the objects whose members are looked at one by one


@dataclass(frozen=True)
class Unusable:
    """A value cut out of progress.json: where it was, its text as the file held it, and why."""

    where: tuple[str, ...]  # ("lessons",), ("lessons", "scenes") or ("lessons", "scenes", lesson_id)
    text: str
    problem: str

    @property
    def lesson(self) -> str | None:
        return self.where[2] if len(self.where) == 3 else None


@dataclass
class _Span:
    where: tuple[str, ...]
    start: int
    end: int

    def text(self, document: str) -> str:
        return document[self.start:self.end].strip()


def parse_progress_text(text: str, size: int) -> tuple[Any, list[Unusable]]:
    """TEXT (SIZE bytes) as a document, and what was cut out of it; SceneFileError if it cannot be parsed."""
    if size <= MAX_FILE_BYTES:
        try:
            return parse_json_text(text), []
        except SceneFileError as whole_problem:
            problem = whole_problem
    else:
        problem = SceneFileError(tr("the file is {size:,} bytes; progress files are limited to {limit:,}").format(
            size=size, limit=MAX_FILE_BYTES))
    spans = _member_spans(text)
    scenes = [span for span in spans if len(span.where) == 3]
    cut = [(span, failure) for span in scenes if (failure := _parse_failure(text, span)) is not None]
    over = size - sum(len(span.text(text).encode("utf-8")) for span, _ in cut) - MAX_FILE_BYTES
    for span in sorted((span for span in scenes if all(span is not done for done, _ in cut)),
                       key=lambda span: span.end - span.start, reverse=True):
        if over <= 0:
            break
        cut.append((span, tr("it takes the progress file past {limit:,} bytes").format(limit=MAX_FILE_BYTES)))
        over -= len(span.text(text).encode("utf-8"))
    if cut and over <= 0:
        try:
            return _without(text, cut), _unusable(text, cut)
        except SceneFileError:
            pass  # damage outside the kept scenes too
    for span in spans:  # "lessons" aside whole, if it is what does not parse
        failure = _parse_failure(text, span) if span.where == (LESSONS,) else None
        if failure is not None and size - len(span.text(text).encode("utf-8")) <= MAX_FILE_BYTES:
            try:
                return _without(text, [(span, failure)]), _unusable(text, [(span, failure)])
            except SceneFileError:
                break
    raise problem


def _unusable(text: str, cut: list[tuple[_Span, str]]) -> list[Unusable]:
    return [Unusable(span.where, span.text(text), problem) for span, problem in cut]


def unusable_shapes(document: dict[str, Any]) -> list[Unusable]:
    """Values of DOCUMENT of the wrong shape where an object is expected, taken out of it (null counts as absent)."""
    found: list[Unusable] = []
    lessons = document.get(LESSONS)
    if lessons is not None and not isinstance(lessons, dict):
        found.append(_shape((LESSONS,), document.pop(LESSONS)))
        return found
    scenes = lessons.get(SCENES) if lessons is not None else None
    if scenes is not None and not isinstance(scenes, dict):
        found.append(_shape((LESSONS, SCENES), lessons.pop(SCENES)))  # type: ignore[union-attr]
    elif isinstance(scenes, dict):
        for lesson_id in [key for key, scene in scenes.items() if scene is not None and not isinstance(scene, dict)]:
            found.append(_shape((LESSONS, SCENES, lesson_id), scenes.pop(lesson_id)))
    return found


def json_text(value: Any) -> str:
    """VALUE written as JSON that UTF-8 can hold (a lone surrogate stays a JSON escape)."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=2, ensure_ascii=True)
    return text


def held_aside(value: Unusable) -> dict[str, Any]:
    """VALUE as kept under "set_aside": {"lesson": id, "scene": {…}}, or its text where it does not parse."""
    named_by = {"lesson": value.lesson} if value.lesson is not None else {"value": "/".join(value.where)}
    try:
        return {**named_by, "scene": json.loads(value.text, parse_constant=_refuse)}
    except (ValueError, RecursionError):
        return {**named_by, "text": value.text}


def _refuse(name: str) -> Any:
    raise ValueError(name)


def _shape(where: tuple[str, ...], value: Any) -> Unusable:
    return Unusable(where, json_text(value), tr("it holds {found}, not an object").format(found=describe(value)))


def _parse_failure(text: str, span: _Span) -> str | None:
    """Why the value at SPAN does not parse on its own, or None. It is parsed where it stands (the text before
    it blanked out), so a message's line and column are those of progress.json."""
    before = text[:span.start]
    line_start = before.rfind("\n") + 1
    padding = "\n" * before.count("\n") + " " * (span.start - line_start)
    try:
        parse_json_text(padding + text[span.start:span.end])
    except SceneFileError as error:
        return str(error)
    return None


def _without(text: str, cut: list[tuple[_Span, str]]) -> Any:
    """TEXT parsed with the values at CUT's spans read as null, which are then taken out of the document."""
    pieces, position = [], 0
    for span, _ in sorted(cut, key=lambda item: item[0].start):
        pieces += [text[position:span.start], " null "]
        position = span.end
    document = parse_json_text("".join([*pieces, text[position:]]))
    for span, _ in cut:
        holder = document
        for key in span.where[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and holder.get(span.where[-1], "") is None:
            del holder[span.where[-1]]
    return document


def _member_spans(text: str) -> list[_Span]:
    """Where "lessons" and each kept scene stand in TEXT, found without parsing (and so without recursion):
    strings are skipped whole, brackets counted, and a member's value runs from its colon to the next comma or
    closing brace of its object. Broken JSON gives what it gives: the parse afterwards refuses it."""
    spans: list[_Span] = []
    stack: list[dict[str, Any]] = []  # the open objects and arrays: where they are, their key and value start
    for match in _TOKEN.finditer(text):
        token, top = match.group(), (stack[-1] if stack else None)
        if token in "{[":
            where = () if top is None else _member_of(top)
            stack.append({"where": where if where in _FOLLOWED else None, "object": token == "{",
                          "key": None, "start": None, "expect_key": token == "{"})
        elif token in "}],":
            if top is None:
                break
            _close_member(top, match.start(), spans)
            if token == ",":
                top["expect_key"] = top["object"]
            else:
                stack.pop()
        elif token == ":":
            if top is not None and top["object"]:
                top["start"] = match.end()
        elif top is not None and top["expect_key"]:
            top["key"], top["expect_key"] = _key(token), False
    return spans


def _member_of(frame: dict[str, Any]) -> tuple[str, ...] | None:
    if frame["where"] is None or not frame["object"] or frame["key"] is None:
        return None
    where: tuple[str, ...] = (*frame["where"], frame["key"])
    return where


def _close_member(frame: dict[str, Any], end: int, spans: list[_Span]) -> None:
    where = _member_of(frame)
    if where is not None and frame["start"] is not None and (
            where == (LESSONS,) or (len(where) == 3 and where[:2] == (LESSONS, SCENES))):
        spans.append(_Span(where, frame["start"], end))
    frame["key"] = frame["start"] = None


def _key(token: str) -> str | None:
    try:
        key = json.loads(token)
    except ValueError:
        return None
    return key if isinstance(key, str) else None
