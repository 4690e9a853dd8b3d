"""The Model heads panel: a real language model's heads for a sentence the student types.

From the top: the model (its name and size, or the progress of its load, or how to add the
optional pack when it is missing), the sentence, the tokens as the model splits it, the
model's five likeliest next tokens, and two tabs: every head as a thumbnail (HeadGrid) and
Find heads (FindHeadsPanel), with "RoPE on" beside them: unticked, a head opens with q and k
from before RoPE turned them (`rope_changed`). The panel only shows; ModelController loads and
runs the model on its thread and opens the heads chosen here (`head_chosen`).
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
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.model.pretrained.pack import PACK_MODEL_NAME
from attn_desktop.ui.pretrained.find_heads_panel import FindHeadsPanel
from attn_desktop.ui.pretrained.pattern_thumbnails import HeadGrid
from attn_desktop.ui.pretrained.pretrained_worker import LoadedModel, RunResult
from attn_desktop.ui.pretrained.token_strip import TokenStrip

TYPING_PAUSE_MS = 150  # a sentence runs once typing pauses this long (older waiting ones are dropped anyway)
ERROR_STYLE = "color: #B00020;"
NO_MODEL_TEXT = "No model loaded."
GRID_HINT = "Click a head to open it."
ROPE_TOOLTIP = ("Ticked: heads open with q and k turned by RoPE for their positions, as the model computes. "
                "Unticked: q and k as the model made them, before the turns; the head on the canvas opens again "
                "that way (its pattern without knowing where each word is).")
GRID_TOOLTIP = ("Each square is one head's attention weights: query rows down, key columns across (grey: masked). "
                "Outlined: the heads Find heads lists for its two tokens.")


def model_shape(model: LoadedModel) -> str:
    """"30 layers × 9 heads": what the grid shows."""
    config = model.config
    return f"{config.layer_count} layers \u00d7 {config.head_count} heads" if config is not None else ""


def model_details(model: LoadedModel) -> str:
    """"9 query heads share 3 key/value heads, each 64 wide · 538 MB in memory · loaded in 7.2 s"."""
    config = model.config
    parts = []
    if config is not None:
        shared = (f"{config.head_count} query heads share {config.kv_head_count} key/value heads, each"
                  if config.kv_head_count != config.head_count else "heads")
        parts.append(f"{shared} {config.head_width} wide")
    if model.memory_bytes:
        megabytes = model.memory_bytes / 1e6
        parts.append(f"{megabytes:,.0f} MB in memory" if megabytes >= 10 else f"{megabytes:.2g} MB in memory")
    parts.append(f"loaded in {model.seconds:.1f} s")
    return " \u00b7 ".join(parts)


class ModelHeadsPanel(QWidget):
    sentence_changed = Signal(str)  # typed (after a short pause) or Enter
    # (layer, head, query): from the grid (query -1: the scene's own choice) or a Find heads list (its query)
    head_chosen = Signal(int, int, int)
    open_model_requested = Signal()
    load_pack_requested = Signal()
    induction_requested = Signal(int, int)  # (length, seed): Find heads → Induction heads wants this sequence read
    induction_head_chosen = Signal(int, int)  # (layer, head) to open on the sequence read
    rope_changed = Signal(bool)  # "RoPE on" ticked or unticked by the user

    def __init__(self, default_sentence: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: LoadedModel | None = None
        self.result: RunResult | None = None
        self._build_model_part()
        self._build_sentence_part(default_sentence)
        self._build_tabs()
        self._lay_out()
        self.show_no_model()

    # ----- building --------------------------------------------------------------------------
    def _build_model_part(self) -> None:
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setAccessibleName("Model")
        self.pack_button = QPushButton(f"Load {PACK_MODEL_NAME.split('-')[0]}")  # "Load SmolLM2": fits a narrow column
        self.pack_button.setToolTip(f"{PACK_MODEL_NAME}, the optional model pack's model, read from this computer "
                                    "(nothing is downloaded)")
        self.pack_button.clicked.connect(self.load_pack_requested)
        self.open_button = QPushButton("Open Model\u2026")
        self.open_button.setToolTip("Read another LLaMA-style model from a GGUF file on this computer")
        self.open_button.clicked.connect(self.open_model_requested)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setAccessibleName("Loading the model")
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.message_label = QLabel()  # a missing pack and how to add it; a sentence the model refuses
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # copy the command
        self.message_label.setAccessibleName("Message")

    def _build_sentence_part(self, default_sentence: str) -> None:
        self.sentence_box = QLineEdit(default_sentence)
        self.sentence_box.setAccessibleName("Sentence")
        self.sentence_box.setPlaceholderText("Type a sentence")
        self.sentence_box.setClearButtonEnabled(True)
        self.sentence_box.setCursorPosition(0)  # a sentence longer than the box shows its beginning
        self._typing_timer = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing_timer.timeout.connect(self._announce_sentence)
        self.sentence_box.textEdited.connect(lambda _text: self._typing_timer.start())
        self.sentence_box.returnPressed.connect(self._announce_sentence)
        self.token_strip = TokenStrip("Tokens")
        self.next_strip = TokenStrip("Next token")

    def _build_tabs(self) -> None:
        self.grid = HeadGrid()
        self.grid.head_chosen.connect(lambda layer, head: self.head_chosen.emit(layer, head, -1))
        self.grid.hovered.connect(self._on_grid_hovered)
        self.grid.current_changed.connect(self._on_grid_current)
        self.grid_scroll = QScrollArea()
        self.grid_scroll.setWidget(self.grid)
        self.grid_scroll.setWidgetResizable(True)
        self.grid_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always there: a bar that came and went would change the width, the cells, and so the height again.
        self.grid_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.grid_scroll.setMinimumHeight(100)
        self.head_label = QLabel(GRID_HINT)  # what the grid shows, or the head pointed at
        self.head_label.setWordWrap(True)
        self.head_label.setToolTip(GRID_TOOLTIP)
        self.grid.setToolTip(GRID_TOOLTIP)
        self._run_text = ""
        grid_page = QWidget()
        grid_layout = QVBoxLayout(grid_page)
        grid_layout.setContentsMargins(2, 2, 2, 2)
        grid_layout.addWidget(self.head_label)
        grid_layout.addWidget(self.grid_scroll, 1)

        self.find_panel = FindHeadsPanel()
        self.find_panel.head_chosen.connect(
            lambda layer, head: self.head_chosen.emit(layer, head, self.find_panel.query_index))
        self.find_panel.linked_heads_changed.connect(self.grid.set_marked)
        self.induction_panel = self.find_panel.induction_panel
        self.induction_panel.probe_requested.connect(self.induction_requested)
        self.find_panel.induction_head_chosen.connect(self.induction_head_chosen)
        self.find_scroll = find_scroll = QScrollArea()
        find_scroll.setWidget(self.find_panel)
        find_scroll.setWidgetResizable(True)
        find_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(grid_page, "All heads")
        self.tabs.addTab(find_scroll, "Find heads")
        self.rope_box = QCheckBox("RoPE on")  # beside the tabs: it applies to a head opened from either
        self.rope_box.setChecked(True)
        self.rope_box.setToolTip(ROPE_TOOLTIP)
        self.rope_box.clicked.connect(self.rope_changed)
        self.tabs.setCornerWidget(self.rope_box, Qt.Corner.TopRightCorner)
        self.tabs.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)

    def _lay_out(self) -> None:
        buttons = QVBoxLayout()  # shown only while no model is loaded; one above the other fits a narrow column
        buttons.addWidget(self.pack_button, 0, Qt.AlignmentFlag.AlignLeft)
        buttons.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        sentence_row = QHBoxLayout()
        sentence_row.addWidget(QLabel("Sentence"))
        sentence_row.addWidget(self.sentence_box, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.model_label)
        layout.addLayout(buttons)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.message_label)
        layout.addLayout(sentence_row)
        layout.addWidget(self.token_strip)
        layout.addWidget(self.next_strip)
        layout.addWidget(self.tabs, 1)

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
        self.model_label.setText(f"<b>{NO_MODEL_TEXT}</b>")
        self._show_progress(None)
        self._set_model_parts_enabled(False)
        self._show_buttons(True)

    def show_loading(self, name: str) -> None:
        self.model_label.setText(f"<b>Loading {html.escape(name)}\u2026</b>")
        self._show_message("")
        self._show_buttons(False)  # with a model loaded, File → Open Model… is enough
        self._show_progress(0.0, "Opening the file")

    def show_progress(self, fraction: float, text: str) -> None:
        self._show_progress(fraction, text)

    def show_model(self, model: LoadedModel) -> None:
        """A model loaded: its summary; the sentence runs next (the controller asks)."""
        self.model = model
        # One line for the class; the rest for whoever points at it.
        self.model_label.setText(f"<b>{html.escape(model.name)}</b> \u00b7 {html.escape(model_shape(model))}")
        self.model_label.setToolTip(f"{model_details(model)}\n{model.path}")
        self._show_progress(None)
        self._show_message("")
        self._show_buttons(False)  # with a model loaded, File → Open Model… is enough
        self._set_model_parts_enabled(True)
        if model.longest_probe:
            self.induction_panel.set_longest(model.longest_probe)

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
            self.progress_bar.setFormat(f"{100 * fraction:.0f} %")
            self.progress_label.setText(text)

    def _show_message(self, text: str, error: bool = True) -> None:
        self.message_label.setText(text)
        self.message_label.setStyleSheet(ERROR_STYLE if error else "")
        self.message_label.setVisible(bool(text))

    def _set_model_parts_enabled(self, on: bool) -> None:
        for widget in (self.sentence_box, self.tabs):
            widget.setEnabled(on)

    # ----- runs --------------------------------------------------------------------------------
    def show_running(self, running: bool) -> None:
        if running and self.model is not None:
            self.head_label.setText("Running the sentence through every layer\u2026")
        elif not running:
            self.head_label.setText(self._grid_text())

    def _grid_text(self) -> str:
        return f"{self._run_text} {GRID_HINT}" if self._run_text else GRID_HINT

    def show_result(self, result: RunResult) -> None:
        self.result = result
        run = result.run
        self._show_message("")
        self._show_results_current(True)
        self.token_strip.show_tokens(run.tokens)
        self.next_strip.show_predictions(run.next_tokens)
        self._run_text = f"{len(run.tokens)} tokens in {result.seconds:.2f} s."
        self.head_label.setText(self._grid_text())
        self.grid.set_attention(run.attention)
        self.grid.set_descriptions(kind_descriptions(result.kinds))
        self.find_panel.show_run(run, result.kinds)

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

    # ----- pointing at heads -------------------------------------------------------------------
    def _on_grid_hovered(self, layer: int, head: int) -> None:
        self.head_label.setText(self.grid.describe(layer, head) if layer >= 0 else self._grid_text())

    def _on_grid_current(self, layer: int, head: int) -> None:
        box = self.grid.cell_rect(layer, head)
        self.grid_scroll.ensureVisible(box.center().x(), box.center().y(), box.width(), box.height())
        if self.grid.hasFocus():
            self.head_label.setText(f"{self.grid.describe(layer, head)} (Enter opens it)")


def kind_descriptions(kinds: dict[Any, list[Any]]) -> dict[tuple[int, int], str]:
    """"previous-token head (82 %)" for each head a rule found, by (layer, head)."""
    described: dict[tuple[int, int], list[str]] = {}
    for kind, found in kinds.items():
        singular = kind.title[:-1].lower() if kind.title.endswith("s") else kind.title.lower()
        for score in found:
            described.setdefault((score.layer, score.head), []).append(f"{singular} ({100 * score.score:.0f} %)")
    return {head: ", ".join(texts) for head, texts in described.items()}

