"""The words of the lessons' sentences, so a lesson's sentence can be read in the student's language.

A lesson translates its scene's tokens when it opens the scene, and again when the language changes while
the scene is as it comes (a scene the student changed keeps its words). Only words are listed: tokens such as "0:3" or "14:D" (positions and digits or letters)
stay as they are, and a token that is not listed is kept as typed.
"""

from __future__ import annotations

import gettext
from dataclasses import replace
from functools import cache

from attn_desktop.language import N_, shown_languages, tr
from attn_desktop.language.catalog import source_texts_of, translations_for
from attn_desktop.model.files.scene_types import DirectScene, SceneData

# The words the lessons' scenes use as tokens.
LESSON_WORDS: tuple[str, ...] = (
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("apple"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("pear"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("plum"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("The"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("the"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("cat"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("sat"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("on"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("mat"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("it"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("dog"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("chased"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("because"),
    # Translators: a word of a lesson's sentence (a token on the canvas). A word that refers back ("it")
    # must be one that refers back in your language; you may leave it in English.
    N_("purred"),
)


# The built-in scenes' titles (the window's title shows them) and the names lesson 7 gives its heads.
SCENE_NAMES: tuple[str, ...] = (
    # Translators: the title of a built-in scene (the window's title bar shows it); its words are the lesson's
    # sentence as you translated it.
    N_("The cat sat on the mat"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Where is each word?"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("A soft lookup"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Three vectors from one word"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Every word looks at every word"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Trained head: reverse"),
    # Translators: the title of a built-in scene (the window's title bar shows it); its words are the lesson's
    # sentence as you translated it.
    N_("Two heads: the cat sat because it purred"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Predict, then see"),
    # Translators: the title of a built-in scene (the window's title bar shows it).
    N_("Two layers trained on induction (seed 0, 1,000 steps)"),
    N_("Reading el gato negro duerme, writing the black cat sleeps"),
    # Translators: the name lesson 7 gives its first head, shown as "Head 1 · position": it attends by position.
    N_("position"),
    # Translators: the name lesson 7 gives its second head, shown as "Head 2 · meaning": it attends by meaning.
    N_("meaning"),
)


def token_word(token: str, language: str | None = None) -> str:
    """TOKEN in the student's language (or LANGUAGE) when it is a word of a lesson's sentence, else as typed."""
    return _in(language, token) if token in LESSON_WORDS else token


def scene_name(name: str, language: str | None = None) -> str:
    """A built-in scene's title or a lesson's head name in the student's language (or LANGUAGE), else as typed."""
    return _in(language, name) if name in SCENE_NAMES else name


def _in(language: str | None, source: str) -> str:
    return tr(source) if language is None else _catalog_of(language).gettext(source)


@cache
def _catalog_of(language: str) -> gettext.NullTranslations:
    """LANGUAGE's catalog, read once (a lesson's scene is compared with its words in every language)."""
    return translations_for(language)


def scene_name_now(name: str) -> str:
    """A built-in scene's title, as any language the app speaks wrote it (the language it was opened in), in
    the student's language now: the window names the open lesson in the language of the day. Else as typed."""
    for code in shown_languages():
        source = _scene_names_written_in(code).get(name)
        if source is not None:
            return tr(source)
    return name


@cache
def _scene_names_written_in(code: str) -> dict[str, str]:
    """Each built-in scene's title as CODE writes it → its English source."""
    return {written: source for written, source in source_texts_of(translations_for(code)).items()
            if source in SCENE_NAMES}


# Scenes whose two sentences are a translation's two languages (lesson 11 reads Spanish and writes English):
# their words are what the lesson is about, kept as written whatever language the app speaks.
SCENES_OF_TWO_LANGUAGES = frozenset({"lessons/11_cross_attention.json"})


def in_students_words(data: SceneData, language: str | None = None, keep_words: bool = False) -> SceneData:
    """DATA with its tokens (and queries' tokens, unless KEEP_WORDS), its title and its heads' names in the
    student's language (or LANGUAGE); DATA itself is changed."""
    data.title = scene_name(data.title, language)
    if keep_words:
        return data
    data.tokens = [token_word(token, language) for token in data.tokens]
    if isinstance(data, DirectScene):
        data.query_tokens = [token_word(token, language) for token in data.query_tokens]
    else:
        data.layers = [replace(layer, heads=[replace(head, name=scene_name(head.name, language))
                                             for head in layer.heads]) for layer in data.layers]
    return data
