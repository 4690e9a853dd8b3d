"""A scene with several heads shows them side by side where the canvas was; a scene of one head, the canvas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from attn_desktop.language import tr
from attn_desktop.model import Change, Scene

if TYPE_CHECKING:  # the parts the window hands in
    from PySide6.QtGui import QAction

    from attn_desktop.ui.canvas.canvas import AttentionCanvas
    from attn_desktop.ui.heads.heads_view import HeadsView
    from attn_desktop.ui.panels.grid_editor import GridEditor
    from attn_desktop.ui.window.layout.central_stack import CentralStack
    from attn_desktop.ui.window.layout.dock_layout import DockLayout


class CanvasOrHeads(Protocol):
    """The main window's parts that change with the number of heads."""

    scene: Scene
    canvas: AttentionCanvas
    heads_view: HeadsView
    central_stack: CentralStack
    dock_layout: DockLayout
    grid_editor: GridEditor
    predict_action: QAction


def show_canvas_or_heads(window: CanvasOrHeads, change: Change) -> None:
    """After a change of the scene's structure: the heads or the canvas, and the panels and room around them."""
    if not change & Change.STRUCTURE:
        return
    multi_head = not window.scene.is_one_head  # decided here; the parts, pictures and audits ask showing_heads
    window.heads_view.show_heads(multi_head)  # its columns first, then the room for them
    # The panels that make way close before the heads (wider than the canvas) take the middle, and open again
    # after the canvas is back: for a moment both would ask for their room, and a maximised window grows past
    # the screen to give it (never shrinking back) when the texts are long, as in Spanish on a 1024 screen.
    if multi_head:
        window.dock_layout.make_way_for_heads(multi_head, window.scene.n_tokens)
    window.central_stack.show_page(window.heads_view if multi_head else window.canvas)
    if not multi_head:
        window.dock_layout.make_way_for_heads(multi_head, window.scene.n_tokens)
    window.grid_editor.name_heads(multi_head)
    # Predict, then see guesses the weights of one head, on the weights chart, which makes way for the heads.
    window.predict_action.setEnabled(not multi_head)
    window.predict_action.setStatusTip(tr("Predict, then see works with scenes of one head") if multi_head else "")
