"""Help → About."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from attn_desktop import APP_NAME, __version__


def show_about(parent: QWidget) -> None:
    QMessageBox.about(
        parent,
        f"About {APP_NAME}",
        f"<b>{APP_NAME}</b> {__version__}<p>Drag the query, key and value arrows and watch "
        "scaled dot-product attention recompute: softmax(QKᵀ/√d_k)·V.</p><p>Works fully offline.</p>",
    )
