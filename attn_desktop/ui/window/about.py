"""Help → About."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from attn_desktop import APP_NAME, __version__
from attn_desktop.language import tr


def show_about(parent: QWidget) -> None:
    QMessageBox.about(
        parent,
        tr("About {app}").format(app=APP_NAME),
        # Translators: keep the HTML tags and the formula softmax(QKᵀ/√d_k)·V as they are.
        tr("<b>{app}</b> {version}<p>Drag the query, key and value arrows and watch "
           "scaled dot-product attention recompute: softmax(QKᵀ/√d_k)·V.</p><p>Works fully offline.</p>").format(
            app=APP_NAME, version=__version__),
    )
