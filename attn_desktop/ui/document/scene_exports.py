"""File → Export and Copy Picture for one window: what each export writes, under which offered name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.model import HeadReading
from attn_desktop.model.exports.csv_export import scores_csv, weights_csv
from attn_desktop.model.exports.export import export_json_text
from attn_desktop.model.files.safe_write import write_text_atomically
from attn_desktop.ui.document.export_actions import ask_png_scale, export_file
from attn_desktop.ui.document.handout_image import HandoutSource, copy_image_to_clipboard, render_png, render_svg


class ExportNames(Protocol):
    """The document's side of an export (see DocumentController): its own file, and the names offered."""

    @property
    def path(self) -> Path | None: ...
    def suggested_name(self, ending: str) -> Path: ...


class ExportDialogs(Protocol):
    """Where the exports ask and tell (see QtDocumentDialogs): the dialogs' window and its messages."""

    @property
    def window(self) -> QWidget: ...
    def show_error(self, title: str, message: str) -> None: ...
    def show_status(self, message: str, milliseconds: int) -> None: ...


class SceneExports:
    """The window's exports; each asks where (beside the scene, named after it), writes, and reports a failure.

    HANDOUT is what the pictures show: the window's canvas and matrix, as on screen.
    """

    def __init__(self, shown: HeadReading, documents: ExportNames, handout: HandoutSource, dialogs: ExportDialogs) -> None:
        """SHOWN is the head the window's panels show: a CSV table is its; the JSON export is the whole scene's."""
        self.shown, self.documents, self.handout, self.dialogs = shown, documents, handout, dialogs

    def _export(self, kind: str, ending: str, file_filter: str, write: Callable[[str], object]) -> None:
        export_file(self.dialogs.window, kind, self.documents.suggested_name(ending), file_filter, write,
                    own_file=self.documents.path, show_error=self.dialogs.show_error)

    def results_json(self) -> None:
        self._export(tr("Results"), "-results.json", "JSON (*.json)",
                     lambda path: write_text_atomically(path, export_json_text(self.shown)))

    def picture(self, kind: str) -> None:
        """The canvas and the matrix, as a PNG (at a chosen scale) or an SVG, for handouts."""
        scale = ask_png_scale(self.dialogs.window) if kind == "png" else 1.0
        if scale is None:
            return
        self._export(kind.upper(), f".{kind}", f"{kind.upper()} (*.{kind})",
                     lambda path: render_png(self.handout, path, scale) if kind == "png"
                     else render_svg(self.handout, path))

    def table_csv(self, what: str) -> None:
        """The attention matrix ("weights") or the score table ("scores") as CSV."""
        make_text = {"weights": weights_csv, "scores": scores_csv}[what]
        self._export("CSV", f"-{what}.csv", "CSV (*.csv)",
                     lambda path: write_text_atomically(path, make_text(self.shown)))

    def copy_picture(self) -> None:
        copy_image_to_clipboard(self.handout)
        self.dialogs.show_status(tr("Picture of the canvas and matrix copied"), 3000)
