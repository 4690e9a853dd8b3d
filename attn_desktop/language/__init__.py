"""The app's words in the user's language: the message catalogs (gettext) and how numbers are written.

Qt-free, so the model, the command line and the window all use the same functions:

    from attn_desktop.language import tr, ntr, N_

    tr("Scores")                                              # a fixed text
    tr("{count} heads knocked out").format(count=n)           # never pieces joined: word order differs
    ntr("{count} head", "{count} heads", n).format(count=n)   # plural forms (Arabic has six)
    TITLE = N_("Soft lookup")   # marked for the catalog at import time, translated where shown: tr(TITLE)

tr() is never called at import time (a module constant would keep the language it was imported in):
module and class constants are marked with N_() and translated where they are shown.
"""

from attn_desktop.language.catalog import (
    LANGUAGE_NAMES,
    N_,
    PSEUDO_LANGUAGE,
    current_language,
    is_right_to_left,
    language_of_system,
    ntr,
    on_language_changed,
    set_language,
    shown_languages,
    tr,
    tr_in,
)
from attn_desktop.language.numbers import number, parse_number, percent, vector

__all__ = [
    "LANGUAGE_NAMES",
    "N_",
    "PSEUDO_LANGUAGE",
    "current_language",
    "is_right_to_left",
    "language_of_system",
    "ntr",
    "number",
    "on_language_changed",
    "parse_number",
    "percent",
    "set_language",
    "shown_languages",
    "tr",
    "tr_in",
    "vector",
]
