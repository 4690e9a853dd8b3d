"""The pseudo-language en_XA: every catalog text accented, bracketed and 40 % longer.

A text still in plain English under en_XA never went through the catalog; one cut off or overlapping
is a layout that a longer language (German, Spanish) will break. Placeholders ({count}), markup (<b>),
entities (&amp;) and Qt's mnemonic ampersand stay as they are, so the texts still format and render.
"""

from __future__ import annotations

import gettext
import re

ACCENTED = str.maketrans(
    "aceinosuyAEIOUCNSYZ",
    "åçéîñöšûýÅÉÎÖÛÇÑŠÝŽ",
)
LONGER_BY = 0.4
# Pieces left alone: {placeholders}, <tags>, &entities; and %-style fields.
_KEPT = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&[a-zA-Z#0-9]+;|%[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z%])")


def pseudo_text(message: str) -> str:
    if not message.strip():
        return message
    pieces = _KEPT.split(message)
    accented = "".join(piece if index % 2 else piece.translate(ACCENTED) for index, piece in enumerate(pieces))
    # The padding comes in short words, as a longer language's words do: a label may wrap between them.
    length = max(1, round(len(message) * LONGER_BY) - 2)
    padding = " ".join("·" * min(4, length - start) for start in range(0, length, 5))
    return f"⟦{accented}{padding}⟧"


class PseudoTranslations(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo_text(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo_text(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo_text(message)
