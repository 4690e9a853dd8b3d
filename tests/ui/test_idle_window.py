"""A window nobody touches does no work: no layout pass after layout pass, no busy core on a classroom laptop."""

from PySide6.QtCore import QEvent

from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import EventCounter

IDLE_MS = 2000


def _layout_passes_while_idle(qtbot, window) -> int:
    qtbot.wait(800)  # let the first layout settle
    passes = EventCounter(QEvent.Type.LayoutRequest)
    window.installEventFilter(passes)
    qtbot.wait(IDLE_MS)
    window.removeEventFilter(passes)
    return passes.count


def test_an_untouched_window_stops_laying_itself_out(qtbot, window):
    """Tidying the docks' tab bars once hid a bar Qt was using; Qt showed it again, which asked for
    another layout pass, which tidied again: hundreds of passes a second, a core kept busy for ever."""
    window.resize(970, 700)
    assert _layout_passes_while_idle(qtbot, window) <= 2


def test_the_same_with_the_model_heads_panel_open(qtbot, window):
    window.resize(970, 700)
    window.dock_layout.show_wide(DockId.MODEL_HEADS)  # as Lessons → Heads of a Real Model… shows it
    assert _layout_passes_while_idle(qtbot, window) <= 2
