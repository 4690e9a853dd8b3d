"""A lesson file's Predict, then see rounds: the class guesses one query's weights after another.

Opened with rounds, the lesson turns Predict, then see on as lesson 8 does (PredictionController.follow_lesson)
and chooses the first round's query, its weights hidden from the start: the class guesses (the grey bars, or the
winner), reveals (Enter), and Next Round (Enter again, or Space) chooses the next round's query, hidden again.
After the last round the option stays on for rounds of the class's own, until another lesson or scene opens and
puts back the choice made before. A round whose query the scene no longer has (a word renamed) is passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QObject, SignalInstance

from attn_desktop.language import tr
from attn_desktop.model import Scene, SceneFileError, ViewState
from attn_desktop.model.teaching.lesson_file import PredictRound
from attn_desktop.model.teaching.lesson_quantities import token_index
from attn_desktop.ui.predict.predict_bar import PredictBar


class Guessing(Protocol):
    """Predict, then see (PredictionController)."""

    @property
    def revealed(self) -> SignalInstance: ...
    def follow_lesson(self, lesson_predicts: bool) -> None: ...
    def guess_first(self) -> None: ...


class PredictRounds(QObject):
    def __init__(self, predictions: Guessing, bar: PredictBar, scene: Scene, view: ViewState,
                 parent: QObject) -> None:
        super().__init__(parent)
        self.predictions, self.bar, self.scene, self.view = predictions, bar, scene, view
        self.rounds: tuple[PredictRound, ...] = ()
        self.round = -1  # the round under way (or last revealed), -1 with none
        predictions.revealed.connect(self._after_reveal)
        bar.next_round_clicked.connect(self.next_round)

    def start(self, rounds: Sequence[PredictRound]) -> None:
        """ROUNDS, the first of them now (none: nothing changes)."""
        self.rounds, self.round = tuple(rounds), -1
        if self._choose_next_query():
            self.predictions.follow_lesson(True)  # on, and the first guess on the query chosen

    def stop(self) -> None:
        """Another lesson or scene: no rounds of this lesson's any more (the option is that lesson's to set)."""
        if self.rounds:
            self.rounds, self.round = (), -1
            self.bar.withdraw_next_round()
            self.predictions.follow_lesson(False)

    def next_round(self) -> None:
        """The next round whose query the scene has: that query chosen, its weights hidden, the guess to make."""
        self.bar.withdraw_next_round()
        if self._choose_next_query():
            self.predictions.guess_first()

    def _choose_next_query(self) -> bool:
        """Choose the query of the next round the scene can play; False when there is none."""
        found = self._next_playable()
        if found is None:
            self.round = len(self.rounds)
            return False
        self.round, query = found
        self.view.select_query(query)
        return True

    def _next_playable(self) -> tuple[int, int] | None:
        """The next round whose query the scene has (the sentence may have changed under the lesson: a round about
        a word it no longer has is passed over), and that query's row; None when there is none."""
        for number in range(self.round + 1, len(self.rounds)):
            try:
                return number, token_index(self.rounds[number].query, self.scene.query_tokens, "query")
            except SceneFileError:
                continue
        return None

    def _after_reveal(self) -> None:
        found = self._next_playable() if self.round >= 0 else None
        if found is not None:
            number = found[0]
            self.bar.offer_next_round(
                tr("Next Round ({number} of {total})").format(number=number + 1, total=len(self.rounds)),
                tr("Guess the weights of {query} next (Enter)").format(query=self.rounds[number].query))
