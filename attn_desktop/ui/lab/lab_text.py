"""The labs' texts: labels that wrap to a narrow panel and keep their words selectable, and numbers as the
student's language writes them."""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from attn_desktop.language import number
from attn_desktop.language.numbers import decimal_mark
from attn_desktop.model import explain


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


def shown_number(value: float, places: int = 2) -> str:
    """A number as the panels write it (explain.number: never "-0.00", 1.8e9 when large), with the language's
    decimal mark (1,54 in Spanish)."""
    if math.isfinite(value) and abs(value) >= explain.LARGE:
        return explain.number(value, places).replace(".", decimal_mark())
    if float(f"{value:.{places}f}") == 0:
        value = 0.0  # a rounded zero has no sign
    return number(value, places)


def shown_vector(values: Iterable[float], more: bool = False) -> str:
    """(1.54, 0.48), or (1,54; 0,48) where the decimal mark is a comma; MORE: "…" after the numbers."""
    separator = "; " if decimal_mark() == "," else ", "
    return "(" + separator.join([*(shown_number(float(value)) for value in values), *(["…"] if more else [])]) + ")"


def whole_number(count: int) -> str:
    """2,000 in English; in a language with a decimal comma the thousands are set apart by a narrow space."""
    text = f"{count:,}"
    return text.replace(",", "\u202f") if decimal_mark() == "," else text
