"""Whether the fonts the app carries can draw every character of a language's catalog (a school machine may
have no Chinese or Arabic font: then these fonts are all it has)."""

from __future__ import annotations

import unicodedata

from PySide6.QtGui import QFont, QRawFont

from attn_desktop.language.catalog import translations_for
from attn_desktop.paths import resource_dir

FONT_PIXEL_SIZE = 12


def characters_missing(code: str) -> list[str]:
    """The characters of CODE's translations beyond Latin script that none of the app's fonts has."""
    fonts = [QRawFont(str(path), FONT_PIXEL_SIZE, QFont.HintingPreference.PreferNoHinting)
             for path in sorted((resource_dir() / "fonts").glob("*.[ot]tf"))]
    return [character for character in sorted(_characters_beyond_latin(code))
            if not any(font.isValid() and font.supportsCharacter(ord(character)) for font in fonts)]


def catalog_size(code: str) -> int:
    return len([key for key in getattr(translations_for(code), "_catalog", {}) if key])


def _characters_beyond_latin(code: str) -> set[str]:
    """Characters a base system's Latin fonts (DejaVu, Liberation) may lack: CJK, Arabic, and such."""
    texts = getattr(translations_for(code), "_catalog", {}).values()
    return {character for text in texts for character in text
            if ord(character) >= 0x0590 and unicodedata.category(character)[0] in "LMNP"}
