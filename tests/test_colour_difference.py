"""The colour maths the accessibility checks stand on (attn_desktop/geometry/colour_difference.py and
colour_vision.py), against published values: CIEDE2000 against Sharma, Wu and Dalal's (2005) 34 test pairs,
WCAG 2.1's contrast ratio against the figures its own documents give, and the colour-vision simulation against
the daltonlens library's Machado (2009) matrices. No Qt."""

import numpy as np
import pytest
from daltonlens import simulate

from attn_desktop.geometry.colour_difference import (
    colour_difference,
    contrast_ratio,
    delta_e_2000,
    lab,
    least_strength,
    over,
)
from attn_desktop.geometry.colour_vision import DEFICIENCIES, closest_pair, simulated

# Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes, supplementary test data, and
# mathematical observations", Color Research & Application 30 (2005), Table 1: L*a*b* of each pair, and ΔE00.
SHARMA_2005 = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA_2005)
def test_ciede2000_gives_sharmas_published_differences(first, second, expected):
    assert delta_e_2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert delta_e_2000(second, first) == pytest.approx(expected, abs=5e-5)  # the order of the pair does not count


def test_srgb_in_lab_as_the_cie_gives_it():
    assert lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.01)
    assert colour_difference((0, 114, 178), (0, 114, 178)) == 0


@pytest.mark.parametrize(("foreground", "background", "ratio"), [
    ((0, 0, 0), (255, 255, 255), 21.0),  # the largest there is
    ((255, 255, 255), (255, 255, 255), 1.0),
    ((0x76, 0x76, 0x76), (255, 255, 255), 4.54),  # the lightest grey that passes 4.5 : 1 on white
    ((0x77, 0x77, 0x77), (255, 255, 255), 4.48),  # one step lighter fails: nothing is rounded up
    ((255, 0, 0), (255, 255, 255), 4.00),
])
def test_contrast_ratio_as_wcag_computes_it(foreground, background, ratio):
    assert contrast_ratio(foreground, background) == pytest.approx(ratio, abs=0.005)
    assert contrast_ratio(background, foreground) == contrast_ratio(foreground, background)


def test_the_least_strength_that_keeps_a_contrast():
    blue = (0, 91, 142)
    strength = least_strength(blue, (255, 255, 255), 4.5)
    assert contrast_ratio(over(blue, strength, (255, 255, 255)), (255, 255, 255)) >= 4.5
    assert contrast_ratio(over(blue, strength - 0.01, (255, 255, 255)), (255, 255, 255)) < 4.5
    assert least_strength((200, 200, 200), (255, 255, 255), 4.5) == 1.0  # never enough: full strength


DALTONLENS = {"protanopia": simulate.Deficiency.PROTAN, "deuteranopia": simulate.Deficiency.DEUTAN,
              "tritanopia": simulate.Deficiency.TRITAN}


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_the_simulation_is_machados_as_daltonlens_computes_it(deficiency):
    colours = np.random.default_rng(43).integers(0, 256, (1, 400, 3), dtype=np.uint8)
    expected = simulate.Simulator_Machado2009().simulate_cvd(colours, DALTONLENS[deficiency], severity=1.0)
    ours = np.array([[simulated(tuple(int(part) for part in colour), deficiency) for colour in colours[0]]])
    assert np.abs(ours - expected.astype(int)).max() <= 1  # at most one step of a channel, from rounding


def test_red_and_green_that_anyone_tells_apart_meet_for_a_deuteranope():
    red, green = (200, 80, 60), (110, 130, 50)
    closest = closest_pair({"red": red, "green": green})
    assert colour_difference(red, green) > 25
    assert closest.deficiency in ("protanopia", "deuteranopia") and closest.delta_e < 10
