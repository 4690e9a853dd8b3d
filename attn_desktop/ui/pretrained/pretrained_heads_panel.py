"""The Model heads panel: a real language model's heads for a sentence the student types.

From the top: the model (its name and size, or the progress of its load, or how to add the
optional pack when it is missing), the sentence, the tokens as the model splits it, the
model's five likeliest next tokens, and four tabs (ModelHeadsTabs): every head as a thumbnail
(HeadGrid), Find heads (FindHeadsPanel), Next token (NextTokenView: the prediction at a temperature,
Generate) and Logit lens (LogitLensView), with "RoPE on" beside them: unticked, a head opens with q and k
from before RoPE turned them (`rope_changed`).

Heads knocked out in the grid (right-click, Ctrl+click or K) are part of what the panel shows, not
an edit of a scene: the run shown is the model's with them off, the Next token tab sets its bars
beside the intact model's, and a line over the grid names them with Restore all. A generation step
lights the new row of the chosen head (the grid's current one) and counts the multiply-adds the
key-value cache saved since the sentence was typed.

The panel only shows; ModelController loads and runs the model on its thread and opens the heads
chosen here (`head_chosen`); it knocks heads out and generates as asked (`knock_out_toggled`,
`generate_requested`, …).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, number, tr
from attn_desktop.model.pretrained.pack import PACK_MODEL_NAME
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.pretrained.model_heads_tabs import ModelHeadsTabs
from attn_desktop.ui.pretrained.model_texts import kind_descriptions, knock_effect, model_details, model_shape
from attn_desktop.ui.pretrained.pretrained_worker import LensResult, LoadedModel, RunResult
from attn_desktop.ui.pretrained.token_strip import TokenStrip
from attn_desktop.ui.widgets.message_overlay import MessageOverlay

TYPING_PAUSE_MS = 150  # a sentence runs once typing pauses this long (older waiting ones are dropped anyway)
ERROR_STYLE = "color: #B00020;"
NO_MODEL_TEXT = N_("No model loaded.")
ROPE_TOOLTIP = N_("Ticked: heads open with q and k turned by RoPE for their positions, as the model computes. "
                "Unticked: q and k as the model made them, before the turns; the head on the canvas opens again "
                "that way (its pattern without knowing where each word is).")
SENTENCE_BOX_CHARACTERS = 16  # the fewest a sentence box shows beside its caption


class ModelHeadsPanel(QWidget):
    sentence_changed = Signal(str)  # typed (after a short pause) or Enter
    # (layer, head, query): from the grid (query -1: the scene's own choice) or a Find heads list (its query)
    head_chosen = Signal(int, int, int)
    open_model_requested = Signal()
    load_pack_requested = Signal()
    induction_requested = Signal(int, int)  # (length, seed): Find heads → Induction heads wants this sequence read
    induction_head_chosen = Signal(int, int)  # (layer, head) to open on the sequence read
    rope_changed = Signal(bool)  # "RoPE on" ticked or unticked by the user
    knock_out_toggled = Signal(int, int)  # (layer, head) to switch off, or on again
    restore_all_requested = Signal()
    generate_requested = Signal(int)  # the token id to add to the run shown
    back_requested = Signal()  # take the last generated token away
    lens_wanted = Signal(int)  # the Logit lens tab shows, and wants this position of the run read

    def __init__(self, default_sentence: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: LoadedModel | None = None
        self.result: RunResult | None = None
        self.saved_multiply_adds = 0  # by the key-value cache, since the sentence was typed
        self.generated_count = 0  # tokens Generate added to the sentence typed
        self._lens_shown: tuple[Any, int] | None = None  # (run, position) the Logit lens tab shows
        self._build_model_part()
        self._build_sentence_part(default_sentence)
        self._build_message()
        self._build_tabs()
        self._lay_out()
        self.show_no_model()

    # ----- building --------------------------------------------------------------------------
    def _build_model_part(self) -> None:
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setAccessibleName(tr("Model"))
        self.pack_button = QPushButton(tr("Load {model}").format(model=PACK_MODEL_NAME.split('-')[0]))  # "Load SmolLM2": fits a narrow column
        self.pack_button.setToolTip(tr("{model}, the optional model pack's model, read from this computer "
                                       "(nothing is downloaded)").format(model=PACK_MODEL_NAME))
        self.pack_button.clicked.connect(self.load_pack_requested)
        self.open_button = QPushButton(tr("Open Model\u2026"))
        self.open_button.setToolTip(tr("Read another LLaMA-style model from a GGUF file on this computer"))
        self.open_button.clicked.connect(self.open_model_requested)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setAccessibleName(tr("Loading the model"))
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)

    def _build_message(self) -> None:
        """A missing pack and how to add it; a sentence the model refuses: over the panel, under the sentence
        field, which it never moves (a line in the layout pushed the field down as it appeared)."""
        self.message_label = MessageOverlay(under=self.sentence_box, panel=self)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # copy the command
        self.message_label.setAccessibleName(tr("Message"))

    def _build_sentence_part(self, default_sentence: str) -> None:
        self.sentence_box = QLineEdit(default_sentence)
        self.sentence_box.setAccessibleName(tr("Sentence"))
        self.sentence_box.setPlaceholderText(tr("Type a sentence"))
        self.sentence_box.setClearButtonEnabled(True)
        for clear_button in self.sentence_box.findChildren(QToolButton):  # Qt's clear button has an icon, no name
            clear_button.setAccessibleName(tr("Clear the sentence"))
        self.sentence_box.setCursorPosition(0)  # a sentence longer than the box shows its beginning
        self._typing_timer = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing_timer.timeout.connect(self._announce_sentence)
        self.sentence_box.textEdited.connect(lambda _text: self._typing_timer.start())
        self.sentence_box.returnPressed.connect(self._announce_sentence)
        self.token_strip = TokenStrip(tr("Tokens"))
        self.next_strip = TokenStrip(tr("Next token"))

    def _build_tabs(self) -> None:
        self.tabs = tabs = ModelHeadsTabs()
        # The pages' parts, as the panel's own (tests and the walk read them)
        self.all_heads, self.find_panel, self.find_scroll = tabs.all_heads, tabs.find_panel, tabs.find_scroll
        self.next_view, self.next_scroll, self.lens_view = tabs.next_view, tabs.next_scroll, tabs.lens_view
        page = self.all_heads
        self.grid, self.grid_scroll, self.head_label = page.grid, page.grid_scroll, page.head_label
        self.knock_label, self.restore_button = page.knock_label, page.restore_button
        self.all_heads.head_chosen.connect(lambda layer, head: self.head_chosen.emit(layer, head, -1))
        self.all_heads.knock_out_toggled.connect(self.knock_out_toggled)
        self.all_heads.restore_all_requested.connect(self.restore_all_requested)
        self.find_panel.head_chosen.connect(
            lambda layer, head: self.head_chosen.emit(layer, head, self.find_panel.query_index))
        self.find_panel.linked_heads_changed.connect(self.grid.set_marked)
        self.induction_panel = self.find_panel.induction_panel
        self.induction_panel.probe_requested.connect(self.induction_requested)
        # Knocking out the induction heads where they are found: the loss above says what they did
        self.induction_panel.score_grid.knock_out_toggled.connect(self.knock_out_toggled)
        self.induction_panel.score_grid.restore_all_requested.connect(self.restore_all_requested)
        self.find_panel.induction_head_chosen.connect(self.induction_head_chosen)
        self.next_view.generate_requested.connect(self.generate_requested)
        self.next_view.back_requested.connect(self.back_requested)
        self.next_view.temperature_slider.valueChanged.connect(lambda _value: self._show_at_temperature())
        self.lens_view.position_chosen.connect(self._ask_for_lens)
        self.tabs.currentChanged.connect(lambda _index: self._ask_for_lens())
        self.tabs.currentChanged.connect(lambda _index: QTimer.singleShot(0, self, self._show_cache_box))
        # Beside the sentence, not the tabs: four tabs need the whole width of a narrow column.
        self.rope_box = QCheckBox(tr("RoPE on"))
        self.rope_box.setChecked(True)
        self.rope_box.setToolTip(tr(ROPE_TOOLTIP))
        self.rope_box.clicked.connect(self.rope_changed)
        follow_language(self, self._reword)

    def _lay_out(self) -> None:
        buttons = QVBoxLayout()  # shown only while no model is loaded; one above the other fits a narrow column
        buttons.addWidget(self.pack_button, 0, Qt.AlignmentFlag.AlignLeft)
        buttons.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        sentence_row = QHBoxLayout()
        self.sentence_label = QLabel(tr("Sentence"))
        sentence_row.addWidget(self.sentence_label)
        sentence_row.addWidget(self.sentence_box, 1)
        sentence_row.addWidget(self.rope_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.model_label)
        layout.addLayout(buttons)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addLayout(sentence_row)
        layout.addWidget(self.token_strip)
        layout.addWidget(self.next_strip)
        layout.addWidget(self.tabs, 1)

    def heightForWidth(self, width: int) -> int:
        """As tall as its texts need at WIDTH with the tabs at their least: its dock's scroll area makes it at
        least this tall, and the tabs take whatever height is left (the layout's own answer, the tabs' preferred
        height, ran the grid's lower rows out of the dock, where no scrolling of the grid could bring them)."""
        slack = max(0, self.tabs.sizeHint().height() - self.tabs.minimumSizeHint().height())
        return super().heightForWidth(width) - slack

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_sentence_row()

    def _fit_sentence_row(self) -> None:
        """The "Sentence" caption only where the box still shows a few words beside it and RoPE on (the box's
        placeholder and accessible name say what it is)."""
        metrics = self.sentence_box.fontMetrics()
        needed = (self.sentence_label.sizeHint().width() + self.rope_box.sizeHint().width()
                  + SENTENCE_BOX_CHARACTERS * metrics.averageCharWidth() + 40)
        self.sentence_label.setVisible(self.width() >= needed)

    def _reword(self) -> None:
        """Another language: the texts built here with values, and the tab names measured again."""
        self.pack_button.setText(tr("Load {model}").format(model=PACK_MODEL_NAME.split('-')[0]))
        self.pack_button.setToolTip(tr("{model}, the optional model pack's model, read from this computer "
                                       "(nothing is downloaded)").format(model=PACK_MODEL_NAME))
        if self.model is not None and not self.loading:
            self._show_model_summary(self.model)
        elif self.model is None and not self.loading:
            self.model_label.setText(f"<b>{html.escape(tr(NO_MODEL_TEXT))}</b>")
        self.token_strip.caption, self.next_strip.caption = tr("Tokens"), tr("Next token")
        self.token_strip.setAccessibleName(self.token_strip.caption)
        self.next_strip.setAccessibleName(self.next_strip.caption)
        if self.result is not None:
            self.token_strip.show_tokens(self.result.run.tokens)
            self.all_heads.show_run_text(self._run_text(self.result))
            self._show_at_temperature()
        else:
            self.token_strip.clear_tokens()
            self.next_strip.clear_tokens()
        self.tabs.fit_names()

    # ----- what the panel holds -------------------------------------------------------------
    @property
    def sentence(self) -> str:
        return self.sentence_box.text()

    @property
    def run(self) -> Any:
        return self.result.run if self.result is not None else None

    @property
    def induction_run(self) -> Any:
        """The random sequence read twice, as the model read it (None until read)."""
        probe = self.induction_panel.probe
        return probe.run if probe is not None else None

    @property
    def loading(self) -> bool:
        return self.progress_bar.isVisibleTo(self)

    def show_rope(self, on: bool) -> None:
        """The RoPE choice made here or elsewhere (a lesson's check box), ticked or not."""
        self.rope_box.setChecked(on)

    def show_sentence(self, sentence: str) -> None:
        """Put SENTENCE in the box (the controller runs it): a head opened again reads the sentence it read."""
        self._typing_timer.stop()
        self.sentence_box.setText(sentence)
        self.sentence_box.setCursorPosition(0)

    # ----- the model's states ----------------------------------------------------------------
    def show_no_model(self) -> None:
        self.model = None
        self.model_label.setText(f"<b>{html.escape(tr(NO_MODEL_TEXT))}</b>")
        self._show_progress(None)
        self._set_model_parts_enabled(False)
        self._show_buttons(True)

    def show_loading(self, name: str) -> None:
        self.model_label.setText("<b>" + html.escape(tr("Loading {model}\u2026").format(model=name)) + "</b>")
        self._show_message("")
        self._show_buttons(False)  # with a model loaded, File → Open Model… is enough
        self._show_progress(0.0, tr("Opening the file"))

    def show_progress(self, fraction: float, text: str) -> None:
        self._show_progress(fraction, text)

    def show_model(self, model: LoadedModel) -> None:
        """A model loaded: its summary; the sentence runs next (the controller asks)."""
        self.model = model
        self._show_model_summary(model)
        self._show_progress(None)
        self._show_message("")
        self._show_buttons(False)  # with a model loaded, File → Open Model… is enough
        self._set_model_parts_enabled(True)
        if model.longest_probe:
            self.induction_panel.set_longest(model.longest_probe)

    def _show_model_summary(self, model: LoadedModel) -> None:
        # One line for the class; the rest for whoever points at it.
        self.model_label.setText(f"<b>{html.escape(model.name)}</b> \u00b7 {html.escape(model_shape(model))}")
        self.model_label.setToolTip(f"{model_details(model)}\n{model.path}")

    def forget_induction(self) -> None:
        """Another model loaded: the induction scores shown were the last one's (it asks again if they are shown)."""
        self.induction_panel.forget()
        if self.find_panel.finds_induction:
            self.induction_panel.request()

    def show_previous(self) -> None:
        """A load failed: back to what was shown before it (the model before, or none)."""
        if self.model is not None:
            self.show_model(self.model)
        else:
            self.show_no_model()

    def show_unavailable(self, message: str) -> None:
        """The optional pack or its libraries are missing: say so, and how to add them."""
        self.show_previous()
        self._show_message(message, error=False)

    def _show_buttons(self, on: bool) -> None:
        self.pack_button.setVisible(on)
        self.open_button.setVisible(on)

    def _show_progress(self, fraction: float | None, text: str = "") -> None:
        loading = fraction is not None
        self.progress_bar.setVisible(loading)
        self.progress_label.setVisible(loading and bool(text))
        if fraction is not None:
            self.progress_bar.setValue(round(fraction * 1000))
            self.progress_bar.setFormat(number(100 * fraction, 0) + " %")
            self.progress_label.setText(text)

    def _show_message(self, text: str, error: bool = True) -> None:
        self.message_label.setStyleSheet(ERROR_STYLE if error else "")
        self.message_label.say(text)

    def _set_model_parts_enabled(self, on: bool) -> None:
        for widget in (self.sentence_box, self.tabs):
            widget.setEnabled(on)

    # ----- runs --------------------------------------------------------------------------------
    def show_running(self, running: bool) -> None:
        self.next_view.set_busy(running)  # a step is made from the run shown: not while another is coming
        if self.model is not None or not running:
            self.all_heads.show_running(running)

    def show_result(self, result: RunResult) -> None:
        self.result = result
        run = result.run
        self._show_message("")
        self._show_results_current(True)
        self.token_strip.show_tokens(run.tokens)
        self.all_heads.show_run_text(self._run_text(result))
        self.grid.set_attention(run.attention)
        self.grid.set_kv_group_size(run.kv_group_size)
        self.induction_panel.score_grid.set_kv_group_size(run.kv_group_size)
        self.grid.set_descriptions(kind_descriptions(result.kinds))
        self.find_panel.show_run(run, result.kinds)
        self._show_prediction(result)
        self.lens_view.show_tokens(run.tokens)
        self._ask_for_lens()

    @staticmethod
    def _run_text(result: RunResult) -> str:
        """"10 tokens in 0.42 s.": how long the run shown took."""
        return tr("{count} tokens in {seconds} s.").format(count=len(result.run.tokens),
                                                           seconds=number(result.seconds, 2))

    # ----- knocked-out heads, the prediction, generation, the lens ----------------------------------
    def _show_prediction(self, result: RunResult) -> None:
        run = result.run
        scores = getattr(run, "next_scores", None)
        if scores is not None:
            self.next_view.show_prediction(scores, result.intact, len(getattr(run, "knocked_out", ())))
        self._show_at_temperature()
        if result.step:
            self._show_cache_step(run)
        else:
            self.next_view.clear_cache_step()
        from attn_desktop.model.pretrained.llama import MAX_SENTENCE_TOKENS  # loaded with the model

        self.next_view.set_room_for_more(len(run.token_ids) < MAX_SENTENCE_TOKENS,
                                         tr("The model reads at most {count} tokens").format(count=MAX_SENTENCE_TOKENS))

    def _show_at_temperature(self) -> None:
        """The prediction over the tabs, and the knocked heads' effect, at the Next token tab's temperature
        (every view of the prediction reads the same numbers)."""
        if self.result is None:
            return
        run, temperature = self.result.run, self.next_view.temperature
        scores = getattr(run, "next_scores", None)
        at_one = abs(temperature - 1.0) < 1e-9
        self.next_strip.caption = (tr("Next token") if at_one
                                   else tr("Next token (T {temperature})").format(temperature=number(temperature, 2)))
        self.next_strip.show_predictions(run.next_tokens if scores is None or at_one
                                         else scores.top(temperature, len(run.next_tokens)))
        knocked = frozenset(getattr(run, "knocked_out", frozenset()))
        self.show_knocked_out_marks(knocked)
        self.all_heads.show_knocked_out(knocked, knock_effect(scores, self.result.intact, temperature))

    def show_knocked_out_marks(self, knocked: frozenset) -> None:
        """Cross out the heads knocked out, in the grid and in the induction scores (before the run comes)."""
        self.grid.set_knocked_out(set(knocked))
        self.induction_panel.score_grid.set_knocked_out(set(knocked))

    def _show_cache_step(self, run: Any) -> None:
        """The step just made: the chosen head's matrix with its new row lit, and the multiply-adds saved."""
        layer, head = self.all_heads.chosen_head
        self.saved_multiply_adds += run.multiply_adds_without_cache - run.multiply_adds
        self.next_view.show_cache_step(run.attention[layer, head], run.reused_tokens, tr("Layer {layer}, head {head}").format(layer=layer, head=head),
                                       run.multiply_adds, run.multiply_adds_without_cache, self.saved_multiply_adds,
                                       step=self.generated_count)

    def _show_cache_box(self) -> None:
        """The Next token tab scrolled, as it comes to the front, to show as much of the key-value cache's room
        (below the bars at 768 lines) as shows with Generate in view: a step then scrolls nothing, and the
        next click finds Generate where the last one did."""
        if self.tabs.currentWidget() is self.next_scroll:
            self.next_scroll.ensureWidgetVisible(self.next_view.cache_box)
            self.next_scroll.ensureWidgetVisible(self.next_view.generate_button)

    def set_generated_count(self, count: int) -> None:
        """How many tokens Generate has added to the sentence typed (0: typed anew, and the cache's count
        of multiply-adds saved starts again)."""
        self.generated_count = count
        if count == 0:
            self.saved_multiply_adds = 0
        self.next_view.set_can_go_back(count > 0)

    def _ask_for_lens(self, position: int | None = None) -> None:
        """Ask for the lens of the run shown, if its tab is in front (a hidden tab waits until it is)."""
        if self.tabs.currentWidget() is not self.lens_view or self.run is None:
            return
        wanted = self.lens_view.position if position is None else position
        if self._lens_shown != (self.run, wanted):
            self.lens_view.show_waiting()
            self.lens_wanted.emit(wanted)

    def show_lens(self, lens: LensResult) -> None:
        if lens.run is self.run and lens.position == self.lens_view.position:
            self._lens_shown = (lens.run, lens.position)
            self.lens_view.show_lens(lens.position, lens.rows)

    def shows_lens_of_run(self) -> bool:
        """Whether the Logit lens tab shows the run shown (not an earlier one, nor "Reading…")."""
        return self._lens_shown is not None and self._lens_shown[0] is self.run

    def show_lens_problem(self, message: str) -> None:
        self.lens_view.show_problem(f"{message[:1].upper()}{message[1:]}")

    def show_induction(self, probe: Any) -> None:
        self.induction_panel.show_probe(probe)

    def show_induction_problem(self, failure: Any) -> None:
        self.induction_panel.show_problem(failure.length, failure.seed, failure.message)

    def show_run_problem(self, sentence: str, message: str) -> None:
        if sentence == self.sentence:  # an older sentence's problem is already out of date
            self._show_message(f"{message[:1].upper()}{message[1:]}")
            self._show_results_current(False)

    def _show_results_current(self, current: bool) -> None:
        """Grey the last sentence's tokens, predictions and heads while the sentence typed has none,
        so nobody reads them as the new sentence's (they stay, to compare with once it runs)."""
        for part in (self.token_strip, self.next_strip, self.tabs):
            part.setEnabled(current)

    def _announce_sentence(self) -> None:
        self._typing_timer.stop()
        self.sentence_changed.emit(self.sentence)
