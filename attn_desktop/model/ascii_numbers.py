"""Numbers typed by a person, on the command line or in a walk's steps, read in ASCII only.

Python's int() and float() take more than a person types into a terminal: "٣" and "０.１" (other scripts'
digits), "1_0" (an underscore), "nan" and "inf". Every number a command reads goes through these two, so
a walk's `resize:１０２４x768` and a command's `--size １０２４x768` are refused alike.
"""

from __future__ import annotations

import math
import re

_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?", re.ASCII)


def ascii_whole_number(text: str, most_digits: int = 20) -> int | None:
    """TEXT as a whole number of 1 to MOST_DIGITS digits 0-9 (no sign, no 1e3 or 4.0), or None. Never
    converts a thousand digits."""
    if not re.fullmatch(f"[0-9]{{1,{most_digits}}}", text, re.ASCII):
        return None
    return int(text)


def ascii_decimal(text: str) -> float | None:
    """TEXT as a finite number written with 0-9, a point, a sign and an exponent ("1.5", "-2", "1e-3"), or None."""
    if not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None  # 1e999


__all__ = ["ascii_decimal", "ascii_whole_number"]
