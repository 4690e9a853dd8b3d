"""What a student changes about the run the Model heads panel shows, short of another sentence: heads
knocked out, tokens generated one at a time, and the logit lens read at a position.

Knocked-out heads stay knocked out for every sentence until restored (the grid keeps marking them):
they are a question asked of the model ("what if these heads said nothing?"), not an edit of a scene,
so the head on the canvas and the document are untouched, and Open head still opens the head's own
pattern. A knock-out runs the same tokens again, so a generated sequence keeps its tokens.

A generation step sends the run shown and the chosen token to the model's thread, which computes only
the new token (the earlier keys and values come from the cache). Back runs the tokens before the last
step again (remembered by the model, so instant). Typing a sentence forgets the steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from attn_desktop.ui.pretrained.pretrained_heads_panel import ModelHeadsPanel


class RunVariations(QObject):
    def __init__(self, panel: ModelHeadsPanel, runner: Callable[[], Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self._runner = runner  # the model's runner, or None before a model is wanted
        self.knocked_out: frozenset[tuple[int, int]] = frozenset()
        self._before_steps: list[tuple[str, list[int]]] = []  # (sentence, token ids) before each step
        panel.knock_out_toggled.connect(self.toggle_knock_out)
        panel.restore_all_requested.connect(self.restore_all)
        panel.generate_requested.connect(self.generate)
        panel.back_requested.connect(self.go_back)
        panel.lens_wanted.connect(self.read_lens)

    # ----- knocking heads out -----------------------------------------------------------------
    def toggle_knock_out(self, layer: int, head: int) -> None:
        self.knocked_out = self.knocked_out ^ {(layer, head)}
        self._run_shown_again()

    def restore_all(self) -> None:
        if self.knocked_out:
            self.knocked_out = frozenset()
            self._run_shown_again()

    def _run_shown_again(self) -> None:
        """The run shown, its very tokens, with the heads now knocked out; the grid marks them at once."""
        self.panel.show_knocked_out_marks(self.knocked_out)
        run, runner = self.panel.run, self._runner()
        if run is None or runner is None:
            return
        runner.run(run.sentence, self.knocked_out, list(run.token_ids))
        induction = self.panel.induction_panel
        if induction.probe is not None and self.panel.find_panel.finds_induction:
            induction.request()  # its loss with and without the heads now off

    # ----- generating ---------------------------------------------------------------------------
    def sentence_typed(self) -> None:
        self._before_steps.clear()
        self.panel.set_generated_count(0)

    def generate(self, token_id: int) -> None:
        run, runner = self.panel.run, self._runner()
        if run is None or runner is None:
            return
        self._before_steps.append((run.sentence, list(run.token_ids)))
        self.panel.set_generated_count(len(self._before_steps))
        runner.extend(run, token_id)

    def go_back(self) -> None:
        runner = self._runner()
        if not self._before_steps or runner is None:
            return
        sentence, ids = self._before_steps.pop()
        self.panel.set_generated_count(len(self._before_steps))
        self.panel.show_sentence(sentence)
        runner.run(sentence, self.knocked_out, ids)

    # ----- the logit lens ---------------------------------------------------------------------------
    def read_lens(self, position: int) -> None:
        run, runner = self.panel.run, self._runner()
        if run is not None and runner is not None:
            runner.read_lens(run, position)
