"""A view that follows only some kinds of change is told of those alone, in its turn among the others."""

from __future__ import annotations

from attn_desktop.model import Change, Role
from attn_desktop.model.subscribers import Subscribers
from attn_desktop.ui.window.startup.app import default_scene


def test_a_subscriber_is_told_only_of_the_kinds_it_follows() -> None:
    subscribers = Subscribers()
    heard: list[tuple[str, Change]] = []
    subscribers.add(lambda change: heard.append(("every", change)))
    subscribers.add(lambda change: heard.append(("structure", change)), follows=Change.STRUCTURE)
    subscribers.add(lambda change: heard.append(("selection", change)), follows=Change.STRUCTURE | Change.SELECTION)
    subscribers.notify(Change.VECTORS)
    subscribers.notify(Change.SELECTION)
    subscribers.notify(Change.ALL)
    assert heard == [("every", Change.VECTORS),
                     ("every", Change.SELECTION), ("selection", Change.SELECTION),
                     ("every", Change.ALL), ("structure", Change.ALL), ("selection", Change.ALL)]


def test_a_scene_drag_move_passes_over_views_of_new_tokens_only() -> None:
    scene = default_scene()
    heard: list[Change] = []
    unsubscribe = scene.subscribe(heard.append, follows=Change.STRUCTURE)
    scene.set_vector(Role.KEY, 1, scene.vectors(Role.KEY)[1] + 0.25)
    assert heard == []
    scene.rename_token(0, "A")
    assert heard == [Change.ALL]
    unsubscribe()
    scene.rename_token(0, "B")
    assert heard == [Change.ALL]


def test_the_flags_combine_as_enum_flags_do() -> None:
    assert Change.VECTORS | Change.SETTINGS | Change.STRUCTURE is Change.NUMBERS
    assert Change.NUMBERS & Change.SELECTION == Change(0) and not Change.NUMBERS & Change.SELECTION
    assert Change.ALL & Change.STRUCTURE is Change.STRUCTURE and bool(Change.ALL & Change.STRUCTURE)
    assert Change.VECTORS in Change.NUMBERS and Change.SELECTION not in Change.NUMBERS
