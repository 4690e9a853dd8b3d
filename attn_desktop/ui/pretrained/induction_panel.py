"""Induction heads in the Find heads tab: the model reads random tokens twice, and each head is scored.

From the top: the rule and its threshold, the length of the random sequence (changeable) and its seed
(New sequence draws the next one), what the model read, the top heads (choosing one opens it as a scene
on that same sequence, where its stripe runs R - 1 places left of the diagonal), which layers hold
previous-token heads that could feed them, and every head of the model coloured by its score (dark 0,
yellow 1, as the attention thumbnails; a click opens a head too). Under what was read, the model's loss
on the second copy: how well it predicts each copied token, and, with heads knocked out in the grid,
how much worse it does without them (`show_knocked_probe`). The panel only shows and asks
(`probe_requested`); the model's thread does the reading.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from attn_desktop.language import N_, ntr, number, percent, tr
from attn_desktop.model.pretrained.induction import (
    DEFAULT_LENGTH,
    DEFAULT_SEED,
    INDUCTION_THRESHOLD,
    MAX_LENGTH,
    MAX_SEED,
    MIN_LENGTH,
    TOP_COUNT,
)
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.pretrained.head_list import HeadList, head_item_text
from attn_desktop.ui.pretrained.pattern_thumbnails import HeadGrid, short_head_name

INDUCTION_RULE_TEXT = N_(
    "The model reads R random tokens, then the same R again. An induction head looks, from each token of "
    "the second copy, at the token that followed it in the first copy: on average at least "
    "{share} of its attention."
)
INDUCTION_RULE = INDUCTION_RULE_TEXT.format(share=f"{INDUCTION_THRESHOLD:.0%}")  # in English
SCORE_GRID_NAME = N_("Induction score of every head, layers down and heads across")


def induction_rule() -> str:
    """The rule, with its threshold, in the language shown."""
    return tr(INDUCTION_RULE_TEXT).format(share=percent(INDUCTION_THRESHOLD))


def score_text(layer: int, head: int, score: float) -> str:
    mark = " \u2713" if score >= INDUCTION_THRESHOLD else ""
    return head_item_text(layer, head, score) + mark


class InductionPanel(QWidget):
    probe_requested = Signal(int, int)  # (length, seed): read this sequence
    head_chosen = Signal(int, int)  # (layer, head), to open on the sequence read

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.probe: Any = None  # the InductionProbe shown
        self.seed = DEFAULT_SEED
        self.rule_label = QLabel(induction_rule())
        self.rule_label.setWordWrap(True)
        self.length_box = QSpinBox()
        self.length_box.setAccessibleName(tr("Random tokens in each copy"))
        self.length_box.setToolTip(tr("R: how many random tokens the model reads, before reading them again"))
        self.length_box.setRange(MIN_LENGTH, MAX_LENGTH)
        self.length_box.setValue(DEFAULT_LENGTH)
        self.length_box.setKeyboardTracking(False)  # typing "35" asks once, for 35, not for 3 first
        self.length_box.valueChanged.connect(lambda _length: self.request())
        self.new_button = QPushButton(tr("New sequence"))
        self.new_button.setToolTip(tr("Other random tokens (the next seed)"))
        self.new_button.clicked.connect(self._next_seed)
        self.sequence_label = QLabel()
        self.sequence_label.setWordWrap(True)
        self.sequence_label.setAccessibleName(tr("Sequence read"))
        self.loss_label = QLabel()
        self.loss_label.setWordWrap(True)
        self.loss_label.setAccessibleName(tr("Loss on the second copy"))
        self.loss_label.setToolTip(tr("The mean cross-entropy, in nats, of the model's prediction of each token of "
                                      "the second copy: 0 is certain and right; ln(vocabulary) is a blind guess."))
        self.knocked_probe: Any = None  # the same sequence read with the knocked-out heads off
        self.top_list = HeadList(tr("Top induction heads"))
        self.top_list.head_chosen.connect(self.head_chosen)
        self.feeding_label = QLabel()
        self.feeding_label.setWordWrap(True)
        self.feeding_label.setAccessibleName(tr("Previous-token heads that could feed them"))
        self.score_grid = HeadGrid()
        self.score_grid.setAccessibleName(tr(SCORE_GRID_NAME))
        self.score_grid.setToolTip(tr("Each square is one head, coloured by its induction score: dark 0, yellow 1. "
                                      "Outlined: the heads meeting the rule."))
        self.score_grid.head_chosen.connect(self.head_chosen)
        self._lay_out()
        self._show_seed()
        follow_language(self, self._reword)

    def _lay_out(self) -> None:
        # Two short rows rather than one long one: the panel is a narrow column at 1024 × 768.
        settings = QHBoxLayout()
        # Translators: the symbol for the number of random tokens in each copy
        settings.addWidget(QLabel(tr("R")))
        settings.addWidget(self.length_box)
        self.seed_label = QLabel()
        settings.addWidget(self.seed_label)
        settings.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.rule_label)
        layout.addLayout(settings)
        layout.addWidget(self.new_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.sequence_label)
        layout.addWidget(self.loss_label)
        self.top_title = top_title = QLabel(top_title_text())
        top_title.setWordWrap(True)
        layout.addWidget(top_title)
        layout.addWidget(self.top_list)
        layout.addWidget(self.feeding_label)
        layout.addWidget(self.score_grid)

    # ----- asking ------------------------------------------------------------------------------
    @property
    def length(self) -> int:
        return int(self.length_box.value())

    def request(self) -> None:
        """Ask for the sequence of the length and seed shown (the answer comes to show_probe)."""
        self.sequence_label.setText(tr("Reading {count} random tokens twice\u2026").format(count=self.length))
        self.probe_requested.emit(self.length, self.seed)

    def is_current(self, probe: Any) -> bool:
        return probe is not None and (probe.length, probe.seed) == (self.length, self.seed)

    def set_longest(self, longest: int) -> None:
        """The model's longest R (fewer with a beginning-of-text token, or a small vocabulary)."""
        self.length_box.blockSignals(True)
        self.length_box.setMaximum(max(MIN_LENGTH, longest))
        self.length_box.blockSignals(False)

    def forget(self) -> None:
        """A new model: the scores shown were another model's."""
        self.probe = self.knocked_probe = None
        self.loss_label.setText("")
        self.top_list.show_heads([], tr("Not read yet"))
        self.feeding_label.setText("")
        self.sequence_label.setText("")

    def _next_seed(self) -> None:
        self.seed = self.seed + 1 if self.seed < MAX_SEED else 0
        self._show_seed()
        self.request()

    def _show_seed(self) -> None:
        self.seed_label.setText(tr("seed {seed}").format(seed=self.seed))

    def _reword(self) -> None:
        """Another language: every text this panel words itself, again."""
        self.rule_label.setText(induction_rule())
        self.top_title.setText(top_title_text())
        self._show_seed()
        if self.probe is not None:
            knocked = self.knocked_probe
            self.show_probe(self.probe)
            if knocked is not None:
                self.show_knocked_probe(knocked)

    # ----- showing -----------------------------------------------------------------------------
    def show_probe(self, probe: Any) -> None:
        """A sequence read: its scores, unless the length or seed has changed since it was asked for."""
        if not self.is_current(probe):
            return
        self.probe, self.knocked_probe = probe, None
        self.loss_label.setText(loss_text(probe, None))
        self.sequence_label.setText(sequence_text(probe))
        self.top_list.show_heads([(s.layer, s.head, score_text(s.layer, s.head, s.score)) for s in probe.top()],
                                 tr("No heads"))
        self.feeding_label.setText(feeding_text(probe))
        self.score_grid.set_attention(np.asarray(probe.scores)[:, :, None, None])  # one square per head
        self.score_grid.set_descriptions({(layer, head): tr("induction score {score} %").format(
                                              score=number(100 * probe.scores[layer, head], 0))
                                          for layer, head in np.ndindex(probe.scores.shape)})
        self.score_grid.set_marked([(s.layer, s.head) for s in probe.induction_heads()])

    def show_knocked_probe(self, probe: Any) -> None:
        """The same sequence read with the knocked-out heads off: the loss beside the intact model's."""
        if self.is_current(probe) and self.probe is not None:
            self.knocked_probe = probe
            self.loss_label.setText(loss_text(self.probe, probe))

    def show_problem(self, length: int, seed: int, message: str) -> None:
        """Why the sequence of LENGTH and SEED could not be read (nothing, if another is wanted by now)."""
        if (length, seed) == (self.length, self.seed):
            self.sequence_label.setText(f"{message[:1].upper()}{message[1:]}")


