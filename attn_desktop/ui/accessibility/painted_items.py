"""Painted items a screen reader can find: the canvas's arrows, the matrix's cells.

A widget that paints its items itself is one box to a screen reader. Here each item is an accessible child of
its widget: a small QObject per item, which the widget owns and keeps (made when first needed, reused when the
widget's items are made anew), and one interface per QObject, made once and reused. Qt's accessibility cache owns
the interfaces it is handed and PySide keeps every interface a Python factory returns until exit, so making a
new one per question would grow without end.

(PySide's stubs type child(), childAt() and focusChild() as never None; Qt's answer for "none" is a null
pointer, which is None here, hence the overrides' wider types.)

The widget says what its items are through an ItemSource; this module turns that into what AT-SPI (Orca)
reads: names, descriptions, roles, places on screen, focus, and the events that tell a change.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, QPoint, QRect
from PySide6.QtGui import QAccessible, QAccessibleEvent, QAccessibleInterface, QAccessibleObject
from PySide6.QtWidgets import QAccessibleWidget, QWidget

# A painting widget's class says so with this attribute, the role its own interface has (QAccessible.Role.Canvas):
# install_factory() must come before the first widget is made, since Qt may ask for its interface as it is made.
ACCESSIBLE_ROLE = "accessible_role"


class ItemSource(Protocol):
    """What a painting widget tells of its items, counted from 0 in reading order."""

    def item_count(self) -> int: ...

    def item_role(self, index: int) -> QAccessible.Role: ...

    def item_name(self, index: int) -> str: ...

    def item_description(self, index: int) -> str: ...

    def item_rect(self, index: int) -> QRect:
        """Where the item is drawn, in the widget's coordinates (an empty rect: not on screen)."""
        ...

    def focused_item(self) -> int | None:
        """The item the keys act on, if one is."""
        ...


class PaintedItem(QObject):
    """One painted item, as the accessibility cache knows it: the item at INDEX of its widget's source."""

    def __init__(self, items: PaintedItems, index: int) -> None:
        super().__init__(items)
        self.items = items
        self.index = index
        self.interface: ItemInterface | None = None  # made once, by the factory (see accessible_interface)


class ItemInterface(QAccessibleObject):
    """What a screen reader reads of one painted item."""

    def __init__(self, item: PaintedItem) -> None:
        super().__init__(item)
        self._item = item

    def _source(self) -> ItemSource:
        return self._item.items.source

    def isValid(self) -> bool:
        return True

    def role(self) -> QAccessible.Role:
        return self._source().item_role(self._item.index)

    def text(self, kind: QAccessible.Text) -> str:
        if self._item.index >= self._source().item_count():
            return ""
        if kind == QAccessible.Text.Name:
            return self._source().item_name(self._item.index)
        if kind == QAccessible.Text.Description:
            return self._source().item_description(self._item.index)
        return ""

    def state(self) -> QAccessible.State:
        state = QAccessible.State()
        shown = self._item.index < self._source().item_count()
        state.invisible = not shown
        state.focusable = shown
        state.focused = shown and self._item.items.widget.hasFocus() and \
            self._source().focused_item() == self._item.index
        return state

    def rect(self) -> QRect:
        if self._item.index >= self._source().item_count():
            return QRect()
        area = self._source().item_rect(self._item.index)
        widget = self._item.items.widget
        return QRect(widget.mapToGlobal(area.topLeft()), area.size()) if area.isValid() else QRect()

    def parent(self) -> QAccessibleInterface:
        return QAccessible.queryAccessibleInterface(self._item.items.widget)

    def childCount(self) -> int:
        return 0

    def child(self, index: int) -> QAccessibleInterface | None:  # type: ignore[override]
        return None

    def indexOfChild(self, child: QAccessibleInterface) -> int:
        return -1

    def childAt(self, x: int, y: int) -> QAccessibleInterface | None:  # type: ignore[override]
        return None


