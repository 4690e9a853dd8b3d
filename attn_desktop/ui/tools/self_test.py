"""`attn-desktop --self-test`: build the real window offscreen, drag once, check the numbers.

It proves an installed (or frozen) app can import its Qt parts, find its
resources, compute the seed's numbers and follow a real drag, then opens every
built-in scene and every lesson and loads every icon (the SVG one through Qt's
SVG plugin), so a frozen bundle that lost a file or a plugin fails here. The numbers and words it expects
are written as the active language writes them (--lang, else the system's), so it passes on a Spanish,
Chinese or Arabic machine and in the pseudo-language as it does in English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from attn_desktop.language import LANGUAGE_NAMES, shown_languages, tr
from attn_desktop.model import Role, attention
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.shown_numbers import percent, shown_vector
from attn_desktop.model.teaching.lessons import LESSONS
from attn_desktop.paths import icon_files, resource_dir
from attn_desktop.ui.language.font_coverage import catalog_size, characters_missing
from attn_desktop.ui.tools.synthetic_mouse import drag, viewport_pos_of
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT
from attn_desktop.ui.window.startup.app import build_window, settle

if TYPE_CHECKING:  # the window the test builds (through app.py)
    from attn_desktop.ui.window.main_window import MainWindow

# The weights are written as the lessons state them (a percentage, "masked", "?") and compared with the
# window as the active language writes them (shown_cells): "76%" in English, "\u200e76%\u200e" in Arabic,
# "enmascarada" for "masked" in Spanish, so the self-test passes in every language it speaks.
MASKED = "masked"
EXPECTED_WEIGHTS: list[int | str] = [0, 76, 6, 1, 0, 17]
EXPECTED_OUTPUT = (1.54, 0.48)
# Each lesson's weights for its first query, as its own text states them (from the lesson's sources).
LESSON_WEIGHTS: dict[str, list[int | str]] = {
    "soft-lookup": [59, 8, 33],
    "projections": [54, 7, 39],
    "self-attention": [54, 7, 39],
    "scaled-attention": EXPECTED_WEIGHTS,
    "trained-heads": [0, 0, 0, 0, 100],  # the trained reverse head: position 0 looks at 4
    "why-sqrt-dk": EXPECTED_WEIGHTS,  # the √d_k lab beside the six-token scene
    # Two heads, the query "it": head 1 looks at the word before, head 2 at "cat".
    "two-heads": [0, 0, 8, 83, 8, MASKED, 1, 84, 2, 1, 12, MASKED],
    "predict-then-see": [HIDDEN_TEXT] * 4,  # it opens veiled: the student guesses before seeing them
    # Two layers of one head, the second D chosen: layer 1 looks at the letter before it (13:M), layer 2 at
    # 2:K, the letter after the first D; the later letters are masked.
    "induction-heads": [0] * 10 + [2, 3, 8, 77, 10] + [MASKED] * 5 + [0, 0, 100] + [0] * 12 + [MASKED] * 5,
    # "chased" gives dog and cat 34% each, in either order: no position yet.
    "positions": [12, 34, 9, 12, 34],
    # "black" written while "el gato negro duerme" is read: the most weight on negro, the third source word.
    "cross-attention": [1, 11, 82, 6],
}
SELF_TEST_WINDOW_SIZE = (1320, 880)


def run_self_test(report: Callable[[str], None] = print) -> bool:
    window = build_window()
    # A classroom screen's size, whatever the offscreen platform's own (800 × 600) would give.
    window.resize(*SELF_TEST_WINDOW_SIZE)
    window.show()
    settle(window)  # the tip's place on screen is final before the test presses on it
    checks: list[tuple[str, bool]] = []
    shown = _shown_weights(window)
    checks.append((f"default weights for sat {shown}", shown == shown_cells(EXPECTED_WEIGHTS)))
    output = window.output_panel.vector_label.text()
    checks.append((f"default output {output}", output == shown_vector(EXPECTED_OUTPUT)))

    arrow = window.canvas.arrows[Role.KEY][1]  # k·cat
    view = window.canvas
    start = viewport_pos_of(arrow, arrow.tip)
    drag(view.viewport(), start, start + QPointF(-60, -40), steps=12)
    QApplication.processEvents()
    scene = window.scene
    moved = not np.allclose(scene.vectors(Role.KEY)[1], [2.2, 1.0])
    checks.append((f"dragging k·cat moved it to {np.round(scene.vectors(Role.KEY)[1], 2).tolist()}", moved))
    fresh = attention(scene.vectors(Role.QUERY), scene.vectors(Role.KEY), scene.vectors(Role.VALUE), scale=True)
    expected = [percent(float(weight)) for weight in fresh.weights[window.reading().selected]]
    shown = _shown_weights(window)
    checks.append((f"table follows the drag {shown}", shown == expected))
    window.history.reset()  # the test drag is not work to save: open the lessons and close without asking

    loadable = _check_builtin_scenes(checks)
    _check_lessons(window, loadable, checks)
    _check_icons(checks)
    _check_languages(checks)
    window.history.reset()
    window.close()
    for name, ok in checks:
        report(f"{'ok  ' if ok else 'FAIL'} {name}")
    return all(ok for _, ok in checks)


def _shown_weights(window: MainWindow) -> list[str]:
    """The weights the Scores panel shows, or with several heads each head's table, one after the other."""
    if window.showing_heads:
        tables = [column.scores.model for column in window.heads_view.columns]
    else:
        tables = [window.score_panel.model]
    return [table.index(row, 3).data() for table in tables for row in range(table.rowCount())]


