"""Reading a lesson file, which comes from another machine: every field checked, nothing followed or run.

The file is read as a scene file is (json_reading.py: a regular file only, size-limited, UTF-8, JSON
without NaN, Infinity or endless digits), at most MAX_LESSON_BYTES, nested at most MAX_DEPTH levels. Then
every field is checked for its type, its length or count and its range; unknown fields are refused (a
misspelt field would otherwise be lost without a word); the scene goes through the scene file reader
itself; every quantity must name a head, tokens and a component the scene has; a Show me names the lesson's
own scene or a built-in one, never a path, and its steps must fit it. Any problem is one LessonFileError,
one line naming the file, the place in it and what is wrong.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import parse_json_bytes, read_file_bytes, shown_path
from attn_desktop.model.files.values import SceneFileError, describe, shown_number, whole
from attn_desktop.model.scene import Role, Scene
from attn_desktop.model.scene_files import scene_data_from_document
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind, ChooseQuery, SetGrids, SetVector, ShowMe, ShowMeStep
from attn_desktop.model.teaching.lesson_file import (
    BUILTIN_SCENES,
    HIDEABLE_CONTROLS,
    LESSON_FORMAT,
    LESSON_VERSION,
    LOCKABLE_PARTS,
    OWN_SCENE,
    LessonChallenge,
    LessonExercise,
    LessonFile,
    Panels,
    PredictRound,
    builtin_scene,
)
from attn_desktop.model.teaching.lesson_file_checks import (
    LessonFileError,
    as_lesson_error,
    boolean,
    check_depth,
    fields,
    identifier,
    index,
    items,
    number,
    one_of,
    out_of_range,
    text,
    unique_ids,
)
from attn_desktop.model.teaching.lesson_quantities import (
    COMPARISONS,
    QUANTITIES,
    WITH_KEY,
    Condition,
    Quantity,
    evaluate,
    holds,
    reading_of,
    token_index,
)
from attn_desktop.model.view_state import ViewState

T = TypeVar("T")

MAX_LESSON_BYTES = 2 * 1024 * 1024
MAX_TITLE_CHARS = 200
MAX_TEXT_CHARS = 100_000  # a long lesson's text is some 5,000
MAX_PROMPT_CHARS = 4_000  # a prompt, hint or explanation
MAX_LABEL_CHARS = 500  # a label, a choice, the formula
MAX_EXERCISES = 200
MAX_CHALLENGES = 100
MAX_CONDITIONS = 8
MAX_ANSWERS = 64
MAX_CHOICES = 12
MAX_STEPS = 50
MAX_ROUNDS = 100
MAX_NAMES = 300  # hidden controls, locked parts
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8}){0,3}\Z")

TOP_FIELDS = ("format", "version", "title", "language", "text", "formula", "scene", "first_head", "panels",
              "hidden_controls", "locked", "exercises", "challenges", "predict_rounds")
EXERCISE_FIELDS = ("id", "prompt", "kind", "answer", "quantities", "tolerance", "labels", "choices",
                   "correct_choice", "hint", "explanation", "show_me")
CHALLENGE_FIELDS = ("id", "title", "hint", "conditions", "show_me")
QUANTITY_FIELDS = ("quantity", "query", "key", "component", "at")
CONDITION_FIELDS = (*QUANTITY_FIELDS, "compare", "value", "equals")
STEP_NAMES = ("set_vector", "choose_query", "set_grids")


def read_lesson_file(path: str | os.PathLike[str]) -> LessonFile:
    """A lesson file's contents, checked; LessonFileError, one line starting with the file's name, otherwise."""
    try:
        return lesson_from_bytes(read_file_bytes(path, MAX_LESSON_BYTES))
    except SceneFileError as error:
        raise LessonFileError(f"{shown_path(path)}: {error}") from None


def lesson_from_bytes(raw: bytes) -> LessonFile:
    """A lesson file's bytes, checked as a file is (size, UTF-8, JSON, then every field)."""
    if len(raw) > MAX_LESSON_BYTES:
        raise LessonFileError(tr("the file is {size:,} bytes; lesson files are limited to {limit:,}").format(
            size=len(raw), limit=MAX_LESSON_BYTES))
    return lesson_from_document(as_lesson_error(lambda: parse_json_bytes(raw)))


