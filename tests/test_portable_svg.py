"""The handout SVG's rewrite for other viewers than Qt (attn_desktop/ui/document/portable_svg.py)."""

import xml.etree.ElementTree as ET

from attn_desktop.ui.document.portable_svg import portable_svg

SVG = "{http://www.w3.org/2000/svg}"


def rewritten(body: str) -> ET.Element:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>'
    return ET.fromstring(portable_svg(svg.encode()))


def test_a_one_pixel_line_under_a_plot_scale_keeps_its_width_and_its_place():
    root = rewritten('<g stroke="#787878" stroke-width="1" transform="matrix(80,0,0,-80,50,50)">'
                     '<polyline fill="none" vector-effect="non-scaling-stroke" points="-0.5,0 0.5,0 " />'
                     '<path vector-effect="non-scaling-stroke" d="M0,0 L0,0.5 C0.1,0.1 0.2,0.2 0.25,-0.25 Z" />'
                     '<line vector-effect="non-scaling-stroke" x1="0" y1="0" x2="0.5" y2="0.5" /></g>')
    group = root.find(f"{SVG}g")
    assert group.get("transform") == "matrix(1,0,0,1,0,0)"
    assert group.get("stroke-width") == "1" and group.get("stroke") == "#787878"
    polyline, path, line = list(group)
    assert polyline.get("points").split() == ["10,50", "90,50"]
    assert path.get("d") == "M50,50 L50,10 C58,42 66,34 70,70 Z"
    assert [line.get(name) for name in ("x1", "y1", "x2", "y2")] == ["50", "50", "90", "10"]
    assert all(element.get("vector-effect") is None for element in root.iter())


def test_scaled_shapes_keep_their_transform_and_the_order_of_painting():
    root = rewritten('<g fill="red" transform="matrix(2,0,0,2,0,0)">'
                     '<polygon vector-effect="none" points="0,0 1,0 1,1" />'
                     '<polyline fill="none" vector-effect="non-scaling-stroke" points="0,0 3,4" />'
                     '<polygon vector-effect="none" points="0,0 2,0 2,2" /></g>'
                     '<g transform="matrix(1,0,0,1,5,5)"><polyline vector-effect="non-scaling-stroke" points="1,1 2,2" /></g>')
    groups = root.findall(f"{SVG}g")
    assert [g.get("transform") for g in groups] == ["matrix(2,0,0,2,0,0)", "matrix(1,0,0,1,0,0)",
                                                     "matrix(2,0,0,2,0,0)", "matrix(1,0,0,1,5,5)"]
    assert [g[0].get("points").split() for g in groups] == [["0,0", "1,0", "1,1"], ["0,0", "6,8"],
                                                            ["0,0", "2,0", "2,2"], ["1,1", "2,2"]]
    assert all(g.get("fill") == "red" for g in groups[:3])
