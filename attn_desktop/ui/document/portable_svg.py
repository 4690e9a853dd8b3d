"""The handout's SVG rewritten so that every common viewer draws it as Qt does.

Qt writes a cosmetic pen (the plots' axis and grid lines, one pixel wide at any zoom) as
`vector-effect="non-scaling-stroke"` inside a group that holds the plot's scale, about 80 for
a unit of the plot. librsvg and ImageMagick ignore the vector-effect there and widen the line
with the scale: an axis line became a grey band a unit wide. Here each such line is moved into
a group of its own without the scale, its points scaled instead, and keeps its width in the
picture's units (one pixel at the picture's own size, wider when printed larger, in every viewer).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_G = f"{{{SVG_NS}}}g"
_NON_SCALING = "non-scaling-stroke"
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_SHAPES = {f"{{{SVG_NS}}}{name}" for name in ("polyline", "polygon", "path", "line")}

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def portable_svg(svg: bytes) -> bytes:
    """SVG as QSvgGenerator writes it, rewritten as described above."""
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(svg)
    _unscale_cosmetic_lines(root)
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8",
                                                                                      xml_declaration=False)


def _parse_matrix(text: str | None) -> Matrix:
    if not text:
        return IDENTITY
    found = re.fullmatch(r"\s*matrix\(([^)]*)\)\s*", text)
    numbers = re.findall(_NUMBER, found.group(1)) if found else []
    if len(numbers) != 6:
        return IDENTITY  # not a plain matrix: leave the group as it is
    a, b, c, d, e, f = (float(number) for number in numbers)
    return a, b, c, d, e, f


def _scales(matrix: Matrix) -> bool:
    a, b, c, d, _, _ = matrix
    return (a, b, c, d) != (1.0, 0.0, 0.0, 1.0)


def _groups(root: ET.Element) -> Iterator[tuple[ET.Element, ET.Element]]:
    """Every group with its parent, parents first."""
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == _G:
                yield parent, child


def _unscale_cosmetic_lines(root: ET.Element) -> None:
    for parent, group in list(_groups(root)):
        matrix = _parse_matrix(group.get("transform"))
        children = list(group)
        if not _scales(matrix) or not any(_is_cosmetic(child) for child in children):
            continue
        # The group's children in runs: scaled shapes stay under the transform, cosmetic lines
        # go into a group of their own without it, in the same order (later paints over earlier).
        replacement: list[ET.Element] = []
        for child in children:
            cosmetic = _is_cosmetic(child)
            if not replacement or _is_cosmetic_run(replacement[-1]) != cosmetic:
                run = ET.Element(_G, dict(group.attrib))
                if cosmetic:
                    run.set("transform", "matrix(1,0,0,1,0,0)")
                    run.set("data-cosmetic", "1")
                replacement.append(run)
            if cosmetic:
                _map_points(child, matrix)
            replacement[-1].append(child)
        index = list(parent).index(group)
        parent.remove(group)
        for offset, run in enumerate(replacement):
            parent.insert(index + offset, run)
    for element in root.iter():
        element.attrib.pop("data-cosmetic", None)
        if element.get("vector-effect") == _NON_SCALING:
            del element.attrib["vector-effect"]  # the width is now in the picture's units everywhere


def _is_cosmetic(element: ET.Element) -> bool:
    return element.tag in _SHAPES and element.get("vector-effect") == _NON_SCALING


def _is_cosmetic_run(group: ET.Element) -> bool:
    return group.get("data-cosmetic") == "1"


def _apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def _format(value: float) -> str:
    return f"{value:.6g}"


def _map_pairs(text: str, matrix: Matrix) -> str:
    """Every x,y pair in a points list or path data (Qt writes absolute M, L, C and Z only)."""
    def mapped(found: re.Match[str]) -> str:
        x, y = _apply(matrix, float(found.group(1)), float(found.group(2)))
        return f"{_format(x)},{_format(y)}"

    return re.sub(rf"({_NUMBER})\s*,\s*({_NUMBER})", mapped, text)


def _map_points(element: ET.Element, matrix: Matrix) -> None:
    for name in ("points", "d"):
        if name in element.attrib:
            element.set(name, _map_pairs(element.attrib[name], matrix))
    if element.tag == f"{{{SVG_NS}}}line":
        for x_name, y_name in (("x1", "y1"), ("x2", "y2")):
            x, y = _apply(matrix, float(element.get(x_name, 0)), float(element.get(y_name, 0)))
            element.set(x_name, _format(x))
            element.set(y_name, _format(y))
