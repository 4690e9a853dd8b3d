"""Which kinds of change a scene notification holds, as plain yes-or-no answers.

Change is an enum.Flag, and each `change & Change.X` runs Python code (the flag's & and then its
bool): a drag move's few panels asked some twenty such questions of the same change. A
drag sends the same change on every move, so its answers are worked out once and looked up after.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_desktop.model import Change


@dataclass(frozen=True)
class ChangeParts:
    structure: bool  # tokens or shapes: new rows, new names
    settings: bool  # scaling or masking switched
    numbers: bool  # any change of the numbers (a vector, the settings, the structure)
    selection: bool  # another query chosen

    @property
    def shown_numbers(self) -> bool:
        """New numbers, or another query's: what the panels show of the chosen query changed."""
        return self.numbers or self.selection

    @property
    def layout(self) -> bool:
        """New names or settings: what is laid out round the numbers changed."""
        return self.structure or self.settings


def _parts(change: Change) -> ChangeParts:
    return ChangeParts(structure=bool(change & Change.STRUCTURE), settings=bool(change & Change.SETTINGS),
                       numbers=bool(change & Change.NUMBERS), selection=bool(change & Change.SELECTION))


# Every change's answers, by the flag's bits (an enum's hash runs Python code: a dictionary of flags would ask it).
_PARTS_BY_BITS = [_parts(Change(bits)) for bits in range(Change.ALL._value_ + 1)]


def parts_of(change: Change) -> ChangeParts:
    return _PARTS_BY_BITS[change._value_]
