"""How much bigger type is in presentation mode."""

from __future__ import annotations

# How much bigger type is in presentation mode. What the back row sees is the text's share of the
# screen's height (a projector throws the same picture size whatever its resolution): 1.6 × the
# normal font on a 1080-line screen. Lower screens already show each pixel bigger, and need the
# room for the panels, so the factor follows the screen's height (1.14 on 768 lines is the same size on the
# wall), but never drops below 1.15.
PRESENTATION_FONT_SCALE = 1.6
PRESENTATION_REFERENCE_HEIGHT = 1080
MIN_PRESENTATION_FONT_SCALE = 1.15


def presentation_font_scale(screen_height: int) -> float:
    """1.6 on a full-HD screen or taller, less on lower ones, at least 1.15."""
    if screen_height <= 0:
        return PRESENTATION_FONT_SCALE
    scale = PRESENTATION_FONT_SCALE * screen_height / PRESENTATION_REFERENCE_HEIGHT
    return round(min(PRESENTATION_FONT_SCALE, max(MIN_PRESENTATION_FONT_SCALE, scale)), 2)
