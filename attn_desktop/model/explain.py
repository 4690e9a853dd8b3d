"""The words and numbers the panels print, as pure functions of a scene.

Keeping them here (not in the widgets) means the command line, the tests and
every panel format a number the same way: two decimals, whole percents, and
powers of ten for numbers too long to read digit by digit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_desktop.language import ntr, tr
from attn_desktop.language.numbers import left_to_right_formula

LARGE = 1e6  # from here on a number prints as 1.8e9: "1800000000.00" is a row of digits nobody counts


def arrow_name(symbol: str, token: str) -> str:
    """An arrow's name as every panel, menu and status line writes it: "k·cat", "x·it".

    `symbol` is a role's letter (Role.symbol); taking the letter keeps this module free of the scene.
    """
    return f"{symbol}\u00b7{token}"


def number(value: float, decimals: int = 2) -> str:
    """'2.40'; '-0.00' never (a rounded zero has no sign); '1.8e9' for a large number."""
    if abs(value) >= LARGE and abs(value) != float("inf"):
        return power_of_ten(value, max(decimals - 1, 1))
    text = f"{value:.{decimals}f}"
    # "-0.00" reads as a sign error to a student; a rounded zero has no sign.
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def short_number(value: float, decimals: int = 3) -> str:
    """A number to type over, without trailing zeros: '1.5', '-0.25', '2', '1.23e9'."""
    text = number(value, decimals)
    if "e" in text or "." not in text:
        return text
    return text.rstrip("0").rstrip(".") or "0"


def power_of_ten(value: float, digits: int) -> str:
    """'1.8e9' and '-2.5e12': Python's '1.8e+09' without the plus and the leading zero."""
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def percent(weight: float) -> str:
    return f"{round(weight * 100):d}%"


# A vector or a dot product wider than this prints its first and last numbers around "…" (a head of
# a real model is 64 wide: every number would fill a panel and push the window past the screen).
WHOLE_UP_TO = 8
SHOWN_FIRST = 2


def vector(values: Sequence[float], decimals: int = 2) -> str:
    """'(1.54, 0.48)'; a wide one '(-0.44, 0.26, …)' (whole_vector() gives every number)."""
    shown = [number(v, decimals) for v in _first(values)]
    return "(" + ", ".join(shown) + (", …)" if len(values) > WHOLE_UP_TO else ")")


def whole_vector(values: Sequence[float], decimals: int = 2) -> str:
    """Every number, however many (for tooltips and files)."""
    return "(" + ", ".join(number(v, decimals) for v in values) + ")"


def _first(values: Sequence[float]) -> list[float]:
    """All the values, or for a wide vector its first SHOWN_FIRST."""
    items = list(values)
    return items if len(items) <= WHOLE_UP_TO else items[:SHOWN_FIRST]


def _factor(value: float) -> str:
    text = number(value)
    return f"({text})" if text.startswith("-") else text


def dot_product(query_label: str, key_label: str, query: Sequence[float], key: Sequence[float]) -> str:
    """'q_sat · k_cat = 2.40 × 2.20 + 0.60 × 1.00 = 5.88'; for wide vectors the first products,
    "…" and how many there are: '(-0.14) × 1.32 + (-0.56) × 1.64 + … = 50.07 (64 products)'."""
    products = [f"{_factor(q)} × {_factor(k)}" for q, k in zip(_first(query), _first(key))]
    if len(query) > WHOLE_UP_TO:
        products.append("…")
    total = number(float(np.dot(query, key)))
    count = ntr(" ({count} product)", " ({count} products)", len(query)).format(count=len(query)) \
        if len(query) > WHOLE_UP_TO else ""
    return left_to_right_formula(f"q_{query_label} · k_{key_label} = {' + '.join(products)} = {total}{count}")


def output_formula(output: Sequence[float]) -> str:
    count = ntr(" ({count} number)", " ({count} numbers)", len(output)).format(count=len(output)) \
        if len(output) > WHOLE_UP_TO else ""
    # Translators: a formula: translate "output" and "weight" only if the panels do.
    return tr("output = Σ weight × v = {vector}{count}").format(vector=vector(output), count=count)


