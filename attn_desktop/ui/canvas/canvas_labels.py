"""Placing the canvas's arrow labels: each by its tip, clear of every arrow and label of its plot.

Where a label goes is geometry/label_layout.py's choice; this hands it each plot's labels in order of
importance, with the shapes they must keep off in view pixels, and gives the arrows the answer. The
shapes are kept from one placement to the next: a drag move changes only a few arrows.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple, cast

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QTransform

from attn_desktop.geometry.label_layout import HIDDEN, LabelRequest, Obstacle, Placement, ShapeIndex
from attn_desktop.geometry.label_update import LabelMemory, update_labels
from attn_desktop.geometry.weight_style import ANSWER_MIN_WEIGHT, CROWDED_LABEL_MIN_WEIGHT
from attn_desktop.model import HeadReading, Role
from attn_desktop.ui.canvas.arrow_geometry import SHAFT_SLOT
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.canvas_plots import CanvasPlots
from attn_desktop.ui.canvas.plot_views import Mapping, PlotViews

SHAPES_PER_ARROW = 2  # a head and a shaft (a dot: one)
HEAVIEST = 2  # the keys and values with the most weight, whose labels a class reads the answer from
ROLES = tuple(Role)  # (iterating the enum itself runs Python code on every move)
# Every arrow's label, read on every move: the attribute behind ArrowItem.label, whose property costs 0.15 µs
# through PySide's attribute lookup.
_LABEL_TEXT = operator.attrgetter("_label")
# Every labelled arrow's request, asked for on every move: the method looked up once, not through PySide's
# attribute lookup on each arrow (0.4 µs a call).
_LABEL_REQUEST = ArrowItem.label_request


class _Entry(NamedTuple):
    """A label to place, how it ranks (see LabelRequest), and the plot it is drawn in."""

    item: ArrowItem
    minor: bool
    essential: bool
    plot: pg.PlotItem


@dataclass
class _PlotShapes:
    """A plot's arrow shapes as last read, and what they were read for."""

    mapping: Mapping
    arrows: list[ArrowItem]
    versions: list[int]  # each arrow's shape_version when its shapes were read into `index`
    index: ShapeIndex
    labels: LabelMemory | None = None  # the labels as last placed among these shapes (None: place them all)
    changed: list[Obstacle] = field(default_factory=list)  # the shapes changed since, old and new
    shown: dict[ArrowItem, Placement | None] = field(default_factory=dict)  # the placement each arrow was given


