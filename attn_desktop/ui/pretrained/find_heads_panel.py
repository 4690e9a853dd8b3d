"""Find heads: which heads of the model link two tokens, and which follow a common rule.

Choose a query token and a key token at or before it (the causal mask lets a token look only
back), for example " it" and " cat": the list shows the heads that put the most weight from
that query on that key, best first. Below it, each common kind of head (previous-token heads,
first-token heads) with its rule in words and the heads of this sentence that meet it.
Choosing any listed head (click, or Enter) asks for it to be opened.

The box at the top chooses what to find: heads in the sentence (the above), or induction heads,
which no sentence shows well: the model reads random tokens twice instead (InductionPanel).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.pretrained.head_list import HeadList, head_item_text
from attn_desktop.ui.pretrained.induction_panel import InductionPanel
from attn_desktop.ui.pretrained.token_strip import shown_token

TOP_HEADS = 10
IN_THE_SENTENCE, INDUCTION = 0, 1  # what the box at the top offers
FIND_CHOICES = (N_("Heads in the sentence"), N_("Induction heads"))
PRONOUNS = ("it", "he", "she", "they", "him", "her", "them", "its", "his", "their")


def default_pair(tokens: list[str]) -> tuple[int, int]:
    """(query, key) to start with: the last pronoun (else the last token) and the second token, which in
    "The cat sat on the mat because it was tired" is what "it" refers back to."""
    texts = [token.strip().lower() for token in tokens]
    pronouns = [index for index, text in enumerate(texts) if text in PRONOUNS and index > 0]
    query = pronouns[-1] if pronouns else len(tokens) - 1
    return query, min(1, query)


def _nearest(tokens: list[str], text: str, near: int, last: int) -> int | None:
    """The index of the token with this text at or before LAST, nearest to NEAR; None if there is none."""
    found = [index for index, token in enumerate(tokens[: last + 1]) if token == text]
    return min(found, key=lambda index: abs(index - near)) if found else None


class FindHeadsPanel(QWidget):
    head_chosen = Signal(int, int)  # (layer, head) chosen from any list
    linked_heads_changed = Signal(object)  # [(layer, head)] listed for the chosen pair (the grid marks them)
    induction_head_chosen = Signal(int, int)  # (layer, head) of the random sequence read twice

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._run: Any = None
        self.find_box = QComboBox()
        self.find_box.setAccessibleName(tr("Find"))
        self.find_box.addItems([tr(choice) for choice in FIND_CHOICES])
        self.find_box.setToolTip(tr("Induction heads: the model reads random tokens twice instead of the sentence"))
        self.find_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.find_box.setMinimumContentsLength(8)
        self.find_box.currentIndexChanged.connect(self._on_find_chosen)
        self.induction_panel = InductionPanel()
        self.induction_panel.head_chosen.connect(self.induction_head_chosen)
        self.query_box = QComboBox()
        self.query_box.setAccessibleName(tr("Query token"))
        self.query_box.setToolTip(tr("The token that looks"))
        self.key_box = QComboBox()
        self.key_box.setAccessibleName(tr("Key token"))
        self.key_box.setToolTip(tr("The token looked at: this one or an earlier one (the causal mask)"))
        for box in (self.query_box, self.key_box):
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(8)
        self.query_box.currentIndexChanged.connect(self._on_query_chosen)
        self.key_box.currentIndexChanged.connect(self._on_key_chosen)
        self.pair_label = QLabel()
        self.pair_label.setWordWrap(True)
        self.linking_list = HeadList(tr("Heads linking the two tokens"))
        self.linking_list.head_chosen.connect(self.head_chosen)
        self.kind_lists: dict[Any, HeadList] = {}
        self._kind_labels: dict[Any, tuple[QLabel, QLabel]] = {}  # (title, rule) of each kind shown
        self._kinds_layout = QVBoxLayout()
        self._kinds_layout.setContentsMargins(0, 0, 0, 0)
        self._lay_out()
        follow_language(self, self._reword)

    def _lay_out(self) -> None:
        self.sentence_part = QWidget()
        self.induction_panel.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        choice = QFormLayout()
        choice.addRow(tr("Find"), self.find_box)
        layout.addLayout(choice)
        layout.addWidget(self.sentence_part)
        layout.addWidget(self.induction_panel)
        layout.addStretch(1)
        self._lay_out_sentence_part()

    def _lay_out_sentence_part(self) -> None:
        pair = QFormLayout()
        pair.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        pair.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        pair.addRow(tr("From (query)"), self.query_box)
        pair.addRow(tr("To (key)"), self.key_box)
        layout = QVBoxLayout(self.sentence_part)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(pair)
        layout.addWidget(self.pair_label)
        layout.addWidget(self.linking_list)
        layout.addLayout(self._kinds_layout)

    # ----- what to find -----------------------------------------------------------------------
    @property
    def finds_induction(self) -> bool:
        return self.find_box.currentIndex() == INDUCTION

    def _on_find_chosen(self) -> None:
        """Induction heads: the model reads the random sequence, unless the one shown is still current."""
        induction = self.finds_induction
        self.sentence_part.setVisible(not induction)
        self.induction_panel.setVisible(induction)
        panel = self.induction_panel
        if induction and not panel.is_current(panel.probe):
            panel.request()

    # ----- a new run ----------------------------------------------------------------------
    def show_run(self, run: Any, kinds: dict[Any, list[Any]]) -> None:
        """A new sentence's run: keep the chosen tokens where the new sentence still has them."""
        old_tokens = self._run.tokens if self._run is not None else None
        old_query, old_key = self.query_index, self.key_index
        self._run = run
        tokens = list(run.tokens)
        query, key = default_pair(tokens)
        if old_tokens is not None and 0 <= old_query < len(old_tokens):
            kept_query = _nearest(tokens, old_tokens[old_query], old_query, len(tokens) - 1)
            if kept_query is not None:
                query = kept_query
                kept_key = _nearest(tokens, old_tokens[old_key], old_key, query) if old_key >= 0 else None
                key = kept_key if kept_key is not None else min(key, query)
        self._fill_boxes(tokens, query, key)
        self._show_kinds(kinds)
        self._show_linking()

    def _fill_boxes(self, tokens: list[str], query: int, key: int) -> None:
        self.query_box.blockSignals(True)
        self.query_box.clear()
        for index, token in enumerate(tokens):
            self.query_box.addItem(f"{index}: {shown_token(token)}", index)
        self.query_box.setCurrentIndex(query)
        self.query_box.blockSignals(False)
        self._fill_keys(key)

    def _fill_keys(self, key: int) -> None:
        tokens, query = self._run.tokens, self.query_index
        self.key_box.blockSignals(True)
        self.key_box.clear()
        for index in range(query + 1):  # only keys at or before the query: the mask hides the rest
            self.key_box.addItem(f"{index}: {shown_token(tokens[index])}", index)
        self.key_box.setCurrentIndex(min(max(key, 0), query))
        self.key_box.blockSignals(False)

    @property
    def query_index(self) -> int:
        return self.query_box.currentIndex()

    @property
    def key_index(self) -> int:
        return self.key_box.currentIndex()

    def choose_pair(self, query: int, key: int) -> None:
        self.query_box.setCurrentIndex(query)
        self.key_box.setCurrentIndex(key)

    def _on_query_chosen(self) -> None:
        if self._run is not None:
            self._fill_keys(self.key_index)
            self._show_linking()

    def _on_key_chosen(self) -> None:
        if self._run is not None:
            self._show_linking()

    # ----- the lists -----------------------------------------------------------------------
    def _show_linking(self) -> None:
        from attn_desktop.model.pretrained.head_kinds import heads_linking

        run, query, key = self._run, self.query_index, self.key_index
        if run is None or query < 0 or key < 0:
            return
        found = heads_linking(run, query, key, top=TOP_HEADS)
        self.pair_label.setText(
            tr("Heads putting the most weight from \u201c{query}\u201d on \u201c{key}\u201d "
               "(share of that query\u2019s attention):").format(query=shown_token(run.tokens[query]),
                                                                 key=shown_token(run.tokens[key])))
        self.linking_list.show_heads(
            [(score.layer, score.head, head_item_text(score.layer, score.head, score.score)) for score in found],
            tr("No head looks there"))
        self.linked_heads_changed.emit([(score.layer, score.head) for score in found])

    def _show_kinds(self, kinds: dict[Any, list[Any]]) -> None:
        for kind, found in kinds.items():
            if kind not in self.kind_lists:
                self._add_kind(kind)
            self.kind_lists[kind].show_heads(
                [(score.layer, score.head, head_item_text(score.layer, score.head, score.score)) for score in found],
                tr("None in this sentence"))

    def _add_kind(self, kind: Any) -> None:
        title = QLabel(f"<b>{html.escape(kind.title)}</b>")
        rule = QLabel(kind.rule)
        rule.setWordWrap(True)
        heads = HeadList(kind.title)
        heads.head_chosen.connect(self.head_chosen)
        for widget in (title, rule, heads):
            self._kinds_layout.addWidget(widget)
        self.kind_lists[kind] = heads
        self._kind_labels[kind] = (title, rule)

    def _reword(self) -> None:
        """Another language: the choices, the kinds' titles and rules, and the lists, in it."""
        for index, choice in enumerate(FIND_CHOICES):
            self.find_box.setItemText(index, tr(choice))
        for kind, (title, rule) in self._kind_labels.items():
            title.setText(f"<b>{html.escape(kind.title)}</b>")
            rule.setText(kind.rule)
            self.kind_lists[kind].setAccessibleName(kind.title)
        if self._run is not None:
            self._show_linking()
