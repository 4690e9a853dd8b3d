"""What a screen reader and every eye get from the window as it is now: the accessibility audit.

`unnamed` lists the interactive widgets that a screen reader would announce without a name, walked through Qt's
accessibility interfaces from the window as a screen reader walks them: every one not hidden, those of a panel
behind another's tab too. The contrasts are WCAG 2.1's, unrounded (and rounded down to two places): the least of
the text widgets shown and of the texts the lab paints in colours of its own (1.4.3, 4.5 : 1 needed), and of the
marks that carry meaning (1.4.11, 3 : 1: arrows at full strength and their heads' outline at the faintest, the
axes through 0, the focus ring, hatching, the chosen row's outline). The painted colours are the app's own, the
same on every screen.
`cvd_min_delta_e` is the least CIEDE2000 difference between colours drawn together that mean different things,
for common vision and under simulated protanopia, deuteranopia and tritanopia (drawn_colours.py says which).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtGui import QAccessible, QAccessibleInterface, QPalette
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit, QTabBar, QWidget

from attn_desktop.geometry.colour_difference import colour_difference, contrast_ratio
from attn_desktop.geometry.colour_vision import DEFICIENCIES, simulated
from attn_desktop.ui.tools.drawn_colours import graphics_contrasts, rgb, separated_pairs, text_contrasts

if TYPE_CHECKING:  # the audit reads the window's parts; the window never needs the audit
    from attn_desktop.ui.window.main_window import MainWindow

Role = QAccessible.Role
INTERACTIVE_ROLES = frozenset({
    Role.PushButton, Role.CheckBox, Role.RadioButton, Role.ComboBox, Role.EditableText, Role.SpinBox, Role.Table,
    Role.Slider, Role.PageTabList, Role.ButtonMenu, Role.ButtonDropDown, Role.List, Role.Tree,
})
LEAVES = frozenset({Role.Table, Role.List, Role.Tree, Role.ComboBox})  # their cells and items are not widgets
TEXT_WIDGETS = (QLabel, QAbstractButton, QLineEdit, QComboBox)


def audit_accessibility(window: MainWindow) -> dict:
    """The accessibility figures of the window as it is now."""
    return {
        "unnamed": unnamed_widgets(window),
        "contrast_min_text": round_down(min([*widget_text_contrasts(window), *text_contrasts().values()])),
        "contrast_min_graphics": round_down(min(graphics_contrasts(rgb(window.matrix_view.palette().text().color()))
                                                .values())),
        "cvd_min_delta_e": round_down(least_separation()),
    }


def round_down(value: float) -> float:
    """VALUE to two places, never up: a ratio of 4.499 must not read as 4.5."""
    return int(value * 100) / 100


def unnamed_widgets(window: QWidget) -> list[str]:
    """The interactive widgets in view with no accessible name, each as its class (and object name) and where
    it is (the window title of the dock or dialog it is in)."""
    root = QAccessible.queryAccessibleInterface(window)
    return [] if root is None else [described(interface) for interface in _interactive(root)
                                    if not interface.text(QAccessible.Text.Name).strip()]


def _interactive(interface: QAccessibleInterface) -> list[QAccessibleInterface]:
    """The interactive widgets under INTERFACE that a screen reader lists: every one not hidden, a panel's behind
    another's tab too (one click brings it to the front). A tab bar with no tabs is left out: it offers nothing to
    do (QMainWindow keeps one of those for later, parked outside the window, and a tab bar's name is its tab's)."""
    found = []
    for index in range(interface.childCount()):
        child = interface.child(index)
        if child is None or not child.isValid():
            continue
        state = child.state()
        if state.invisible or state.offscreen or _empty_tab_bar(child):
            continue
        role = child.role()
        if role in INTERACTIVE_ROLES:
            found.append(child)
        if role not in LEAVES:
            found += _interactive(child)
    return found


def _empty_tab_bar(interface: QAccessibleInterface) -> bool:
    bar = interface.object()
    return isinstance(bar, QTabBar) and bar.count() == 0


def described(interface: QAccessibleInterface) -> str:
    """"QLineEdit showing 'new token' in Sentence": what a reader of the audit needs to find the widget."""
    widget = interface.object()
    if not isinstance(widget, QWidget):
        return interface.role().name
    name = type(widget).__name__ + (f" '{widget.objectName()}'" if widget.objectName() else "")
    shown = widget.text() if isinstance(widget, QAbstractButton) else \
        widget.placeholderText() if isinstance(widget, QLineEdit) else ""
    if shown:
        name += f" showing '{shown}'"
    holder = _titled_holder(widget)
    return f"{name} in {holder}" if holder else name


def _titled_holder(widget: QWidget) -> str:
    parent = widget.parentWidget()
    while parent is not None:
        if parent.windowTitle():
            return parent.windowTitle()
        parent = parent.parentWidget()
    return ""


def widget_text_contrasts(window: QWidget) -> list[float]:
    """The contrast of each enabled text widget in view against its background, from its palette (which a style
    sheet's colours set too); a disabled one is exempt (WCAG 1.4.3)."""
    contrasts = []
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, TEXT_WIDGETS) or not widget.isVisible() or not widget.isEnabled():
            continue
        palette = widget.palette()
        group = QPalette.ColorGroup.Active
        foreground = palette.color(group, widget.foregroundRole())
        background = palette.color(group, widget.backgroundRole())
        contrasts.append(contrast_ratio(rgb(foreground), rgb(background)))
    return contrasts


@cache
def least_separation() -> float:
    """The least CIEDE2000 difference between two colours drawn together, for every eye (the colours are the
    app's own, fixed while it runs: worked out once, a fifth of a second, not once per audited step)."""
    return min(colour_difference(simulated(first, deficiency), simulated(second, deficiency))
               for _, first, second in separated_pairs() for deficiency in ("", *DEFICIENCIES))
