"""The Model heads panel's four tabs: every head as a thumbnail (AllHeadsPage), Find heads (FindHeadsPanel),
Next token (NextTokenView) and Logit lens (LogitLensView). Their names are full where the four fit side by
side in the column, short with tight margins where they do not (a tab scrolled out of sight behind arrows
is a tab a class never finds). The panel (pretrained_heads_panel.py) connects the pages to what it says."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QScrollArea, QSizePolicy, QTabWidget, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.ui.pretrained.all_heads_page import AllHeadsPage
from attn_desktop.ui.pretrained.find_heads_panel import FindHeadsPanel
from attn_desktop.ui.pretrained.logit_lens_view import LogitLensView
from attn_desktop.ui.pretrained.next_token_view import NextTokenView
from attn_desktop.ui.widgets.tight_tabs_style import TightTabsStyle, fit_tab_names

# (full name, short name used when the four do not fit side by side)
TAB_NAMES = ((N_("All heads"), N_("Heads")), (N_("Find heads"), N_("Find")), (N_("Next token"), N_("Next")),
             (N_("Logit lens"), N_("Lens")))


class ModelHeadsTabs(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.all_heads = AllHeadsPage()
        self.find_panel = FindHeadsPanel()
        self.find_scroll = _scrolled(self.find_panel)
        self.next_view = NextTokenView()
        self.next_scroll = _scrolled(self.next_view)
        self.lens_view = LogitLensView()
        for page, (name, _short) in zip((self.all_heads, self.find_scroll, self.next_scroll, self.lens_view),
                                        TAB_NAMES):
            self.addTab(page, tr(name))
        self._tight_tabs = TightTabsStyle()
        self._tight_tabs.setParent(self)
        self.installEventFilter(self)  # its width, or the bar's font, changed: fit_names
        self.tabBar().installEventFilter(self)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in (self, self.tabBar()) and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            self.fit_names()
        return super().eventFilter(watched, event)

    def fit_names(self) -> None:
        """The tab names in the language shown, full or short as they fit (measured translated)."""
        names = tuple((tr(name), tr(short)) for name, short in TAB_NAMES)
        fit_tab_names(self, names, self._tight_tabs)


def _scrolled(widget: QWidget) -> QScrollArea:
    """WIDGET in a scroll area that scrolls only up and down (the column is narrow; the page wraps)."""
    scroll = QScrollArea()
    scroll.setWidget(widget)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    # Always there: a bar that came with longer content would narrow the page and reflow its rows under the pointer
    scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    return scroll