class WidgetInterface(QAccessibleWidget):
    """The painting widget, whose children are its painted items (not the viewport and scroll bars it is made of).
    Made as soon as Qt asks, which a screen reader can do while the widget is still being built: its items are
    looked up at each question (none until the widget has them)."""

    def __init__(self, widget: QWidget, role: QAccessible.Role) -> None:
        super().__init__(widget, role)

    def _items(self) -> PaintedItems | None:
        items = getattr(self.widget(), "accessible_items", None)
        return items if isinstance(items, PaintedItems) else None

    def childCount(self) -> int:
        items = self._items()
        return items.source.item_count() if items is not None else 0

    def child(self, index: int) -> QAccessibleInterface | None:  # type: ignore[override]
        items = self._items()
        if items is None or not 0 <= index < items.source.item_count():
            return None
        return QAccessible.queryAccessibleInterface(items.item(index))

    def indexOfChild(self, child: QAccessibleInterface) -> int:
        items = self._items()
        found = child.object() if child is not None else None
        if items is not None and isinstance(found, PaintedItem) and found.items is items and \
                found.index < items.source.item_count():
            return found.index
        return -1

    def focusChild(self) -> QAccessibleInterface | None:  # type: ignore[override]
        items = self._items()
        focused = items.source.focused_item() if items is not None else None
        if focused is None or not self.widget().hasFocus():
            return None
        return self.child(focused)

    def childAt(self, x: int, y: int) -> QAccessibleInterface | None:  # type: ignore[override]
        items = self._items()
        if items is None:
            return None
        point = self.widget().mapFromGlobal(QPoint(x, y))
        for index in range(items.source.item_count()):
            if items.source.item_rect(index).contains(point):
                return self.child(index)
        return None


class PaintedItems(QObject):
    """A painting widget's accessible items: their QObjects, kept and reused, and the events that tell a change."""

    def __init__(self, widget: QWidget, source: ItemSource) -> None:
        super().__init__(widget)
        self.widget = widget
        self.source = source
        self._items: list[PaintedItem] = []
        install_factory()
        setattr(widget, "accessible_items", self)  # noqa: B010 (where its interface finds the items)

    def item(self, index: int) -> PaintedItem:
        """The QObject of the item at INDEX, made the first time it is asked for."""
        while len(self._items) <= index:
            self._items.append(PaintedItem(self, len(self._items)))
        return self._items[index]

    def description_changed(self, index: int) -> None:
        """The item at INDEX moved or its value changed: a screen reader reads its description again."""
        self._send(index, QAccessible.Event.DescriptionChanged)

    def focus_moved(self, index: int) -> None:
        """The keys now act on the item at INDEX: a screen reader's focus follows, if the widget has the focus."""
        if self.widget.hasFocus():
            self._send(index, QAccessible.Event.Focus)

    def items_changed(self) -> None:
        """The widget's items were made anew (other tokens, another scene): names and the number of children."""
        if not QAccessible.isActive():
            return
        for index in range(self.source.item_count()):
            made = index >= len(self._items)
            self._send(index, QAccessible.Event.ObjectCreated if made else QAccessible.Event.NameChanged)

    def _send(self, index: int, kind: QAccessible.Event) -> None:
        if QAccessible.isActive() and index < self.source.item_count():
            QAccessible.updateAccessibility(QAccessibleEvent(self.item(index), kind))


def accessible_interface(class_name: str, target: QObject | None) -> QAccessibleInterface | None:
    """The factory Qt asks for each object's interface, once per object (its cache keeps it): a painted item's,
    or a painting widget's (a widget whose class gives its own role, Canvas or Table, as ACCESSIBLE_ROLE)."""
    if isinstance(target, PaintedItem):
        if target.interface is None:
            target.interface = ItemInterface(target)
        return target.interface
    role = getattr(type(target), ACCESSIBLE_ROLE, None)
    if isinstance(role, QAccessible.Role) and isinstance(target, QWidget):
        return WidgetInterface(target, role)
    return None


_installed = False


def install_factory() -> None:
    """Have Qt ask accessible_interface for every object's interface (once per process)."""
    global _installed
    if not _installed:
        QAccessible.installFactory(accessible_interface)
        _installed = True
