"""A teacher's own lesson, as one file (*.attn-lesson): what it holds, as frozen values.

A lesson file is UTF-8 JSON, {"format": "attn-lesson", "version": 1, ...}, carrying no code; its fields
are described in docs/lesson-files.md and resources/lesson.schema.json. Here is what a file holds once
read and checked (lesson_file_reading.py reads one, lesson_file_writing.py writes one, lesson_check.py runs
its references, builtin_lesson_files.py makes the ten built-in lessons into lesson files):

- LessonFile: title, language, text (a safe Markdown subset, kept as plain text: whoever shows it escapes
  it; nothing in it is rendered as HTML), the scene (as a scene file holds it), the panels shown, the
  controls hidden and the parts locked, exercises, challenges and Predict, then see rounds.
- LessonExercise: *stated* (its answer given, exactly what a built-in Exercise holds) or *computed* (named
  quantities, lesson_quantities.py, whose values the app works out from the lesson's scene).
- LessonChallenge: conditions over named quantities, all of which must hold.
- A Show me is the app's ShowMe (exercise.py): a scene, OWN_SCENE (the lesson's) or one of BUILTIN_SCENES,
  never a path, then SetVector / ChooseQuery / SetGrids steps.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import new_scene, read_scene_data
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind, Exercise, ShowMe, apply_steps
from attn_desktop.model.teaching.lesson_file_checks import LessonFileError, one_of
from attn_desktop.model.teaching.lesson_quantities import Condition, Quantity, evaluate, holds, key_names, reading_of
from attn_desktop.model.teaching.lessons import LESSONS
from attn_desktop.model.view_state import ViewState
from attn_desktop.paths import DEFAULT_SCENE, scene_path

LESSON_FORMAT = "attn-lesson"
LESSON_VERSION = 1
LESSON_SUFFIX = ".attn-lesson"
LESSON_MIME_TYPE = "application/x-attn-desktop-lesson"

OWN_SCENE = ""  # a Show me's scene: the lesson's own
# The only other scenes a Show me may open: the app's own, by name (a lesson file names no path).
BUILTIN_SCENES: tuple[str, ...] = tuple(sorted({lesson.scene for lesson in LESSONS} | {DEFAULT_SCENE}))

# Controls a lesson may hide from a student (from the panels, menus, shortcuts and accessibility tree).
HIDEABLE_CONTROLS = (
    "scale-switch",      # Scale by √d_k
    "causal-switch",     # the causal mask
    "grids-switch",      # No grids
    "sentence-editing",  # adding, removing, renaming and moving words
    "code-panel",        # the Code panel
    "model-heads",       # Heads of a Real Model
    "training",          # Train a Head
    "predict-switch",    # Predict, then See on or off
    "grid-editing",      # typing into W_Q, W_K, W_V and W_O
)
# Parts a lesson may lock, besides a role ("query", "key", "value", "embedding": every arrow of it) and one
# arrow by its name ("k·cat"): "grids", the numbers of W_Q, W_K, W_V and W_O.
LOCKABLE_PARTS = ("grids",)


@dataclass(frozen=True)
class Panels:
    """The panels a lesson shows: in the window, and when presenting to a class."""

    window: tuple[DockId, ...] = ()
    presenting: tuple[DockId, ...] = ()


@dataclass(frozen=True)
class PredictRound:
    """A Predict, then see round: the class guesses this query's weights before they are revealed."""

    query: str


@dataclass(frozen=True)
class LessonExercise:
    """An exercise of a lesson file: stated (answer given) or computed (quantities given, one per number)."""

    id: str
    prompt: str
    kind: AnswerKind
    answer: tuple[float, ...] = ()  # stated
    quantities: tuple[Quantity, ...] = ()  # computed: heaviest_key with CHOICE, numbers with NUMBER(S)
    tolerance: float = 0.0
    labels: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()  # a computed heaviest_key's choices are the scene's keys
    correct_choice: int = -1
    hint: str = ""
    explanation: str = ""
    show_me: ShowMe | None = None

    @property
    def computed(self) -> bool:
        return bool(self.quantities)

    def exercise(self, scene: Scene) -> Exercise:
        """The app's Exercise, its answer worked out from SCENE (the lesson's own, as the file holds it) when
        computed: the check, the hints and the tolerance text are those of every built-in exercise."""
        answer, choices, correct = self.answer, self.choices, self.correct_choice
        if self.computed and self.kind is AnswerKind.CHOICE:
            quantity = self.quantities[0]
            choices = tuple(key_names(reading_of(scene, quantity.at)))
            correct = choices.index(str(evaluate(quantity, scene)))
        elif self.computed:
            answer = tuple(float(evaluate(quantity, scene)) for quantity in self.quantities)
        return Exercise(id=self.id, lesson="", source="", prompt=self.prompt, kind=self.kind, answer=answer,
                        tolerance=self.tolerance, labels=self.labels, choices=choices, correct_choice=correct,
                        hint=self.hint, explanation=self.explanation, show_me=self.show_me)


@dataclass(frozen=True)
class LessonChallenge:
    """Something to do on the canvas until every condition holds ("until weight(it, cat) ≥ 0.9")."""

    id: str
    title: str
    conditions: tuple[Condition, ...]
    hint: str = ""
    show_me: ShowMe | None = None  # a state that meets it: what lesson check tries

    def met(self, scene: Scene) -> bool:
        return all(holds(condition, scene) for condition in self.conditions)


@dataclass(frozen=True)
class LessonFile:
    """A whole lesson file, read and checked. SCENE is the scene's contents: new_scene() makes a Scene of a copy."""

    title: str
    language: str  # a language tag, "en", "es", "zh_CN"
    text: str  # safe Markdown subset, plain text: escape it before showing it as rich text
    scene: SceneData
    formula: str = ""
    first_head: tuple[int, int] = (0, 0)  # (layer, head) shown first where the heads show one at a time
    panels: Panels = Panels()
    hidden_controls: tuple[str, ...] = ()  # from HIDEABLE_CONTROLS
    locked: tuple[str, ...] = ()  # roles, arrow names ("k·cat") and LOCKABLE_PARTS
    exercises: tuple[LessonExercise, ...] = ()
    challenges: tuple[LessonChallenge, ...] = ()
    predict_rounds: tuple[PredictRound, ...] = ()

    def new_scene(self, view: ViewState | None = None) -> Scene:
        """A Scene of the lesson's scene (a copy: the lesson stays as read), VIEW choosing its chosen query."""
        return new_scene(copy.deepcopy(self.scene), view)

    def show_me_scene(self, show_me: ShowMe, view: ViewState | None = None) -> Scene:
        """The scene a Show me sets up: the lesson's own or a built-in one, its steps applied."""
        view = ViewState() if view is None else view
        scene = self.new_scene(view) if show_me.scene == OWN_SCENE else new_scene(builtin_scene(show_me.scene), view)
        apply_steps(scene, view, show_me.steps)
        return scene


def builtin_scene(name: str) -> SceneData:
    """One of BUILTIN_SCENES, read from the app's resources (a name from the closed list: never a path)."""
    one_of(name, "show_me.scene", BUILTIN_SCENES)
    return read_scene_data(scene_path(name))


__all__ = ["BUILTIN_SCENES", "HIDEABLE_CONTROLS", "LESSON_FORMAT", "LESSON_MIME_TYPE", "LESSON_SUFFIX",
           "LESSON_VERSION", "LOCKABLE_PARTS", "OWN_SCENE", "Condition", "LessonChallenge", "LessonExercise",
           "LessonFile", "LessonFileError", "Panels", "PredictRound", "Quantity", "builtin_scene"]
