"""LC_ALL=C.UTF-8 (what the command line makes of LC_ALL=C, so that Qt need not warn) chooses the language as
LC_ALL=C does: it names no language, and the next variable is asked."""

import pytest

from attn_desktop.language import language_of_system


@pytest.mark.parametrize("c_locale", ["C", "C.UTF-8", "C.utf8", "POSIX"])
def test_a_c_locale_with_or_without_utf8_names_no_language(c_locale):
    assert language_of_system({"LC_ALL": c_locale, "LC_MESSAGES": "es_ES.UTF-8"}) == "es"
    assert language_of_system({"LC_ALL": c_locale}) == "en"
