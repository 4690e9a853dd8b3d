"""The Training panel's numbers as the student's language writes them: 0.34 and 88.5 in English, 0,34 and 88,5
in Spanish (see attn_desktop/language/numbers.py)."""

from __future__ import annotations

import math

from attn_desktop.language.numbers import decimal_mark


def significant(value: float, digits: int = 2) -> str:
    """VALUE to DIGITS significant digits, as Python's "g" writes it (0.34, 2.3, 1e-05), with the decimal mark."""
    text = f"{value:.{digits}g}"
    return text.replace(".", decimal_mark()) if math.isfinite(value) else text


def whole_number(count: int) -> str:
    """1,000 in English; in a language with a decimal comma the thousands are set apart by a narrow space."""
    text = f"{count:,}"
    return text.replace(",", "\u202f") if decimal_mark() == "," else text
