"""Scenes to and from files: the one place that ties the file format to the Scene and to the
training tasks a trained head may name.

The Scene neither reads nor writes files, and the file format (files/) knows neither the Scene
nor the training code; this module joins them, so the command line, the window and autosave
all open and save a scene the same way.
"""

from __future__ import annotations

import os
from typing import Any

from attn_desktop.model.commands import open_contents
from attn_desktop.model.files.json_reading import parse_json_bytes, parse_json_text
from attn_desktop.model.files.safe_write import write_json_atomically
from attn_desktop.model.files.scene_file import load_scene_file, scene_from_dict, scene_to_dict
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.scene import Scene
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.view_state import ViewState


def read_scene_data(path: str | os.PathLike[str]) -> SceneData:
    """A scene file's contents; SceneFileError (naming the file) on any problem."""
    return load_scene_file(path, TASKS)


def new_scene(data: SceneData, view: ViewState | None = None) -> Scene:
    """A Scene of DATA. The query DATA had chosen belongs to a view, not the scene: VIEW, when given,
    chooses it (the view of the window that will show the scene, or a script's own)."""
    scene = Scene(data)
    if view is not None:
        view.select_query(min(max(0, data.selected), len(data.query_tokens) - 1))
    return scene


def open_scene(path: str | os.PathLike[str], view: ViewState | None = None) -> Scene:
    """A new Scene from a file, VIEW (when given) choosing the query the file had chosen;
    SceneFileError (naming the file) on any problem."""
    return new_scene(read_scene_data(path), view)


def open_reading(path: str | os.PathLike[str], layer: int = 0, head: int = 0) -> HeadReading:
    """HEAD of LAYER of a file's scene, as a script or a test reads it: through a view of its own, with the
    query the file had chosen; SceneFileError (naming the file) on any problem."""
    view = ViewState()
    return HeadReading(open_scene(path, view), view, at=(layer, head))


def scene_data_from_document(document: Any) -> SceneData:
    """A decoded JSON document (a scene file's, or the autosave copy's "scene") checked as a file is."""
    return scene_from_dict(document, TASKS)


def scene_data_from_text(text: str) -> SceneData:
    """A scene file's text (already decoded), checked as a file is."""
    return scene_data_from_document(parse_json_text(text))


def scene_data_from_bytes(raw: bytes) -> SceneData:
    """A scene file's bytes, checked as a file is (size, UTF-8, JSON, then the scene)."""
    return scene_data_from_document(parse_json_bytes(raw))


def scene_from_document(document: Any, view: ViewState | None = None) -> Scene:
    return new_scene(scene_data_from_document(document), view)


def reading_from_document(document: Any) -> HeadReading:
    """The first head of a decoded scene document, through a view of its own with the document's chosen query."""
    view = ViewState()
    return HeadReading(scene_from_document(document, view), view, at=(0, 0))


def contents_as_seen(scene: Scene, view: ViewState | None) -> SceneData:
    """SCENE's contents with the query VIEW has chosen, as a file keeps them: a scene reopened looks as
    it was left. Without a view no query was chosen: the file keeps the first."""
    return scene.to_data(selected=0 if view is None else view.chosen_query(scene.n_queries))


def scene_document(scene: Scene | SceneData, view: ViewState | None = None) -> dict[str, Any]:
    """The JSON document a file holds for SCENE (always the newest version), with VIEW's chosen query."""
    return scene_to_dict(contents_as_seen(scene, view) if isinstance(scene, Scene) else scene, TASKS)


def save_scene(scene: Scene | SceneData, path: str | os.PathLike[str], view: ViewState | None = None) -> None:
    """Write SCENE (with VIEW's chosen query), or contents as they are, to PATH atomically: a crash mid-save
    leaves the old file whole."""
    write_json_atomically(path, scene_document(scene, view))


def load_into(scene: Scene, path: str | os.PathLike[str], view: ViewState) -> None:
    """Open a file into an existing SCENE (its views stay subscribed), VIEW choosing the query the file
    had chosen. On any error SCENE is untouched."""
    open_contents(scene, read_scene_data(path), view)
