"""Predict, then see: the rounds of guessing a query's weights before they are shown.

With the option on, a round goes:

  READY ──drag starts / arrow key──► MOVING: every panel that would tell the weights is veiled
  MOVING ──release──► GUESSING: grey guess bars on the weights chart, starting at the weights
                      before the move; drag them (or ↑/↓), or pick the winner; then Reveal (Enter)
  GUESSING ──Reveal──► REVEALED: the guess beside the real weights, the difference and the score

A drag during GUESSING moves the arrow again and keeps the guess. A move that leaves the weights
as they were (a value dragged, a drag cancelled with Esc) has nothing to guess: the veil lifts.
Choosing another query or another scene mid-round skips the round. Each revealed round adds to
the session's score and to the record in the progress file.

While the option is off the controller does nothing on a drag: it follows the scene only while on.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from attn_desktop.language import N_, ntr, tr
from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.model.teaching.prediction import (
    Comparison,
    SessionScore,
    compare,
    even_guess,
    winner_guess,
    with_share,
)
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.canvas.drag_controller import DragController
from attn_desktop.ui.panels.weights_chart import ChartPhase, WeightsChart
from attn_desktop.ui.predict.predict_bar import GUESSING_TEXT, PredictBar
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.view_state.weights_veil import WeightsVeil

READY_TEXT = N_("<b>Predict</b> is on: move a query or a key.")  # these texts shown as tr(...)
MOVING_TEXT = N_("<b>Predict:</b> release, then guess.")
HOW_TO_GUESS = N_("Drag a grey bar's top (or choose a bar with ←/→ and move it with ↑/↓): the other keys share the "
                  "rest, so the guess always adds up to 100%. Or pick only the winner. Then Reveal (Enter).")
UNCHANGED_TEXT = N_("Nothing to guess: the weights did not change (a value moves only the output).")
SKIPPED_TEXT = N_("Round skipped: the query or the scene changed.")


class Phase(enum.Enum):
    OFF = "off"
    READY = "ready"
    MOVING = "moving"
    GUESSING = "guessing"
    REVEALED = "revealed"


class PredictionController(QObject):
    revealed = Signal()  # a round's guess was revealed (the Code panel shows how it was scored)
    announcement = Signal(str)  # the revealed round's verdict in words, for a screen reader

    def __init__(self, scene: Scene | HeadReading, veil: WeightsVeil, chart: WeightsChart, bar: PredictBar,
                 drags: DragController, progress: ProgressStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reading, self.veil, self.chart, self.bar, self.progress = head_reading(scene), veil, chart, bar, progress
        self.phase = Phase.OFF
        self.session = SessionScore()
        self.last: Comparison | None = None  # the round last revealed
        self.guess = np.zeros(0)
        self._before = np.zeros(0)  # the query's weights when the round began
        self._query = 0  # the query the round is about
        self._unfollow: Callable[[], None] | None = None
        self._weights_seen: tuple[int, tuple[float, ...]] = (0, ())  # the query and weights the last change left
        self._shown_step: tuple[Callable[[], str], int] = (partial(tr, READY_TEXT), -1)  # its wording, the winner
        self._choice_before_lesson: bool | None = None  # kept while a lesson has turned the option on
        self._set_action: Callable[[bool], None] = self.set_on
        drags.dragging.connect(self._on_dragging)
        drags.nudge_starting.connect(self._on_nudge)
        chart.guess_changed.connect(self._set_share)
        chart.reveal_requested.connect(self.reveal)
        bar.winner_chosen.connect(self._choose_winner)
        bar.reveal_clicked.connect(self.reveal)

    # ----- the option ---------------------------------------------------
    @property
    def on(self) -> bool:
        return self.phase is not Phase.OFF

    def bind_action(self, set_checked: Callable[[bool], None]) -> None:
        """How a lesson turns the option on and off: through its menu item, which stays ticked to match."""
        self._set_action = set_checked

    def set_on(self, on: bool) -> None:
        """The menu's Predict, then See."""
        if on == self.on:
            return
        if on:
            self._weights_seen = self._weights_now()
            self._unfollow = follow_scene(self, self.reading, self._on_scene_changed)
            self.bar.set_tokens(self.reading.tokens)
            self._enter(Phase.READY, partial(tr, READY_TEXT))
        else:
            if self._unfollow is not None:
                self._unfollow()
                self._unfollow = None
            self.phase = Phase.OFF
            self.veil.set_on(False)
            self.chart.show_phase(ChartPhase.WEIGHTS)
        self.bar.setVisible(on)

    def follow_lesson(self, lesson_predicts: bool) -> None:
        """A lesson that predicts turns the option on; leaving it puts back the choice made before it."""
        if lesson_predicts:
            if self._choice_before_lesson is None:
                self._choice_before_lesson = self.on
                self._set_action(True)
            self.guess_first()
        elif not lesson_predicts and self._choice_before_lesson is not None:
            choice, self._choice_before_lesson = self._choice_before_lesson, None
            self._set_action(choice)

    # ----- a round ------------------------------------------------------
    def guess_first(self) -> None:
        """A round on the weights as they are, hidden from the start (a lesson opens so): the guess
        starts even, since the student has seen nothing."""
        if not self.on:
            return
        self._query = self.reading.selected
        self._before = even_guess(self.reading.n_tokens, self._allowed())
        self.guess = self._before.copy()
        self._enter(Phase.GUESSING, partial(tr, GUESSING_TEXT))

    def _on_dragging(self, dragging: bool) -> None:
        if not self.on:
            return
        if dragging:
            self._start_moving()
        else:
            QTimer.singleShot(0, self._after_move)  # a cancelled drag puts its arrow back only after this

    def _on_nudge(self) -> None:
        if self.on:
            self._start_moving()
            QTimer.singleShot(0, self._after_move)

    def _start_moving(self) -> None:
        """Veil the weights before the arrow moves; a new round unless a guess is already under way."""
        if self.phase in (Phase.READY, Phase.REVEALED):
            self._before = self.reading.selected_weights.copy()
            self._query = self.reading.selected
            self.guess = self._before.copy()  # the guess starts at the weights the student last saw
        if self.phase is not Phase.MOVING:
            self._enter(Phase.MOVING, partial(tr, MOVING_TEXT))

    def _after_move(self) -> None:
        if self.phase is not Phase.MOVING:
            return
        if np.allclose(self.reading.selected_weights, self._before, rtol=0, atol=1e-12):
            self._enter(Phase.READY, partial(tr, UNCHANGED_TEXT))
        else:
            self._enter(Phase.GUESSING, partial(tr, GUESSING_TEXT))

    def _set_share(self, index: int, share: float) -> None:
        if self.phase is Phase.GUESSING:
            self.guess = with_share(self.guess, index, share, self._allowed())
            self._enter(Phase.GUESSING, partial(tr, GUESSING_TEXT))

    def _choose_winner(self, index: int) -> None:
        if self.phase is Phase.GUESSING and self._allowed()[index]:
            self.guess = winner_guess(index, self.reading.n_tokens)
            self._enter(Phase.GUESSING, partial(tr, GUESSING_TEXT), winner=index)

    def reveal(self) -> None:
        """Show the real weights beside the guess, score the round and remember it."""
        if self.phase is not Phase.GUESSING:
            return
        self.last = result = compare(self.guess, self.reading.selected_weights)
        self.session = self.session.with_round(result)
        self.progress.record_prediction(result)
        self._enter(Phase.REVEALED, partial(self._result_text, result))
        self.revealed.emit()
        self.announcement.emit(self._spoken_result(result))

    def _on_scene_changed(self, change: Change) -> None:
        weights_before, self._weights_seen = self._weights_seen, self._weights_now()
        if change & Change.STRUCTURE:
            self.bar.set_tokens(self.reading.tokens)
            if weights_before == self._weights_seen:  # only the words or the language changed: the round stands
                self._reword()
                return
        round_on = self.phase in (Phase.MOVING, Phase.GUESSING)
        if round_on and (change & Change.STRUCTURE or self.reading.selected != self._query):
            self._enter(Phase.READY, partial(tr, SKIPPED_TEXT))
        elif self.phase is Phase.REVEALED and change & (Change.STRUCTURE | Change.SELECTION | Change.NUMBERS):
            # The guess was for the weights as they were; now the chart shows the weights as they are.
            self._enter(Phase.READY, partial(tr, READY_TEXT))

    def _weights_now(self) -> tuple[int, tuple[float, ...]]:
        """The query the class looks at and its weights, as a round sees them."""
        return self.reading.selected, tuple(self.reading.selected_weights.tolist())

    # ----- showing ------------------------------------------------------
    def _reword(self) -> None:
        """The step shown, worded again (a verdict, a skipped round) in the language of the moment."""
        if self.on:
            wording, winner = self._shown_step
            self._enter(self.phase, wording, winner)

    def _enter(self, phase: Phase, wording: Callable[[], str], winner: int = -1) -> None:
        """Show PHASE, its message worded by WORDING (again after a change of language: see _reword)."""
        self.phase = phase
        self._shown_step = (wording, winner)
        message = wording()
        self.veil.set_on(phase in (Phase.MOVING, Phase.GUESSING))
        chart_phase = {Phase.MOVING: ChartPhase.VEILED, Phase.GUESSING: ChartPhase.GUESSING,
                       Phase.REVEALED: ChartPhase.REVEALED}.get(phase, ChartPhase.WEIGHTS)
        self.chart.show_phase(chart_phase, self.guess if chart_phase is not ChartPhase.WEIGHTS else None)
        if phase in (Phase.READY, Phase.REVEALED) and self.session.rounds:
            message += f"<br><span style='color: #555'>{self._session_text()}</span>"
        tooltip = tr(HOW_TO_GUESS) if phase is Phase.GUESSING else self._record_text()
        if phase is Phase.REVEALED and self.last is not None:
            tooltip = f"{self._differences_text(self.last)}\n{tooltip}"
        self.bar.show_step(message, tooltip, guessing=phase is Phase.GUESSING, winner=winner)

    def _allowed(self) -> np.ndarray:
        return np.asarray(self.reading.result.mask[self.reading.selected], dtype=bool)

    def _winners_text(self, result: Comparison) -> str:
        """The key that really won, by its short name; "cat or dog" for a tie."""
        names = [explain.short_name(self.reading.tokens[i]) for i in result.real_winners]
        winners = names[0] if names else ""
        for name in names[1:]:
            winners = tr("{first} or {second}").format(first=winners, second=name)
        return winners

    def _result_text(self, result: Comparison) -> str:
        """"Off by 29 points · score 71 · dog wins ✓": the round in one line."""
        tokens = self.reading.tokens
        real = self._winners_text(result)
        verdict = "✓" if result.winner_right else "✗"
        if result.winner_right or result.guessed_winner is None:
            wins = tr("{winner} wins {verdict}").format(winner=real, verdict=verdict)
        else:
            wins = tr("{winner} wins, not {guessed} {verdict}").format(
                winner=real, guessed=explain.short_name(tokens[result.guessed_winner]), verdict=verdict)
        points = round(result.points_off)
        # (the English says "points" for 1 too, as it always has; other languages choose their own forms)
        return ntr("Off by <b>{points}</b> points · score <b>{score}</b> · {wins}",
                   "Off by <b>{points}</b> points · score <b>{score}</b> · {wins}", points).format(
            points=points, score=round(result.score), wins=wins)

    def _spoken_result(self, result: Comparison) -> str:
        """The round as a screen reader says it: the words of the marks (✓, ✗) and no markup."""
        tokens = self.reading.tokens
        winners = self._winners_text(result)
        if result.guessed_winner is None:  # the guess tied its largest shares: it named no winner
            verdict = tr("{winner} wins.").format(winner=winners)
        elif result.winner_right:
            # Translators: a screen reader's announcement of Predict, then see's verdict.
            verdict = tr("{winner} wins, as you guessed.").format(winner=winners)
        else:
            verdict = tr("{winner} wins, not {guessed}.").format(
                winner=winners, guessed=explain.short_name(tokens[result.guessed_winner]))
        points = round(result.points_off)
        return ntr("Revealed: off by {points} points, score {score}. {verdict}",
                   "Revealed: off by {points} points, score {score}. {verdict}", points).format(
            points=points, score=round(result.score), verdict=verdict)

    def _differences_text(self, result: Comparison) -> str:
        each = ", ".join(f"{token} {round(100 * d):+d}" for token, d in zip(self.reading.tokens, result.differences))
        return tr("Your guess minus the real weights, in points: {each}. Grey bars: your guess.").format(each=each)

    def _session_text(self) -> str:
        session = self.session
        return ntr("{rounds} round, average {average}, winners {right} of {rounds}",
                   "{rounds} rounds, average {average}, winners {right} of {rounds}", session.rounds).format(
            rounds=session.rounds, average=round(session.average), right=session.winners_right)

    def _record_text(self) -> str:
        record = self.progress.prediction_record()
        session = self._session_text() if self.session.rounds else tr("no rounds yet")
        return tr("This session: {session}. All time: {rounds} rounds, average {average}, best {best}, "
                  "winners {right} of {rounds}.").format(session=session, rounds=record.rounds,
                                                        average=round(record.average), best=round(record.best_score),
                                                        right=record.winners_right)
