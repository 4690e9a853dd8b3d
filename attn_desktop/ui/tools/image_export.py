"""The handout pictures under their former name, for callers not yet moved (the command line's export);
they live in ui/document/handout_image.py, beside the exports that write them."""

from attn_desktop.ui.document.handout_image import (
    HandoutSource,
    copy_image_to_clipboard,
    handout_image,
    handout_size,
    handout_title,
    paint_handout,
    render_png,
    render_svg,
)

__all__ = ["HandoutSource", "copy_image_to_clipboard", "handout_image", "handout_size", "handout_title",
           "paint_handout", "render_png", "render_svg"]
