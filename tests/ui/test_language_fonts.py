"""Chinese and Arabic show as text, not boxes, on a machine with only a base system's Latin fonts: the app
carries subsets of Noto Sans CJK SC and Noto Sans Arabic UI with every character its catalogs use."""

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel

from attn_desktop.language.catalog import translations_for
from attn_desktop.ui.language.app_language import apply_language
from attn_desktop.ui.language.font_coverage import characters_missing


@pytest.mark.parametrize("code", ["zh_CN", "ar"])
def test_the_app_fonts_have_every_character_of_the_catalog(qapp, code):  # (Qt reads fonts only in an app)
    assert characters_missing(code) == []


def _drawn(qtbot, text: str) -> QImage:
    label = QLabel(text)
    qtbot.addWidget(label)
    label.resize(label.sizeHint())
    return label.grab().toImage()


@pytest.fixture
def app_in_language(speaking):
    """apply(code): the application speaks CODE as the app makes it (fonts, Qt's translations, direction);
    afterwards it is as the other tests expect it (their fonts measured as ever)."""
    app = QApplication.instance()
    font, locale = app.font(), QLocale()

    def apply(code: str) -> None:
        speaking(code)
        apply_language(app)

    yield apply
    apply("en")
    app.setFont(font)
    QLocale.setDefault(locale)


@pytest.mark.parametrize(("code", "english"), [("zh_CN", "Attention matrix"), ("ar", "Attention matrix")])
def test_a_translated_title_is_drawn_with_glyphs_not_boxes(qtbot, app_in_language, code, english):
    app_in_language(code)
    text = translations_for(code).gettext(english)
    boxes = "\ue000" * len(text)  # private-use characters: no font has them, every one is drawn as a box
    assert _drawn(qtbot, text) != _drawn(qtbot, boxes)
