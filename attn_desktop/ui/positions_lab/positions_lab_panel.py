"""The Positions lab: where each word is, and what attention makes of it, on four pages.

Order (attention alone cannot tell word order; Shuffle reorders the scene's words), Added (sinusoidal and
learned position vectors added to x), Rotated (RoPE's turns of q and k) and Real head (SmolLM2 with its
rotation off). The lab reads the head the one-head panels show and follows the scene and the chosen query:
dragging the query on the canvas moves the Rotated page's q at once. Its numbers come from
model/teaching/positions_lab.py.

The pages and their plots are built the first time the lab is seen (not at start-up), and only the page in
front is redrawn after a change: the others catch up when they are brought forward.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from attn_desktop.language import N_
from attn_desktop.model import Change, HeadReading
from attn_desktop.model.commands import Editor, ReorderTokens
from attn_desktop.model.teaching.positions_lab import lab_head, order_back, shuffled_order
from attn_desktop.ui.positions_lab.added_page import AddedPage
from attn_desktop.ui.positions_lab.order_page import OrderPage
from attn_desktop.ui.positions_lab.page_chooser import PageChooser
from attn_desktop.ui.positions_lab.real_head_page import RealHeadPage
from attn_desktop.ui.positions_lab.rotated_page import RotatedPage
from attn_desktop.ui.scene_link import follow_scene

SHUFFLE_SEED = 10  # the lesson's number: a class that clicks Shuffle together sees the same orders
# The pages' names, in English (show_page takes them); shown translated.
PAGE_TITLES = (N_("Order"), N_("Added"), N_("Rotated"), N_("Real head"))


class PositionsLabPanel(QWidget):
    real_head_requested = Signal()  # "Open SmolLM2's previous-token head"
    rope_switched = Signal(bool)  # the Real head page's "RoPE on", switched by the user

    def __init__(self, reading: HeadReading, editor: Editor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading, self.editor = reading, editor
        self.chooser = PageChooser(PAGE_TITLES)
        self.pages = QStackedWidget()
        self.order_page: OrderPage | None = None
        self.added_page: AddedPage | None = None
        self.rotated_page: RotatedPage | None = None
        self.real_head_page: RealHeadPage | None = None
        self._random = np.random.default_rng(SHUFFLE_SEED)
        self._first_words: list[Hashable] | None = None  # the sentence as the lab first saw it
        self._back: list[int] = []  # the order that takes the words as they are back to that
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.chooser)
        layout.addWidget(self.pages, 1)
        self._remember_first_order(Change.STRUCTURE)
        follow_scene(self, reading, self._on_change)

    # ----- building -----------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        if self.order_page is None:
            self._build_pages()
        super().showEvent(event)
        self.refresh()

    def _build_pages(self) -> None:
        self.order_page, self.added_page = OrderPage(), AddedPage()
        self.rotated_page, self.real_head_page = RotatedPage(), RealHeadPage()
        for page in (self.order_page, self.added_page, self.rotated_page, self.real_head_page):
            self.pages.addWidget(_scrolling(page))
        self.order_page.shuffle_requested.connect(self.shuffle)
        self.order_page.first_order_requested.connect(self.back_to_first_order)
        self.real_head_page.real_head_requested.connect(self.real_head_requested)
        self.real_head_page.rope_switched.connect(self.rope_switched)
        self.chooser.chosen.connect(self._show_page_at)

    def show_page(self, title: str) -> None:
        """Bring a page forward by its title ("Order", "Added", "Rotated", "Real head")."""
        if self.order_page is None:
            self._build_pages()
        self.chooser.choose(PAGE_TITLES.index(title))
        self._show_page_at(PAGE_TITLES.index(title))

    def _show_page_at(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        self.refresh()

    # ----- following the scene -------------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        self._remember_first_order(change)
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Redraw the page in front from the scene as it is."""
        page = self.pages.currentWidget()
        inner = page.widget() if isinstance(page, QScrollArea) else None
        head = lab_head(self.reading)
        if inner is self.order_page and self.order_page is not None:
            self.order_page.show_head(head, self.reading.causal, self._back != sorted(self._back))
        elif inner is self.added_page and self.added_page is not None:
            self.added_page.show_head(head)
        elif inner is self.rotated_page and self.rotated_page is not None:
            self.rotated_page.show_reading(self.reading)
        elif inner is self.real_head_page and self.real_head_page is not None:
            self.real_head_page.show_source(self.reading.taken_from)

    # ----- the order of the words ----------------------------------------------------------------
    def _words(self) -> list[Hashable]:
        """Each word as a name and its own vectors: two words are the same word only if both are equal."""
        scene = self.reading.scene
        # Each role's rows made Python numbers in one call (asked on every drag move: not one per token and role).
        rows_by_role = [map(tuple, scene.inputs[role].tolist()) for role in scene.own_rows()]
        return [(token, *rows) for token, *rows in zip(scene.tokens, *rows_by_role)]

    def _remember_first_order(self, change: Change) -> None:
        """Keep the first order through shuffles, undos and drags; a sentence of other words starts afresh."""
        words = self._words()
        if change & Change.STRUCTURE or self._first_words is None or len(self._back) != len(words):
            back = order_back(self._first_words, words) if self._first_words is not None else None
            if back is None:
                self._first_words, back = words, list(range(len(words)))
            self._back = back
        elif change & Change.VECTORS:  # a word moved, not the order: the first order holds the word as it is now
            self._first_words = [words[i] for i in self._back]

    def shuffle(self) -> None:
        """The scene's words in a random order: one edit, undone by Edit → Undo."""
        order = shuffled_order(self.reading.n_tokens, self._random)
        # The edit's name in English, as every command's: the Edit menu translates it where it shows it.
        self.editor.do(ReorderTokens(tuple(order), N_("Shuffle the sentence")))

    def back_to_first_order(self) -> None:
        if self._back != sorted(self._back):
            self.editor.do(ReorderTokens(tuple(self._back), N_("Words back in their first order")))


def _scrolling(page: QWidget) -> QScrollArea:
    """A page that scrolls down when the column is shorter than it (a 768-line screen in large type)."""
    area = QScrollArea()
    page.setContentsMargins(2, 4, 6, 4)  # the texts clear of the scroll bar
    area.setWidget(page)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    # A scroll bar that came and went would change the page's width after its texts were wrapped to it.
    area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area
