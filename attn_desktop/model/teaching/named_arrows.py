"""Which arrows a text names: a lesson that says "drag k·cat" needs k·cat's label drawn, however crowded
its plot. Plain text matching, no Qt: the canvas asks once per lesson and scene, the walk audit checks it."""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)


def named_in(text: str, names: Mapping[Key, str]) -> set[Key]:
    """The keys of NAMES ({key: "k·cat"}) whose name appears in TEXT as a whole word ("k·cat" but not "k·cats")."""
    return {key for key, name in names.items() if name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)}
