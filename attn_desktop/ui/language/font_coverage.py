"""Whether the fonts the app carries can draw every character of a language's catalog (a school machine may
have no Chinese or Arabic font: then these fonts are all it has)."""

from __future__ import annotations

import unicodedata

from PySide6.QtGui import QFont, QRawFont

from attn_desktop.language.catalog import translations_for
from attn_desktop.paths import resource_dir

FONT_PIXEL_SIZE = 12


def characters_missing(code: str) -> list[str]:
    """The characters of CODE's translations in Chinese or Arabic script that none of the app's fonts has.
    (Qt reads fonts only once there is an application.)"""
    fonts = [QRawFont(str(path), FONT_PIXEL_SIZE, QFont.HintingPreference.PreferNoHinting)
             for path in sorted((resource_dir() / "fonts").glob("*.[ot]tf"))]
    return [character for character in sorted(_characters_beyond_latin(code))
            if not any(font.isValid() and font.supportsCharacter(ord(character)) for font in fonts)]


def catalog_size(code: str) -> int:
    return len([key for key in getattr(translations_for(code), "_catalog", {}) if key])


# The scripts a base system's fonts (DejaVu, Liberation: Latin, Greek, Cyrillic, symbols) lack.
CARRIED_SCRIPTS = ((0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF),  # Arabic
                   (0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))  # CJK, its punctuation, full-width forms


def _characters_beyond_latin(code: str) -> set[str]:
    """The characters of CODE's translations in a script the app carries a font for (Chinese, Arabic)."""
    texts = getattr(translations_for(code), "_catalog", {}).values()
    return {character for text in texts for character in text
            if any(low <= ord(character) <= high for low, high in CARRIED_SCRIPTS)
            and unicodedata.category(character)[0] in "LMNP"}
