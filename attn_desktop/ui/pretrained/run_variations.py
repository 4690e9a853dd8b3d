"""What a student changes about the run the Model heads panel shows, short of another sentence: heads
knocked out, tokens generated one at a time, and the logit lens read at a position.

Knocked-out heads stay knocked out for every sentence until restored (the grid keeps marking them):
they are a question asked of the model ("what if these heads said nothing?"), not an edit of a scene,
so the head on the canvas and the document are untouched, and Open head still opens the head's own
pattern. A knock-out runs the same tokens again, so a generated sequence keeps its tokens.

A generation step sends the run shown and the chosen token to the model's thread, which computes only
the new token (the earlier keys and values come from the cache). Back runs the tokens before the last
step again (remembered by the model, so instant). Typing a sentence forgets the steps.

A step is asked for from the run shown, and its answer comes later: a sentence typed meanwhile makes it
stale (dropped, `takes_step`), and heads knocked out meanwhile are applied to the step's tokens once it
arrives (the run shown before it had one token fewer). Another model loaded forgets the knocked heads and
the steps: its heads are other heads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from attn_desktop.language import tr
from attn_desktop.ui.pretrained.pretrained_heads_panel import ModelHeadsPanel


class RunVariations(QObject):
    announcement = Signal(str)  # a knock-out's effect, once its run is shown: for a screen reader

    def __init__(self, panel: ModelHeadsPanel, runner: Callable[[], Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self._runner = runner  # the model's runner, or None before a model is wanted
        self.knocked_out: frozenset[tuple[int, int]] = frozenset()
        self._before_steps: list[tuple[str, list[int]]] = []  # (sentence, token ids) before each step
        self._step_awaited: tuple[int, ...] | None = None  # the token ids of the step asked for, until it comes
        self._knocked_while_stepping = False
        self._effect_awaited = False  # a head was switched: its effect is said once its run is shown
        panel.knock_out_toggled.connect(self.toggle_knock_out)
        panel.restore_all_requested.connect(self.restore_all)
        panel.generate_requested.connect(self.generate)
        panel.back_requested.connect(self.go_back)
        panel.lens_wanted.connect(self.read_lens)

    # ----- knocking heads out -----------------------------------------------------------------
    def toggle_knock_out(self, layer: int, head: int) -> None:
        self.knocked_out = self.knocked_out ^ {(layer, head)}
        self._effect_awaited = True
        self._run_shown_again()

    def restore_all(self) -> None:
        if self.knocked_out:
            self.knocked_out = frozenset()
            self._effect_awaited = True
            self._run_shown_again()

    def say_effect(self, result: Any) -> None:
        """Once the run with the heads now knocked out is shown: its effect, said once (the panel's own words)."""
        if not self._effect_awaited or frozenset(result.run.knocked_out) != self.knocked_out:
            return  # no switch flipped, or a run from before the last one
        self._effect_awaited = False
        if self.knocked_out:
            self.announcement.emit(self.panel.knock_label.text())  # "1 head knocked out (L1 H2). '␣mat' moved most: …"
        else:
            self.announcement.emit(tr("Every head restored: the model's own prediction again."))

    def _run_shown_again(self) -> None:
        """The run shown, its very tokens, with the heads now knocked out; the grid marks them at once."""
        self.panel.show_knocked_out_marks(self.knocked_out)
        if self._step_awaited is not None:  # the run shown lacks the step's token: once it comes
            self._knocked_while_stepping = True
            return
        run, runner = self.panel.run, self._runner()
        if run is None or runner is None:
            return
        runner.run(run.sentence, self.knocked_out, list(run.token_ids))
        if self.panel.induction_panel.probe is not None:
            self.panel.induction_panel.request()  # its loss with and without the heads now off

    def model_loaded(self) -> None:
        """Another model: its heads are not the ones knocked out, and its runs not the steps made."""
        self.knocked_out = frozenset()
        self.panel.show_knocked_out_marks(self.knocked_out)
        self.sentence_typed()

    # ----- generating ---------------------------------------------------------------------------
    def sentence_typed(self) -> None:
        self._before_steps.clear()
        self._step_awaited, self._knocked_while_stepping = None, False
        self.panel.set_generated_count(0)

    def generate(self, token_id: int) -> None:
        run, runner = self.panel.run, self._runner()
        if run is None or runner is None or self._step_awaited is not None:
            return
        self._step_awaited = (*run.token_ids, token_id)
        self._before_steps.append((run.sentence, list(run.token_ids)))
        runner.extend(run, token_id)

    def takes_step(self, result: Any) -> bool:
        """Whether a step's RESULT is the one awaited (else a sentence typed since has made it stale). Once
        taken, heads knocked out meanwhile are applied to its tokens."""
        if self._step_awaited is None or tuple(result.run.token_ids) != self._step_awaited:
            return False
        self._step_awaited = None
        self.panel.set_generated_count(len(self._before_steps))
        if self._knocked_while_stepping or result.run.knocked_out != self.knocked_out:
            self._knocked_while_stepping = False
            QTimer.singleShot(0, self, self._run_shown_again)  # once the panel shows the step's run
        return True

    def step_failed(self) -> bool:
        """A step the model refused (the sentence at its limit): forgotten. Whether one was awaited."""
        if self._step_awaited is None:
            return False
        self._step_awaited, self._knocked_while_stepping = None, False
        self._before_steps.pop()
        return True

    def go_back(self) -> None:
        runner = self._runner()
        if not self._before_steps or runner is None or self._step_awaited is not None:
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
