"""File → Export: ask where, write, and turn any failure into one message.

Every export (results as JSON, the tables as CSV, the picture as PNG or SVG) takes the same
steps; only the dialog's words and the writer differ.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

from attn_desktop.language import tr
from attn_desktop.ui.document.file_problems import failure_text, read_only, same_file


def export_file(parent: QWidget | None, kind: str, suggested: Path, file_filter: str, write: Callable[[str], object],
                *, own_file: Path | None, show_error: Callable[[str, str], object]) -> bool:
    """Ask for a file ("Export KIND", starting at SUGGESTED), then WRITE it; True once written.

    A name typed without an extension gets the suggested one. PARENT is the dialog's; OWN_FILE is
    the scene's own file, never to be replaced; SHOW_ERROR tells why nothing was written.
    """
    path, _ = QFileDialog.getSaveFileName(parent, tr("Export {kind}").format(kind=kind), str(suggested),
                                          file_filter)
    if not path:
        return False
    path = path if Path(path).suffix else path + suggested.suffix
    if same_file(path, own_file):
        show_error(tr("Cannot export"), tr("{file}: that is this scene's own file; the export would replace "
                                           "the scene. Choose another name.").format(file=path))
        return False
    if read_only(path):
        show_error(tr("Cannot export"), tr("{file}: the file is read-only; it was left as it was. "
                                           "Choose another name.").format(file=path))
        return False
    try:
        write(path)
    except Exception as error:  # noqa: BLE001 - a full disk, a folder, a huge picture: a message, never a traceback
        show_error(tr("Cannot export"), tr("{file}: {reason}").format(file=path, reason=failure_text(error)))
        return False
    return True


def ask_png_scale(parent: QWidget | None) -> float | None:
    """How many times the on-screen size a PNG should be; None when the teacher cancels."""
    scale, ok = QInputDialog.getDouble(
        parent, tr("Export PNG"), tr("Scale (2 = twice the size on screen, sharper when printed):"), 2.0, 0.25, 8.0, 2,
    )
    return scale if ok else None
