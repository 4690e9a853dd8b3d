"""Make resources/fonts/: the Chinese and Arabic fonts the app carries, cut to the characters it needs.

A school machine may have no Chinese or Arabic font at all; the app then drew boxes. The full Noto fonts
are 19 MB (Chinese) and 0.2 MB (Arabic); the subsets keep what the catalogs use and what a student types:
GB2312's 6,763 characters (the set every Chinese input method covers first) and Chinese punctuation;
Arabic's letters, their presentation forms and the shaping rules (kept whole: Arabic needs them to join).

    sudo apt-get install fonts-noto-cjk fonts-noto-ui-core   # the sources (Debian's packages)
    python packaging/make_fonts.py                         # after the catalogs change, too
    python packaging/make_fonts.py FOLDER                  # or from copies of the three source files

(Remove the two packages again before looking at screenshots: with them, "sans-serif" becomes Noto Sans and
every text measures differently from a school machine's DejaVu Sans.)

Needs fontTools (pip install fonttools). The fonts are under the SIL Open Font License (resources/fonts/OFL.txt).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
FONTS_DIR = ROOT / "resources" / "fonts"
LOCALE_DIR = ROOT / "resources" / "locale"
CJK_COLLECTION = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SIMPLIFIED_INDEX = 2  # the collection's fonts: JP, KR, SC, TC, HK, ...
# The UI variant: its lines are as tall as a Latin UI font's (the book variant's are half again as tall, and
# every label with an Arabic word or a left-to-right mark grew by that much).
ARABIC_FONTS = [Path("/usr/share/fonts/truetype/noto/NotoSansArabicUI-Regular.ttf"),
                Path("/usr/share/fonts/truetype/noto/NotoSansArabicUI-Bold.ttf")]
PUNCTUATION = [*range(0x2000, 0x2070), *range(0x3000, 0x3040), *range(0xFF00, 0xFFF0), 0x00B7, 0x00D7]
ARABIC_BLOCKS = [*range(0x0600, 0x0700), *range(0x0750, 0x0780), *range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)]


def gb2312_characters() -> list[int]:
    """Every character of GB2312's two levels (rows 16–87 of its 94 × 94 table)."""
    characters = []
    for row in range(0xB0, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                characters.append(ord(bytes([row, cell]).decode("gb2312")))
            except UnicodeDecodeError:
                continue
    return characters


def catalog_characters(code: str) -> list[int]:
    catalog = LOCALE_DIR / code / "LC_MESSAGES" / "attn_desktop.po"
    text = catalog.read_text(encoding="utf-8") if catalog.exists() else ""
    return sorted({ord(character) for character in text if ord(character) > 0x2000})


def cut(font: TTFont, characters: list[int], output: Path) -> None:
    options = subset.Options()
    options.layout_features = ["*"]  # Arabic's joining and ligatures; vertical forms are not needed
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False  # the screens it is for are 96 dpi and up; hints double the size
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=characters)
    subsetter.subset(font)
    font.save(output)
    print(f"{output.name}: {len(characters):,} characters asked, {output.stat().st_size / 1e6:.2f} MB")


# A Chinese line as tall as a line of the system's Latin UI font (DejaVu Sans: 1.16 em): the font's own 1.45 em
# made every panel's rows a quarter taller in Chinese, and a 768-line screen lost a score row to it. The
# ideographs sit inside their em box (0.88 em up, 0.12 em down), well within these lines.
UI_ASCENT, UI_DESCENT = 0.93, 0.236


def with_ui_line_height(font_file: Path) -> None:
    font = TTFont(font_file)
    units = font["head"].unitsPerEm
    ascent, descent = round(UI_ASCENT * units), round(UI_DESCENT * units)
    font["hhea"].ascent, font["hhea"].descent, font["hhea"].lineGap = ascent, -descent, 0
    metrics = font["OS/2"]
    metrics.usWinAscent, metrics.usWinDescent = ascent, descent
    metrics.sTypoAscender, metrics.sTypoDescender, metrics.sTypoLineGap = ascent, -descent, 0
    font.save(font_file)


def main(argv: list[str]) -> int:
    if argv:  # a folder holding copies of the source files
        global CJK_COLLECTION, ARABIC_FONTS
        CJK_COLLECTION = Path(argv[0]) / CJK_COLLECTION.name
        ARABIC_FONTS = [Path(argv[0]) / source.name for source in ARABIC_FONTS]
    FONTS_DIR.mkdir(exist_ok=True)
    chinese = sorted(set(gb2312_characters() + catalog_characters("zh_CN") + PUNCTUATION))
    cut(TTCollection(CJK_COLLECTION).fonts[CJK_SIMPLIFIED_INDEX], chinese, FONTS_DIR / "NotoSansSC-Subset.otf")
    with_ui_line_height(FONTS_DIR / "NotoSansSC-Subset.otf")
    arabic = sorted(set(ARABIC_BLOCKS + catalog_characters("ar") + PUNCTUATION))
    for source in ARABIC_FONTS:
        cut(TTFont(source), arabic, FONTS_DIR / source.name.replace(".ttf", "-Subset.ttf"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
