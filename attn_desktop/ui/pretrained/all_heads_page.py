"""The All heads tab of the Model heads panel: every head as a thumbnail (HeadGrid), with a line over it.

The line says how long the run took and how to use the grid, or names the head pointed at (its kind, the
heads sharing its keys and values); it is as tall as its longest text from the start, so the grid under it
never moves as the pointer comes in (a class aims at a head and must hit it). Under the grid, while heads
are knocked out, a line names them and what they did to the prediction, beside Restore all: appearing or
hiding there, it moves no thumbnail (even scrolled to the grid's end). The grid's requests (open, knock out, restore) pass through as the page's own
signals; the panel decides.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from attn_desktop.language import N_, ntr, tr
from attn_desktop.ui.pretrained.pattern_thumbnails import HeadGrid, short_head_name
from attn_desktop.ui.widgets.reserved_lines_label import ReservedLinesLabel

GRID_HINT = N_("Click a head to open it; right-click or Ctrl+click to knock it out.")
RUNNING_TEXT = N_("Running the sentence through every layer\u2026")
KEYBOARD_HEAD_TEXT = N_("{head} (Enter opens it, K knocks it out)")
GRID_TOOLTIP = N_("Each square is one head's attention weights: query rows down, key columns across (grey: masked). "
                "Outlined: the heads Find heads lists for its two tokens. Crossed out: heads knocked out "
                "(right-click, Ctrl+click or K switches one off or on again).")


class AllHeadsPage(QWidget):
    head_chosen = Signal(int, int)  # (layer, head) clicked, or Enter
    knock_out_toggled = Signal(int, int)
    restore_all_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chosen_head = (0, 0)  # the grid's current head (the one a generation step shows)
        self._run_text = ""
        self._build()
        self.show_knocked_out(frozenset(), "")

    def _build(self) -> None:
        self.grid = HeadGrid()
        self.grid.head_chosen.connect(self._on_chosen)
        self.grid.hovered.connect(self._on_hovered)
        self.grid.current_changed.connect(self._on_current)
        self.grid.keyboard_moved.connect(self._scroll_to)
        self.grid.knock_out_toggled.connect(self.knock_out_toggled)
        self.grid.restore_all_requested.connect(self.restore_all_requested)
        self.grid.setToolTip(tr(GRID_TOOLTIP))
        self.knock_label = QLabel()  # which heads are off, and what it did to the prediction
        self.knock_label.setWordWrap(True)
        self.knock_label.setAccessibleName(tr("Knocked-out heads"))
        self.restore_button = QPushButton(tr("Restore all"))
        self.restore_button.setToolTip(tr("Switch every knocked-out head on again"))
        self.restore_button.clicked.connect(self.restore_all_requested)
        # The grid, and under it room the line under the grid gives back as it hides (_fit_room_under_grid)
        self.room_under_grid = QWidget()
        self.room_under_grid.setFixedHeight(0)
        self._room_reserved = 0  # the tallest the line under the grid has been: the room kept for it
        grid_and_room = QWidget()
        column = QVBoxLayout(grid_and_room)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.grid)
        column.addWidget(self.room_under_grid)
        column.addStretch(1)
        self.grid_scroll = QScrollArea()
        self.grid_scroll.setWidget(grid_and_room)
        self.grid_scroll.setWidgetResizable(True)
        self.grid_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always there: a bar that came and went would change the width, the cells, and so the height again.
        self.grid_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.grid_scroll.setMinimumHeight(100)
        self.grid.readable_width_changed.connect(self._keep_readable_width)
        self.head_label = ReservedLinesLabel(tr(GRID_HINT))  # what the grid shows, or the head pointed at
        self.head_label.setToolTip(tr(GRID_TOOLTIP))
        self.head_label.set_possible_texts(self._possible_head_texts)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.head_label)
        layout.addWidget(self.grid_scroll, 1)
        self.knock_row = QWidget()  # under the grid: appearing or hiding, it moves no thumbnail
        knock_row = QHBoxLayout(self.knock_row)
        knock_row.setContentsMargins(0, 0, 0, 0)
        knock_row.addWidget(self.knock_label, 1)
        knock_row.addWidget(self.restore_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.knock_row)

    def _keep_readable_width(self, width: int) -> None:
        """The grid's frame never narrower than its heads need to read (24-px thumbnails): a design that gives
        the panel only what it needs (presenting on a projector) then gives the grid that."""
        frame = 2 * self.grid_scroll.frameWidth() + self.grid_scroll.verticalScrollBar().sizeHint().width()
        self.grid_scroll.setMinimumWidth(width + frame if width else 0)

    # ----- what it says ---------------------------------------------------------------------------
    def show_run_text(self, text: str) -> None:
        """"10 tokens in 0.12 s.": said before the hint until a head is pointed at."""
        self._run_text = text
        self.head_label.setText(self.grid_text())

    def _possible_head_texts(self) -> list[str]:
        """Every text the line over the grid may show: the hint, the run's progress, any head's description."""
        layers, heads = self.grid.shape
        described = [self.grid.describe(layer, head, knocked_out=True) for layer in range(layers) for head in range(heads)]
        return [self.grid_text(), tr(RUNNING_TEXT), *described,
                *(tr(KEYBOARD_HEAD_TEXT).format(head=text) for text in described)]

    def show_running(self, running: bool) -> None:
        self.head_label.setText(tr(RUNNING_TEXT) if running else self.grid_text())

    def grid_text(self) -> str:
        return f"{self._run_text} {tr(GRID_HINT)}" if self._run_text else tr(GRID_HINT)

    def show_knocked_out(self, knocked: frozenset, effect: str) -> None:
        """The heads off (crossed out in the grid), named with EFFECT, and Restore all; nothing when none are."""
        self.grid.set_knocked_out(set(knocked))
        if not knocked and self.restore_button.hasFocus():
            # Before it hides: Qt would hand the keys to whatever control comes next in the window (another dock).
            self.grid.setFocus(Qt.FocusReason.OtherFocusReason)
        if knocked:
            self.knock_label.setText(f"{knocked_text(knocked)} {effect}".strip())
        self._show_knock_row(bool(knocked))

    def _show_knock_row(self, shown: bool) -> None:
        """The line under the grid shown (or taller or shorter) or hidden, without moving a thumbnail. Scrolled
        to the grid's end, a frame that grew as the line hid had to scroll back, and every thumbnail moved down
        by the line's height under a pointer aimed at one (Ctrl+click on layer 29 knocked out layer 28). So the
        room under the grid and the line always add up to the same, and the frame grows only after the room
        under the grid has: it never has to scroll back."""
        layout = self.layout()
        line = self._line_height(shown)
        self._room_reserved = max(self._room_reserved, line)
        room = self._room_reserved - line
        self._set_room_under_grid(max(room, self.room_under_grid.height()))  # more room first, if any
        self.knock_row.setVisible(shown)
        row_layout = self.knock_row.layout()
        for inner in (row_layout, layout):  # the line's new text first, then the page: the grid's frame, now
            if inner is not None:
                inner.activate()
        self._set_room_under_grid(room)  # then less, if less

    def _line_height(self, shown: bool) -> int:
        """The height the line under the grid (with the gap over it) takes, shown with its text now."""
        layout = self.layout()
        if not shown or layout is None:
            return 0
        width = layout.contentsRect().width() or self.width()
        row = self.knock_row.heightForWidth(width) if self.knock_row.hasHeightForWidth() else -1
        return (row if row >= 0 else self.knock_row.sizeHint().height()) + max(layout.spacing(), 0)

    def _set_room_under_grid(self, height: int) -> None:
        if height == self.room_under_grid.height() and self.room_under_grid.minimumHeight() == height:
            return
        self.room_under_grid.setFixedHeight(height)
        content = self.grid_scroll.widget()
        inner = content.layout() if content is not None else None
        if inner is not None:
            inner.activate()
        QCoreApplication.sendPostedEvents(self.grid_scroll, QEvent.Type.LayoutRequest)  # its range, now

    # ----- pointing at heads ----------------------------------------------------------------------
    def _on_chosen(self, layer: int, head: int) -> None:
        self.chosen_head = (layer, head)
        self.head_chosen.emit(layer, head)

    def _on_hovered(self, layer: int, head: int) -> None:
        self.head_label.setText(self.grid.describe(layer, head) if layer >= 0 else self.grid_text())

    def _on_current(self, layer: int, head: int) -> None:
        self.chosen_head = (layer, head)
        if self.grid.hasFocus():
            self.head_label.setText(tr(KEYBOARD_HEAD_TEXT).format(head=self.grid.describe(layer, head)))

    def _scroll_to(self, layer: int, head: int) -> None:
        """The keyboard's head into view (never the pointer's: scrolling under a click would move its head away)."""
        box = self.grid.cell_rect(layer, head)
        self.grid_scroll.ensureVisible(box.center().x(), box.center().y(), box.width(), box.height())


def knocked_text(knocked: frozenset) -> str:
    """"2 heads knocked out (L3 H1, L4 H0).": the heads off, by their short names."""
    named = ", ".join(short_head_name(layer, head) for layer, head in sorted(knocked))
    return ntr("{count} head knocked out ({heads}).", "{count} heads knocked out ({heads}).",
               len(knocked)).format(count=len(knocked), heads=named)
