"""The panels' and the canvas's numbers in the student's language: explain.py's forms (no "-0.00", 1.8e9
for a huge number, a wide vector cut to "(a, b, …)") with the language's decimal mark, so English reads
"(1.54, 0.48)" as before and Spanish "(1,54; 0,48)" (see attn_desktop.language.numbers)."""

from __future__ import annotations

from collections.abc import Sequence

from attn_desktop.language import percent
from attn_desktop.language.numbers import decimal_mark, left_to_right, localized
from attn_desktop.model import explain

__all__ = ["localized", "percent", "shown_number", "shown_vector", "typed_list"]


def shown_number(value: float, places: int = 2) -> str:
    """explain.number's text ("2.40", "0.00" for a rounded -0, "1.8e9") with the language's decimal mark."""
    return left_to_right(localized(explain.number(value, places)))


def shown_vector(values: Sequence[float], places: int = 2, whole: bool = False, more: bool = False) -> str:
    """"(1.54, 0.48)", "(1,54; 0,48)" with a decimal comma; a wide one "(-0.44, 0.26, …)" unless WHOLE; MORE: the
    values are the first of a longer vector ("…" after them)."""
    separator = "; " if decimal_mark() == "," else ", "
    items = list(values)
    wide = more or (len(items) > explain.WHOLE_UP_TO and not whole)
    shown = [localized(explain.number(float(v), places)) for v in (items[: explain.SHOWN_FIRST] if wide and not more else items)]
    return left_to_right("(" + separator.join(shown + (["…"] if wide else [])) + ")")


def typed_list(texts: Sequence[str]) -> str:
    """Numbers offered in a box to type over ("1.5, -0.2"; "1,5; -0,2" with a decimal comma), as
    parse_numbers reads them back."""
    if decimal_mark() == ".":
        return ", ".join(texts)
    return "; ".join(text.replace(".", ",") for text in texts)