def top_title_text() -> str:
    return tr("<b>Top {count} heads</b> (\u2713 meets the rule)").format(count=TOP_COUNT)


def sequence_text(probe: Any) -> str:
    """What the model read: "SmolLM2 read 61 tokens: 30 random ones twice after its beginning token. …"."""
    run = probe.run
    values = {"model": run.model_name, "count": len(run.token_ids), "length": probe.length,
              "places": probe.length - 1}
    if probe.start:
        return tr("{model} read {count} tokens: {length} random ones twice after its beginning token. "
                  "Opening a head shows its stripe {places} places left of the diagonal.").format(**values)
    return tr("{model} read {count} tokens: {length} random ones twice. "
              "Opening a head shows its stripe {places} places left of the diagonal.").format(**values)


def loss_text(probe: Any, knocked: Any) -> str:
    """The loss line: "Loss on the second copy: 0.42 nats; 3.10 with L5 H1 knocked out."."""
    loss = number(probe.loss, 2)
    if knocked is None or not knocked.knocked_out:
        return tr("Loss on the second copy: {loss} nats.").format(loss=loss)
    heads = sorted(knocked.knocked_out)
    named = ", ".join(short_head_name(layer, head) for layer, head in heads[:6]) + (" …" if len(heads) > 6 else "")
    return tr("Loss on the second copy: {loss} nats; {knocked_loss} with {heads} knocked out.").format(
        loss=loss, knocked_loss=number(knocked.loss, 2), heads=named)


def feeding_text(probe: Any) -> str:
    """Which layers hold previous-token heads before the induction heads, in one sentence."""
    found = probe.induction_heads()
    first = min(s.layer for s in (found or probe.top(1)))
    heads = probe.feeding_heads()
    if not heads:
        return tr("No previous-token head (on this sequence) comes before layer {layer}.").format(layer=first)
    layers = sorted({s.layer for s in heads})
    named = ", ".join(short_head_name(s.layer, s.head) for s in sorted(heads, key=lambda s: (s.layer, s.head)))
    return ntr("Previous-token heads before layer {layer}, which could feed them: layer {layers} ({heads}).",
               "Previous-token heads before layer {layer}, which could feed them: layers {layers} ({heads}).",
               len(layers)).format(layer=first, layers=", ".join(map(str, layers)), heads=named)


__all__ = ["INDUCTION_RULE", "InductionPanel"]
