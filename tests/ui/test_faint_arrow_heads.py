"""A faint arrow's head can still be found and grabbed (issue 43, item 5; WCAG 2.1 1.4.11, 3 : 1 for what
identifies a user-interface component): a key or value with little weight is drawn pale, its fading tells
"little weight", but its head, the handle a student drags, keeps an outline in the role's colour at 3 : 1 or more
on the white plot, however faint the rest. Measured from the colours the arrow draws with and from the pixels of a
lesson's canvas."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor

from attn_desktop.geometry.colour_difference import contrast_ratio
from attn_desktop.geometry.colour_vision import GRAPHICS_CONTRAST
from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import scene_path
from attn_desktop.ui.canvas.arrow_item import EMPHASIS_STEPS, ArrowItem
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.tools.drawn_colours import rgb, role_colours
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

WHITE = (255, 255, 255)
STRENGTHS = [0.0, *(step / EMPHASIS_STEPS for step in range(1, EMPHASIS_STEPS + 1))]
HEAD_SHAPES = ("triangle", "open", "diamond")


@pytest.fixture(autouse=True)
def application(qapp):
    """Arrows are graphics items: Qt needs its application first."""
    return qapp


def arrow_drawn(colour: tuple[int, int, int], emphasis: float, head_shape: str = "triangle",
                dashed: bool = False) -> ArrowItem:
    arrow = ArrowItem("k·cat", QColor(*colour))
    arrow.set_head_shape(head_shape)
    arrow.set_style(width=2.0, emphasis=emphasis, dashed=dashed)
    return arrow


@pytest.mark.parametrize("head_shape", HEAD_SHAPES)
@pytest.mark.parametrize("role", role_colours())
def test_a_head_keeps_an_edge_of_3_to_1_at_every_strength(role, head_shape):
    colour = role_colours()[role]
    for emphasis in STRENGTHS:
        for dashed in (False, True):
            edge = arrow_drawn(colour, emphasis, head_shape, dashed).head_edge_color
            assert contrast_ratio(rgb(edge), WHITE) >= GRAPHICS_CONTRAST, (role, head_shape, emphasis, dashed)


@pytest.mark.parametrize("role", role_colours())
def test_the_shaft_still_fades_with_the_weight(role):
    colour = role_colours()[role]
    faint, strong = (contrast_ratio(rgb(arrow_drawn(colour, emphasis).shaft_color), WHITE) for emphasis in (0.2, 1.0))
    assert faint < strong
    assert rgb(arrow_drawn(colour, 1.0).shaft_color) == colour  # full strength: the role's own colour
    assert contrast_ratio(rgb(arrow_drawn(colour, 0.2).head_fill_color), WHITE) == faint  # the head's fill fades too


@pytest.mark.parametrize("role", role_colours())
def test_a_strong_arrow_looks_as_it_did(role):
    """At full strength the head is the role's colour through and through: no outline of another colour."""
    colour = role_colours()[role]
    arrow = arrow_drawn(colour, 1.0)
    assert rgb(arrow.head_edge_color) == rgb(arrow.head_fill_color) == colour


# ----- as painted -------------------------------------------------------
def is_a_shade_of(pixel: QColor, colour: QColor) -> bool:
    """Whether PIXEL is COLOUR faded towards white (as a faint arrow or its antialiased edge is drawn), and not
    some other arrow's colour crossing it."""
    strengths = [(255 - seen) / (255 - own) for seen, own in zip(rgb(pixel), rgb(colour)) if own < 200]
    return all(abs(strength - strengths[0]) <= 0.04 for strength in strengths)


def test_the_faintest_key_of_a_lesson_has_a_head_that_stands_out(qtbot):
    """Lesson 3 on a canvas of its own: the key with the least weight is drawn faint, and the darkest pixel of its
    head (a shade of the key's colour, inside the head as drawn) stands out 3 : 1 on the white plot."""
    configure_pyqtgraph()
    reading = open_reading(scene_path("lessons/3_self_attention.json"))
    canvas = AttentionCanvas(reading)
    qtbot.addWidget(canvas)
    canvas.resize(900, 700)
    canvas.show()
    qtbot.waitExposed(canvas)
    qtbot.waitUntil(lambda: not canvas.arranging)
    qtbot.wait(50)
    keys = canvas.arrows[Role.KEY]
    faintest = min(keys, key=lambda arrow: arrow.emphasis)
    assert faintest.emphasis < 0.5  # drawn faint: a key's colour needs 0.81 of its strength to reach 3 : 1 alone
    image = canvas.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    head = faintest.head_polygon(faintest.deviceTransform(canvas.viewportTransform()))
    box = head.boundingRect()
    key_colour = ROLE_COLORS[Role.KEY]
    inside = [image.pixelColor(x, y)
              for x in range(int(box.left() * ratio), int(box.right() * ratio) + 1)
              for y in range(int(box.top() * ratio), int(box.bottom() * ratio) + 1)
              if head.containsPoint(QPointF((x + 0.5) / ratio, (y + 0.5) / ratio), Qt.FillRule.OddEvenFill)]
    shades = [pixel for pixel in inside if is_a_shade_of(pixel, key_colour)]
    assert len(shades) >= len(inside) // 2  # the head is not hidden under another arrow
    darkest = max(contrast_ratio(rgb(pixel), WHITE) for pixel in shades)
    assert darkest >= GRAPHICS_CONTRAST, f"the faintest key's head reaches {darkest:.2f} : 1"
