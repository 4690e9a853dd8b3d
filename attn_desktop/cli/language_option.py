"""`--lang CODE`: the language a command that draws (the window, snapshot, export's pictures) speaks.

The choice is made before the command line is read, so --help and the errors speak it too:
--lang, else (the window only) the language chosen in View → Language last time, else the system's."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from attn_desktop.language import language_of_system, set_language, shown_languages, tr

LANGUAGE_OPTION = "--lang"


def add_language_option(parser: argparse.ArgumentParser, remembered: bool = False) -> None:
    """The --lang option, its help saying what is spoken without it (REMEMBERED: the window's saved choice)."""
    if remembered:
        default = tr("default: the language chosen in View → Language last time, else the system's language")
    else:
        default = tr("default: the system's language")
    parser.add_argument(LANGUAGE_OPTION, metavar="CODE", help=tr(
        "the language to speak: {choices}; {default}").format(choices=", ".join(shown_languages()), default=default))


def asked_language(argv: list[str]) -> str | None:
    """The CODE of --lang CODE (or --lang=CODE) in ARGV, read before the rest of the command line."""
    for position, word in enumerate(argv):
        if word == "--":
            return None
        if word == LANGUAGE_OPTION and position + 1 < len(argv):
            return argv[position + 1]
        if word.startswith(LANGUAGE_OPTION + "="):
            return word.partition("=")[2]
    return None


def speak_chosen_language(argv: list[str], remembered: Callable[[], str | None] | None = None) -> str | None:
    """Speak the language ARGV asks for, else the REMEMBERED one (if it still exists), else the system's.

    None, or the one error line for a --lang the app does not speak."""
    asked = asked_language(argv)
    if asked is not None:
        try:
            set_language(asked)
        except ValueError as error:
            return f"{LANGUAGE_OPTION}: {error}"
        return None
    saved = remembered() if remembered is not None else None
    if saved is not None:
        try:
            set_language(saved)
            return None
        except ValueError:  # a language whose catalog is gone: the system's instead
            pass
    set_language(language_of_system())
    return None
