"""A saved panel size the settings reader drops is named as a setting, not a scene (issue 44, round-4 finding
S5: "NaN is not a number a scene can hold" was logged for a value of the settings file)."""

import pytest

from attn_desktop.ui.settings_reader import KEPT_SETTINGS, DroppedValue

HAND_SIZES = KEPT_SETTINGS["layouts/*/hand_sizes"]


@pytest.mark.parametrize("raw", ['{"lesson": [NaN, 300]}', '{"lesson": [' + "9" * 400 + ", 300]}"])
def test_a_dropped_hand_size_speaks_of_a_setting(raw):
    with pytest.raises(DroppedValue) as dropped:
        HAND_SIZES(raw)
    assert "setting" in str(dropped.value) and "scene" not in str(dropped.value)


def test_the_words_follow_the_language(speaking):
    speaking("es")
    with pytest.raises(DroppedValue) as dropped:
        HAND_SIZES('{"lesson": [Infinity, 300]}')
    assert "Infinity" in str(dropped.value) and "setting" not in str(dropped.value)
