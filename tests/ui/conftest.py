import signal
import sys

import pytest

from tests.support.in_the_window import settle_layout


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
def asked(window, monkeypatch):
    """The questions the window asks, as (title, text); answered from window.question_answers (else Cancel)."""
    from PySide6.QtWidgets import QMessageBox

    questions = []

    def ask(parent, title, text, *args, **kwargs):
        questions.append((title, text))
        return window.question_answers.pop(0) if window.question_answers else QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", ask)
    return questions


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


@pytest.fixture
def deadline():
    """A test that would hang (a pipe opened for reading) fails after 20 s instead."""
    def too_slow(*_):
        raise TimeoutError("still waiting after 20 s: something blocked")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def no_tracebacks(monkeypatch):
    """The exceptions that escaped to sys.excepthook (a slot's exception lands there); the test fails if any did."""
    escaped = []
    monkeypatch.setattr(sys, "excepthook", lambda *info: escaped.append(info))
    yield escaped
    assert escaped == []


@pytest.fixture(scope="module")
def tiny_model_path(tmp_path_factory):
    """A tiny random LLaMA-style GGUF file of 2 layers, 4 heads and 2 key-value heads, written once per module
    (the Model heads tests' stand-in for SmolLM2)."""
    from tests.support.tiny_llama import write_tiny_llama

    path = tmp_path_factory.mktemp("model") / "tiny-llama.gguf"
    write_tiny_llama(path, layer_count=2, head_count=4, kv_head_count=2)
    return path


@pytest.fixture(scope="module")
def reference_model(tiny_model_path):
    """The same file loaded apart from the window: what the window should show."""
    from attn_desktop.model.pretrained.llama import LlamaModel

    return LlamaModel.load(tiny_model_path)


@pytest.fixture
def pack_is_tiny(monkeypatch, tiny_model_path):
    """The tiny model found where the model pack's would be."""
    from attn_desktop.model.pretrained import pack

    monkeypatch.setattr(pack, "find_pack_model", lambda: tiny_model_path)
    return tiny_model_path
