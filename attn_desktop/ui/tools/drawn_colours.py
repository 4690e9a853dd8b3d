"""The colours the lab draws together, as plain RGB: what must stay apart for every eye (CIEDE2000 under
simulated colour-vision deficiencies) and what must stand out on its background (WCAG contrast).

Read by the accessibility audit (accessibility_audit.py) and by the tests that hold the palette to its thresholds.
Arrows whose faintness tells a small weight (a key with little of the query's attention, a query not chosen)
are measured at full strength: their faintness is the weight, said again by their width and by their label,
whose text keeps 4.5 : 1 at any strength (arrow_item.label_color); and at their faintest, by the outline their
head keeps (arrow_item.head_outline_color), which is what lets a student find and drag a faint arrow.
"""

from __future__ import annotations

from itertools import combinations

from PySide6.QtGui import QColor

from attn_desktop.geometry.colour_difference import RGB, contrast_ratio, over
from attn_desktop.model import Role
from attn_desktop.ui.canvas.arrow_drawing import FOCUS_RING_COLOR, HALO_COLOR, LABEL_BACKDROP
from attn_desktop.ui.canvas.arrow_item import head_outline_color, label_color
from attn_desktop.ui.canvas.plot_grid import ZERO_LINE_COLOR
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS
from attn_desktop.ui.panels.matrix_cells import (
    DARK_TEXT,
    DARK_TEXT_FROM,
    LIGHT_TEXT,
    MASKED_RGB,
    VEILED_RGB,
    viridis_table,
)
from attn_desktop.ui.panels.matrix_frame import HATCH_COLOR, OUTLINE_COLOR
from attn_desktop.ui.panels.weights_chart import GUESS_FILL

WHITE: RGB = (255, 255, 255)
WEIGHT_STEPS = 4  # the matrix's shades told apart at a glance: 0, ¼, ½, ¾ and 1 (neighbours compared)


def rgb(color: QColor) -> RGB:
    return color.red(), color.green(), color.blue()


def opaque(color: QColor, background: RGB = WHITE) -> RGB:
    """COLOR as the screen shows it over BACKGROUND (its alpha blended in)."""
    return over(rgb(color), color.alphaF(), background)


def role_colours() -> dict[str, RGB]:
    """The canvas's arrows by role: query, key, value, word (the embedding) and output."""
    colours = {role.value: rgb(color) for role, color in ROLE_COLORS.items()}
    colours["output"] = rgb(OUTPUT_COLOR)
    return colours


def weight_shade(weight: float) -> RGB:
    """The matrix's colour for a weight (0–1), as matrix_cells.cell_colours paints it."""
    return tuple(int(part) for part in viridis_table()[round(weight * 255)])  # type: ignore[return-value]


def every_weight_shade() -> list[RGB]:
    return [tuple(int(part) for part in level) for level in viridis_table()]  # type: ignore[misc]


def separated_pairs() -> list[tuple[str, RGB, RGB]]:
    """Every pair of colours that mean different things where they are drawn together."""
    roles = role_colours()
    pairs = [(f"{first} / {second}", roles[first], roles[second]) for first, second in combinations(roles, 2)]
    halo = opaque(HALO_COLOR)  # behind the key pointed at in the score table
    pairs += [(f"highlight / {name}", halo, colour) for name, colour in roles.items()]
    chosen, faded = roles[Role.QUERY.value], over(roles[Role.QUERY.value], 0.35, WHITE)
    pairs.append(("chosen query / another query", chosen, faded))
    steps = [weight_shade(step / WEIGHT_STEPS) for step in range(WEIGHT_STEPS + 1)]
    pairs += [(f"weight {low / WEIGHT_STEPS:g} / {(low + 1) / WEIGHT_STEPS:g}", steps[low], steps[low + 1])
              for low in range(WEIGHT_STEPS)]
    shades = every_weight_shade()
    pairs += [(f"masked / weight {level / 255:.2f}", MASKED_RGB, shade) for level, shade in enumerate(shades)]
    pairs += [(f"chosen row / weight {level / 255:.2f}", rgb(OUTLINE_COLOR), shade) for level, shade in enumerate(shades)]
    pairs.append(("weight bar / guess bar", roles[Role.KEY.value], rgb(GUESS_FILL)))
    return pairs


def text_contrasts() -> dict[str, float]:
    """Each painted text the lab draws on a colour of its own choosing, with its contrast."""
    contrasts = {}
    for name, colour in role_colours().items():
        for emphasis in (0.0, 1.0):
            label = label_color(QColor(*colour), emphasis)
            contrasts[f"{name} label at strength {emphasis:g}"] = contrast_ratio(rgb(label), rgb(LABEL_BACKDROP))
    for level, shade in enumerate(every_weight_shade()):
        text = DARK_TEXT if level / 255 > DARK_TEXT_FROM else LIGHT_TEXT
        contrasts[f"matrix number on weight {level / 255:.2f}"] = contrast_ratio(rgb(text), shade)
    for name, cell in (("masked", MASKED_RGB), ("veiled", VEILED_RGB)):
        contrasts[f"matrix number on a {name} cell"] = contrast_ratio(rgb(DARK_TEXT), cell)
    return contrasts


def graphics_contrasts(outline_line: RGB = (0, 0, 0)) -> dict[str, float]:
    """Each mark that carries meaning against what is behind it (WCAG 1.4.11); OUTLINE_LINE is the colour of the
    thin line round the matrix's chosen row (the panel's text colour)."""
    contrasts = {f"{name} arrow": contrast_ratio(colour, WHITE) for name, colour in role_colours().items()}
    for name, colour in role_colours().items():
        faintest = head_outline_color(QColor(*colour), 0.0)
        contrasts[f"faintest {name} arrow's head"] = contrast_ratio(rgb(faintest), WHITE)
    contrasts["focus ring"] = contrast_ratio(rgb(FOCUS_RING_COLOR), WHITE)
    contrasts["the axes through 0"] = contrast_ratio(opaque(ZERO_LINE_COLOR), WHITE)
    contrasts["hatching on a masked cell"] = contrast_ratio(rgb(HATCH_COLOR), MASKED_RGB)
    # The chosen row's outline is two lines, a white band inside a black one: one of them stands out on each cell.
    for level, shade in enumerate([*every_weight_shade(), MASKED_RGB]):
        contrasts[f"chosen row's outline on {level}"] = max(contrast_ratio(rgb(OUTLINE_COLOR), shade),
                                                          contrast_ratio(outline_line, shade))
    return contrasts
