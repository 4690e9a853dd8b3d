"""Which language the app speaks, and its translations of the app's texts (gettext catalogs).

The catalogs are gettext's: resources/locale/CODE/LC_MESSAGES/attn_desktop.po, written by translators
(Poedit, Weblate, Crowdin all read them), compiled to the .mo beside it that this module reads with the
standard library. English is the source language: its texts are the msgids themselves.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from attn_desktop.language.isolates import isolate_formulas
from attn_desktop.language.pseudo import PseudoTranslations
from attn_desktop.paths import resource_dir

DOMAIN = "attn_desktop"
SOURCE_LANGUAGE = "en"
# Accented, bracketed and 40 % longer English: shows at a glance which texts are not translatable
# and which layouts break with longer words. For developers (--lang en_XA); not in the View menu.
PSEUDO_LANGUAGE = "en_XA"
LANGUAGE_NAMES: dict[str, str] = {  # each in its own language: the name a speaker looks for in a menu
    "en": "English",
    "es": "Español",
    "zh_CN": "简体中文",
    "ar": "العربية",
}
RIGHT_TO_LEFT_LANGUAGES = frozenset({"ar"})

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_listeners: list[Callable[[str], None]] = []


def locale_dir() -> Path:
    return resource_dir() / "locale"


def shown_languages() -> list[str]:
    """The languages a user can choose: English and every language with a compiled catalog."""
    return [code for code in LANGUAGE_NAMES if code == SOURCE_LANGUAGE or _catalog_file(code).is_file()]


def known_language(code: str) -> str | None:
    """CODE as the app names it ("es_ES" → "es", "zh-CN" → "zh_CN", "zh" → "zh_CN"), or None."""
    code = code.replace("-", "_").split(".")[0].split("@")[0]
    if code == PSEUDO_LANGUAGE:
        return code
    if code in LANGUAGE_NAMES:
        return code
    base = code.split("_")[0].lower()
    matches = [known for known in LANGUAGE_NAMES if known.split("_")[0] == base]
    return matches[0] if matches else None


def language_of_system(environ: Mapping[str, str] | None = None) -> str:
    """The language the system asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them), if the
    app has it; else English."""
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for wanted in environ.get(variable, "").split(":"):
            if wanted and wanted.partition(".")[0] not in ("C", "POSIX"):  # C.UTF-8 too
                found = known_language(wanted)
                if found is not None and (found in shown_languages() or found == PSEUDO_LANGUAGE):
                    return found
                if variable != "LANGUAGE":
                    return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def set_language(code: str) -> str:
    """Speak CODE from now on (and tell every listener); the code as the app names it.

    ValueError, with a message to show, if the app has no such language."""
    global _translations, _language
    found = known_language(code)
    if found is None or (found not in shown_languages() and found != PSEUDO_LANGUAGE):
        raise ValueError(tr("unknown language {code}: the app speaks {choices}").format(
            code=code, choices=", ".join(shown_languages())))
    if found == _language:
        return found  # nothing to re-word
    _translations = _translations_for(found)
    _language = found
    for listener in _listeners.copy():  # (a listener may stop listening)
        listener(found)
    return found


def current_language() -> str:
    return _language


def is_right_to_left(code: str | None = None) -> bool:
    return (code or _language) in RIGHT_TO_LEFT_LANGUAGES


def on_language_changed(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call LISTENER with the new code whenever set_language runs; returns what stops it."""
    _listeners.append(listener)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)

    return stop


def tr(message: str) -> str:
    """MESSAGE in the current language (MESSAGE itself where the catalog has no translation)."""
    return _translations.gettext(message)


def ntr(singular: str, plural: str, count: int) -> str:
    """The plural form that COUNT takes in the current language; still to be .format(count=count)ted."""
    return _translations.ngettext(singular, plural, count)


def tr_in(context: str, message: str) -> str:
    """MESSAGE in the current language, where one English word needs different translations by CONTEXT
    (e.g. tr_in("token", "it") for a lesson's sentence, tr_in("matrix", "key"))."""
    return _translations.pgettext(context, message)


def N_(message: str) -> str:
    """Mark MESSAGE for the catalog without translating it now (a constant, translated where shown)."""
    return message


def translations_for(code: str) -> gettext.NullTranslations:
    """The catalog of CODE (what tr() reads when CODE is the language), for tools that compare languages."""
    return _translations_for(known_language(code) or SOURCE_LANGUAGE)


def source_texts_of(catalog: gettext.NullTranslations) -> dict[str, str]:
    """Each text CATALOG writes, mapped back to its English source (for re-wording a shown window): its
    translations where it is a compiled catalog, else (English, the pseudo-language) every source text the
    compiled catalogs know, as CATALOG writes it."""
    if isinstance(catalog, gettext.GNUTranslations):
        return {translated: _source_of(key) for key, translated in _messages(catalog).items() if translated and key}
    sources = {source for code in shown_languages() if code != SOURCE_LANGUAGE
               for source in map(_source_of, _messages(_translations_for(code)))}
    sources.discard("")
    return {catalog.gettext(source): source for source in sources}


def sources_of_texts(catalog: gettext.NullTranslations) -> dict[str, tuple[str, ...]]:
    """Each text CATALOG writes, mapped back to every English source it writes so (as source_texts_of; a
    language may write two sources alike: Arabic "Output" and "output")."""
    if isinstance(catalog, gettext.GNUTranslations):
        pairs = [(translated, _source_of(key)) for key, translated in _messages(catalog).items() if translated and key]
    else:
        pairs = [(catalog.gettext(source), source) for source in source_texts_of(catalog).values()]
    sources: dict[str, tuple[str, ...]] = {}
    for translated, source in pairs:
        if source not in sources.get(translated, ()):
            sources[translated] = (*sources.get(translated, ()), source)
    return sources


def _messages(catalog: gettext.NullTranslations) -> dict[str | tuple[str, int], str]:
    return getattr(catalog, "_catalog", {})  # GNUTranslations' parsed .mo: msgid (or (msgid, form)) → text


def _source_of(key: str | tuple[str, int]) -> str:
    """A .mo key's English text: the msgid of a plural's form, without a context (token, EOT, it)."""
    source = key[0] if isinstance(key, tuple) else key
    return source.split("\x04", 1)[-1]


def _translations_for(code: str) -> gettext.NullTranslations:
    if code == PSEUDO_LANGUAGE:
        return PseudoTranslations()
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    with open(_catalog_file(code), "rb") as catalog:
        translations = gettext.GNUTranslations(catalog)
    if code in RIGHT_TO_LEFT_LANGUAGES:  # its formulas read left to right, in every text of the language
        messages = _messages(translations)
        for key, text in messages.items():
            if key:  # (the catalog's header is not a text the app shows)
                messages[key] = isolate_formulas(text)
    return translations


def _catalog_file(code: str) -> Path:
    return locale_dir() / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
