import pytest

from helpers import settle_layout


@pytest.fixture(autouse=True)
def application_in_english():
    """A test that switched the language (View → Language, Arabic's direction, the carried fonts) leaves the
    application as the next test expects it: English, left to right, its fonts and locale as before."""
    from PySide6.QtCore import QLocale, Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    before = (app.font(), QLocale(), app.layoutDirection()) if app is not None else None
    yield
    if before is not None:
        from attn_desktop.language import set_language
        from attn_desktop.ui.language.app_language import install_qt_translations

        set_language("en")
        install_qt_translations(app, "en")  # (none for English: Qt's own texts are English)
        font, locale, direction = before
        app.setFont(font)
        QLocale.setDefault(locale)
        app.setLayoutDirection(direction if direction != Qt.LayoutDirection.RightToLeft else Qt.LayoutDirection.LeftToRight)


@pytest.fixture
def window(qtbot, monkeypatch):
    """The real main window on the default scene, shown offscreen.

    Error dialogs are captured instead of shown: a modal dialog would hang a test.
    """
    from PySide6.QtWidgets import QMessageBox

    from attn_desktop.ui.window.startup.app import build_window, configure_pyqtgraph

    configure_pyqtgraph()
    errors: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: errors.append((title, text)))
    questions: list[str] = []
    answers: list = []  # a test puts the answers it wants here; otherwise changes are discarded

    def ask(parent, title, text, *args, **kwargs):
        questions.append(title)
        return answers.pop(0) if answers else QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QMessageBox, "question", ask)
    win = build_window()
    win.shown_errors = errors
    win.asked_questions, win.question_answers = questions, answers
    win.resize(1320, 880)  # the offscreen screen is 800 × 600; test the size a classroom screen gives
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    settle_layout(qtbot, win)
    yield win
    win.history.reset()  # closing at teardown must not stop to ask about unsaved changes


@pytest.fixture
def projector_window(qtbot, monkeypatch):
    """The real main window built on a 1024 × 768 screen (the offscreen platform's own is 800 × 600), settled;
    presentation mode left and no question asked at the end."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen
    from PySide6.QtWidgets import QMessageBox

    from attn_desktop.ui.window.startup.app import build_window, configure_pyqtgraph

    configure_pyqtgraph()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    win = build_window()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    settle_layout(qtbot, win)
    yield win
    if win.presentation_action.isChecked():
        win.presentation_action.setChecked(False)
    win.history.reset()


@pytest.fixture
def smollm2_installed():
    """The optional SmolLM2 pack's model file; the test is skipped, saying why, without it or its readers."""
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.model.pretrained import pack

    try:
        return pack.find_pack_model()
    except pack.ModelUnavailable as missing:
        pytest.skip(str(missing))
