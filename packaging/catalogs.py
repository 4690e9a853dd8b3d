"""The message catalogs' chores, with Babel: `python packaging/catalogs.py extract|update|compile|add CODE`.

    extract   read every tr(), ntr(), tr_in() and N_() text of attn_desktop/ into resources/locale/attn_desktop.pot
    update    bring every language's .po up to the template (new texts empty, gone texts marked obsolete)
    compile   write each .po's .mo (what the app reads)
    add CODE  start a new language's .po from the template (then translate it, update, compile)

README.md, "Adding a language", walks through it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "resources" / "locale"
TEMPLATE = LOCALE_DIR / "attn_desktop.pot"
DOMAIN = "attn_desktop"
KEYWORDS = ["tr", "ntr:1,2", "tr_in:1c,2", "N_"]


def pybabel(*arguments: str) -> None:
    os.chdir(ROOT)  # the template names each text's file relative to the project, never a machine's path
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def texts_in_code() -> Catalog:
    """Every text the code marks for translation, as Babel's extract finds them (the template's contents)."""
    catalog = Catalog(project="Attention Desktop")
    keywords = {"tr": None, "ntr": (1, 2), "tr_in": ((1, "c"), 2), "N_": None}
    for filename, line, message, comments, context in extract_from_dir(
            ROOT / "attn_desktop", method_map=[("**.py", "python")], keywords=keywords, comment_tags=("Translators:",)):
        catalog.add(message, None, [(f"attn_desktop/{filename}", line)], auto_comments=comments, context=context)
    return catalog


def extract() -> None:
    keyword_flags = [flag for keyword in KEYWORDS for flag in ("-k", keyword)]
    pybabel("extract", "-F", str((LOCALE_DIR / "babel.cfg").relative_to(ROOT)), "--no-default-keywords", *keyword_flags,
            "--add-comments=Translators:", "--sort-by-file", "--no-wrap", "--project=Attention Desktop",
            "--copyright-holder=Attention Desktop's authors", "-o", str(TEMPLATE.relative_to(ROOT)), "attn_desktop")


def update() -> None:
    pybabel("update", "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-D", DOMAIN, "--no-wrap", "--ignore-obsolete",
            "--no-fuzzy-matching")


def compile_catalogs() -> None:
    """Each .po's .mo. (Not pybabel compile: it takes every text with a percent sign for a %-format text,
    "{accuracy} % of" for the conversion "% o", and refuses the translation. The app's texts are str.format
    texts, whose placeholders tests/test_catalogs.py checks.)"""
    for po_path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with open(po_path, "rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        translated = sum(1 for message in catalog if message.id and message.string and not message.fuzzy)
        with open(po_path.with_suffix(".mo"), "wb") as mo_file:
            write_mo(mo_file, catalog)
        print(f"{po_path.relative_to(ROOT)}: {translated} of {len(catalog)} texts translated")


def add(code: str) -> None:
    pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", code, "--no-wrap")


def main(argv: list[str]) -> int:
    if argv[:1] == ["extract"]:
        extract()
    elif argv[:1] == ["update"]:
        update()
    elif argv[:1] == ["compile"]:
        compile_catalogs()
    elif argv[:1] == ["add"] and len(argv) == 2:
        add(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
