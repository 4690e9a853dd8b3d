"""A long sentence's opened head on a 1024 × 768 screen: its matrix's columns are far too narrow for the words
written across them, so the words are written turned, reading upwards, each whole over its column, as BertViz
shows them (issue 42: a class saw "bec…" or nothing at all over most columns).

Read as painted: every drawText of the column names is recorded with the painter's turn, and the box each turned
word takes on the screen is checked inside the panel, between the title and the cells, clear of its neighbours.
"""

import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.ui.panels import matrix_view
from attn_desktop.ui.panels.matrix_layout import CORNER_TEXT, TURNED_GAP
from attn_desktop.ui.tools.panel_audit import matrix_labels_missing

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged
from tests.support.model_heads_window import loaded_heads, type_sentence, wait_for_run
from tests.support.pointer import click_at, in_window
from tests.support.tiny_llama import write_tiny_llama

pytestmark = pytest.mark.slow  # the real main window

SVG = "{http://www.w3.org/2000/svg}"
SENTENCE = "the cat sat on the mat because it was"


@pytest.fixture
def long_sentence_head(qtbot, window, monkeypatch, tmp_path):
    """The window at 1024 × 768, a tiny model in the pack's place, the long sentence run and a head opened."""
    path = tmp_path / "SmolLM2-135M-Instruct.gguf"
    write_tiny_llama(path, layer_count=4, head_count=3, kv_head_count=1, width=12, name="SmolLM2-135M-Instruct")
    monkeypatch.setattr(pack, "find_pack_model", lambda: path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    panel = loaded_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    type_sentence(qtbot, panel, SENTENCE)
    wait_for_run(qtbot, panel, SENTENCE)
    click_at(window, in_window(window, panel.grid, panel.grid.cell_rect(1, 1).center()))
    wait_until_arranged(qtbot, window)
    qtbot.waitUntil(lambda: window.matrix_view.isVisible() and len(window.matrix_view.reading.tokens) >= 12)
    return window.matrix_view


def _painted_column_names(view, monkeypatch) -> list[tuple[QRectF, str, bool]]:
    """Each column name's box on the panel as painted (the painter's turn applied), its text, and whether turned."""
    drawn: list[tuple[QRectF, str, bool]] = []
    real_paint_labels = matrix_view.paint_labels

    class Recording:
        def __init__(self, painter):
            self._painter = painter

        def __getattr__(self, name):
            return getattr(self._painter, name)

        def drawText(self, rect, flags, text):
            transform = self._painter.worldTransform()
            drawn.append((transform.mapRect(QRectF(rect)), text, abs(transform.m12()) > 1e-6))
            self._painter.drawText(rect, flags, text)

    monkeypatch.setattr(matrix_view, "paint_labels", lambda painter, *args: real_paint_labels(Recording(painter), *args))
    view._static_layer = None  # paint the labels again, now
    view.grab()
    grid = view.grid_rect()  # the row names are left of the cells, the corner's "q ↓ k →" too
    return [(box, text, turned) for box, text, turned in drawn
            if text != CORNER_TEXT and box.left() >= grid.left() - 0.5]


def test_a_long_sentences_column_names_are_written_turned_and_whole(qtbot, window, long_sentence_head, monkeypatch):
    view = long_sentence_head
    tokens = view.reading.tokens
    column_width = view.grid_rect().width() / len(tokens)
    font, _ = view.drawn_labels()[1]
    assert max(QFontMetricsF(font).horizontalAdvance(token) for token in tokens) > column_width  # the case in question
    assert view.shown_column_labels() == dict(enumerate(tokens))  # every name drawn, none shortened
    assert matrix_labels_missing(view) == []

    painted = _painted_column_names(view, monkeypatch)
    assert sorted(text for _, text, _ in painted) == sorted(tokens)
    metrics = QFontMetricsF(font)
    panel, grid = QRectF(view.rect()), view.grid_rect()
    title_bottom = view.drawn_labels()[0].title_height
    boxes = []
    for box, text, turned in painted:
        if metrics.horizontalAdvance(text) > column_width:
            assert turned, f"{text!r} is wider than its column and written across it"
        if turned:  # the word runs up the box: the box's height holds it whole
            assert box.height() >= metrics.horizontalAdvance(text) - 0.5, (text, box)
        assert panel.contains(box), (text, box, panel)
        assert box.top() >= title_bottom - 0.5 and box.bottom() <= grid.top() + 0.5, (text, box)
        boxes.append((box, text))
    for number, (box, text) in enumerate(boxes):
        for other, other_text in boxes[number + 1:]:
            overlap = box.intersected(other)
            assert overlap.width() < 0.5 or overlap.height() < 0.5, (text, box, other_text, other)


def test_the_audit_lists_a_turned_name_whose_top_is_cut(qtbot, window, long_sentence_head):
    """The audit reads a turned name along its whole upright box: with only its top few pixels out of view the
    longest name is listed (its middle still in view, as a name written across would be read)."""
    view = long_sentence_head
    assert matrix_labels_missing(view) == []
    _, (font, labels), _ = view.drawn_labels()
    metrics = QFontMetricsF(font)
    longest = max(labels, key=lambda label: metrics.horizontalAdvance(label.text))
    top_of_longest = view.grid_rect().top() - TURNED_GAP - metrics.horizontalAdvance(longest.text)
    view.move(view.x(), -int(top_of_longest) - 3)  # its top 3 pixels above the top of the panel holding it
    missing = matrix_labels_missing(view)
    assert f"column {longest.index}: {view.reading.tokens[longest.index]}" in missing, missing


def test_an_svg_handout_writes_the_turned_names_whole_and_upright(qtbot, window, long_sentence_head, tmp_path):
    """File → Export as SVG paints the matrix afresh as text and shapes: each column's name is there, whole, in a
    group turned upright."""
    from attn_desktop.ui.document.handout_image import render_svg

    view = long_sentence_head
    path = tmp_path / "handout.svg"
    render_svg(window, path)
    turned_texts: list[str] = []
    for group in ET.parse(path).getroot().iter(f"{SVG}g"):
        transform = group.get("transform", "")
        if transform.startswith("matrix(") and _upright(transform):
            turned_texts += ["".join(text.itertext()).strip() for text in group.iter(f"{SVG}text")]
    for token in view.reading.tokens:
        assert token.strip() in turned_texts, (token, turned_texts)


def _upright(transform: str) -> bool:
    """Whether an SVG matrix(a,b,c,d,e,f) turns a quarter: its a and d about 0."""
    a, _, _, d, *_ = (float(number) for number in transform[len("matrix("):-1].split(","))
    return abs(a) < 1e-3 and abs(d) < 1e-3
