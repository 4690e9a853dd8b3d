"""The words and numbers the panels print, as pure functions of a scene.

Keeping them here (not in the widgets) means the command line, the tests and
every panel format a number the same way: two decimals, whole percents.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def number(value: float, decimals: int = 2) -> str:
    text = f"{value:.{decimals}f}"
    # "-0.00" reads as a sign error to a student; a rounded zero has no sign.
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def percent(weight: float) -> str:
    return f"{round(weight * 100):d}%"


def vector(values: Sequence[float], decimals: int = 2) -> str:
    return "(" + ", ".join(number(v, decimals) for v in values) + ")"


def _factor(value: float) -> str:
    text = number(value)
    return f"({text})" if text.startswith("-") else text


def dot_product(query_label: str, key_label: str, query: Sequence[float], key: Sequence[float]) -> str:
    """'q_sat · k_cat = 2.40 × 2.20 + 0.60 × 1.00 = 5.88'"""
    terms = " + ".join(f"{_factor(q)} × {_factor(k)}" for q, k in zip(query, key))
    total = float(np.dot(query, key))
    return f"q_{query_label} · k_{key_label} = {terms} = {number(total)}"


def output_formula(output: Sequence[float]) -> str:
    return f"output = Σ weight × v = {vector(output)}"


def divisor_header(key_width: int, scale: bool) -> str:
    """The score table's scaled column: '÷ √2', or a plain copy when scaling is off."""
    return f"÷ √{key_width}" if scale else "÷ 1 (off)"


def matrix_formula(scale: bool, causal: bool) -> str:
    inner = "QKᵀ/√d_k" if scale else "QKᵀ"
    return f"softmax({inner}{' + causal mask' if causal else ''})"


def shapes(n_queries: int, n_tokens: int, key_width: int, value_width: int) -> str:
    if n_queries == n_tokens and key_width == value_width:
        sizes = f"Q, K, V are {n_tokens} × {key_width}."
    else:
        sizes = f"Q is {n_queries} × {key_width}, K is {n_tokens} × {key_width}, V is {n_tokens} × {value_width}."
    return (
        f"{sizes} QKᵀ is {n_queries} × {n_tokens}, one row per query. "
        f"The output is {n_queries} × {value_width}, one mixed vector per query."
    )


def strongest_key(weights: Sequence[float], tokens: Sequence[str]) -> tuple[str, float]:
    index = int(np.argmax(weights))
    return tokens[index], float(weights[index])