def lesson_from_document(document: Any) -> LessonFile:
    """A decoded lesson file document, checked field by field."""
    check_depth(document)
    fields(document, "lesson", TOP_FIELDS, required=("format", "version", "title", "scene"))
    _check_format(document)
    scene_data = _scene(document["scene"])
    scene = Scene(copy.deepcopy(scene_data))
    get = document.get
    return LessonFile(
        title=text(document["title"], "title", MAX_TITLE_CHARS),
        language=_language(get("language", "en")),
        text=text(get("text", ""), "text", MAX_TEXT_CHARS),
        scene=scene_data,
        formula=text(get("formula", ""), "formula", MAX_LABEL_CHARS),
        first_head=_head(get("first_head", [0, 0]), "first_head", scene),
        panels=_panels(get("panels", {})),
        hidden_controls=tuple(one_of(name, f"hidden_controls[{position}]", HIDEABLE_CONTROLS) for position, name
                              in enumerate(items(get("hidden_controls", []), "hidden_controls", MAX_NAMES))),
        locked=_locked(get("locked", []), scene),
        exercises=_listed(get("exercises", []), "exercises", MAX_EXERCISES, lambda value, where: _exercise(
            value, where, scene)),
        challenges=_listed(get("challenges", []), "challenges", MAX_CHALLENGES, lambda value, where: _challenge(
            value, where, scene)),
        predict_rounds=_listed(get("predict_rounds", []), "predict_rounds", MAX_ROUNDS, lambda value, where:
                               _predict_round(value, where, scene)),
    )


def _check_format(document: dict[str, Any]) -> None:
    if document["format"] != LESSON_FORMAT:
        raise LessonFileError(tr("format: expected \"{format_marker}\", found {found}").format(
            format_marker=LESSON_FORMAT, found=describe(document["format"])))
    version = as_lesson_error(lambda: whole(document["version"], "version"))
    if version > LESSON_VERSION:
        raise LessonFileError(
            tr("version: the file is version {shown_number}, made by a newer Attention Desktop; this one reads up "
               "to version {format_version}").format(shown_number=shown_number(version), format_version=LESSON_VERSION))
    if version < 1:
        raise out_of_range(version, "version", 1, LESSON_VERSION)


def _scene(value: Any) -> Any:
    fields(value, "scene", known=None)  # an object (not a path, not a URL); the scene reader knows its fields
    try:
        return scene_data_from_document(value)
    except SceneFileError as error:
        raise LessonFileError(f"scene: {error}") from None


def _language(value: Any) -> str:
    tag = text(value, "language", 20)
    if not LANGUAGE_TAG.match(tag):
        raise LessonFileError(tr("language: {found} is not a language tag such as en, es or zh_CN").format(
            found=describe(tag)))
    return tag


def _head(value: Any, where: str, scene: Scene) -> tuple[int, int]:
    pair = items(value, where, 2, at_least=2)
    layer = as_lesson_error(lambda: whole(pair[0], f"{where}[0]"))
    head = as_lesson_error(lambda: whole(pair[1], f"{where}[1]"))
    reading_of(scene, (layer, head), where)
    return layer, head


def _panels(value: Any) -> Panels:
    found = fields(value, "panels", ("window", "presenting"))
    docks = [str(dock) for dock in DockId]

    def named(where: str) -> tuple[DockId, ...]:
        return tuple(DockId(one_of(name, f"panels.{where}[{position}]", docks))
                     for position, name in enumerate(items(found.get(where, []), f"panels.{where}", len(docks))))

    return Panels(window=named("window"), presenting=named("presenting"))


def _locked(value: Any, scene: Scene) -> tuple[str, ...]:
    """Roles whose arrows move (their every arrow), such arrows by name, and LOCKABLE_PARTS."""
    movable = scene.input_roles
    allowed = {role.value for role in movable} | set(LOCKABLE_PARTS)
    allowed |= {scene.arrow_name(role, row) for role in movable for row in range(len(scene.vectors(role)))}
    return tuple(one_of(name, f"locked[{position}]", allowed)
                 for position, name in enumerate(items(value, "locked", MAX_NAMES)))


def _listed(value: Any, where: str, limit: int, read: Callable[[Any, str], T]) -> tuple[T, ...]:
    found = tuple(read(item, f"{where}[{position}]") for position, item in enumerate(items(value, where, limit)))
    ids = [getattr(item, "id", None) for item in found]
    if all(isinstance(item, str) for item in ids):
        unique_ids([str(item) for item in ids], where)
    return found


