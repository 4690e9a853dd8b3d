"""The likeliest next tokens as painted bars: one row per token, its text, its bar and its percentage.

One widget paints every row (ten rows are ten drawRect calls, not thirty labels), so a temperature
change repaints once. A row can carry a second, ghost bar: the probability the intact model gave the
token, drawn as a light outlined box behind the knocked-out model's solid bar ("62→18 %"). Rows the
top-k / top-p cut-offs leave out are greyed, and a dashed line with a small label ("top-k 3") runs in
a gap of its own after the last kept row, so it never covers a token's text.

The height follows the number of rows and the font (presentation mode): the chart never scrolls and
never leaves a blank band. Long tokens are elided with "…"; the text of every row as last painted is
kept (`painted_rows`), so a test reads what the user reads; pointing at a row names its whole token.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from attn_desktop.language import tr
from attn_desktop.ui.pretrained.token_strip import percent, shown_token

BAR_COLOR = QColor("#0072B2")  # the query blue of the palette: the model's answer
CUT_BAR_COLOR = QColor("#C8C8C8")  # a token the cut-offs leave out: still there, not drawn from
GHOST_FILL = QColor(0, 0, 0, 28)
GHOST_OUTLINE = QColor("#6E6E6E")
CUT_LINE_COLOR = QColor("#B00020")
ROW_GAP = 4  # px between rows
LABEL_SHARE = 0.3  # the token column takes at most this share of the width; the bars keep the rest
PADDING = 4


@dataclass(frozen=True)
class BarRow:
    """One token's row: its text as the model has it, its probability, and the intact model's (or None)."""

    text: str
    probability: float
    intact: float | None = None


def row_tooltip(row: BarRow) -> str:
    """The whole token and its numbers in words: the row itself may elide both."""
    if row.intact is None:
        return f"'{row.text}': {percent(row.probability)}"
    return tr("'{token}': {share} (with every head: {intact})").format(
        token=row.text, share=percent(row.probability), intact=percent(row.intact))


def row_number_text(row: BarRow) -> str:
    """"18 %", or "62→18 %" with the intact model's probability first (tight: the bars need the width)."""
    if row.intact is None:
        return percent(row.probability)
    return f"{percent(row.intact).removesuffix(' %')}\u2192{percent(row.probability)}"


