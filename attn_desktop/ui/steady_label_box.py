"""A box for a label whose text changes on every drag move: the change stops at the box.

QLabel.setText always asks its parent's layout to run again (Qt calls updateGeometry), even when
the new text has exactly the room of the old. The request climbs from the panel to its dock and on
to the main window, which then lays out every dock again and repaints them: a second pass of
layout and paint after each mouse move, on top of the one the new numbers need.

This box has no layout of its own, so the label's request ends here. The box passes it on only
when the text no longer fits the room the box has (another line of wrapped text, a wider word),
which is when a new layout is worth its cost. Callers keep the QLabel (its font, tooltip, text as
read), put the box in their layout instead of the label, and set new text through the box's
`set_text`.

A label the user may select text from is drawn through a text document, which costs about
0.3 ms a label to lay out again for every new text, and asks for a second paint when that layout
happens in the first. Students select a number to copy it when they point at it, never while
dragging an arrow elsewhere; so the box keeps such a label plain (painted as simple text) and
makes it selectable while the pointer is over it, or while it holds a selection.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse
# A line's height depends on the fonts its letters come from, and every digit comes from the same font as 0:
# a text measured once stands for every text that differs from it in its digits alone (a drag's new numbers).
DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
MEASURED_SHAPES = 32  # line heights remembered by the shape of their text (a drag shows a few shapes again and again)
# The label's events the box follows (looked up once: each comparison with QEvent.Type.X would look X up again).
HIDDEN, SHOWN, ENTERED, LEFT = (QEvent.Type.HideToParent, QEvent.Type.ShowToParent, QEvent.Type.Enter,
                                QEvent.Type.Leave)
NEW_METRICS = (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.ScreenChangeInternal)
LAYOUT_REQUEST = QEvent.Type.LayoutRequest


def set_tip(widget: QWidget, text: str) -> None:
    """A new tooltip only when it says something else: setting one is not free, and a drag move keeps most."""
    if widget.toolTip() != text:
        widget.setToolTip(text)


class SteadyLabelBox(QWidget):
    """Holds one label, fills itself with it, and shows and hides with it."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent if parent is not None else label.parentWidget())
        self.label = label
        hidden_by_caller = label.isHidden() and label.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide)
        label.setParent(self)  # which hides it (Qt's rule for a new parent): shown again below unless hidden before
        label.move(0, 0)
        label.setVisible(not hidden_by_caller)
        if hidden_by_caller:
            self.hide()
        self.setSizePolicy(label.sizePolicy())
        self._line_heights: dict[str, int] = {}  # a text's height by its shape (its digits as 0), in the label's font
        self._asked_for = self._room_needed()
        self._selectable = bool(label.textInteractionFlags() & SELECTABLE)
        self._selectable_now = True  # what _make_selectable last made it (set just below)
        self._make_selectable(False)
        label.installEventFilter(self)

    def set_text(self, text: str) -> None:
        """Show new text: repainted once, and laid out anew only if it needs other room."""
        label = self.label
        if text == label.text():
            return
        if self._selectable_now and not label.underMouse():
            self._make_selectable(False)  # new text drops any selection: back to plain painting
        label.setText(text)
        # The label has just posted the box a layout request for its new text (Qt's updateGeometry): what
        # that would do, done now, once (a drag move sets four labels' text, each measured twice otherwise).
        QCoreApplication.removePostedEvents(self, QEvent.Type.LayoutRequest)
        self._follow_label_request()

    def _make_selectable(self, on: bool) -> None:
        on = on and self._selectable
        if on != self._selectable_now:
            self.label.setTextInteractionFlags(SELECTABLE if on else Qt.TextInteractionFlag.NoTextInteraction)
            self._selectable_now = on

    # ----- what the parent's layout asks ------------------------------------
    # The label's own hints, within the sizes set on it (a fixed height for two lines, say).
    def sizeHint(self) -> QSize:
        return self._within_label_limits(self.label.sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._within_label_limits(self.label.minimumSizeHint())

    def hasHeightForWidth(self) -> bool:
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return min(max(self.label.heightForWidth(width), self.label.minimumHeight()), self.label.maximumHeight())

    def _within_label_limits(self, size: QSize) -> QSize:
        return size.expandedTo(self.label.minimumSize()).boundedTo(self.label.maximumSize())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.label.resize(self.size())
        self._asked_for = self._room_needed()  # the layout has just placed the box for the label as it is
        super().resizeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        # While the box was hidden, Qt sent it none of the label's requests (a fixed height set, a font).
        self._ask_for_room_if_needed()
        super().showEvent(event)

    # ----- the label's requests ----------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == LAYOUT_REQUEST:
            self._follow_label_request()
            return True
        return super().event(event)

    def _follow_label_request(self) -> None:
        if self.sizePolicy() != self.label.sizePolicy():  # word wrap turned on or off: asks for a layout itself
            self.setSizePolicy(self.label.sizePolicy())
        self._ask_for_room_if_needed()

    def _ask_for_room_if_needed(self) -> None:
        needed = self._room_needed()
        if needed != self._asked_for:
            self._asked_for = needed
            self.updateGeometry()

    def _room_needed(self) -> tuple[int, int]:
        """The height the label's text takes at the box's width, and its width (0 when any width does).

        Measured with the font's metrics, not the label's size hints: a selectable label answers
        those by laying its text out again in its text document, which then repaints the label — a
        second paint for every drag move. Only changes of these numbers matter, so they need not
        be the label's own figures, only measured the same way each time.
        """
        label = self.label
        if self.minimumHeight() == self.maximumHeight():
            return self.maximumHeight(), 0  # a fixed height: the text makes do with it, at any width
        if label.minimumHeight() == label.maximumHeight():
            return label.maximumHeight(), 0
        metrics, text = label.fontMetrics(), label.text()
        if label.wordWrap():
            lines_width = max(label.contentsRect().width(), 1)
            return metrics.boundingRect(0, 0, lines_width, 1 << 20, Qt.TextFlag.TextWordWrap, text).height(), 0
        # Lines that do not wrap: measured as the label measures them (no layout needed). Not the font's
        # line spacing: Arabic or Chinese letters come from a fallback font with taller lines, and a box
        # one Latin line high would cut them.
        shape = text.translate(DIGITS_AS_ZERO)
        height = self._line_heights.get(shape)
        if height is None:
            if len(self._line_heights) >= MEASURED_SHAPES:
                self._line_heights.clear()
            height = self._line_heights[shape] = max(metrics.lineSpacing() * (text.count("\n") + 1),
                                                     metrics.boundingRect(0, 0, 1 << 20, 1 << 20, 0, text).height())
        if label.sizePolicy().horizontalPolicy() == QSizePolicy.Policy.Ignored:
            return height, 0  # the layout gives it the panel's width, whatever the text
        return height, metrics.horizontalAdvance(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.label:
            return False
        kind = event.type()
        # A caller hides or shows the label, as if it were still in the layout itself: the box follows.
        if kind == HIDDEN:
            self.hide()
        elif kind == SHOWN:
            self.show()
        elif kind == ENTERED:
            self._make_selectable(True)
        elif kind == LEFT and not self.label.hasSelectedText():
            self._make_selectable(False)
        elif kind in NEW_METRICS:
            self._line_heights.clear()  # the same text may now take another height
        return False
