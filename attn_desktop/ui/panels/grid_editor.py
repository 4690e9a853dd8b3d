"""The Grids panel: W_Q, W_K and W_V of a projection scene, as tables of numbers to type into
(of the head shown, in a scene with several heads; its W_O is edited beside the heads)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QRect, QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, parse_number, tr
from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.model.commands import Editor, RunNow, set_grid_cell, switch
from attn_desktop.model.layers import GRID_NAMES
from attn_desktop.model.shown_numbers import localized
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.scene_link import follow_scene_in_sight, head_reading
from attn_desktop.ui.widgets.grid_flow import GridFlow
from attn_desktop.ui.widgets.panel_foot_message import PanelFootMessage

MAX_ROWS_IN_VIEW = 3  # the lessons' grids have at most 3 rows; a trained head's taller ones scroll
W_O_ROWS_IN_VIEW = 4  # lesson 7's W_O is 4 × 4: every number in view
WIDEST_NUMBER = "-0.000"  # a compact column is as wide as this, or as its widest number if wider
NOTICE_MS = 4000  # a number taken: long enough to read, then the numbers under it are uncovered
REFUSED_COLOR = "#b42318"  # the message's words say it was refused; the colour only draws the eye
GRID_TITLES = {"w_q": N_("W_Q (makes queries)"), "w_k": N_("W_K (makes keys)"), "w_v": N_("W_V (makes values)"),
               "w_o": N_("W_O (mixes the heads' outputs)")}  # shown as tr(GRID_TITLES[name])
EDIT_TRIGGERS = (QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
                 | QAbstractItemView.EditTrigger.AnyKeyPressed)
SHORT_GRID_TITLES = {"w_q": N_("W_Q → queries"), "w_k": N_("W_K → keys"),  # on screen; fits a projector
                     "w_v": N_("W_V → values"), "w_o": N_("W_O → output")}


class GridEditor(QWidget):
    def __init__(self, scene: Scene | HeadReading, editor: Editor | None = None, parent: QWidget | None = None,
                 names: tuple[str, ...] = GRID_NAMES, compact: bool = False, title_prefix: str = "",
                 rows_in_view: int | None = None) -> None:
        """TITLE_PREFIX goes before each grid's title ("Layer 2 · ": whose W_O, with several layers); ROWS_IN_VIEW,
        if given, the rows a table shows before it scrolls (a window of its own shows a large W_O's every row)."""
        super().__init__(parent)
        self.reading = head_reading(scene)  # the head whose grids (or whose layer's W_O) are shown
        self.scene = self.reading.scene
        # In the window, its edit history (undoable); alone, straight to the scene.
        self.editor = editor if editor is not None else RunNow(self.scene, self.reading.view)
        self.names = names  # the grids shown: W_Q, W_K and W_V, or W_O alone
        self.compact = compact  # tables exactly as tall as their rows (beside other panels), not stretched
        self.title_prefix = title_prefix
        self.rows_in_view = rows_in_view
        self.tables: dict[str, QTableWidget] = {}
        self.titles: dict[str, QLabel] = {}  # each grid's title over it
        self.no_grids_box = QCheckBox(tr("No grids: q = k = v = x"))
        self.no_grids_box.setToolTip(tr("Use each word's own vector as its query, key and value"))
        self.no_grids_box.toggled.connect(self._on_no_grids_toggled)
        self.typed_cell: tuple[QTableWidget, int, int] | None = None  # the cell last typed into, kept in sight
        # Over the panel, not a line of it: a line under the grids grew the window's bottom row as it appeared.
        self.message_label = PanelFootMessage(self, self._typed_cell_place)
        self.message_label.setAccessibleName(tr("Message"))
        if "w_q" not in names:  # (hidden before it has a parent: shown, it would open as a window of its own)
            self.no_grids_box.hide()
        self.head_label = QLabel()  # whose grids, while the window shows several heads (name_heads)
        self.head_label.hide()
        self.naming_heads = False
        self.read_only = False  # a lesson file keeps the numbers as they are (set_read_only)
        grid_area = QGridLayout()
        self.flow = GridFlow()  # beside the canvas: the grids that do not fit side by side go under
        for column, name in enumerate(names):
            table = QTableWidget()
            table.setTabKeyNavigation(False)  # the arrow keys walk the cells; Tab goes on to the next control
            table.setEditTriggers(EDIT_TRIGGERS)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            table.setMinimumWidth(table.fontMetrics().horizontalAdvance("0.000") * 2 + 30)
            table.horizontalHeader().setMinimumSectionSize(1)  # the column's width is the numbers' (_fit_columns)
            table.itemChanged.connect(lambda item, name=name: self._on_cell_typed(name, item))
            title = self.titles[name] = QLabel()
            if compact:
                grid_area.addWidget(title, 0, column)
                grid_area.addWidget(table, 1, column)
            else:
                self.flow.add(title, table)
            self.tables[name] = table
        self._word_titles()
        follow_language(self, self._word_titles)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.head_label)
        layout.addWidget(self.no_grids_box)  # first: on a 768-line screen the panel's foot is scrolled to
        if compact:
            layout.addLayout(grid_area)
        else:
            layout.addWidget(_scrolling(self.flow), 1)
        follow_scene_in_sight(self, self.reading, self._on_scene_changed)
        self.refresh()

    def _word_titles(self) -> None:
        """Each grid's title, its tooltip and its table's name, in the language of the moment."""
        for name, title in self.titles.items():
            title.setText(f"<b>{self.title_prefix}{tr(SHORT_GRID_TITLES[name])}</b>")
            title.setToolTip(self.title_prefix + tr(GRID_TITLES[name]))
            self.tables[name].setAccessibleName(self.title_prefix + tr(GRID_TITLES[name]))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self._shows_anything():  # presentation mode: taller rows
            for name, table in self.tables.items():
                self._fill(table, self._grid(name))

    def _grid(self, name: str) -> np.ndarray:
        """W_Q, W_K or W_V of the head shown, or W_O of its layer."""
        return self.scene.grid(name, *self.reading.location)

    def _shows_anything(self) -> bool:
        """Only the grids there are: W_Q, W_K and W_V where the head makes its vectors with them (not where
        they are given directly), W_O where its layer mixes its heads' outputs."""
        w_o = self.scene.layers[self.reading.layer].w_o
        return all(w_o is not None if name == "w_o" else name in self.reading.grids for name in self.names)

    def refresh(self) -> None:
        reading = self.reading
        self.setEnabled(self._shows_anything())
        if not self._shows_anything():
            for table in self.tables.values():
                with QSignalBlocker(table):
                    table.clear()
                    table.setRowCount(0)
                    table.setColumnCount(0)
            self._say(tr(
                "This scene gives its queries, keys and values directly. "
                "Open lesson 2, \"Three vectors from one word\", to make them with grids."
            ))
            return
        if self.read_only:
            self._say(tr("These numbers are fixed in this lesson."), how_to=True)
        else:
            self._say(tr("Double-click a number to change it. Row i of a grid is what x's i-th number adds.")
                      if "w_o" not in self.names else tr("Double-click a number to change it."), how_to=True)
        self._name_the_head()
        for name, table in self.tables.items():
            self._fill(table, self._grid(name))
        with QSignalBlocker(self.no_grids_box):
            self.no_grids_box.setChecked(not reading.use_grids)
        for table in self.tables.values():
            table.setEnabled(reading.use_grids)

    def _fill(self, table: QTableWidget, grid: np.ndarray) -> None:
        # Writing the scene's numbers back must not read as the student typing them.
        with QSignalBlocker(table):
            table.setRowCount(grid.shape[0])
            table.setColumnCount(grid.shape[1])
            # Every row in view for the lessons' small grids (a grid scrolled to its first row hides half
            # of what makes q, k or v); a trained head's tall grids scroll past MAX_ROWS_IN_VIEW instead of
            # asking for more height than a 768-line projector has.
            row_height = table.fontMetrics().height() + 8
            most_rows = W_O_ROWS_IN_VIEW if "w_o" in self.names else MAX_ROWS_IN_VIEW
            rows_in_view = min(grid.shape[0], self.rows_in_view or most_rows)
            height = table.horizontalHeader().sizeHint().height() + rows_in_view * row_height + 2 * table.frameWidth()
            table.setMinimumHeight(height)
            texts = [[localized(explain.short_number(number, 3)) for number in row] for row in grid]
            if self.compact:
                _fit_to_numbers(table, height, texts)
            elif _fit_columns(table, texts, rows_in_view < grid.shape[0]):
                self.flow.rearrange()  # (a drag move that leaves the numbers' width as it was skips this)
            for row in range(grid.shape[0]):
                for column in range(grid.shape[1]):
                    text = texts[row][column]
                    item = table.item(row, column)
                    if item is None:
                        item = QTableWidgetItem()
                        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                        table.setItem(row, column, item)
                    if item.text() != text:
                        item.setText(text)

    def set_read_only(self, read_only: bool) -> None:
        """READ_ONLY: the numbers are read, walked with the arrow keys and copied, but no key or double-click opens
        a cell to type into (a lesson file that hides grid editing, or locks the grids)."""
        self.read_only = read_only
        for table in self.tables.values():
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers if read_only else EDIT_TRIGGERS)
        self.refresh()

    def _on_cell_typed(self, name: str, item: QTableWidgetItem) -> None:
        if self.read_only:  # (no editor opens; a cell changed some other way keeps the grid's number)
            self._fill(self.tables[name], self._grid(name))
            return
        self.typed_cell = (self.tables[name], item.row(), item.column())
        grid = GRID_TITLES[name].split()[0]
        typed = item.text().strip()
        try:
            value = parse_number(typed)  # "1.5" and "1,5" alike, whatever the language
        except ValueError:
            self._refuse(tr("\u201c{typed}\u201d is not a number, so {grid} keeps {number}. "
                            "Type a number such as 1.5 or -0.25.").format(typed=typed, grid=grid,
                                                                          number=self._cell_text(name, item)))
            return
        try:
            self.editor.do(set_grid_cell(self.scene, name, item.row(), item.column(), value, *self.reading.location))
        except ValueError as error:  # not finite, or too large
            self._refuse(tr("{typed} was refused ({error}), so {grid} keeps {number}.").format(
                typed=typed, error=error, grid=grid, number=self._cell_text(name, item)))
            return
        self._say(tr("{grid} changed: every word's vectors follow.").format(grid=grid), passing=True)

    def _typed_cell_place(self) -> QRect | None:
        """Where the cell last typed into is, in the panel: the message lies clear of it."""
        if self.typed_cell is None:
            return None
        table, row, column = self.typed_cell
        index = table.model().index(row, column)
        if not index.isValid():
            return None
        cell = table.visualRect(index)
        return QRect(table.viewport().mapTo(self, cell.topLeft()), cell.size())

    def _cell_text(self, name: str, item: QTableWidgetItem) -> str:
        return localized(explain.short_number(self._grid(name)[item.row(), item.column()], 3))

    def _refuse(self, message: str) -> None:
        """Say why, and put the grid's own number back in the cell; the message stays until the next edit."""
        for name, table in self.tables.items():
            self._fill(table, self._grid(name))
        self._say(message, refused=True)

    def _say(self, text: str, refused: bool = False, how_to: bool = False, passing: bool = False) -> None:
        """A refusal or a notice over the panel's foot (a refusal stays until the next edit; a PASSING notice, a
        number taken, goes by itself); the how-to in the grids' tooltips (on a 768-line screen the panel has
        the height of its grids, not of two more lines)."""
        self.message_label.setStyleSheet(f"color: {REFUSED_COLOR}" if refused else "")
        if how_to:
            self.message_label.setText(text)
            self.message_label.hide()
        elif passing:
            self.message_label.say_for(text, NOTICE_MS)
        else:
            self.message_label.say(text)
        for table in self.tables.values():
            table.setToolTip(text if how_to else "")

    def _on_no_grids_toggled(self, checked: bool) -> None:
        try:
            self.editor.do(switch(self.reading, "use_grids", not checked))
        except ValueError as error:
            self.refresh()
            self._say(str(error).capitalize() + ".", refused=True)

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.STRUCTURE | Change.SETTINGS):
            self.refresh()
        elif change & Change.VECTORS and self._shows_anything():
            for name, table in self.tables.items():  # a typed cell, an undo, or another head shown
                self._fill(table, self._grid(name))
            if self.naming_heads:  # another head may be shown now
                self._name_the_head()

    def name_heads(self, on: bool) -> None:
        """Say whose grids these are: the window shows several heads, and a head's title shows its grids here."""
        self.naming_heads = on
        self.head_label.setVisible(on)
        self._name_the_head()

    def _name_the_head(self) -> None:
        self.head_label.setText(tr("<b>{head}</b> (click a head's title to show another)").format(
            head=self.scene.head_name(*self.reading.location)))


