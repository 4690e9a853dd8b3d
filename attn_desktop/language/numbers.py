"""Numbers as the student's language writes them: 1.54 in English, 1,54 in Spanish.

Only what a student reads is written this way (panels, labels, lesson text); files, CSV and JSON exports
and the Code panel's Python keep the dot whatever the language, so they stay machine-readable.
A vector's numbers are separated by ", " where the decimal mark is a dot and by "; " where it is a
comma: (1.54, 0.48) and (1,54; 0,48).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from attn_desktop.language.catalog import current_language

DECIMAL_COMMA_LANGUAGES = frozenset({"es"})
MINUS = "−"  # the typographic minus the panels use, not the hyphen


def decimal_mark(language: str | None = None) -> str:
    return "," if (language or current_language()) in DECIMAL_COMMA_LANGUAGES else "."


def number(value: float, places: int = 2, *, minus: str = "-", signed: bool = False) -> str:
    """VALUE with PLACES decimals and the language's decimal mark ("nan" and "inf" as Python writes them).

    MINUS is the sign to write ("−" for the typographic one); SIGNED writes "+" before positive values."""
    text = f"{value:+.{places}f}" if signed else f"{value:.{places}f}"
    if not math.isfinite(value):
        return text
    if text.startswith("-"):
        text = minus + text[1:]
    return text.replace(".", decimal_mark()) if decimal_mark() != "." else text


def percent(fraction: float, places: int = 0) -> str:
    """FRACTION (0.34) as "34%" with the language's decimal mark when PLACES > 0."""
    return number(fraction * 100, places) + "%"


def vector(values: Iterable[float], places: int = 2, *, minus: str = "-") -> str:
    """(1.54, 0.48), or (1,54; 0,48) where the decimal mark is a comma."""
    separator = "; " if decimal_mark() == "," else ", "
    return "(" + separator.join(number(float(value), places, minus=minus) for value in values) + ")"


_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$")


def parse_number(text: str) -> float:
    """A typed number, with a decimal point or a decimal comma whatever the language ("1.5", "1,5",
    "−1,5", " 2 "). ValueError, with a message to show, if TEXT is not one number."""
    from attn_desktop.language.catalog import tr

    cleaned = text.strip().replace(MINUS, "-").replace("\u2212", "-")
    if cleaned.lower() in ("nan", "inf", "-inf", "+inf", "infinity", "-infinity"):
        return float(cleaned)  # the caller decides whether it takes them; most refuse with their own message
    if not _NUMBER.match(cleaned):
        raise ValueError(tr("“{text}” is not a number").format(text=text.strip()))
    return float(cleaned.replace(",", "."))
