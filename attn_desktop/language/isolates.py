"""Mathematics in a right-to-left text, kept reading left to right.

In an Arabic sentence the bidirectional algorithm lays out a formula's Latin letters left to right, but the
brackets, roots and bars at its ends take the sentence's direction: "√d_k" shows as "d_k√", "[head₁ | head₂] W_O"
loses its bracket to the other end. Each formula of a right-to-left catalog is therefore put in a left-to-right
isolate (U+2066 … U+2069): inside it the formula reads as in every language, and outside it the sentence goes
on as if the formula were one word. It is done once, when the catalog is read (catalog.py), so every text of
the language — a lesson, a panel's label, a tooltip — is isolated the same way, and translators write formulas
as they are.
"""

from __future__ import annotations

import re
from functools import cache

LEFT_TO_RIGHT_ISOLATE = "\u2066"
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
ISOLATES = frozenset("\u2066\u2067\u2068\u2069")
NO_BREAK_SPACE = "\u00a0"
UNBROKEN_FORMULA_CHARACTERS = 24  # "[head₁ | head₂] W_O", "softmax(QKᵀ/√d_k)": kept on one line of a narrow column

# The characters a formula is written with: Latin and Greek letters, digits, sub- and superscripts, operators,
# brackets, a placeholder's braces, and the spaces and separators between them. No Arabic letter.
_FORMULA_CHARACTER = r"[A-Za-z0-9\u0370-\u03ff\u2070-\u209f\u1d40-\u1d6a_√·×÷=≈≠<>≤≥+\-−/*^|()\[\]{}Σ∑½∞°.,:;' ]"
FORMULA_RUN = re.compile(f"(?![ .,:;']){_FORMULA_CHARACTER}+")  # (a run starts with more than a space or a stop)
# What makes a run mathematics rather than a Latin word or a number (which read well in Arabic as they are).
MATH_MARKS = frozenset("√·×÷=≈≠≤≥^|[]Σ∑ᵀ_") | frozenset(chr(c) for c in range(0x2080, 0x208a))
# A formula has a letter or a digit: signs alone between Arabic words ("المخرج = Σ الوزن") read right to left.
_OPERAND = re.compile(r"[A-Za-z0-9\u03b1-\u03c9]")  # (Greek small letters are variables: θ, α; Σ is a sign)
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}")  # a value put in later: an operand, its name no sign
# Signs that join a formula to the words around it: an isolate never starts or ends with one ("الوزن × v" is
# a formula of the sentence's direction, of which v is one operand).
_JOINING = frozenset("=≈≠<>≤≥+×÷·*/,.:;−- ")
_APPLIED = re.compile(r"[A-Za-z]\(")  # a function applied: softmax(…), cos(…)
_MARKUP = re.compile(r"(<[^<>]*>|&[A-Za-z]+;|&#[0-9]+;)")  # a rich text's tags and entities: never a formula
_BRACKETS = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(_BRACKETS.values())


@cache  # (a catalog is read at each change of language: its texts are isolated once)
def isolate_formulas(text: str) -> str:
    """TEXT with each formula in a left-to-right isolate (TEXT as it is if it holds an isolate already)."""
    if ISOLATES.intersection(text) or not (MATH_MARKS.intersection(text) or "(" in text):
        return text  # (most texts: read once, at the catalog's loading)
    return "".join(part if _MARKUP.fullmatch(part) else _isolate_in(part) for part in _MARKUP.split(text))


def _isolate_in(plain: str) -> str:
    pieces, position = [], 0
    while (run := FORMULA_RUN.search(plain, position)) is not None:
        end = _closing_end(plain, run.start(), run.end())
        start, stop = _trimmed(plain, run.start(), end)
        stop = start + _balanced_length(plain[start:stop])
        start, stop = _trimmed(plain, start, stop)
        formula = plain[start:stop]
        written = _PLACEHOLDER.sub("", formula)  # (values may be words of the sentence: "{head} · {name}")
        if (MATH_MARKS.intersection(written) or _APPLIED.search(written)) and _OPERAND.search(written):
            pieces += [plain[position:start], LEFT_TO_RIGHT_ISOLATE, _unbroken(formula), POP_DIRECTIONAL_ISOLATE]
            position = stop
        else:
            pieces.append(plain[position:end])
            position = end
    pieces.append(plain[position:])
    return "".join(pieces)


def _unbroken(formula: str) -> str:
    """A short FORMULA with no-break spaces: a line broken inside an isolate puts its halves at the two ends of a
    right-to-left line ("[head₁" beside the words, "head₂] W_O" on the next line). Long ones may still wrap."""
    return formula.replace(" ", NO_BREAK_SPACE) if len(formula) <= UNBROKEN_FORMULA_CHARACTERS else formula


def _closing_end(plain: str, start: int, end: int) -> int:
    """Where the run START:END ends once the brackets it opens are closed ("softmax({inner} + القناع السببي)":
    the whole, Arabic words in the brackets included), and the formula after them; END if they never close."""
    waiting: list[str] = []
    for index in range(start, len(plain)):
        if index >= end and not waiting:
            run = FORMULA_RUN.match(plain, index)
            return run.end() if run is not None else index
        character = plain[index]
        if character in "{}":
            continue  # a placeholder's braces
        if character in _BRACKETS:
            if index >= end or (index > start and not _OPERAND.match(plain[index - 1])):
                return end  # only a function's brackets ("softmax(", "cos(") hold words of the sentence
            waiting.append(_BRACKETS[character])
        elif waiting and character == waiting[-1]:
            waiting.pop()
    return end if waiting else len(plain)


def _trimmed(plain: str, start: int, end: int) -> tuple[int, int]:
    """START:END without the joining signs (and stray closing brackets) at its ends."""
    while start < end and (plain[start] in _JOINING or plain[start] in ")]}") and not _negative_number_at(plain, start):
        start += 1
    while end > start and plain[end - 1] in _JOINING and not _argument_sign_at(plain, end - 1):
        end -= 1
    return start, end


def _argument_sign_at(plain: str, index: int) -> bool:
    """An "=" written onto a name ("scale="): a keyword argument, part of the formula."""
    return plain[index] == "=" and index > 0 and bool(_OPERAND.match(plain[index - 1]))


def _negative_number_at(plain: str, index: int) -> bool:
    return plain[index] in "−-" and index + 1 < len(plain) and plain[index + 1].isdigit()


def _balanced_length(formula: str) -> int:
    """How much of FORMULA's start holds only bracket pairs that close in it (an isolate must not split a
    pair: its halves would not mirror together)."""
    opened: list[tuple[int, str]] = []
    for index, character in enumerate(formula):
        if character in _BRACKETS:
            opened.append((index, _BRACKETS[character]))
        elif character in _CLOSING:
            if not opened or opened[-1][1] != character:
                return index
            opened.pop()
    return opened[0][0] if opened else len(formula)


def in_isolate(text: str) -> str:
    """TEXT as one isolate taking its direction from its first letter: a formula line set on its own."""
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def outside_isolates(text: str) -> str:
    """TEXT without what its isolates hold (for checks: what is left reads in the sentence's direction)."""
    depth, kept = 0, []
    for character in text:
        if character in "\u2066\u2067\u2068":
            depth += 1
        elif character == POP_DIRECTIONAL_ISOLATE:
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(character)
    return "".join(kept)
