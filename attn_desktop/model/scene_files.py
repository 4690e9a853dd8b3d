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
from attn_desktop.model.scene import Scene
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.view_state import ViewState, shared_view


def read_scene_data(path: str | os.PathLike[str]) -> SceneData:
    """A scene file's contents; SceneFileError (naming the file) on any problem."""
    return load_scene_file(path, TASKS)


def new_scene(data: SceneData) -> Scene:
    """A Scene of DATA, looked at with the query DATA had chosen (a file keeps the choice; the scene does not)."""
    scene = Scene(data)
    shared_view(scene).select_query(min(max(0, data.selected), len(data.query_tokens) - 1))
    return scene


def open_scene(path: str | os.PathLike[str]) -> Scene:
    """A new Scene from a file; SceneFileError (naming the file) on any problem."""
    return new_scene(read_scene_data(path))


def scene_data_from_document(document: Any) -> SceneData:
    """A decoded JSON document (a scene file's, or the autosave copy's "scene") checked as a file is."""
    return scene_from_dict(document, TASKS)


def scene_data_from_text(text: str) -> SceneData:
    """A scene file's text (already decoded), checked as a file is."""
    return scene_data_from_document(parse_json_text(text))


def scene_data_from_bytes(raw: bytes) -> SceneData:
    """A scene file's bytes, checked as a file is (size, UTF-8, JSON, then the scene)."""
    return scene_data_from_document(parse_json_bytes(raw))


def scene_from_document(document: Any) -> Scene:
    return new_scene(scene_data_from_document(document))


def contents_as_seen(scene: Scene, view: ViewState | None = None) -> SceneData:
    """SCENE's contents with the query VIEW has chosen (without VIEW: the one its readings share), as
    a file keeps them: a scene reopened looks as it was left."""
    view = shared_view(scene) if view is None else view
    return scene.to_data(selected=view.chosen_query(scene.n_queries))


def scene_document(scene: Scene | SceneData) -> dict[str, Any]:
    """The JSON document a file holds for SCENE (always the newest version)."""
    return scene_to_dict(contents_as_seen(scene) if isinstance(scene, Scene) else scene, TASKS)


def save_scene(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write SCENE to PATH atomically: a crash mid-save leaves the old file whole."""
    write_json_atomically(path, scene_document(scene))


def load_into(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Open a file into an existing SCENE (its views stay subscribed) with the query the file had chosen.
    On any error SCENE is untouched."""
    open_contents(scene, read_scene_data(path))
