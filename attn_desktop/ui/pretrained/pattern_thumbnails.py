"""Every attention head of a model at once: one small attention pattern per layer and head.

One widget paints the whole grid (layers down, heads across) from small images, one per head,
made once per sentence: 270 heads of SmolLM2 are 270 drawImage calls, not 270 widgets or plots.
Each thumbnail is that head's weight matrix, query rows down and key columns across, coloured
like the Attention matrix panel (viridis: dark for 0, yellow for 1; masked cells grey).

Point at a head to read which it is (and its kind, when a rule found one); click it, or move
to it with the arrow keys and press Enter, to open it. A click never scrolls the grid (only the keyboard
does): the head released on is the head pressed on. Heads can be marked (an outline), for
example those Find heads lists.

Heads can be knocked out (their output zeroed in the model): right-click a head for a menu, press K
(on the head under the pointer, or the keyboard's when the keyboard moved last), or Ctrl+click it. The grid only asks (`knock_out_toggled`,
`restore_all_requested`); its owner runs the model and says which heads are off
(`set_knocked_out`), so the crosses always show what the model computed, never a wish.

Query heads that share one key/value head (grouped-query attention: SmolLM2's 9 query heads
read 3 key/value heads) stand together: a wider gap between groups and a band above them
naming the key/value head ("kv 1").

The thumbnails' images are thumbnail_images.py's; where each goes is head_grid_geometry.py's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFocusEvent,
    QHelpEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolTip, QWidget

from attn_desktop.language import tr
from attn_desktop.ui.pretrained.head_grid_geometry import GAP, MIN_CELL, GridGeometry
from attn_desktop.ui.pretrained.thumbnail_images import colour_table, thumbnail_image, thumbnail_levels

MARK_COLOR = QColor(255, 140, 0)
PAGE_LAYERS = 5  # Page Up / Page Down move this many layers
GROUP_BAND_COLOR = QColor(232, 238, 246)  # the token chips' light blue: a band, not a second grid
KNOCKED_OUT_BACKGROUND = QColor(208, 208, 208)  # neutral grey under a dimmed thumbnail
KNOCKED_OUT_OPACITY = 0.35  # the pattern still shows faintly: which head it was stays recognisable
CROSS_COLOR = QColor(210, 0, 0)  # viridis has no red: the cross stands out on every thumbnail
# Focus the keyboard brought (Tab, a shortcut, the program): not a click, a closed menu or the window raised
KEYBOARD_FOCUS_REASONS = (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                          Qt.FocusReason.ShortcutFocusReason, Qt.FocusReason.OtherFocusReason)
CROSS_HALO_COLOR = QColor(255, 255, 255)  # under the red: readable on dark cells and on a washed-out projector


class HeadGrid(QWidget):
    head_chosen = Signal(int, int)  # (layer, head): clicked, or Enter on the current head
    current_changed = Signal(int, int)  # the current head changed (clicked, right-clicked or moved to by keys)
    keyboard_moved = Signal(int, int)  # the keyboard's head moved or the keyboard came in: scroll it into view
    hovered = Signal(int, int)  # the head under the pointer; (-1, -1) when none
    knock_out_toggled = Signal(int, int)  # (layer, head): the user asks to switch it off, or on again
    restore_all_requested = Signal()  # the user asks for every knocked-out head back
    readable_width_changed = Signal(int)  # the width its layers need to read (its shape or its font changed)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(tr("Attention heads, layers down and heads across"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._colours = colour_table()
        self._images: list[list[QImage]] = []
        self._layers = self._heads = 0
        self._descriptions: dict[tuple[int, int], str] = {}
        self._marked: set[tuple[int, int]] = set()
        self._knocked_out: set[tuple[int, int]] = set()
        self._knock_out_enabled = True
        self._group = 1  # query heads per key/value head; 1: every head has its own
        self._current = (0, 0)
        self._hovered: tuple[int, int] | None = None
        self._pointer_leads = False  # the pointer moved since the keyboard did: K acts on the head under it
        self._pressed_with_control = False
        self._cell = MIN_CELL
        self._columns: list[int] = []  # each head's left edge: computed when the geometry changes, not per paint
        self._bands: list[tuple[QRect, str]] = []  # the key/value groups' header band: where, and what it says
        self._head_labels: list[str] = []  # "H3", or "3" when a large font meets small cells
        self._cross_pens = (QPen(), QPen())
        self._readable_width = 0  # what readable_width_changed last said

    # ----- what it shows ---------------------------------------------------------------
    def set_attention(self, weights: np.ndarray) -> None:
        """Every head's weights, (layers, heads, queries, keys)."""
        levels = thumbnail_levels(np.asarray(weights, dtype=np.float64))
        layers, heads, side, _ = levels.shape
        self._images = [[thumbnail_image(levels[layer, head], side, self._colours) for head in range(heads)]
                        for layer in range(layers)]
        if (layers, heads) != (self._layers, self._heads):
            self._layers, self._heads = layers, heads
            self._current = (min(self._current[0], layers - 1), min(self._current[1], heads - 1))
            self._fit_height()
        self.update()

    def set_descriptions(self, descriptions: dict[tuple[int, int], str]) -> None:
        """What pointing at a head adds to its name ("previous-token head"), by (layer, head)."""
        self._descriptions = dict(descriptions)

    def set_marked(self, heads: Iterable[Sequence[int]]) -> None:
        self._marked = {(layer, head) for layer, head in heads}
        self.update()

    def set_knocked_out(self, heads: Iterable[Sequence[int]]) -> None:
        """The heads the model now runs without: drawn dimmed and crossed out."""
        knocked_out = {(int(layer), int(head)) for layer, head in heads}
        if knocked_out != self._knocked_out:
            self._knocked_out = knocked_out
            self.setAccessibleDescription(self.describe(*self._current))
            self.update()

    def set_knock_out_enabled(self, enabled: bool) -> None:
        """Off for a grid whose heads cannot be knocked out (a grid of scores): then its menu, K and
        Ctrl+click only open heads."""
        self._knock_out_enabled = bool(enabled)

    def set_kv_group_size(self, group: int) -> None:
        """How many query heads read one key/value head (3 for SmolLM2's 9 heads); 1 for no sharing."""
        group = max(1, int(group))
        if group != self._group:
            self._group = group
            self._fit_height()
            self.setAccessibleDescription(self.describe(*self._current))
            self.update()

    @property
    def marked(self) -> set[tuple[int, int]]:
        return set(self._marked)

    @property
    def knocked_out(self) -> set[tuple[int, int]]:
        return set(self._knocked_out)

    @property
    def kv_group_size(self) -> int:
        return self._group

    @property
    def shape(self) -> tuple[int, int]:
        return self._layers, self._heads

    @property
    def current(self) -> tuple[int, int]:
        return self._current

    def image_of(self, layer: int, head: int) -> QImage:
        return self._images[layer][head]

    def describe(self, layer: int, head: int, knocked_out: bool | None = None) -> str:
        """"Layer 3, head 5 (knocked out): previous-token head; shares keys and values with heads 3–5
        (key/value head 1)": its name, whether it is off (KNOCKED_OUT: as if it were, or not), its kind when a rule
        found one, its group."""
        if (layer, head) in self._knocked_out if knocked_out is None else knocked_out:
            text = tr("Layer {layer}, head {head} (knocked out)").format(layer=layer, head=head)
        else:
            text = tr("Layer {layer}, head {head}").format(layer=layer, head=head)
        extras = [extra for extra in (self._descriptions.get((layer, head)), self._sharing(head)) if extra]
        # Translators: a head's name, then what is known of it (its kind, the heads sharing its keys and values)
        return tr("{head}: {details}").format(head=text, details="; ".join(extras)) if extras else text

    def _sharing(self, head: int) -> str:
        if not self._geometry().grouped():
            return ""
        kv_head = head // self._group
        first, last = kv_head * self._group, min((kv_head + 1) * self._group, self._heads) - 1
        return tr("shares keys and values with heads {first}\u2013{last} (key/value head {kv_head})").format(
            first=first, last=last, kv_head=kv_head)

    # ----- geometry (head_grid_geometry.py) ---------------------------------------------
    def _geometry(self) -> GridGeometry:
        """The grid's geometry for its shape, its cells and its font as they are now."""
        metrics = self.fontMetrics()
        label_width = metrics.horizontalAdvance(f"L{max(self._layers - 1, 0)}") + 8
        return GridGeometry(self._layers, self._heads, self._group, self._cell, label_width, metrics.height())

    def cell_size(self) -> int:
        return self._cell

    def _column_left(self, head: int, geometry: GridGeometry) -> int:
        return self._columns[head] if head < len(self._columns) else geometry.column_left(head)

    def cell_rect(self, layer: int, head: int) -> QRect:
        """Where a head's thumbnail is drawn, in the widget's coordinates."""
        geometry = self._geometry()
        return geometry.cell_rect(layer, self._column_left(head, geometry))

    def head_at(self, point: QPoint) -> tuple[int, int] | None:
        """The head under a point; None over the labels, the band or a gap between groups."""
        return self._geometry().head_at(point) if self._images else None

    def _fit_height(self) -> None:
        """Cells as wide as the width allows (within MIN_CELL..MAX_CELL); the height follows them."""
        self._cell = self._geometry().fitted_cell(self.width())
        self.setFixedHeight(self._geometry().height())
        self._lay_out_columns()
        readable = self._geometry().readable_width() if self._heads else 0
        if readable != self._readable_width:
            self._readable_width = readable
            self.readable_width_changed.emit(readable)

    def _lay_out_columns(self) -> None:
        """Each head's left edge, the group band's boxes and the cross's pens: once per geometry, not per paint."""
        geometry = self._geometry()
        self._columns = [geometry.column_left(head) for head in range(self._heads)]
        fits = self.fontMetrics().horizontalAdvance(f"H{max(self._heads - 1, 0)}") <= self._cell - GAP
        self._head_labels = [f"H{head}" if fits else str(head) for head in range(self._heads)]
        self._bands = []
        if geometry.grouped():
            for first in range(0, self._heads, self._group):
                last = min(first + self._group, self._heads) - 1
                left, right = self._columns[first], self._columns[last] + self._cell - GAP
                box = QRect(left, 1, right - left, geometry.band_height() - 2)
                self._bands.append((box, self._band_text(first // self._group, box.width())))
        width = max(2, self._cell // 8)
        halo = QPen(CROSS_HALO_COLOR, width + 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        self._cross_pens = (halo, QPen(CROSS_COLOR, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))

    def head_labels(self) -> list[str]:
        """The column headings as painted: "H0", "H1", …, or only the numbers when "H8" would overflow a cell."""
        return list(self._head_labels)

    def group_bands(self) -> list[tuple[QRect, str]]:
        """The band's boxes and what each says ("kv 1"), as painted; none without sharing."""
        return list(self._bands)

    def sizeHint(self) -> QSize:
        geometry = self._geometry()
        return QSize(geometry.label_width + max(self._heads, 1) * 28 + geometry.gaps_width(), self.height())

    def minimumSizeHint(self) -> QSize:
        geometry = self._geometry()
        width = geometry.label_width + max(self._heads, 1) * MIN_CELL + geometry.gaps_width() + 2
        return QSize(width, geometry.header_height() + MIN_CELL)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: wider labels
            self._fit_height()

    # ----- painting ------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(event.rect(), self.palette().base())
        if not self._images:
            return
        painter.setPen(self.palette().text().color())
        self._paint_labels(painter, event.rect())
        for layer in range(self._layers):
            for head in range(self._heads):
                box = self.cell_rect(layer, head)
                if not box.intersects(event.rect()):
                    continue
                if (layer, head) in self._knocked_out:
                    self._paint_knocked_out(painter, box, self._images[layer][head])
                else:
                    painter.drawImage(box, self._images[layer][head])  # nearest pixels: sharp cells
        self._paint_outlines(painter)

    def _paint_knocked_out(self, painter: QPainter, box: QRect, image: QImage) -> None:
        """Dimmed over grey, and a red cross with a white edge: off at a glance, even at 16 px on a projector."""
        painter.fillRect(box, KNOCKED_OUT_BACKGROUND)
        painter.setOpacity(KNOCKED_OUT_OPACITY)
        painter.drawImage(box, image)
        painter.setOpacity(1.0)
        inset = max(2, box.width() // 6)
        inner = box.adjusted(inset, inset, -inset, -inset)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for pen in self._cross_pens:
            painter.setPen(pen)
            painter.drawLine(inner.topLeft(), inner.bottomRight())
            painter.drawLine(inner.topRight(), inner.bottomLeft())
        painter.restore()

    def _paint_labels(self, painter: QPainter, exposed: QRect) -> None:
        geometry = self._geometry()
        left, top, cell = geometry.label_width, geometry.header_height(), self._cell
        centred = Qt.AlignmentFlag.AlignCenter
        band = geometry.band_height()
        if band and exposed.top() < band:
            self._paint_bands(painter)
        if exposed.top() < top:  # a hover far down the grid repaints no header
            for head in range(self._heads):
                painter.drawText(QRect(self._column_left(head, geometry), band, cell - GAP, top - band), centred,
                                 self._head_labels[head])
        for layer in range(self._layers):
            box = QRect(0, top + layer * cell, left - 4, cell - GAP)
            if box.intersects(exposed):
                painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"L{layer}")

    def _band_text(self, kv_head: int, width: int) -> str:
        """"kv 1", or only "1" when a large font over small cells leaves no room (the hover text says it in full)."""
        text = f"kv {kv_head}"
        return text if self.fontMetrics().horizontalAdvance(text) <= width else str(kv_head)

    def _paint_bands(self, painter: QPainter) -> None:
        """"kv 0", "kv 1", …: one band over each group of heads that read the same keys and values."""
        for box, text in self._bands:
            painter.fillRect(box, GROUP_BAND_COLOR)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_outlines(self, painter: QPainter) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(MARK_COLOR, 2))
        for layer, head in self._marked:
            if layer < self._layers and head < self._heads:
                painter.drawRect(self.cell_rect(layer, head).adjusted(-1, -1, 0, 0))
        if self._hovered is not None:
            painter.setPen(QPen(self.palette().text().color(), 1))
            painter.drawRect(self.cell_rect(*self._hovered).adjusted(-1, -1, 0, 0))
        if self.hasFocus():
            painter.setPen(QPen(self.palette().highlight().color(), 3))
            painter.drawRect(self.cell_rect(*self._current).adjusted(-2, -2, 1, 1))

    def _update_cell(self, head: tuple[int, int] | None) -> None:
        """Repaints one cell and its outlines only: hovering over 270 heads must stay cheap."""
        if head is not None:
            self.update(self.cell_rect(*head).adjusted(-3, -3, 3, 3))

    # ----- pointing and choosing -------------------------------------------------------------
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._set_hovered(self.head_at(event.position().toPoint()))
        self._pointer_leads = True
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._set_hovered(None)
        super().leaveEvent(event)

    def _set_hovered(self, head: tuple[int, int] | None) -> None:
        if head == self._hovered:
            return
        self._update_cell(self._hovered)
        self._hovered = head
        self._update_cell(head)
        self.hovered.emit(*(head if head is not None else (-1, -1)))

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            head = self.head_at(event.pos())
            if head is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.describe(*head), self, self.cell_rect(*head))
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        head = self.head_at(event.position().toPoint())
        if head is not None and event.button() == Qt.MouseButton.LeftButton:
            self._pressed_with_control = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            self.set_current(*head)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        head = self.head_at(event.position().toPoint())
        if head is not None and event.button() == Qt.MouseButton.LeftButton and head == self._current:
            # released on the head it was pressed on: Ctrl+click switches it off or on, a click opens it
            if self._pressed_with_control and self._knock_out_enabled:
                self.knock_out_toggled.emit(*head)
            else:
                self.head_chosen.emit(*head)
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Right-click on a head, or the Menu key (Shift+F10) on the current one: open, knock out or restore."""
        if event.reason() == QContextMenuEvent.Reason.Mouse:
            head = self.head_at(event.pos())
            if head is not None:
                self.set_current(*head)
        else:
            head = self._current if self._images else None
        menu = self.head_menu(head)
        if not menu.isEmpty():  # off the heads with none knocked out there is nothing to offer
            where = event.globalPos() if event.reason() == QContextMenuEvent.Reason.Mouse \
                else self.mapToGlobal(self.cell_rect(*self._current).center())
            menu.exec(where)
        menu.deleteLater()

    def head_menu(self, head: tuple[int, int] | None) -> QMenu:
        """The menu for a head (or, off the heads, only "Restore all heads" when some are off)."""
        menu = QMenu(self)
        if head is not None:
            layer, head_index = head
            menu.addAction(tr("Open layer {layer}, head {head}").format(layer=layer, head=head_index),
                           lambda: self.head_chosen.emit(layer, head_index))
            if self._knock_out_enabled:
                toggle = (tr("Restore layer {layer}, head {head}") if head in self._knocked_out
                          else tr("Knock out layer {layer}, head {head}"))
                menu.addAction(toggle.format(layer=layer, head=head_index),
                               lambda: self.knock_out_toggled.emit(layer, head_index))
        if self._knock_out_enabled and self._knocked_out:
            menu.addSeparator()
            menu.addAction(tr("Restore all heads ({count})").format(count=len(self._knocked_out)),
                           self.restore_all_requested.emit)
        return menu

    def set_current(self, layer: int, head: int) -> None:
        layer = max(0, min(layer, self._layers - 1))
        head = max(0, min(head, self._heads - 1))
        if (layer, head) != self._current:
            self._update_cell(self._current)
            self._current = (layer, head)
            self.setAccessibleDescription(self.describe(layer, head))
            self.current_changed.emit(layer, head)
            self._update_cell(self._current)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._images:
            super().keyPressEvent(event)
            return
        layer, head = self._current
        moves = {
            Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1), Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0),
            Qt.Key.Key_PageUp: (-PAGE_LAYERS, 0), Qt.Key.Key_PageDown: (PAGE_LAYERS, 0),
        }
        key = Qt.Key(event.key())
        if key in moves:
            step_layer, step_head = moves[key]
            self._move_by_keyboard(layer + step_layer, head + step_head)
        elif key == Qt.Key.Key_Home:
            self._move_by_keyboard(0, 0)
        elif key == Qt.Key.Key_End:
            self._move_by_keyboard(self._layers - 1, self._heads - 1)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.head_chosen.emit(layer, head)
        elif key == Qt.Key.Key_K and self._knock_out_enabled:
            self.knock_out_toggled.emit(*self._head_for_k())
        else:
            super().keyPressEvent(event)

    def _move_by_keyboard(self, layer: int, head: int) -> None:
        self._pointer_leads = False
        self.set_current(layer, head)
        self.keyboard_moved.emit(*self._current)

    def _head_for_k(self) -> tuple[int, int]:
        """The head K acts on: the one under the pointer if it moved there since the keyboard last moved (made
        the current head, so the ring shows it), else the keyboard's."""
        if self._pointer_leads and self._hovered is not None:
            self.set_current(*self._hovered)
        return self._current

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.current_changed.emit(*self._current)
        if event.reason() in KEYBOARD_FOCUS_REASONS:  # scrolled into view as the keyboard arrives; a click's head
            self.keyboard_moved.emit(*self._current)  # is in sight and must stay put, as after a menu or a window
        self._update_cell(self._current)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self._update_cell(self._current)


def short_head_name(layer: int, head: int) -> str:
    """"L3 H1": a head named briefly in a sentence."""
    # Translators: a head named briefly, L for layer and H for head, e.g. "L3 H1"
    return tr("L{layer} H{head}").format(layer=layer, head=head)
