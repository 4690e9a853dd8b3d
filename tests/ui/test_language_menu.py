"""View → Language: every language the app speaks, each named in its own language, the current one checked."""

import pytest

from attn_desktop.ui.window.actions.menu_id import MenuId

pytestmark = pytest.mark.slow


def language_menu(window):
    view = window.menus[MenuId.VIEW]
    menu = next(action.menu() for action in view.actions() if action.text() == "&Language")
    menu.aboutToShow.emit()  # filled as it opens
    return menu


def test_view_language_lists_the_languages_in_their_own_names_with_english_checked(window):
    menu = language_menu(window)
    assert [action.text() for action in menu.actions()] == ["English", "Español", "简体中文", "العربية"]
    assert [action.text() for action in menu.actions() if action.isChecked()] == ["English"]


def test_choosing_a_language_checks_it_alone_and_remembers_it(window):
    from attn_desktop.language import current_language
    from attn_desktop.ui.settings import saved_language

    menu = language_menu(window)
    next(action for action in menu.actions() if action.text() == "Español").trigger()
    assert current_language() == "es"
    assert [action.text() for action in menu.actions() if action.isChecked()] == ["Español"]
    assert saved_language() == "es"
