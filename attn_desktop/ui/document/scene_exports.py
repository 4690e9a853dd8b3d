"""File → Export and Copy Picture for one window: what each export writes, under which offered name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from attn_desktop.model.exports.csv_export import scores_csv, weights_csv
from attn_desktop.model.exports.export import export_json_text
from attn_desktop.model.files.safe_write import write_text_atomically
from attn_desktop.ui.document.export_actions import ask_png_scale, export_file
from attn_desktop.ui.tools.image_export import copy_image_to_clipboard, render_png, render_svg

if TYPE_CHECKING:
    from attn_desktop.ui.window.main_window import MainWindow


class SceneExports:
    """The window's exports; each asks where (beside the scene, named after it), writes, and reports a failure."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window

    def results_json(self) -> None:
        window = self.window
        export_file(window, "Results", window.documents.suggested_name("-results.json"), "JSON (*.json)",
                    lambda path: write_text_atomically(path, export_json_text(window.scene)))

    def picture(self, kind: str) -> None:
        """The canvas and the matrix, as a PNG (at a chosen scale) or an SVG, for handouts."""
        window = self.window
        scale = ask_png_scale(window) if kind == "png" else 1.0
        if scale is None:
            return
        export_file(window, kind.upper(), window.documents.suggested_name(f".{kind}"), f"{kind.upper()} (*.{kind})",
                    lambda path: render_png(window, path, scale) if kind == "png" else render_svg(window, path))

    def table_csv(self, what: str) -> None:
        """The attention matrix ("weights") or the score table ("scores") as CSV."""
        make_text = {"weights": weights_csv, "scores": scores_csv}[what]
        window = self.window
        export_file(window, "CSV", window.documents.suggested_name(f"-{what}.csv"), "CSV (*.csv)",
                    lambda path: write_text_atomically(path, make_text(window.scene)))

    def copy_picture(self) -> None:
        copy_image_to_clipboard(self.window)
        self.window.statusBar().showMessage("Picture of the canvas and matrix copied", 3000)
