"""The canvas is painted on the GUI thread alone: a paint never waits for other threads.

Qt's raster engine can hand the blending of a large picture (an axis's cached pixmap with its grid, the
view's cached background) to a pool of threads and wait for them; on a busy two-core machine a drag move's
canvas paint then waited longer than it drew. The app is started as a user starts it, in a process of its
own (Qt reads the choice once, before its first large paint), and the canvas is repainted where a drag move repaints it: each
voluntary context switch of the painting thread is a wait for another thread.
"""

import ast
import os
import subprocess
import sys

import pytest

from tests.support.project_root import ROOT

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the thread's Linux usage counts")]

PAINTS = '''
import resource
from PySide6.QtGui import QRegion
from attn_desktop.ui.window.startup.app import build_window, make_application

app = make_application()
window = build_window()
window.resize(1320, 880)
window.show()
for _ in range(5):
    app.processEvents()
canvas = window.canvas
viewport = canvas.viewport()
# Where a drag move repaints: round the arrows of both plots, a region of several rectangles.
region = QRegion()
for plot in (canvas.qk_plot, canvas.vo_plot):
    view = canvas.mapFromScene(plot.getViewBox().sceneBoundingRect()).boundingRect()
    region |= QRegion(view.adjusted(20, 20, -20, -20))
waits = []
for _ in range(20):
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
    viewport.repaint(region)
    waits.append(resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - before)
print("WAITS", waits)
window.history.reset()
window.close()
'''


def test_a_canvas_paint_waits_for_no_other_thread(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "QT_NO_GUI_THREADPOOL"}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               ATTN_DESKTOP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", PAINTS], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    waits = ast.literal_eval(done.stdout.split("WAITS", 1)[1].strip().splitlines()[0])
    # A paint seldom yields the processor otherwise (the kernel's own page-ins, say): most paints do not at all.
    assert sorted(waits)[len(waits) // 2] == 0, waits
