"""The status bar: a standing hint, drag read-outs over it, and the warnings that stay."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QStatusBar

from attn_desktop.model import Scene
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.document.autosave import Autosaver
from attn_desktop.ui.steady_label_box import SteadyLabelBox
from attn_desktop.ui.training.task_accuracy_label import TaskAccuracyLabel
from attn_desktop.ui.window.status.progress_notice_label import ProgressNoticeLabel
from attn_desktop.ui.window.status.status_hint import STATUS_HINTS, StatusHint
from attn_desktop.ui.window.status.unprotected_work_label import UnprotectedWorkLabel

STATUS_HINT = STATUS_HINTS[0]
DRAG_READOUT_MS = 4000


def fill_status_bar(bar: QStatusBar, scene: Scene, keepers: tuple[Autosaver, ProgressStore],
                    drag_readouts: Iterable[SignalInstance]) -> tuple[UnprotectedWorkLabel, ProgressNoticeLabel]:
    """The hint, the labels that stay, and DRAG_READOUTS' texts (what a dragged arrow now is) shown over
    the hint for a moment; the labels that warn about unprotected work and unsaved progress are returned
    (KEEPERS: what keeps the scene's recovery copy, and the student's progress)."""
    autosaver, progress = keepers
    # Filled with the window's own colour, the bar is opaque to Qt: a drag read-out, new on every move,
    # repaints the bar alone instead of the main window under it first.
    bar.setAutoFillBackground(True)
    # A normal widget stays; drag read-outs are temporary messages shown over it.
    bar.addWidget(StatusHint(), 1)  # as much of the hint as fits beside the labels that stay
    unprotected = UnprotectedWorkLabel()  # stays until autosave works again
    bar.addPermanentWidget(unprotected)
    autosaver.protection_changed.connect(unprotected.show_problem)
    # A head kept from training: its accuracy, new on every drag move (so in a box that keeps the layout still).
    bar.addPermanentWidget(SteadyLabelBox(TaskAccuracyLabel(scene)))
    progress_notice = ProgressNoticeLabel(progress)  # progress not saved, or an earlier file not readable
    bar.addPermanentWidget(progress_notice)
    for readout in drag_readouts:
        readout.connect(lambda text: bar.showMessage(text, DRAG_READOUT_MS))
    return unprotected, progress_notice
