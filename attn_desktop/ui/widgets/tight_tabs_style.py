"""Tabs in a narrow column: full names where they fit side by side, else short ones with tight margins.

Presenting on a 1024 × 768 screen, the Model heads panel is about 245 px wide and its four tabs' short names,
in presentation type, fit side by side only with a third of the usual margins (TightTabsStyle: the
application's style, with less room beside each tab's text). A tab scrolled out of sight behind arrows is a
tab a class never finds.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QTabWidget


class TightTabsStyle(QProxyStyle):
    """The application's style with a third of the space it puts beside a tab's text."""

    def pixelMetric(self, metric: QStyle.PixelMetric, option: Any = None, widget: Any = None) -> int:
        value = super().pixelMetric(metric, option, widget)
        return value // 3 if metric == QStyle.PixelMetric.PM_TabBarTabHSpace else value


def fit_tab_names(tabs: QTabWidget, names: tuple[tuple[str, str], ...], tight: TightTabsStyle) -> None:
    """Each tab's full name of NAMES ((full, short), …) if all fit side by side in TABS, else its short name
    (the full one as its tooltip), drawn with TIGHT's margins."""
    bar = tabs.tabBar()
    metrics, room = bar.fontMetrics(), tabs.width()
    # The application style's margins, whichever style the bar has now: the choice must not depend on itself
    padding = QApplication.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, bar)
    narrow = sum(metrics.horizontalAdvance(name) + padding for name, _ in names) > room
    for index, (name, short) in enumerate(names[: bar.count()]):
        wanted = short if narrow else name
        if bar.tabText(index) != wanted:
            bar.setTabText(index, wanted)
            bar.setTabToolTip(index, name)
    if narrow != (bar.style() is tight):
        bar.setStyle(tight if narrow else QApplication.style())
