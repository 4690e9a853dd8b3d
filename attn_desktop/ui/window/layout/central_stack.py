"""The window's middle: the canvas, or for a scene with several heads the heads side by side.

A QStackedWidget asks for the room of its largest page, hidden ones too. Here a hidden page asks for
none (its size policy is Ignored while it is hidden): the heads view's sizes in presentation type,
counted while only the canvas showed, made Qt crash when it restored the docks after a presentation.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QWidget

IGNORED = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)


class CentralStack(QStackedWidget):
    def __init__(self, pages: list[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._policies = {page: page.sizePolicy() for page in pages}
        for page in pages:
            self.addWidget(page)
        self.show_page(pages[0])

    def show_page(self, shown: QWidget) -> None:
        self.setCurrentWidget(shown)
        for page, policy in self._policies.items():
            page.setSizePolicy(policy if page is shown else IGNORED)
