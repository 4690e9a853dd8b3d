"""The command table: every key reaches one command, and the menus read in the table's order."""

from attn_desktop.model.teaching import lessons
from attn_desktop.ui.window.actions.menu_id import MenuId
from attn_desktop.ui.window.actions.table import ACTIONS, key_sequences


def test_every_key_belongs_to_one_command_only(qtbot):
    owners: dict[str, list[str]] = {}
    for spec in ACTIONS:
        for key in key_sequences(spec):
            owners.setdefault(key.toString(), []).append(spec.id)
    shared = {key: ids for key, ids in owners.items() if len(ids) > 1}
    assert not shared
    # the keys people look for are there
    for key in ("F11", "Ctrl+K", "Ctrl+M", "Ctrl+G", "Ctrl+E", "Ctrl+Y", "Ctrl+Shift+Z", "Ctrl+1", "Ctrl+4", "Ctrl+5"):
        assert key in owners, key


def menu_texts(menu) -> list[str]:
    """What a person reads down one menu: entries and submenus, separators as "-"."""
    return ["-" if action.isSeparator() else action.text() for action in menu.actions()]


def test_each_menu_shows_the_table_in_order(window):
    bar = window.menuBar()
    assert [action.text() for action in bar.actions()] == ["&File", "&Edit", "&Attention", "&Lessons", "&View",
                                                           "&Help"]
    for menu_id in dict.fromkeys(spec.menu for spec in ACTIONS):
        menu = window.menus[menu_id]
        assert menu.title() == menu_id.shown_title and menu.menuAction().text() == menu_id.shown_title
        if menu_id.parent is not None:
            assert menu.menuAction() in window.menus[menu_id.parent].actions()
        expected = []
        for spec in (spec for spec in ACTIONS if spec.menu == menu_id):
            expected += ["-", spec.text] if spec.separator_before else [spec.text]
        # submenus sit where their first entry is in the table
        children = {child.shown_title for child in MenuId if child.parent == menu_id}
        shown = [text for text in menu_texts(menu) if text not in children]
        if menu_id == MenuId.VIEW:  # the docks' show/hide entries come first
            shown = shown[len(window.docks):]
        assert shown == expected, menu_id


def test_the_file_menu_reads_as_before(window):
    file_menu = window.menus[MenuId.FILE]
    assert menu_texts(file_menu) == ["&New Scene", "Ne&w Cross-Attention Scene", "&Open Scene…", "Open &Lesson…", "New Lesson &from This Scene…",
                                     "Edi&t Lesson…", "Open &Recent", "Open &Model…", "&Save Scene", "Save Scene &As…",
                                     "&Export", "&Copy Picture", "-", "&Hand In…", "Collect Res&ults…", "-", "&Quit"]
    assert menu_texts(window.menus[MenuId.FILE_EXPORT]) == [
        "Picture as &PNG…", "Picture as &SVG…", "Attention Matrix as &CSV…", "Score &Table as CSV…",
        "Results as &JSON…"]
    attention = window.menus[MenuId.ATTENTION]
    assert menu_texts(attention) == ["Scale by √d_k", "Causal mask", "-", "&Next Query", "&Previous Query", "-",
                                     "Snap to Grid", "Snap &Step"]
    assert menu_texts(window.menus[MenuId.ATTENTION_SNAP_STEP]) == ["Grid of 0.1", "Grid of 0.5", "Grid of 1"]



def test_every_command_acts_one_way():
    """A click, a new check state, an action a part makes, or a submenu filled as it opens: one of them."""
    for spec in ACTIONS:
        ways = (spec.on_trigger, spec.on_toggle, spec.made_by, spec.fill_submenu)
        assert sum(way is not None for way in ways) == 1, spec.id


def test_each_lesson_command_opens_its_own_lesson(window):
    for number, lesson in enumerate(lessons.LESSONS, start=1):
        window.menu_actions[f"lesson_{number}_action"].trigger()
        assert window.lessons.current == lesson.id