class CanvasLabels:
    """The labels of ARROWS (the canvas's own table, read as it is at each placement) and of the output."""

    def __init__(self, arrows: dict[Role, list[ArrowItem]], output_arrow: ArrowItem, plots: CanvasPlots) -> None:
        self.arrows = arrows
        self.output_arrow = output_arrow
        self.plots = plots
        self._plot_shapes: dict[pg.PlotItem, _PlotShapes] = {}  # each plot's arrow shapes, kept between moves
        self._plot_of_roles: tuple[object, dict[Role, pg.PlotItem]] = (None, {})  # see _plot_of
        self._order: tuple[object, dict[pg.PlotItem, list[_Entry]]] = (None, {})  # see _labels_in_order
        self._views = PlotViews()

    def place(self, scene: HeadReading, weights: np.ndarray, to_view: QTransform,
              named: frozenset[int] = frozenset()) -> None:
        """Put each label by its tip, clear of every arrow and label of its plot (see label_layout); WEIGHTS
        are those the canvas shows, TO_VIEW maps the canvas's scene to its view; NAMED, the ids of the arrows
        the open lesson's text names, are essential like the heaviest."""
        kept = {}
        plot_of = self._plot_of()
        for plot, entries in self._labels_in_order(scene, weights.tolist(), named, plot_of).items():
            view = self._views.seen(plot.getViewBox(), to_view)
            if view is None:
                continue  # a plot not laid out yet (or hidden): placed when its view changes
            (left, top, right, bottom), mapping = view
            kept[plot] = shapes = self._shapes_in(plot, mapping, plot_of)
            # Every entry is labelled, so none asks for nothing (None).
            requests = cast(list[LabelRequest], [_LABEL_REQUEST(item, mapping, minor, essential)
                                                 for item, minor, essential, _ in entries])
            # Only the labels whose arrow or surroundings changed are placed again (see label_update.py).
            placements, shapes.labels = update_labels(
                requests, [id(entry.item) for entry in entries], shapes.index,
                (left, top, right, bottom), shapes.labels, shapes.changed)
            shapes.changed = []
            self._show(entries, placements, mapping, shapes)
        self._plot_shapes = kept  # a plot not placed this time is read afresh next time

    @staticmethod
    def _show(entries: list[_Entry], placements: list[Placement | None], mapping: Mapping,
              shapes: _PlotShapes) -> None:
        """Give each arrow its label's placement. A label kept still (the very placement it was last given, in
        the same view) is left as it is: placing it again would change nothing."""
        shown = shapes.shown
        shapes.shown = {}
        for entry, placement in zip(entries, placements):
            item = entry.item
            shapes.shown[item] = placement
            if placement is not HIDDEN and shown.get(item, HIDDEN) is placement:
                continue
            item.set_label_hidden(placement is HIDDEN)
            if placement is not HIDDEN:
                item.place_label(placement, mapping)

    def _plot_of(self) -> dict[Role, pg.PlotItem]:
        """The plot each role is drawn in: worked out once (the canvas's plots keep their roles for good)."""
        by_plot = self.plots.roles_by_plot
        if self._plot_of_roles[0] is not by_plot:
            self._plot_of_roles = (by_plot, {role: self.plots.plot_for(role) for role in Role})
        return self._plot_of_roles[1]

    def forget(self) -> None:
        """Place every label afresh next time, as after a zoom (see label_update.py)."""
        for shapes in self._plot_shapes.values():
            shapes.labels = None

    def _labels_in_order(self, scene: HeadReading, weights: list[float], named_by_lesson: frozenset[int],
                         plot_of: dict[Role, pg.PlotItem]) -> dict[pg.PlotItem, list[_Entry]]:
        """Each plot's labelled arrows, most important label first: the chosen query, the output, keys and
        values by weight (under 5% is minor), then the other queries (minor) and the word vectors (x, a target's y).

        Essential (shown even far from the tip when there is no room near it): the chosen query and its word
        vector, the output, and the keys and values of the HEAVIEST tokens, which a class reads the answer
        from. Any other label with no room near its tip is left out rather than led far from it."""
        queries, keys, values = self.arrows[Role.QUERY], self.arrows[Role.KEY], self.arrows[Role.VALUE]
        selected = scene.selected
        chosen = queries[selected] if selected < len(queries) else None
        # Most arrows of a crowded scene have no label: only the named ones are sorted by weight.
        named = [index for index in range(scene.n_tokens)
                 if (index < len(keys) and keys[index]._label) or (index < len(values) and values[index]._label)]
        named.sort(key=lambda index: -weights[index])
        heaviest = frozenset(index for index in named[:HEAVIEST] if weights[index] >= ANSWER_MIN_WEIGHT)
        minor = tuple(weights[index] < CROWDED_LABEL_MIN_WEIGHT for index in named)
        # The chosen query's own word vector: its target word's y in cross-attention, else its token's x.
        chosen_word = Role.TARGET if Role.TARGET in scene.roles else Role.EMBEDDING
        # The same order as last time while all it is made of is the same (on most drag moves: the weights'
        # order and which are minor or heaviest rarely change).
        arrows = (*chain.from_iterable([self.arrows[role] for role in ROLES]), self.output_arrow)
        made_of = (selected, chosen_word, named_by_lesson, tuple(named), minor, heaviest, arrows,
                   tuple(map(bool, map(_LABEL_TEXT, arrows))), plot_of)
        if self._order[0] != made_of:
            self._order = (made_of, self._entries(chosen, named, minor, heaviest, chosen_word, selected,
                                                  named_by_lesson, plot_of))
        return {plot: entries for plot, entries in self._order[1].items() if plot.scene() is not None}

    def _entries(self, chosen: ArrowItem | None, named: list[int], minor: tuple[bool, ...], heaviest: frozenset[int],
                 chosen_word: Role, selected: int, named_by_lesson: frozenset[int],
                 plot_of: dict[Role, pg.PlotItem]) -> dict[pg.PlotItem, list[_Entry]]:
        """_labels_in_order's answer, for the keys and values NAMED in order of weight (which are MINOR, which
        HEAVIEST), the CHOSEN query and its word vector's role (CHOSEN_WORD)."""
        queries, keys, values = self.arrows[Role.QUERY], self.arrows[Role.KEY], self.arrows[Role.VALUE]
        queries_plot = plot_of[Role.QUERY]
        plots: dict[pg.PlotItem, list[_Entry]] = {}

        def add(item: ArrowItem, is_minor: bool, essential: bool, plot: pg.PlotItem) -> None:
            if item.label:
                plots.setdefault(plot, []).append(_Entry(item, is_minor, essential, plot))

        if chosen is not None:
            add(chosen, False, True, queries_plot)
        add(self.output_arrow, False, True, self.plots.vo_plot)
        keys_plot, values_plot = plot_of[Role.KEY], plot_of[Role.VALUE]
        for index, is_minor in zip(named, minor):
            essential = index in heaviest
            for plot, arrows in ((keys_plot, keys), (values_plot, values)):
                if index < len(arrows):
                    arrow = arrows[index]
                    add(arrow, is_minor, essential or id(arrow) in named_by_lesson, plot)
        for item in queries:
            if item is not chosen:
                add(item, True, id(item) in named_by_lesson, queries_plot)
        for role in (Role.EMBEDDING, Role.TARGET):
            for index, item in enumerate(self.arrows[role]):
                add(item, False, role is chosen_word and index == selected, plot_of[role])
        return plots

    def _shapes_in(self, plot: pg.PlotItem, mapping: Mapping, plot_of: dict[Role, pg.PlotItem]) -> _PlotShapes:
        """Every arrow's shaft and head in this plot, labelled or not: labels keep off all of them.

        Kept from one placement to the next: a drag move changes a few arrows (the dragged one, the
        output, those whose weight changed their width), and only theirs are worked out again.
        """
        arrows = self._arrows_in(plot, plot_of)
        shapes = self._plot_shapes.get(plot)
        if shapes is not None and shapes.mapping == mapping and len(shapes.arrows) == len(arrows) \
                and all(map(operator.is_, shapes.arrows, arrows)):
            versions = shapes.versions
            for slot, item in enumerate(arrows):
                if item.shape_version != versions[slot]:
                    first = slot * SHAPES_PER_ARROW
                    old = shapes.index.shapes[first:first + SHAPES_PER_ARROW]
                    new = item.obstacles(mapping)
                    shapes.index.set(slot, new)
                    versions[slot] = item.shape_version
                    # Where the arrow was and where it is now: the labels round either may move.
                    shapes.changed.extend(shape for shape in (*old, *new) if shape[0] <= shape[2])
            return shapes
        index = ShapeIndex.of_owners([item.obstacles(mapping) for item in arrows], SHAPES_PER_ARROW, SHAFT_SLOT)
        return _PlotShapes(mapping, arrows, [item.shape_version for item in arrows], index)

    def _arrows_in(self, plot: pg.PlotItem, plot_of: dict[Role, pg.PlotItem]) -> list[ArrowItem]:
        """Every arrow drawn in this plot, labelled or not."""
        arrows = [arrow for role in ROLES if plot_of[role] is plot for arrow in self.arrows[role]]
        return [*arrows, self.output_arrow] if plot is self.plots.vo_plot else arrows
