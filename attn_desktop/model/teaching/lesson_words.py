"""The words of the lessons' sentences, so a lesson's sentence can be read in the student's language.

A lesson translates its scene's tokens when it OPENS the scene (switching language never changes a scene
already open). Only words are listed: tokens such as "0:3" or "14:D" (positions and digits or letters)
stay as they are, and a token that is not listed is kept as typed.
"""

from __future__ import annotations

from attn_desktop.language import N_, tr
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


def token_word(token: str) -> str:
    """TOKEN in the student's language when it is a word of a lesson's sentence, else as typed."""
    return tr(token) if token in LESSON_WORDS else token


def in_students_words(data: SceneData) -> SceneData:
    """DATA with its tokens (and queries' tokens) in the student's language; DATA itself is changed."""
    data.tokens = [token_word(token) for token in data.tokens]
    if isinstance(data, DirectScene):
        data.query_tokens = [token_word(token) for token in data.query_tokens]
    return data
