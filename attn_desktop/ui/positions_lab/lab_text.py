"""The labs' texts: labels that wrap to a narrow panel and keep their words selectable."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy


def wrapped_label(text: str) -> QLabel:
    """A rich-text label that wraps to the panel's width (never widening it) and can be copied from."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)  # (a new policy drops the one word wrap set): as tall as the text at its width
    label.setSizePolicy(policy)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def set_text(label: QLabel, text: str) -> None:
    """TEXT in LABEL, if it is new: setting a wrapped label's text lays its whole page out again (every
    wrapped text measured at its width), which a drag would otherwise pay for on every move."""
    if label.text() != text:
        label.setText(text)
