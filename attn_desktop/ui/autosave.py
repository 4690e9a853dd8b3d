"""Keeps a copy of unsaved work in the user's data folder, so a crash loses nothing.

A few seconds after the last edit the scene is written (atomically) to
autosave.json; saving the scene or closing normally removes it. If the file
is still there when the app starts, the last run ended without saving and
the app offers to bring the work back.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from ..model import Scene, SceneFileError
from ..model.scene_file import SceneData, scene_from_dict, write_json_atomically
from ..progress import default_data_dir

AUTOSAVE_DELAY_MS = 2000


def autosave_path() -> Path:
    return default_data_dir() / "autosave.json"


class Autosaver(QObject):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.source_path: Path | None = None  # the file the work belongs to, if any
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_DELAY_MS)  # debounced: a drag writes once, after it settles
        self._timer.timeout.connect(self.write_now)

    def schedule(self) -> None:
        self._timer.start()

    def write_now(self) -> None:
        self._timer.stop()
        document = {"source": str(self.source_path) if self.source_path else None, "scene": self.scene.to_dict()}
        try:
            path = autosave_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomically(path, document)
        except OSError:
            pass  # a read-only home folder must not stop the lesson; the work is still in the window

    def discard(self) -> None:
        """The work is saved (or deliberately dropped): no copy is needed."""
        self._timer.stop()
        try:
            autosave_path().unlink()
        except OSError:
            pass


def read_autosave() -> tuple[SceneData, Path | None] | None:
    """The work a previous run left unsaved, or None (also for a damaged copy)."""
    try:
        document = json.loads(autosave_path().read_text(encoding="utf-8"))
        data = scene_from_dict(document["scene"])
    except (OSError, ValueError, KeyError, TypeError, SceneFileError):
        return None
    source = document.get("source")
    return data, Path(source) if isinstance(source, str) else None