def divisor_header(key_width: int, scale: bool) -> str:
    """The score table's scaled column: '÷ √2', or a plain copy when scaling is off."""
    return left_to_right_formula(f"÷ √{key_width}") if scale else tr("÷ 1 (off)")


def matrix_formula(scale: bool, causal: bool) -> str:
    inner = "QKᵀ/√d_k" if scale else "QKᵀ"
    return tr("softmax({inner} + causal mask)").format(inner=inner) if causal else f"softmax({inner})"


def shapes(n_queries: int, n_tokens: int, key_width: int, value_width: int, from_target: bool = False) -> str:
    """The sizes of Q, K, V, QKᵀ and the output; FROM_TARGET (cross-attention): where Q and where K and V come from."""
    text = _sizes(n_queries, n_tokens, key_width, value_width)
    if not from_target:
        return text
    # Translators: after the sizes, in a cross-attention scene: "Q is made from the target's 4 words y, K and V ..."
    return text + " " + tr("Q is made from the target's {n_queries} words y, K and V from the source's {n_tokens} "
                           "words x.").format(n_queries=n_queries, n_tokens=n_tokens)


def _sizes(n_queries: int, n_tokens: int, key_width: int, value_width: int) -> str:
    if n_queries == n_tokens and key_width == value_width:
        sizes = tr("Q, K, V are {n_tokens} × {key_width}.").format(n_tokens=n_tokens, key_width=key_width)
    else:
        sizes = tr("Q is {n_queries} × {key_width}, K is {n_tokens} × {key_width}, V is {n_tokens} × {value_width}.").format(
            n_queries=n_queries, n_tokens=n_tokens, key_width=key_width, value_width=value_width)
    # Translators: {sizes} is the sentence before, "Q, K, V are 6 × 2."
    return tr("{sizes} QKᵀ is {n_queries} × {n_tokens}, one row per query. "
              "The output is {n_queries} × {value_width}, one mixed vector per query.").format(
        sizes=sizes, n_queries=n_queries, n_tokens=n_tokens, value_width=value_width)


TIE = 0.0005  # weights closer than this are the same to every place the app prints (75.9%)


def strongest_key(weights: Sequence[float], tokens: Sequence[str]) -> tuple[str, float]:
    index = int(np.argmax(weights))
    return tokens[index], float(weights[index])


SHORT_NAME_CHARACTERS = 14  # names this long read at a glance; longer ones are cut where space is tight


def short_name(token: str, limit: int = SHORT_NAME_CHARACTERS) -> str:
    """The token as a label beside an arrow or a number shows it: "catastrophica…" for a long one."""
    return token if len(token) <= limit else token[: limit - 1] + "…"


def attends_most_to(weights: Sequence[float], tokens: Sequence[str]) -> str:
    """'cat, 76%', or for a tie 'The and the, 17% each (a tie)': naming one of equals would mislead."""
    # Python floats: NumPy's calls cost several times the comparisons of a few weights, on every drag move.
    row = [float(weight) for weight in weights]
    top = max(row)
    tied = [tokens[index] for index, weight in enumerate(row) if weight >= top - TIE]
    if len(tied) == 1:
        return f"{tied[0]}, {percent(top)}"
    if len(tied) == len(tokens):
        names = ntr("all {count} key", "all {count} keys", len(tied)).format(count=len(tied))
    elif len(tied) <= 3:
        names = tr("{names} and {last}").format(names=", ".join(tied[:-1]), last=tied[-1])
    else:
        names = ntr("{count} key", "{count} keys", len(tied)).format(count=len(tied))
    # Translators: {names} are the keys that tie ("The and the", "all 6 keys"), {percent} the weight of each.
    return tr("{names}, {percent} each (a tie)").format(names=names, percent=percent(top))


def mixing_formula(query: str, head_outputs: Sequence[Sequence[float]], mixed: Sequence[float]) -> str:
    """How W_O makes a query's output from its heads':
    "out·it = [(−0.94, −0.34) | (0.30, 1.00)] × W_O = (−0.41, 0.23, 0.86, 0.13)"."""
    joined = " | ".join(vector(output) for output in head_outputs)
    return left_to_right_formula(f"{arrow_name('out', query)} = [{joined}] × W_O = {vector(mixed)}")
