"""How far apart two colours look and how well one stands out on another, without Qt.

CIEDE2000 (the CIE's colour difference, as Sharma, Wu and Dalal 2005 spell it out) says how different two
sRGB colours look: about 1 is the smallest difference most people notice, 10 is plainly another colour.
WCAG 2.1's contrast ratio (1.4.3, 1.4.11) says how well text or a line stands out on its background.
Both are computed unrounded: a ratio of 4.499 fails 4.5.
"""

from __future__ import annotations

import math
from functools import lru_cache

RGB = tuple[int, int, int]  # sRGB, each channel 0–255
Lab = tuple[float, float, float]  # CIE L*a*b*, D65 white

# sRGB's primaries to CIE XYZ (IEC 61966-2-1), and D65 white
_XYZ_FROM_LINEAR = ((0.4124564, 0.3575761, 0.1804375),
                    (0.2126729, 0.7151522, 0.0721750),
                    (0.0193339, 0.1191920, 0.9503041))
_WHITE = (0.95047, 1.0, 1.08883)


def linear_channel(channel: float) -> float:
    """An sRGB channel (0–255) as linear light (0–1): the screen's gamma undone."""
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def encoded_channel(linear: float) -> int:
    """Linear light (0–1, clipped) as an sRGB channel 0–255."""
    value = min(max(linear, 0.0), 1.0)
    encoded = value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055
    return round(encoded * 255)


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2.1's relative luminance: 0 for black, 1 for white."""
    red, green, blue = (linear_channel(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(foreground: RGB, background: RGB) -> float:
    """WCAG 2.1's contrast ratio, from 1 (the same) to 21 (black on white), unrounded."""
    lighter, darker = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def over(rgb: RGB, alpha: float, background: RGB) -> RGB:
    """RGB drawn at ALPHA (0–1) over BACKGROUND, as the screen shows it (blended as painters blend: in sRGB)."""
    return tuple(round(top * alpha + bottom * (1 - alpha)) for top, bottom in zip(rgb, background))  # type: ignore[return-value]


def lab(rgb: RGB) -> Lab:
    """An sRGB colour in CIE L*a*b* (D65)."""
    linear = [linear_channel(channel) for channel in rgb]
    xyz = [sum(weight * part for weight, part in zip(row, linear)) / white for row, white in zip(_XYZ_FROM_LINEAR, _WHITE)]
    f_x, f_y, f_z = (t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29 for t in xyz)
    return 116 * f_y - 16, 500 * (f_x - f_y), 200 * (f_y - f_z)


def delta_e_2000(first: Lab, second: Lab) -> float:
    """CIEDE2000 between two L*a*b* colours (kL = kC = kH = 1), as Sharma, Wu and Dalal (2005) give it."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    mean_chroma = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_chroma ** 7 / (mean_chroma ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = _hue(a1, b1), _hue(a2, b2)
    delta_l, delta_c = l2 - l1, c2 - c1
    delta_h = _hue_step(h1, h2, c1 * c2 == 0)
    delta_big_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(delta_h) / 2)
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = _mean_hue(h1, h2, c1 * c2 == 0)
    t = (1 - 0.17 * _cos(mean_h - 30) + 0.24 * _cos(2 * mean_h) + 0.32 * _cos(3 * mean_h + 6)
         - 0.20 * _cos(4 * mean_h - 63))
    rotation = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    lightness, chroma, hue = delta_l / s_l, delta_c / s_c, delta_big_h / s_h
    return math.sqrt(lightness ** 2 + chroma ** 2 + hue ** 2 + r_t * chroma * hue)


def colour_difference(first: RGB, second: RGB) -> float:
    """CIEDE2000 between two sRGB colours."""
    return delta_e_2000(lab(first), lab(second))


def _hue(a: float, b: float) -> float:
    return 0.0 if a == 0 and b == 0 else math.degrees(math.atan2(b, a)) % 360


def _hue_step(h1: float, h2: float, grey: bool) -> float:
    """From hue H1 to H2 the shorter way round, in degrees (none where either colour is grey)."""
    if grey:
        return 0.0
    step = h2 - h1
    if step > 180:
        return step - 360
    return step + 360 if step < -180 else step


def _mean_hue(h1: float, h2: float, grey: bool) -> float:
    """The mean of two hue angles, the shorter way round (their sum where either colour is grey)."""
    if grey:
        return h1 + h2
    if abs(h1 - h2) <= 180:
        return (h1 + h2) / 2
    return (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


@lru_cache(maxsize=64)
def least_strength(rgb: RGB, background: RGB, ratio: float) -> float:
    """The least strength (0–1) at which RGB, faded towards BACKGROUND (see over), still stands out RATIO : 1 on
    it; 1 where even full strength does not."""
    if contrast_ratio(rgb, background) < ratio:
        return 1.0
    weak, strong = 0.0, 1.0
    for _ in range(24):  # halving the gap each time: to well under one step of a channel
        middle = (weak + strong) / 2
        weak, strong = (middle, strong) if contrast_ratio(over(rgb, middle, background), background) < ratio else \
            (weak, middle)
    return strong