# ----- exercises -------------------------------------------------------------
def _exercise(value: Any, where: str, scene: Scene) -> LessonExercise:
    found = fields(value, where, EXERCISE_FIELDS, required=("id", "prompt", "kind"))
    kind = AnswerKind(one_of(found["kind"], f"{where}.kind", [kind.value for kind in AnswerKind]))
    answer, quantities, choices, correct = _asked(found, where, kind, scene)
    labels = _texts(found.get("labels", []), f"{where}.labels", MAX_ANSWERS, 0)
    numbers = len(quantities) if quantities else len(answer)
    if kind is AnswerKind.NUMBERS and len(labels) != numbers:
        raise LessonFileError(tr("{where}: {count} labels for {numbers} numbers; give one label per number").format(
            where=f"{where}.labels", count=len(labels), numbers=numbers))
    return LessonExercise(
        id=identifier(found["id"], f"{where}.id"), prompt=text(found["prompt"], f"{where}.prompt", MAX_PROMPT_CHARS),
        kind=kind, answer=answer, quantities=quantities,
        tolerance=number(found.get("tolerance", 0.0), f"{where}.tolerance", low=0.0), labels=labels, choices=choices,
        correct_choice=correct, hint=text(found.get("hint", ""), f"{where}.hint", MAX_PROMPT_CHARS),
        explanation=text(found.get("explanation", ""), f"{where}.explanation", MAX_PROMPT_CHARS),
        show_me=_show_me(found["show_me"], f"{where}.show_me", scene)[0] if "show_me" in found else None,
    )


def _asked(found: dict[str, Any], where: str, kind: AnswerKind,
           scene: Scene) -> tuple[tuple[float, ...], tuple[Quantity, ...], tuple[str, ...], int]:
    """What an exercise asks for: (answer, quantities, choices, correct_choice), the fields its kind does not
    use refused. Computed: the quantities (one heaviest_key for a choice). Stated: the answer, or the choices."""
    if "answer" in found and "quantities" in found:
        raise LessonFileError(tr("{where}: give either answer (stated) or quantities (computed), not both").format(
            where=where))
    most = 1 if kind is not AnswerKind.NUMBERS else MAX_ANSWERS
    if "quantities" in found:
        _refuse_unused(found, where, ("choices", "correct_choice"), kind.value)
        listed = items(found["quantities"], f"{where}.quantities", most, at_least=1)
        return (), tuple(_quantity(item, f"{where}.quantities[{position}]", scene, kind)
                         for position, item in enumerate(listed)), (), -1
    if kind is AnswerKind.CHOICE:
        _refuse_unused(found, where, ("answer",), kind.value)
        choices = _texts(found.get("choices"), f"{where}.choices", MAX_CHOICES, 2)
        return (), (), choices, index(found.get("correct_choice"), f"{where}.correct_choice", len(choices))
    _refuse_unused(found, where, ("choices", "correct_choice"), kind.value)
    listed = items(found.get("answer"), f"{where}.answer", most, at_least=1)
    return tuple(number(item, f"{where}.answer[{position}]") for position, item in enumerate(listed)), (), (), -1


def _refuse_unused(found: dict[str, Any], where: str, unused: tuple[str, ...], used_with: str) -> None:
    for name in unused:
        if name in found:
            raise LessonFileError(tr("{where}: not used with {kind}; leave it out").format(
                where=f"{where}.{name}", kind=used_with))


def _texts(value: Any, where: str, limit: int, at_least: int) -> tuple[str, ...]:
    return tuple(text(item, f"{where}[{position}]", MAX_LABEL_CHARS)
                 for position, item in enumerate(items(value, where, limit, at_least)))


def _quantity(value: Any, where: str, scene: Scene, kind: AnswerKind | None = None,
              known: tuple[str, ...] = QUANTITY_FIELDS) -> Quantity:
    found = fields(value, where, known, required=("quantity", "query"))
    name = one_of(found["quantity"], f"{where}.quantity", QUANTITIES)
    if kind is not None and (name == "heaviest_key") != (kind is AnswerKind.CHOICE):
        raise LessonFileError(tr("{where}: not used with {kind}; leave it out").format(
            where=f"{where}.quantity", kind=kind.value))
    _refuse_unused(found, where, () if name in WITH_KEY else ("key",), name)
    _refuse_unused(found, where, () if name == "output" else ("component",), name)
    if name in WITH_KEY and "key" not in found:
        raise LessonFileError(tr("{where}: missing; a lesson file needs it").format(where=f"{where}.key"))
    quantity = Quantity(
        name=name, query=text(found["query"], f"{where}.query", MAX_LABEL_CHARS),
        key=text(found.get("key", ""), f"{where}.key", MAX_LABEL_CHARS),
        component=as_lesson_error(lambda: whole(found.get("component", 0), f"{where}.component")),
        at=_head(found.get("at", [0, 0]), f"{where}.at", scene),
    )
    evaluate(quantity, scene, where)  # its head, tokens and component are the scene's
    return quantity


