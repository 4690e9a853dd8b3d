"""Colours as a person with a colour-vision deficiency sees them, and whether a set of them stays apart.

The simulation is Machado, Oliveira and Fernandes (2009) at full severity: one matrix per deficiency applied
to linear light. Protanopia and deuteranopia (no red or no green cones: about one man in twelve between them
and their milder forms) confuse red with green; tritanopia (no blue cones, rare) confuses blue with green and
yellow with pink. The tests check these matrices against the daltonlens library's, and the app's colours
under its Brettel (1997) simulation as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import NamedTuple

from attn_desktop.geometry.colour_difference import RGB, colour_difference, encoded_channel, linear_channel

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

MACHADO_2009: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
DEFICIENCIES = tuple(MACHADO_2009)

# The least CIEDE2000 difference between two colours that mean different things when drawn together, for
# every eye. About 2 is where most people first see a difference; 10 is a plainly different colour at a
# glance, on a projector that washes colours out too.
SEPARATION_THRESHOLD = 10.0
TEXT_CONTRAST = 4.5  # WCAG 2.1 1.4.3: text against its background
GRAPHICS_CONTRAST = 3.0  # WCAG 2.1 1.4.11: arrows, lines that carry meaning and the focus ring against theirs


def simulated(rgb: RGB, deficiency: str) -> RGB:
    """RGB as seen with DEFICIENCY ("protanopia", "deuteranopia" or "tritanopia"; "" for common vision)."""
    if not deficiency:
        return rgb
    linear = [linear_channel(channel) for channel in rgb]
    return tuple(encoded_channel(sum(weight * part for weight, part in zip(row, linear)))  # type: ignore[return-value]
                 for row in MACHADO_2009[deficiency])


class ClosestPair(NamedTuple):
    """The two colours of a set that lie closest for some eye, and how far apart they are there."""

    delta_e: float
    first: str
    second: str
    deficiency: str  # "" for common vision


def closest_pair(colours: Mapping[str, RGB], pairs: Iterable[tuple[str, str]] | None = None) -> ClosestPair:
    """Of the PAIRS of named COLOURS (every pair, by default), the one least apart for common vision and under
    each deficiency."""
    chosen = list(pairs) if pairs is not None else list(combinations(colours, 2))
    return min(ClosestPair(colour_difference(simulated(colours[first], deficiency),
                                             simulated(colours[second], deficiency)), first, second, deficiency)
               for deficiency in ("", *DEFICIENCIES) for first, second in chosen)