class NextTokenBars(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(tr("Likeliest next tokens"))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._rows: list[BarRow] = []
        self._kept = 0  # rows kept by the cut-offs (the rest are greyed); more than the rows: no line
        self._cut_text = ""
        self._painted: list[tuple[str, str]] = []
        self._painted_cut = ""
        self._fit_height()

    # ----- what it shows -------------------------------------------------------------------------
    def show_rows(self, rows: list[BarRow], kept: int, cut_text: str = "") -> None:
        """ROWS likeliest first; the first KEPT are kept by the cut-offs, whose line is labelled CUT_TEXT."""
        resized = len(rows) != len(self._rows) or self._cut_shown(kept, rows, cut_text) != self._cut_shown()
        self._rows, self._kept, self._cut_text = list(rows), kept, cut_text
        self.setAccessibleDescription(", ".join(row_tooltip(row) for row in rows))  # what a screen reader says
        if resized:
            self._fit_height()
        self.update()

    def clear(self) -> None:
        self.show_rows([], 0)

    @property
    def rows(self) -> list[BarRow]:
        return list(self._rows)

    def painted_rows(self) -> list[tuple[str, str]]:
        """(token, number) of every row as last painted: "␣Paris", "62→18 %" (elided tokens end in "…")."""
        return list(self._painted)

    def painted_cut_label(self) -> str:
        """The cut-off line's label as last painted ("top-k 3"), or "" when no line was drawn."""
        return self._painted_cut

    def _cut_shown(self, kept: int | None = None, rows: list[BarRow] | None = None, text: str | None = None) -> bool:
        """A line is drawn when a cut-off is on and falls among the rows (after the last one included)."""
        kept = self._kept if kept is None else kept
        rows = self._rows if rows is None else rows
        text = self._cut_text if text is None else text
        return bool(text) and 0 < kept <= len(rows)

    # ----- geometry --------------------------------------------------------------------------------
    def _row_height(self) -> int:
        return self.fontMetrics().height() + ROW_GAP

    def _cut_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        return font

    def _cut_gap(self) -> int:
        return QFontMetrics(self._cut_font()).height() + 2 if self._cut_shown() else 0

    def _fit_height(self) -> None:
        rows = max(len(self._rows), 1)
        self.setFixedHeight(2 * PADDING + rows * self._row_height() + self._cut_gap())

    def row_top(self, index: int) -> int:
        """Where row INDEX begins (below the cut line's gap for rows after the cut)."""
        after_cut = self._cut_gap() if self._cut_shown() and index >= self._kept else 0
        return PADDING + index * self._row_height() + after_cut

    def row_at(self, y: int) -> int | None:
        """The row drawn at height Y, or None (the margins, the cut line's gap)."""
        for index in range(len(self._rows)):
            if self.row_top(index) <= y < self.row_top(index) + self._row_height():
                return index
        return None

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            index = self.row_at(event.pos().y())
            if index is None:
                QToolTip.hideText()
            else:
                area = QRect(0, self.row_top(index), self.width(), self._row_height())
                QToolTip.showText(event.globalPos(), row_tooltip(self._rows[index]), self, area)
            return True
        return super().event(event)

    def sizeHint(self) -> QSize:
        return QSize(260, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(150, self.height())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: taller rows
            self._fit_height()

    # ----- painting ----------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().base())
        painted: list[tuple[str, str]] = []
        if self._rows:
            metrics = self.fontMetrics()
            numbers = [row_number_text(row) for row in self._rows]
            number_width = max(metrics.horizontalAdvance(text) for text in numbers) + PADDING
            # +1: advances are whole pixels, eliding measures in fractions: "␣She" must not become "␣S…"
            widest_token = max(metrics.horizontalAdvance(shown_token(row.text)) for row in self._rows) + 1
            label_width = min(widest_token, int(LABEL_SHARE * self.width())) + PADDING
            bar_width = max(10, self.width() - 2 * PADDING - label_width - number_width - PADDING)
            for index, (row, number) in enumerate(zip(self._rows, numbers)):
                token = metrics.elidedText(shown_token(row.text), Qt.TextElideMode.ElideRight, label_width - PADDING)
                self._paint_row(painter, index, row, token, number, label_width, bar_width)
                painted.append((token, number))
        self._painted = painted
        self._painted_cut = self._paint_cut(painter) if self._cut_shown() else ""

    def _paint_row(self, painter: QPainter, index: int, row: BarRow, token: str, number: str,
                   label_width: int, bar_width: int) -> None:
        kept = index < self._kept or self._kept <= 0
        text_colour = self.palette().text().color() if kept else self.palette().placeholderText().color()
        top, height = self.row_top(index), self._row_height() - ROW_GAP
        left = PADDING + label_width
        painter.setPen(text_colour)
        align_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(PADDING, top, label_width - PADDING, height), align_left, token)
        ghost = QRectF(left, top, bar_width * (row.intact or 0.0), height)
        if row.intact is not None:
            painter.fillRect(ghost, GHOST_FILL)
        inset = 3 if row.intact is not None else 1  # the solid bar a little thinner than the ghost behind it
        painter.fillRect(QRectF(left, top + inset, bar_width * row.probability, height - 2 * inset),
                         BAR_COLOR if kept else CUT_BAR_COLOR)
        if row.intact is not None:  # outlined on top: seen even where the solid bar is longer
            painter.setPen(QPen(GHOST_OUTLINE, 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(ghost.adjusted(0.5, 0.5, -0.5, -0.5))
        painter.setPen(text_colour)
        painter.drawText(QRectF(left + bar_width + PADDING, top, self.width() - left - bar_width - PADDING, height),
                         align_left, number)

    def _paint_cut(self, painter: QPainter) -> str:
        """The dashed line after the last kept row, with its label in the middle of its own gap."""
        gap_top = self.row_top(self._kept - 1) + self._row_height()
        middle = gap_top + self._cut_gap() / 2 - ROW_GAP / 2
        painter.setFont(self._cut_font())
        metrics = painter.fontMetrics()
        label_width = metrics.horizontalAdvance(self._cut_text) + 8
        label_left = self.width() - PADDING - label_width
        painter.setPen(QPen(CUT_LINE_COLOR, 1, Qt.PenStyle.DashLine))
        painter.drawLine(PADDING, int(middle), label_left, int(middle))
        painter.setPen(CUT_LINE_COLOR)
        painter.drawText(QRectF(label_left, middle - metrics.height() / 2, label_width, metrics.height()),
                         Qt.AlignmentFlag.AlignCenter, self._cut_text)
        painter.setFont(self.font())
        return self._cut_text


__all__ = ["BarRow", "NextTokenBars", "row_number_text", "row_tooltip"]
