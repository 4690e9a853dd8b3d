"""Every command's name in the Edit menu ("Undo Move k·cat") is translated when it is read, not when the
command was made: an edit made in English and undone after a switch to Spanish, Chinese or Arabic speaks
the new language. No Qt: the commands are the model's."""

import inspect

import pytest

from attn_desktop.language import N_, set_language
from attn_desktop.language.catalog import LANGUAGE_NAMES, SOURCE_LANGUAGE, translations_for
from attn_desktop.model import Role
from attn_desktop.model import commands as c
from attn_desktop.model.scene_files import open_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path

LANGUAGES = [code for code in LANGUAGE_NAMES if code != SOURCE_LANGUAGE]


def every_command():
    """One of each command, made in English as a gesture would make it, with its name in English."""
    data = open_scene(scene_path(DEFAULT_SCENE)).to_data()
    return [
        (c.MoveArrow(Role.KEY, 1, (0.0, 0.0), (1.0, 1.0), "k·cat", 2, 2), "Move {name}", {"name": "k·cat"}),
        (c.SetGridCell("w_q", 0, 0, 1.0, 2.0), "Edit {grid}", {"grid": "W_Q"}),
        (c.Switch("scale", True, False), "Scaling off", {}),
        (c.Switch("causal", False, True), "Causal mask on", {}),
        (c.Switch("use_grids", True, False), "No grids", {}),
        (c.AddToken("dog"), "Add token \u201c{name}\u201d", {"name": "dog"}),
        (c.RemoveToken(1, "cat"), "Remove token \u201c{name}\u201d", {"name": "cat"}),
        (c.RenameToken(1, "cat", "dog"), "Rename \u201c{old}\u201d to \u201c{new}\u201d", {"old": "cat", "new": "dog"}),
        (c.RenameTargetWord(1, "black", "white"), "Rename target word \u201c{old}\u201d to \u201c{new}\u201d",
         {"old": "black", "new": "white"}),
        (c.MoveToken(0, 2), "Reorder tokens", {}),
        (c.ReorderTokens((1, 0, 2)), "Shuffle the sentence", {}),
        (c.ReorderTokens((1, 0, 2), N_("Words back in their first order")), "Words back in their first order", {}),
        (c.ReplaceContents(data, data, N_("Show me")), "Show me", {}),
    ]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_command_reads_its_name_in_the_language_of_the_moment(code):
    commands = every_command()
    set_language(code)
    for command, source, values in commands:
        english = source.format(**values)
        assert command.text == translations_for(code).gettext(source).format(**values) != english, source
    set_language("en")
    assert [command.text for command, _, _ in commands] == [source.format(**values) for _, source, values in commands]


def test_every_kind_of_command_is_read_above():
    kinds = {name for name, kind in inspect.getmembers(c, inspect.isclass)
             if kind.__module__ == c.__name__ and hasattr(kind, "text") and hasattr(kind, "undo") and kind is not c.Command}
    assert kinds == {type(command).__name__ for command, _, _ in every_command()}
