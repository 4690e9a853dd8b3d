"""`attn-desktop --self-test`: build the real window offscreen, drag once, check the numbers.

It proves an installed (or frozen) app can import its Qt parts, find its
resources, compute the seed's numbers and follow a real drag.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from ..model import Role, attention
from .app import build_window
from .synthetic_mouse import drag, viewport_pos_of

EXPECTED_WEIGHTS = ["0%", "76%", "6%", "1%", "0%", "17%"]


def run_self_test(report=print) -> bool:
    window = build_window()
    window.show()
    QApplication.processEvents()
    checks: list[tuple[str, bool]] = []
    table = window.score_panel.model
    shown = [table.index(row, 3).data() for row in range(table.rowCount())]
    checks.append((f"default weights for sat {shown}", shown == EXPECTED_WEIGHTS))
    checks.append(("default output (1.54, 0.48)", window.output_panel.vector_label.text() == "(1.54, 0.48)"))

    arrow = window.canvas.arrows[Role.KEY][1]  # k·cat
    view = window.canvas
    start = viewport_pos_of(arrow, arrow.tip)
    drag(view.viewport(), start, start + QPointF(-60, -40), steps=12)
    QApplication.processEvents()
    scene = window.scene
    moved = not np.allclose(scene.vectors(Role.KEY)[1], [2.2, 1.0])
    checks.append((f"dragging k·cat moved it to {np.round(scene.vectors(Role.KEY)[1], 2).tolist()}", moved))
    fresh = attention(scene.vectors(Role.QUERY), scene.vectors(Role.KEY), scene.vectors(Role.VALUE), scale=True)
    expected = [f"{round(w * 100):d}%" for w in fresh.weights[scene.selected]]
    shown = [table.index(row, 3).data() for row in range(table.rowCount())]
    checks.append((f"table follows the drag {shown}", shown == expected))
    window.history.reset()  # the test drag is not work to save: close without asking
    window.close()
    for name, ok in checks:
        report(f"{'ok  ' if ok else 'FAIL'} {name}")
    return all(ok for _, ok in checks)