def _scrolling(flow: GridFlow) -> QScrollArea:
    """The grids in a dock's width, scrolled down to when they are under each other."""
    area = QScrollArea()
    area.setWidget(flow)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll_bar = area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, area)
    # The grids' least width beside the bar that scrolls to the grids under them, and one whole row in view.
    flow.least_room_changed.connect(lambda room: area.setMinimumSize(room.width() + scroll_bar, room.height()))
    return area


def _fit_columns(table: QTableWidget, texts: list[list[str]], scrolls: bool) -> bool:
    """The table at least as wide as its numbers need (a trained head's -0.383 whole, never "0...."):
    its columns stretch over the width it gets, and never below the widest number and the cell's margins.
    Whether its width changed."""
    metrics = table.fontMetrics()
    widest = max((metrics.horizontalAdvance(text) for row in texts for text in row), default=0)
    margins = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    column_width = max(widest + margins + 2, metrics.horizontalAdvance("00") + margins)
    scroll_bar = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, table) if scrolls else 0
    width = (table.verticalHeader().sizeHint().width() + table.columnCount() * column_width
             + 2 * table.frameWidth() + scroll_bar)
    if table.minimumWidth() == width:
        return False
    table.setMinimumWidth(width)
    return True


def _fit_to_numbers(table: QTableWidget, height: int, texts: list[list[str]]) -> None:
    """A compact table (beside other panels) is as tall as its rows and as wide as its numbers, no more:
    beside the heads, each layer's W_O leaves the mixing lines the rest of the width."""
    table.setMaximumHeight(height)
    metrics = table.fontMetrics()
    widest = max(metrics.horizontalAdvance(text) for text in (WIDEST_NUMBER, *(text for row in texts for text in row)))
    column_width = widest + 16  # the cell's own margins
    table.setMaximumWidth(table.verticalHeader().sizeHint().width() + table.columnCount() * column_width
                          + 2 * table.frameWidth())
