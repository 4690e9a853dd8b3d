"""The canvas plots' titles: what each plot draws, and for wide vectors which plane of them.

A title says the plot's subject and, for vectors of more than two numbers, the plane
drawn: "Queries and keys (dimensions 1 and 2 of 64)" or "Queries and keys (PCA plane
of q and k: 62% of spread)". A plot narrower than its title gets the short form,
which keeps a PCA plane ("q and k (PCA, 62%)"), elided if need be, and the whole title
on hover. Titles are fitted after a resize, not during one: changing a title re-lays
the plots out.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF

from attn_desktop.language import N_, tr

TITLE_POINTS = 11.0
TITLE_ROW_PX = 30  # pyqtgraph's fixed height for a plot's title row: a Latin line at the everyday size
SHORT_SUBJECTS = {  # for plots narrower than their title (the English texts: shown as tr(...))
    N_("Queries and keys"): N_("q and k"), N_("Values and output"): N_("Values, out"),
    N_("Word vectors x"): N_("Words x"), N_("Word vectors x and y"): N_("Words x, y"),
    N_("Values on a number line (stem height = weight)"): N_("Values (height = weight)"),
}


def plot_title(subject: str, plane: str, short_plane: str) -> tuple[str, str]:
    """The title in full and in short, in the student's language: SUBJECT (its English text), with the
    PLANE drawn when there is one to name."""
    short_subject = tr(SHORT_SUBJECTS.get(subject, subject))
    # Translators: a canvas plot's title and the plane it draws, e.g. "Queries and keys (dimensions 1 and 2 of 64)"
    titled = tr("{subject} ({plane})")
    full = titled.format(subject=tr(subject), plane=plane) if plane else tr(subject)
    return full, titled.format(subject=short_subject, plane=short_plane) if short_plane else short_subject


def fit_titles(titles: dict[pg.PlotItem, tuple[str, str]], scale: float, column_px: float = float("inf")) -> None:
    """Each plot's title as long as its plot is wide, in type SCALE times the everyday size. The plot's
    width is taken as at most its column's share COLUMN_PX of the canvas: a long title widens its plot,
    and a plot widened by its title would otherwise keep that title and push its neighbour out of view."""
    size = f"{int(TITLE_POINTS * scale)}pt"
    font = QFont()
    font.setPointSizeF(TITLE_POINTS * scale)
    metrics = QFontMetricsF(font)
    for plot, (title, short) in titles.items():
        # The title sits over the drawing area, beside the left axis; its text item adds a margin each side.
        room = min(plot.size().width(), column_px) - plot.getAxis("left").width() - 16
        shown = title
        if room > 0 and metrics.horizontalAdvance(title) > room:
            shown = metrics.elidedText(short, Qt.TextElideMode.ElideRight, room)
        if shown != plot.titleLabel.text:
            plot.titleLabel.setText(shown, size=size)
        plot.titleLabel.setToolTip(title if shown != title else "")
        fit_title_row(plot)


def fit_title_row(plot: pg.PlotItem) -> None:
    """The title's row as tall as its line. pyqtgraph fixes it at 30 px: a line in presentation type, and an
    Arabic or Chinese line (taller than a Latin one), stood out over the plot's top edge and out of the canvas.
    The line itself, without the text item's margin over and under it: that height is the plots'."""
    label = plot.titleLabel
    document = label.item.document()
    if document.documentMargin() != 0:
        document.setDocumentMargin(0)
        label.updateMin()
    needed = max(TITLE_ROW_PX, math.ceil(label.item.boundingRect().height()))
    if label.maximumHeight() != needed:
        label.setMaximumHeight(needed)
        plot.layout.setRowFixedHeight(0, needed)
