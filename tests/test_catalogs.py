"""Every language's catalog is complete and current: each text the code marks has its translation, no
translation is left for a text the code no longer has, placeholders and plural forms match, and the compiled
.mo the app reads says what its .po says. (README.md, "Adding a language", says how to fix a failure.)"""

import gettext
import importlib.util
import re

import pytest
from babel.messages.pofile import read_po

from attn_desktop.language.catalog import LANGUAGE_NAMES, SOURCE_LANGUAGE

from tests.support.project_root import ROOT

LOCALE_DIR = ROOT / "resources" / "locale"
LANGUAGES = [code for code in LANGUAGE_NAMES if code != SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)(?:[:!][^{}]*)?\}")
PLURAL_FORMS = {"es": 2, "zh_CN": 1, "ar": 6}


def _catalogs_script():
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "packaging" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def code_texts():
    return {(message.context, message.id if isinstance(message.id, str) else message.id[0])
            for message in _catalogs_script().texts_in_code() if message.id}


def _po(code):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "attn_desktop.po", "rb") as po_file:
        return read_po(po_file, locale=code)


def _key(message):
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_catalog_has_every_text_of_the_code_and_no_other(code, code_texts):
    catalog_texts = {_key(message) for message in _po(code) if message.id}
    missing = sorted(text for _, text in code_texts - catalog_texts)
    stale = sorted(text for _, text in catalog_texts - code_texts)
    assert not missing, f"{code}: {len(missing)} texts of the code are not in the catalog, e.g. {missing[:5]}"
    assert not stale, f"{code}: {len(stale)} texts the code no longer has, e.g. {stale[:5]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_text_is_translated_with_its_placeholders(code):
    catalog = _po(code)
    assert catalog.num_plurals == PLURAL_FORMS[code]
    untranslated, fuzzy, wrong_fields = [], [], []
    for message in catalog:
        if not message.id:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        translations = [message.string] if isinstance(message.string, str) else list(message.string)
        if not all(translations) or len(translations) != (1 if isinstance(message.id, str) else catalog.num_plurals):
            untranslated.append(sources[0])
        if message.fuzzy:
            fuzzy.append(sources[0])
        wanted = set(PLACEHOLDER.findall(sources[-1]))
        for translation in translations:
            # A language with one plural form may leave the count out ("一个头" for 1): a plural's {count} is optional.
            found = set(PLACEHOLDER.findall(translation))
            if found - wanted or (wanted - found) - ({"count"} if len(sources) > 1 else set()):
                wrong_fields.append((sources[0], translation))
    assert not untranslated, f"{code}: {len(untranslated)} texts untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} translations marked fuzzy (to check), e.g. {fuzzy[:5]}"
    assert not wrong_fields, f"{code}: placeholders differ from the English: {wrong_fields[:5]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalog_is_the_catalog(code):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "attn_desktop.mo", "rb") as mo_file:
        compiled = gettext.GNUTranslations(mo_file)
    for message in _po(code):
        if not message.id or not message.string:  # (an untranslated text fails the test above)
            continue
        if isinstance(message.id, str):
            key = f"{message.context}\x04{message.id}" if message.context else message.id
            assert compiled._catalog.get(key) == message.string, f"{code}: the .mo is older than the .po; compile"
        else:
            for form, translation in enumerate(message.string):
                assert compiled._catalog.get((message.id[0], form)) == translation, f"{code}: compile the .po"
