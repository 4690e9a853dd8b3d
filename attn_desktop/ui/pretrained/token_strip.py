"""Tokens as a model splits them, shown as chips: leading spaces visible ("␣cat"), wrapping lines.

A tokenizer keeps the space before a word inside the word's token (" cat"), so a chip shows it
as ␣; without that, "cat" and " cat" (two different tokens) would look alike. The same strip
shows the next-token prediction, each token with its probability.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from attn_desktop.language import number, tr

VISIBLE_WHITESPACE = {" ": "\u2423", "\n": "\u21b5", "\t": "\u21e5", "\r": "\u240d"}  # ␣ ↵ ⇥ ␍
CHIP_STYLE = "background-color: #E8EEF6; color: #102040;"
MAX_CHIPS = 16  # about three lines in the panel's narrowest column


def shown_token(text: str) -> str:
    """A token's text with its spaces and line breaks made visible: " cat" -> "␣cat"."""
    return "".join(VISIBLE_WHITESPACE.get(character, character) for character in text) or "\u2205"


def _chip(text: str, after: str = "") -> str:
    tail = f"&nbsp;{html.escape(after).replace(' ', '&nbsp;')}" if after else ""  # "4.6 %" stays on one line
    # Non-breaking spaces inside a chip, ordinary spaces between chips: lines wrap between tokens.
    return f'<span style="{CHIP_STYLE}">&nbsp;{html.escape(shown_token(text))}&nbsp;</span>{tail}'


class TokenStrip(QLabel):
    """A wrapping row of token chips with a caption ("Tokens (10):")."""

    def __init__(self, caption: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = caption
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)  # wraps, never widens the panel
        policy.setHeightForWidth(True)  # as tall as its wrapped lines
        self.setSizePolicy(policy)
        self.setAccessibleName(caption)
        self.shown: list[str] = []  # what each chip says, as the user reads it
        self.clear_tokens()

    def clear_tokens(self) -> None:
        self.shown = []
        self.setText(f"<b>{html.escape(self.caption)}</b> \u2014")

    def show_tokens(self, tokens: list[str]) -> None:
        """The first MAX_CHIPS tokens as chips and a count of the rest (all of them in the tooltip): a
        long sentence must not make the panel, and so the window, taller than a projector's screen."""
        self.shown = [shown_token(token) for token in tokens]
        chips = " ".join(_chip(token) for token in tokens[:MAX_CHIPS])
        rest = " " + tr("\u2026 and {count} more").format(count=len(tokens) - MAX_CHIPS) if len(tokens) > MAX_CHIPS else ""
        # Translators: the caption of a row of tokens and how many there are, e.g. "Tokens (10):"
        counted = tr("{caption} ({count}):").format(caption=self.caption, count=len(tokens))
        self.setText(f"<b>{html.escape(counted)}</b> {chips}{html.escape(rest)}")
        self.setToolTip(" ".join(self.shown) if rest else "")

    def show_predictions(self, predictions: list[tuple[str, float]]) -> None:
        """The likeliest next tokens, each with its probability: "␣and 19 %"."""
        self.shown = [f"{shown_token(token)} {percent(probability)}" for token, probability in predictions]
        chips = " &nbsp; ".join(_chip(token, percent(probability)) for token, probability in predictions)
        self.setText(f"<b>{html.escape(self.caption)}:</b> {chips}")


def percent(probability: float) -> str:
    """19.0 % as "19 %", 0.4 % as "0.4 %": a class compares them, three figures are noise."""
    value = 100 * probability
    return number(value, 0 if value >= 9.95 else 1) + " %"