def shown_cells(expected: list[int | str]) -> list[str]:
    """EXPECTED (percentages, MASKED, "?") as the Scores panel writes them in the active language."""
    masked = tr("masked")
    return [percent(item / 100) if isinstance(item, int) else masked if item == MASKED else item
            for item in expected]


def _check_builtin_scenes(checks: list[tuple[str, bool]]) -> set[str]:
    """Load every scene file the app ships; return the ones that loaded (relative to scenes/)."""
    folder = resource_dir() / "scenes"
    loadable = set()
    for path in sorted(folder.rglob("*.json")):
        name = path.relative_to(folder).as_posix()
        try:
            tokens = open_scene(path).n_tokens
        except SceneFileError as error:
            checks.append((f"built-in scene {name}: {error}", False))
            continue
        loadable.add(name)
        checks.append((f"built-in scene {name}: {tokens} tokens", tokens > 0))
    return loadable


def _check_lessons(window: MainWindow, loadable: set[str], checks: list[tuple[str, bool]]) -> None:
    """Open each lesson in the window; its table must show the weights the lesson's text states."""
    for lesson in LESSONS:
        if lesson.scene not in loadable:  # opening it would stop at an error dialog nobody can close
            checks.append((f"lesson {lesson.title}: its scene {lesson.scene} is missing or damaged", False))
            continue
        opened = window.open_lesson(lesson.id)
        QApplication.processEvents()
        shown = _shown_weights(window)
        checks.append((f"lesson {lesson.title}: weights for {window.shown.selected_token} {shown}",
                       opened and window.lessons.current == lesson.id
                       and shown == shown_cells(LESSON_WEIGHTS.get(lesson.id, []))))


def _check_icons(checks: list[tuple[str, bool]]) -> None:
    for path in icon_files():
        image = QImage(str(path))
        checks.append((f"icon {path.name} {image.width()}x{image.height()}", not image.isNull()))


def _check_languages(checks: list[tuple[str, bool]]) -> None:
    """Each language's catalog loads, and the app's own fonts draw every character it uses."""
    for code in shown_languages():
        if code == "en":
            continue
        missing = characters_missing(code)
        fonts = f"no glyph for {''.join(missing[:20])}" if missing else "every character in the app's fonts"
        checks.append((f"language {LANGUAGE_NAMES[code]}: {catalog_size(code):,} texts, {fonts}",
                       not missing and catalog_size(code) > 0))
