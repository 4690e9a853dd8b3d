"""The Added page's sinusoidal positions: x_i + α·PE[i] in the scene's sentence and in the other order, PE[i]·PE[j]
against the distance i − j, and the encoding itself as a picture."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from attn_desktop.language import N_, number, tr
from attn_desktop.model import Role
from attn_desktop.model.teaching.positions_lab import LabHead, compare_orders, encoding_dot_by_distance, other_order
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.positions_lab.encoding_heatmap import EncodingHeatmap
from attn_desktop.ui.positions_lab.lab_plot import LabPlot
from attn_desktop.ui.positions_lab.lab_text import set_text, wrapped_label
from attn_desktop.ui.positions_lab.weights_grid import WeightsGrid


class SinusoidalView(QWidget):
    """x_i + α·PE[i] in the scene's sentence and in the other order; PE[i]·PE[j] by distance; PE itself."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first_grid = WeightsGrid(N_("Attention in the sentence's order, positions added"))
        self.second_grid = WeightsGrid(N_("Attention in the other order, positions added"))
        self.verdict = wrapped_label("")
        # PE·PE alone depends on the distance; once W_Q and W_K mix the numbers, the positions' share of q·k
        # need not (in lesson 10's scene it depends on i + j too): that is what RoPE's turns put right.
        self.distance_note = wrapped_label(tr(
            "Scores now change with where the words are. The encodings' own dot product PE[i]·PE[j] depends "
            "only on the distance i − j; once W<sub>Q</sub> and W<sub>K</sub> mix the numbers, the positions' "
            "share of q·k need not. RoPE (next page) makes q·k depend on the distance alone."))
        self.distance_plot = LabPlot("i − j", "PE[i]·PE[j]")
        self.distance_plot.add_curve(ROLE_COLORS[Role.KEY], "PE[i]·PE[j]")
        self.heatmap = EncodingHeatmap()
        self.width_shown = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.first_grid, self.second_grid, self.verdict, self.distance_note, self.distance_plot,
                       self.heatmap):
            layout.addWidget(widget)

    def show_head(self, head: LabHead | None, strength: float) -> None:
        if head is None:
            set_text(self.verdict, tr("This page needs a scene whose queries are its own words."))
            self.first_grid.hide()
            self.second_grid.hide()
            return
        self.first_grid.show()
        self.second_grid.show()
        shown = compare_orders(head, other_order(len(head.tokens)), strength)
        self.first_grid.set_weights(shown.tokens, shown.first.weights)
        self.second_grid.set_weights(shown.second_tokens, shown.second.weights)
        same = shown.weights_only_reordered(1e-9) and shown.outputs_only_reordered(1e-9)
        if same:
            text = tr("x<sub>i</sub> + {strength}·PE[i], PE {width} wide. "
                      "<b>The orders still look the same</b>: no position added.")
        else:
            text = tr("x<sub>i</sub> + {strength}·PE[i], PE {width} wide. <b>The two orders now differ</b>: the "
                      "words' weights and outputs are no longer only reordered.")
        set_text(self.verdict, text.format(strength=number(strength, 1), width=head.width))
        if head.width != self.width_shown:
            self.width_shown = head.width
            self.distance_plot.set_curve(0, *encoding_dot_by_distance(head.width))
