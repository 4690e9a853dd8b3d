"""What an arrow asks of label placement follows every change of the arrow (arrow_geometry.label_request): the
request is kept from one drag move to the next while nothing it is made of changed, and asked anew after a change
of the tip, the base, the label's text or shorter form, whether it is hidden, or where it was put. A request kept
too long would place a label by where its tip was."""

import pytest
from PySide6.QtGui import QColor

from attn_desktop.geometry.label_layout import Placement
from attn_desktop.ui.canvas.arrow_item import ArrowItem

MAPPING = (20.0, -20.0, 200.0, 150.0)  # a plot's data-to-view scale and offset: 20 pixels a unit, y up


@pytest.fixture(autouse=True)
def application(qapp):
    """Arrows are graphics items: Qt needs its application first."""
    return qapp


def labelled_arrow() -> ArrowItem:
    arrow = ArrowItem("k·cat 40%", QColor(200, 60, 40))
    arrow.set_tip(2.0, 1.0)
    arrow.set_label("k·cat 40%", short="k·cat", short_names_it=True)
    return arrow


def test_an_arrow_asks_the_same_while_nothing_changed_and_anew_when_its_tip_or_base_moves():
    arrow = labelled_arrow()
    first = arrow.label_request(MAPPING)
    assert arrow.label_request(MAPPING) == first
    assert first.tip == (240.0, 130.0)
    arrow.set_tip(-1.0, 2.0)
    assert arrow.label_request(MAPPING).tip == (180.0, 110.0)
    arrow.set_base(1.0, 0.0)
    assert arrow.label_request(MAPPING).base == (220.0, 150.0)


def test_an_arrow_asks_anew_when_its_label_its_shorter_form_or_its_place_changes():
    arrow = labelled_arrow()
    whole = arrow.label_request(MAPPING).width
    arrow.set_label("k·cat 100%", short="k·cat", short_names_it=True)
    assert arrow.label_request(MAPPING).width > whole
    arrow.set_label("k·cat 100%", short="k·cat", short_names_it=False)
    assert not arrow.label_request(MAPPING).short_names_it
    arrow.place_label(Placement(12.0, -30.0), MAPPING)
    assert arrow.label_request(MAPPING).previous == (12.0, -30.0)
    arrow.set_label_hidden(True)
    assert arrow.label_request(MAPPING).previous is None  # a hidden label has no spot to keep
    arrow.set_label_hidden(False)
    arrow.place_label(Placement(-40.0, 8.0), MAPPING)
    assert arrow.label_request(MAPPING).previous == (-40.0, 8.0)
    before = arrow.label_request(MAPPING)
    arrow.set_font_size(17.0)  # presentation mode's larger labels
    after = arrow.label_request(MAPPING)
    assert after.height > before.height and after.width > before.width


def test_an_arrow_asks_for_its_shorter_form_once_placement_showed_it():
    arrow = labelled_arrow()
    whole = arrow.label_request(MAPPING)
    arrow.place_label(Placement(10.0, 10.0, short=True), MAPPING)
    shown_short = arrow.label_request(MAPPING)
    assert shown_short.height == whole.height and shown_short.short_width == whole.short_width
    assert shown_short.previous == (10.0, 10.0)
