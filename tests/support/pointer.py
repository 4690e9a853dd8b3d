"""A pointer moved and clicked through the window, as a hand on the mouse does: the events go to the window,
which finds the widget under the point, sends it Enter and Leave, and a right press brings its context menu.
A point is taken where a widget shows something *before* the pointer moves there, as a person aims."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

NO_MODIFIER = Qt.KeyboardModifier.NoModifier


def in_window(window: QWidget, widget: QWidget, point: QPoint) -> QPoint:
    """Where POINT of WIDGET is in the window, now."""
    return widget.mapTo(window, point)


def pointer_to(window: QWidget, point: QPoint) -> None:
    QTest.mouseMove(window.windowHandle(), point)
    QApplication.processEvents()


def click_at(window: QWidget, point: QPoint, button=Qt.MouseButton.LeftButton, modifiers=NO_MODIFIER) -> None:
    QTest.mouseClick(window.windowHandle(), button, modifiers, point)
    QApplication.processEvents()


def widget_at(window: QWidget, point: QPoint) -> QWidget | None:
    return window.childAt(point)


def right_click_menu(qtbot, window: QWidget, point: QPoint) -> list[str]:
    """Right-click at POINT of the window, read the menu it opens and close it (Escape): the menu's items."""
    from PySide6.QtCore import QTimer

    seen: list[str] = []
    done: list[bool] = []

    def read_menu() -> None:
        if done:
            return
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(10, read_menu)
            return
        seen.extend(action.text() for action in menu.actions() if not action.isSeparator())
        menu.close()

    QTimer.singleShot(0, read_menu)
    QTest.mousePress(window.windowHandle(), Qt.MouseButton.RightButton, NO_MODIFIER, point)
    QApplication.processEvents()
    done.append(True)
    QTest.mouseRelease(window.windowHandle(), Qt.MouseButton.RightButton, NO_MODIFIER, point)
    QApplication.processEvents()
    return seen
