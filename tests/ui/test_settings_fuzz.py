"""Anything in the settings file, in every key the app reads, and the window still opens with a usable layout.

Hypothesis writes values of every kind a Qt settings file can hold (text, whole numbers of any size, floats
with NaN and infinities, booleans, lists and nested lists, maps, byte arrays of garbage, sizes, points and
rectangles, INI text a hand edit leaves) into every key of KEPT_SETTINGS, the list of keys the reader will
read (a key read without being listed there fails test_hostile_settings.py), then starts the window as the
app does. The layout keys sometimes come with the right layout version and real saved bytes, so the restore
goes past its first check.
"""

import json
import math
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray, QPoint, QRect, QSize
from PySide6.QtWidgets import QMessageBox

from attn_desktop.ui.settings import LAYOUT_VERSION, app_settings, recent_files, saved_language
from attn_desktop.ui.settings_reader import KEPT_SETTINGS
from attn_desktop.ui.window.startup.app import configure_pyqtgraph, show_as_started, start_window

pytestmark = pytest.mark.slow  # builds the real main window for every example
USABLE_CANVAS = (200, 150)

scalars = st.one_of(
    st.none(), st.booleans(), st.text(max_size=40), st.integers(min_value=-2**63, max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["9" * 50, "@ByteArray(broken", "hello", "12", "-1", "", "6", "a, b", "@Variant(junk)",
                     "[" * 10_000, '{"one head @ wide": {"lesson": [1e999, 2]}}', "\0"]),
    st.binary(max_size=200).map(QByteArray),
    st.builds(QSize, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)),
    st.builds(QPoint, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)),
    st.builds(QRect, *[st.integers(-10**6, 10**6)] * 4),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)
json_like = st.recursive(
    st.one_of(st.integers(-10**40, 10**40), st.floats(), st.text(max_size=12), st.booleans(), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=12), inner, max_size=3)),
    max_leaves=10)
hand_sizes_texts = json_like.map(json.dumps)


@pytest.fixture
def starting(qtbot, monkeypatch):
    configure_pyqtgraph()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)

    def start():
        window = start_window(None, None)
        qtbot.addWidget(window)
        show_as_started(window)
        qtbot.waitExposed(window)
        return window

    return start


@pytest.fixture
def real_layout(starting):
    """This screen's layout group and the bytes a real window saved in it."""
    window = starting()
    window.save_window_state()
    window.close()
    settings = app_settings()
    (group,) = _layout_groups(settings)
    return group, settings.value(f"{group}/geometry"), settings.value(f"{group}/window_state")


def _layout_groups(settings):
    settings.beginGroup("layouts")
    try:
        return [f"layouts/{name}" for name in settings.childGroups()]
    finally:
        settings.endGroup()


def for_key(pattern: str, real: dict):
    """What Hypothesis may write into the key PATTERN: anything, and for some keys what the app itself writes."""
    own = {"layout_version": st.sampled_from([LAYOUT_VERSION, str(LAYOUT_VERSION)]),
           "layouts/*/geometry": st.just(real["geometry"]), "layouts/*/window_state": st.just(real["window_state"]),
           "layouts/*/hand_sizes": hand_sizes_texts}.get(pattern)
    return st.one_of(values, own) if own is not None else values


def write(settings_values: dict, group: str, from_disk: bool) -> None:
    settings = app_settings()
    settings.clear()
    for pattern, value in settings_values.items():
        try:
            settings.setValue(pattern.replace("layouts/*", group), value)
        except (OverflowError, TypeError, ValueError):
            pass  # a value Qt will not even take is not one it could have written
    settings.sync()
    path = Path(settings.fileName())
    if from_disk and path.exists():  # read back as the text on disk, not as the values Qt still holds
        stamp = path.stat().st_mtime + 10
        os.utime(path, (stamp, stamp))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
@pytest.mark.qt_log_ignore(".*")  # Qt's own complaints about the garbage it reads are not the app's
def test_the_window_opens_whatever_the_settings_file_holds(starting, real_layout, data):
    group, geometry, window_state = real_layout
    real = {"geometry": geometry, "window_state": window_state}
    chosen = {pattern: data.draw(for_key(pattern, real), label=pattern) for pattern in KEPT_SETTINGS}
    write(chosen, group, from_disk=data.draw(st.booleans(), label="read from disk"))
    assert isinstance(saved_language(), (str, type(None)))
    assert all(isinstance(path, Path) for path in recent_files())
    window = starting()
    try:
        assert window.isVisible()
        canvas = window.canvas
        assert canvas.isVisible() and canvas.width() >= USABLE_CANVAS[0] and canvas.height() >= USABLE_CANVAS[1], \
            canvas.size()
        assert window.screen().availableGeometry().intersects(window.frameGeometry())
        assert all(not math.isnan(side) for sizes in window.dock_layout.hand_sizes.sizes.values()
                   for size in sizes.values() for side in size)
    finally:
        window.close()


def test_every_key_the_reader_knows_is_fuzzed():
    """The keys above come from KEPT_SETTINGS itself; the patterns must all be ones a group can fill."""
    assert all(re.fullmatch(r"[a-z_]+(/\*/[a-z_]+)?", pattern) for pattern in KEPT_SETTINGS)