# ----- challenges, Show me and Predict rounds ----------------------------------
def _challenge(value: Any, where: str, scene: Scene) -> LessonChallenge:
    found = fields(value, where, CHALLENGE_FIELDS, required=("id", "title", "conditions"))
    shown = _show_me(found["show_me"], f"{where}.show_me", scene) if "show_me" in found else None
    conditions = tuple(_condition(item, f"{where}.conditions[{position}]", scene, shown[1] if shown else None)
                       for position, item in enumerate(items(found["conditions"], f"{where}.conditions",
                                                             MAX_CONDITIONS, at_least=1)))
    return LessonChallenge(
        id=identifier(found["id"], f"{where}.id"), title=text(found["title"], f"{where}.title", MAX_PROMPT_CHARS),
        conditions=conditions, hint=text(found.get("hint", ""), f"{where}.hint", MAX_PROMPT_CHARS),
        show_me=shown[0] if shown else None,
    )


def _condition(value: Any, where: str, scene: Scene, shown: Scene | None) -> Condition:
    quantity = _quantity(value, where, scene, known=CONDITION_FIELDS)
    found: dict[str, Any] = value
    if quantity.is_number:
        _refuse_unused(found, where, ("equals",), quantity.name)
        if "compare" not in found or "value" not in found:
            raise LessonFileError(tr("{where}: missing; a lesson file needs it").format(
                where=f"{where}.{'value' if 'compare' in found else 'compare'}"))
        condition = Condition(quantity, compare=one_of(found["compare"], f"{where}.compare", COMPARISONS),
                              value=number(found["value"], f"{where}.value"))
    else:
        _refuse_unused(found, where, ("compare", "value"), quantity.name)
        if "equals" not in found:
            raise LessonFileError(tr("{where}: missing; a lesson file needs it").format(where=f"{where}.equals"))
        condition = Condition(quantity, equals=text(found["equals"], f"{where}.equals", MAX_LABEL_CHARS))
    for target in (scene, shown):
        if target is not None:
            holds(condition, target, where)  # every name it uses is in the scene it is met in
    return condition


def _show_me(value: Any, where: str, scene: Scene) -> tuple[ShowMe, Scene]:
    """The Show me, and the scene it sets up (its steps checked against that scene, then applied)."""
    found = fields(value, where, ("scene", "steps"), required=("scene",))
    name = one_of(found["scene"], f"{where}.scene", (OWN_SCENE, *BUILTIN_SCENES))
    target = Scene(copy.deepcopy(scene.to_data())) if name == OWN_SCENE else Scene(builtin_scene(name))
    view = ViewState()
    steps = []
    for position, item in enumerate(items(found.get("steps", []), f"{where}.steps", MAX_STEPS)):
        step = _step(item, f"{where}.steps[{position}]", target)
        try:
            step.apply(target, view)
        except ValueError:
            raise LessonFileError(tr("{where}: this scene cannot switch its grids off").format(
                where=f"{where}.steps[{position}]")) from None
        steps.append(step)
    return ShowMe(name, tuple(steps)), target


def _step(value: Any, where: str, scene: Scene) -> ShowMeStep:
    found = fields(value, where, STEP_NAMES)
    if len(found) != 1:
        raise LessonFileError(tr("{where}: expected one of {allowed}, found {found}").format(
            where=where, allowed=", ".join(STEP_NAMES), found=describe(value)))
    name, argument = next(iter(found.items()))
    place = f"{where}.{name}"
    if name == "choose_query":
        return ChooseQuery(index(argument, place, scene.n_queries))
    if name == "set_grids":
        return SetGrids(boolean(argument, place))
    vector = fields(argument, place, ("role", "index", "vector"), required=("role", "index", "vector"))
    role = Role(one_of(vector["role"], f"{place}.role", [role.value for role in scene.input_roles]))
    rows = scene.vectors(role)
    row = index(vector["index"], f"{place}.index", len(rows))
    numbers = items(vector["vector"], f"{place}.vector", rows.shape[1], at_least=rows.shape[1])
    return SetVector(role, row, tuple(number(item, f"{place}.vector[{column}]") for column, item in enumerate(numbers)))


def _predict_round(value: Any, where: str, scene: Scene) -> PredictRound:
    found = fields(value, where, ("query",), required=("query",))
    query = text(found["query"], f"{where}.query", MAX_LABEL_CHARS)
    token_index(query, scene.query_tokens, f"{where}.query")
    return PredictRound(query)
