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

from attn_desktop.language.catalog import current_language, is_right_to_left

DECIMAL_COMMA_LANGUAGES = frozenset({"es"})
MINUS = "−"  # the typographic minus the panels use, not the hyphen
# In a right-to-left text a number's minus, a vector's order and a percent sign would be laid out right to
# left ("1.78-", "(0.48 ,1.54)"). A left-to-right mark on each side keeps a number as mathematics writes it,
# whatever surrounds it.
LEFT_TO_RIGHT_MARK = "\u200e"


def decimal_mark(language: str | None = None) -> str:
    return "," if (language or current_language()) in DECIMAL_COMMA_LANGUAGES else "."


def number(value: float, places: int = 2, *, minus: str = "-", signed: bool = False) -> str:
    """VALUE with PLACES decimals and the language's decimal mark ("nan" and "inf" as Python writes them).

    MINUS is the sign to write ("−" for the typographic one); SIGNED writes "+" before positive values."""
    return left_to_right(_written(value, places, minus, signed))


def _written(value: float, places: int, minus: str, signed: bool = False) -> str:
    text = f"{value:+.{places}f}" if signed else f"{value:.{places}f}"
    if not math.isfinite(value):
        return text
    if text.startswith("-"):
        text = minus + text[1:]
    return text.replace(".", decimal_mark()) if decimal_mark() != "." else text


def percent(fraction: float, places: int = 0) -> str:
    """FRACTION (0.34) as "34%" with the language's decimal mark when PLACES > 0."""
    return left_to_right(_written(fraction * 100, places, "-") + "%")


def vector(values: Iterable[float], places: int = 2, *, minus: str = "-") -> str:
    """(1.54, 0.48), or (1,54; 0,48) where the decimal mark is a comma."""
    separator = "; " if decimal_mark() == "," else ", "
    return left_to_right("(" + separator.join(_written(float(value), places, minus) for value in values) + ")")


def left_to_right(text: str) -> str:
    """TEXT (a number, a vector) kept left to right inside a right-to-left language's text."""
    return f"{LEFT_TO_RIGHT_MARK}{text}{LEFT_TO_RIGHT_MARK}" if is_right_to_left() else text


def left_to_right_formula(text: str) -> str:
    """A formula the code writes (a worked sum, a mixing of heads), kept whole and left to right inside a
    right-to-left language's text: one left-to-right isolate, as the catalogs' formulas are (isolates.py). A
    token's Arabic name in it ends on a left-to-right mark: else the signs and numbers after it ("هو = [(…")
    would be laid out right to left with it."""
    if not is_right_to_left():
        return text
    return f"\u2066{_RIGHT_TO_LEFT_WORD.sub(lambda word: word.group(0) + LEFT_TO_RIGHT_MARK, text)}\u2069"


_RIGHT_TO_LEFT_WORD = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]+")


def localized(text: str) -> str:
    """A number Python wrote ("2.40", ".87", "1.8e9") with the language's decimal mark."""
    return text.replace(".", ",") if decimal_mark() == "," else text


def significant(value: float, digits: int = 2) -> str:
    """VALUE to DIGITS significant digits, as Python's "g" writes it (0.34, 2.3, 1e-05), with the decimal mark."""
    text = f"{value:.{digits}g}"
    return left_to_right(localized(text)) if math.isfinite(value) else text


def whole_number(count: int) -> str:
    """2,000 in English; where the decimal mark is a comma the thousands are set apart by a narrow space
    (Spanish would read "2,000" as two)."""
    text = f"{count:,}"
    return text.replace(",", "\u202f") if decimal_mark() == "," else text


_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$")


def parse_number(text: str) -> float:
    """A typed number, with a decimal point or a decimal comma whatever the language ("1.5", "1,5",
    "−1,5", " 2 "). ValueError, with a message to show, if TEXT is not one number."""
    from attn_desktop.language.catalog import tr

    cleaned = text.strip().strip(LEFT_TO_RIGHT_MARK).strip().replace(MINUS, "-")
    if cleaned.lower() in ("nan", "inf", "-inf", "+inf", "infinity", "-infinity"):
        return float(cleaned)  # the caller decides whether it takes them; most refuse with their own message
    if not _NUMBER.match(cleaned):
        raise ValueError(tr("“{text}” is not a number").format(text=text.strip()))
    return float(cleaned.replace(",", "."))
