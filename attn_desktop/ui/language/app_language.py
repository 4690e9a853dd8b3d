"""What the Qt application needs for a language: Qt's own texts (standard dialogs' buttons), the layout's
direction (Arabic mirrors the window) and fonts for scripts a school machine may lack."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtGui import QFontDatabase, QGuiApplication

from attn_desktop.language import current_language, is_right_to_left
from attn_desktop.paths import resource_dir

# The locale Qt's own number boxes (spin boxes) write in: as the panels write numbers (numbers.py). Arabic
# keeps Western digits and the decimal point, as its lessons and the plots do (Qt's "ar" would write ٠١٢).
# English (and the pseudo-language) keep the system's, as before the app spoke other languages.
NUMBER_LOCALES = {"es": "es_ES", "zh_CN": "zh_CN", "ar": "en_US"}
_qt_translator: QTranslator | None = None
_fonts_added = False


def apply_language(app: QGuiApplication) -> None:
    """Make APP speak the current language: Qt's translations, the locale, the direction, the fonts."""
    install_qt_translations(app, current_language())
    code = current_language()
    QLocale.setDefault(QLocale(NUMBER_LOCALES[code]) if code in NUMBER_LOCALES else QLocale.system())
    app.setLayoutDirection(Qt.LayoutDirection.RightToLeft if is_right_to_left() else Qt.LayoutDirection.LeftToRight)
    add_app_fonts()


def add_app_fonts() -> None:
    """Register the fonts the app carries (once): Chinese and Arabic then render without system fonts. (Qt's
    font fallback finds them for the characters the app's font lacks; the app's font itself is not touched,
    so a Latin text measures exactly as before.)"""
    global _fonts_added
    if _fonts_added:
        return
    for font_file in sorted((resource_dir() / "fonts").glob("*.[ot]tf")):
        QFontDatabase.addApplicationFont(str(font_file))
    _fonts_added = True


def install_qt_translations(app: QGuiApplication, code: str) -> None:
    """Qt's own texts (a file dialog's buttons, a message box's "Cancel") from the qtbase_CODE.qm PySide6 ships."""
    global _qt_translator
    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)
        _qt_translator = None
    translator = QTranslator(app)
    for folder in _qt_translation_folders():
        if translator.load(QLocale(code), "qtbase", "_", folder):
            app.installTranslator(translator)
            _qt_translator = translator
            return


def _qt_translation_folders() -> list[str]:
    """Where Qt says its translations are, and where the PySide6 wheel (or a frozen app) keeps them."""
    import PySide6

    return [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath),
            str(Path(PySide6.__file__).resolve().parent / "Qt" / "translations")]
