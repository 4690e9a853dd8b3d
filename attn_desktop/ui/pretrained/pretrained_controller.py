"""The heads of a real model in the window: load it, run the sentence typed, open a head as a scene.

Lessons → Heads of a Real Model… shows the Model heads panel and, the first time, loads the
model of the optional pack (SmolLM2). File → Open Model… loads any local GGUF file of a
LLaMA-style model instead. Both load on the model's own thread (ModelRunner): the panel shows
the progress and the window keeps answering. A file that cannot be used gets one dialog with
the reason, and nothing else changes: the model before it stays, the panel shows what it
showed. A missing pack or library is not an error: the panel says how to add them.

Opening a head (a click on the grid or a Find heads list) asks about unsaved work first, as
New and the lessons do, then puts the head in the window as a new untitled scene. Like a
lesson's scene it starts unmodified: it can always be opened again from the model, so going
from head to head asks nothing; the first edit makes it the student's work, which the usual
question then protects. After that it is ordinary work: undo, save and export all apply.
A head chosen under Find heads → Induction heads opens the same way, on the random tokens read
twice rather than the sentence.

RoPE on or off (`set_rope`, the panel's check box, or a lesson's): heads open with q and k turned
for their positions, as the model computes, or from before the turns. A head already on the canvas
that was taken from a model opens again the other way, the same query chosen: from the run the
panel holds, or, when the model or that sentence is not there, once the model has loaded and run
it on its thread (the window keeps answering).

The GGUF reader and the tokenizer are imported only when a model is first loaded: starting the
app costs nothing more, and without them the rest of the app works as before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget, QFileDialog, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model import Scene, ViewState
from attn_desktop.model.commands import open_contents
from attn_desktop.ui.pretrained.model_texts import model_details
from attn_desktop.ui.pretrained.pattern_thumbnails import short_head_name
from attn_desktop.ui.pretrained.pretrained_heads_panel import ModelHeadsPanel
from attn_desktop.ui.pretrained.pretrained_worker import (
    LoadedModel,
    LoadFailure,
    ModelLoader,
    ModelRunner,
    RunFailure,
    RunResult,
    load_llama_model,
)
from attn_desktop.ui.pretrained.run_variations import RunVariations

MODEL_FILTER = N_("GGUF models (*.gguf);;All files (*)")
STATUS_MS = 5000


class ModelDialogs(Protocol):
    """Where the heads ask and tell (see QtDocumentDialogs): the dialogs' window and its messages."""

    @property
    def window(self) -> QWidget: ...
    def show_error(self, title: str, message: str) -> None: ...
    def show_status(self, message: str, milliseconds: int) -> None: ...


class HeadDocument(Protocol):
    """The document a head opens as (see DocumentController)."""

    @property
    def modified(self) -> bool: ...
    def maybe_save_changes(self) -> bool: ...
    def start(self, path: Path | None, lesson_id: str | None) -> None: ...


def pack_model() -> Path:
    """The optional pack's model file (ModelUnavailable when it or a library is missing)."""
    from attn_desktop.model.pretrained import pack

    return pack.find_pack_model()


def install_hint() -> str:
    from attn_desktop.model.pretrained import pack

    return pack.pack_install_hint()


class ModelController(QObject):
    rope_set = Signal(bool)  # the RoPE choice, however made: another check box (a lesson's) can follow it
    announcement = Signal(str)  # a model loaded, a knock-out's effect: in words, for a screen reader

    def __init__(self, scene: Scene, view: ViewState, documents: HeadDocument, panel: ModelHeadsPanel, dock: QDockWidget,
                 show_dock: Callable[[], object], dialogs: ModelDialogs, load_model: ModelLoader = load_llama_model,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scene, self.documents, self.panel, self.dock = scene, documents, panel, dock
        self.view = view  # the window's: the query a head opens with is chosen in it
        self.show_dock = show_dock  # the panel, wide enough for its grid of heads
        self.dialogs = dialogs
        self._load_model = load_model
        self.runner: ModelRunner | None = None  # made when a model is first wanted
        self.loading: Path | None = None  # the file being loaded
        self._chosen_by_user = False  # the load under way came from Open Model… (its failure is a dialog)
        self._dock_was_visible = False
        self._grid_laid_out = True  # the panel laid out for its model's grid (a model loaded: once its heads show)
        self.shown_head: tuple[Any, int, int, bool] | None = None  # (run, layer, head, rope) last put in the window
        self.last_folder: Path | None = None
        self.rope = True  # heads open with q and k turned by RoPE (False: from before the turns)
        self._waiting_head: tuple[Any, int] | None = None  # (TakenFrom, query) to open again once its run comes
        self._waiting_reading: tuple[int, int, str, str | None] | None = None  # (layer, head, sentence, lesson) once run
        panel.sentence_changed.connect(self.run_sentence)
        panel.head_chosen.connect(self.open_head)
        panel.induction_requested.connect(self.probe_induction)
        panel.induction_head_chosen.connect(self.open_induction_head)
        panel.open_model_requested.connect(self.choose_and_open_model)
        # Shown from the View menu or by Reset Layout, the panel loads nothing by itself (seconds and
        # half a gigabyte): it offers the pack's model and Open Model… until one is chosen.
        panel.load_pack_requested.connect(self.load_pack_model)
        panel.rope_changed.connect(self.set_rope)
        # Knocked-out heads, generation steps and the logit lens (the runner is made when a model is first wanted)
        self.variations = RunVariations(panel, lambda: self.runner, parent=self)
        self.variations.announcement.connect(self.announcement)

    # ----- the commands (menu entries) -----------------------------------------------------
    def show_heads(self) -> None:
        """Lessons → Heads of a Real Model…: the panel, and the pack's model unless one is loaded."""
        self.show_dock()
        if self.panel.model is None and self.loading is None:
            self.load_pack_model()

    def load_pack_model(self) -> None:
        """Load the optional pack's model, or say in the panel how to add what is missing."""
        if self.loading is not None:
            return
        try:
            path = pack_model()
        except Exception as error:  # noqa: BLE001 - ModelUnavailable, or a damaged installation
            self.panel.show_unavailable(unavailable_text(str(error)))
            return
        self._load(path, chosen_by_user=False)

    def choose_and_open_model(self) -> None:
        """File → Open Model…: any local GGUF file."""
        folder = str(self.last_folder or (self.panel.model.path.parent if self.panel.model else Path.home()))
        chosen, _ = QFileDialog.getOpenFileName(self.dialogs.window, tr("Open Model"), folder, tr(MODEL_FILTER))
        if chosen:
            self.open_model(Path(chosen))

    def open_model(self, path: Path) -> None:
        self.last_folder = Path(path).parent
        self._dock_was_visible = self.dock.isVisible()
        self._load(Path(path), chosen_by_user=True)
        self.show_dock()

    def shutdown(self) -> None:
        """End the model's thread (the window calls this when it closes)."""
        if self.runner is not None:
            self.runner.shutdown()

    # ----- loading ------------------------------------------------------------------------------
    def _ensure_runner(self) -> ModelRunner:
        if self.runner is None:
            self.runner = ModelRunner(self._load_model, parent=self)
            self.runner.progress.connect(self.panel.show_progress)
            self.runner.loaded.connect(self._on_loaded)
            self.runner.load_failed.connect(self._on_load_failed)
            self.runner.ran.connect(self._on_ran)
            self.runner.run_failed.connect(self._on_run_failed)
            self.runner.induction_ran.connect(self.panel.show_induction)
            self.runner.induction_failed.connect(self.panel.show_induction_problem)
            self.runner.induction_knocked_ran.connect(self.panel.induction_panel.show_knocked_probe)
            self.runner.lens_read.connect(self.panel.show_lens)
            self.runner.lens_failed.connect(self.panel.show_lens_problem)
            self.runner.busy_changed.connect(self.panel.show_running)
        return self.runner

    def _load(self, path: Path, chosen_by_user: bool) -> None:
        self.loading, self._chosen_by_user = path, chosen_by_user
        self.panel.show_loading(path.name)
        self._ensure_runner().load(path)

    def _on_loaded(self, model: LoadedModel) -> None:
        self.loading = None
        self.variations.model_loaded()
        self.panel.show_model(model)
        self._grid_laid_out = False  # its first run shows the grid of its heads
        loaded = tr("Loaded {model}: {details}").format(model=model.name, details=model_details(model))
        self.dialogs.show_status(loaded, STATUS_MS)
        self.announcement.emit(loaded)
        self.run_sentence(self.panel.sentence)
        self.panel.forget_induction()

    def _on_load_failed(self, failure: LoadFailure) -> None:
        self.loading = None
        self._give_up_waiting(failure.message)
        if self._chosen_by_user:
            self.panel.show_previous()
            if not self._dock_was_visible and self.panel.model is None:
                self.dock.hide()  # as it was before Open Model…
            self.dialogs.show_error(tr("Cannot open model"), failure.message)
        elif failure.unavailable:
            self.panel.show_unavailable(unavailable_text(failure.message))
        else:
            self.panel.show_previous()
            self.panel.show_run_problem(self.panel.sentence, failure.message)  # the pack's own file is damaged

    # ----- sentences -----------------------------------------------------------------------------
    def run_sentence(self, sentence: str) -> None:
        """SENTENCE as typed (or a lesson's), with the heads knocked out; generation steps start again."""
        self.variations.sentence_typed()
        if self.runner is not None and self.panel.model is not None:
            self.runner.run(sentence, self.variations.knocked_out)

    def _on_ran(self, result: RunResult) -> None:
        if result.step:
            if not self.variations.takes_step(result):
                return  # a sentence typed since the step was asked for: its run comes next
            self.panel.show_sentence(result.run.sentence)  # the sentence the generated tokens made
        self.panel.show_result(result)
        self.variations.say_effect(result)
        self._lay_out_for_the_grid()
        self._open_waiting_head(result.run)
        self._open_waiting_reading(result.run)

    def _lay_out_for_the_grid(self) -> None:
        """Once a model's grid of heads first shows, the panel laid out again for it: the layout shown before the
        model was loaded (presentation's, as wide as the panel then needed) had not seen it, and opening the first
        head would otherwise widen the panel under the class's eyes."""
        if self._grid_laid_out:
            return
        self._grid_laid_out = True
        if self.dock.isVisible():
            self.show_dock()

    def _on_run_failed(self, failure: RunFailure) -> None:
        if self.variations.step_failed():  # the run shown stays; only the step is refused
            self.dialogs.show_status(tr("Cannot generate: {reason}").format(reason=failure.message), STATUS_MS)
            return
        self.panel.show_run_problem(failure.sentence, failure.message)
        waiting = set()  # the sentences a head waits for
        if self._waiting_head is not None:
            waiting.add(self._waiting_head[0].sentence)
        if self._waiting_reading is not None:
            waiting.add(self._waiting_reading[2])
        if failure.sentence in waiting:
            self._give_up_waiting(failure.message)

    def probe_induction(self, length: int, seed: int) -> None:
        if self.runner is not None and self.panel.model is not None:
            self.runner.probe_induction(length, seed, self.variations.knocked_out)

    # ----- opening a head ----------------------------------------------------------------------
    def open_head(self, layer: int, head: int, query: int = -1) -> None:
        """Put a head of the current run in the window; QUERY (if not -1) is the query it shows first."""
        self._open_head_of(self.panel.run, layer, head, query)

    def open_head_reading(self, layer: int, head: int, sentence: str, lesson_id: str | None = None) -> None:
        """The model pack's head LAYER, HEAD reading SENTENCE (a lesson's "open this head"): now if that run is
        at hand, else once the model has loaded (on its thread) and read the sentence. It opens as the model
        computed it, RoPE on: the lesson then asks to switch it off. LESSON_ID, the lesson that asked, stays
        shown beside the head (its exercises ask about both)."""
        self._choose_rope(True)
        run = self.panel.run
        if run is not None and run.sentence == sentence:
            self._open_head_of(run, layer, head, -1, lesson_id)
            return
        self._waiting_reading = (layer, head, sentence, lesson_id)
        self.panel.show_sentence(sentence)  # the panel reads it too, and runs it once the model is loaded
        model = self.panel.model
        doing = (tr("Running its sentence to open layer {layer}, head {head}\u2026") if model is not None
                 else tr("Loading the model to open layer {layer}, head {head}\u2026"))
        self.dialogs.show_status(doing.format(layer=layer, head=head), STATUS_MS)
        if model is not None:
            self.run_sentence(sentence)
            return
        self.load_pack_model()
        if self.loading is None:  # the pack is not installed: say so where the student pressed
            self._give_up_waiting(tr("the SmolLM2 model pack is not installed (see Lessons → Heads of a Real Model…)"))

    def _open_waiting_reading(self, run: Any) -> None:
        if self._waiting_reading is None or run.sentence != self._waiting_reading[2]:
            return
        layer, head, _, lesson_id = self._waiting_reading
        self._waiting_reading = None
        self._open_head_of(run, layer, head, -1, lesson_id)

    def open_induction_head(self, layer: int, head: int) -> None:
        """A head reading the random tokens twice: its stripe, R - 1 places left of the diagonal, in the matrix."""
        self._open_head_of(self.panel.induction_run, layer, head, -1)

    def _open_head_of(self, run: Any, layer: int, head: int, query: int, lesson_id: str | None = None) -> None:
        if run is None:
            return
        taken = self.scene.taken_from
        on_canvas = taken is not None and (taken.layer, taken.head, taken.rope) == (layer, head, self.rope)
        if self.shown_head == (run, layer, head, self.rope) and on_canvas and not self.documents.modified:
            self._select_query(query)
            return  # already in the window as it came from the model (a double click chooses twice)
        from attn_desktop.model.pretrained.head_scene import scene_data_for_head

        try:
            data = scene_data_for_head(run, layer, head, rope=self.rope)
        except ValueError as error:  # a sentence longer than a scene may hold, numbers beyond its range
            self.dialogs.show_error(tr("Cannot open head"), str(error))
            return
        if not self.documents.maybe_save_changes():
            return
        before = self.scene.to_data(self._chosen_query())
        try:
            open_contents(self.scene, data, self.view)
        except ValueError as error:  # numbers the scene cannot compute with: it goes back to what it was
            open_contents(self.scene, before, self.view)
            self.dialogs.show_error(tr("Cannot open head"), str(error))
            return
        self.documents.start(None, lesson_id)  # a lesson that asked for the head stays beside it
        self._select_query(query)
        self.shown_head = (run, layer, head, self.rope)
        knocked = sorted(getattr(run, "knocked_out", ()))
        # With heads knocked out, its weights are those of the model without them, where they come before it
        named = ", ".join(short_head_name(knocked_layer, knocked_head) for knocked_layer, knocked_head in knocked)
        if knocked:
            text = (tr("Layer {layer}, head {head} of {model} is on the canvas, with {heads} knocked out") if self.rope
                    else tr("Layer {layer}, head {head} of {model} is on the canvas, RoPE off, with {heads} knocked out"))
        else:
            text = (tr("Layer {layer}, head {head} of {model} is on the canvas") if self.rope
                    else tr("Layer {layer}, head {head} of {model} is on the canvas, RoPE off"))
        self.dialogs.show_status(text.format(layer=layer, head=head, model=run.model_name, heads=named), STATUS_MS)

    def _select_query(self, query: int) -> None:
        if 0 <= query < self.scene.n_queries:
            self.view.select_query(query)

    def _chosen_query(self) -> int:
        return self.view.chosen_query(self.scene.n_queries)

    # ----- RoPE on or off ----------------------------------------------------------------------
    def set_rope(self, on: bool) -> None:
        """Open heads with q and k turned by RoPE (ON) or from before the turns. The head on the canvas, if
        taken from a model, opens again that way with the same query; with none, the choice waits for the
        next head opened. Safe to call at any time, from any check box."""
        self._choose_rope(on)
        taken = self.scene.taken_from
        if taken is None:
            self.dialogs.show_status(tr("{rope}: the next head opened shows it").format(rope=rope_words(self.rope)),
                                     STATUS_MS)
        elif taken.rope != self.rope:
            self._reopen(taken, self._chosen_query())
            now = self.scene.taken_from
            if self._waiting_head is None and now is not None and now.rope != self.rope:
                self._choose_rope(now.rope)  # not opened again (its unsaved edits kept): the boxes say what is shown

    def _choose_rope(self, on: bool) -> None:
        """The RoPE choice, in the Model heads panel's box and any box following rope_set."""
        self.rope = bool(on)
        self.panel.show_rope(self.rope)
        self.rope_set.emit(self.rope)

    def _reopen(self, taken: Any, query: int) -> None:
        """The head TAKEN names, opened again with the RoPE chosen: now if its run is at hand, else once it is."""
        from attn_desktop.model.pretrained.head_scene import is_taken_from

        at_hand = (self.panel.run, self.shown_head[0] if self.shown_head else None, self.panel.induction_run)
        run = next((run for run in at_hand if run is not None and is_taken_from(run, taken)), None)
        if run is not None:
            self._open_head_of(run, taken.layer, taken.head, query)
            return
        model = self.panel.model
        if model is not None and model.name != taken.model:
            text = (tr("This head came from {model}; open that model to turn its RoPE on") if self.rope
                    else tr("This head came from {model}; open that model to turn its RoPE off"))
            self.dialogs.show_status(text.format(model=taken.model), STATUS_MS)
            return
        self._waiting_head = (taken, query)
        self.panel.show_sentence(taken.sentence)  # the panel shows the sentence the head reads
        doing = (tr("Running its sentence to open layer {layer}, head {head} again with {rope}\u2026")
                 if model is not None
                 else tr("Loading {model} to open layer {layer}, head {head} again with {rope}\u2026"))
        self.dialogs.show_status(doing.format(model=taken.model, layer=taken.layer, head=taken.head,
                                              rope=rope_words(self.rope)), STATUS_MS)
        if model is not None:
            self.run_sentence(taken.sentence)
            return
        self.load_pack_model()  # once loaded it runs the panel's sentence, and _on_ran opens the head
        if self.loading is None:  # the pack is not installed: the panel says how to add it
            self._give_up_waiting(tr("the model is not loaded (see the Model heads panel)"))

    def _open_waiting_head(self, run: Any) -> None:
        from attn_desktop.model.pretrained.head_scene import is_taken_from

        if self._waiting_head is None:
            return
        if run.model_name != self._waiting_head[0].model:  # the pack's model loaded for a head of another
            self._give_up_waiting(tr("it came from {model}; open that model (File → Open Model…)").format(
                model=self._waiting_head[0].model))
            self._choose_rope(not self.rope)  # the head is as it was: the boxes say so
            return
        if not is_taken_from(run, self._waiting_head[0]):
            return
        taken, query = self._waiting_head
        self._waiting_head = None
        if self.scene.taken_from == taken:  # still the head on the canvas (nothing else opened meanwhile)
            self._open_head_of(run, taken.layer, taken.head, query)

    def _give_up_waiting(self, reason: str) -> None:
        if self._waiting_head is not None:
            self._waiting_head = None
            self.dialogs.show_status(tr("Cannot open the head again with {rope}: {reason}").format(
                rope=rope_words(self.rope), reason=reason), STATUS_MS)
        if self._waiting_reading is not None:
            layer, head, _, _lesson = self._waiting_reading
            self._waiting_reading = None
            self.dialogs.show_status(tr("Cannot open layer {layer}, head {head}: {reason}").format(
                layer=layer, head=head, reason=reason), STATUS_MS)


def rope_words(on: bool) -> str:
    """What RoPE on or off means for the q and k of a head opened."""
    return tr("RoPE on (q and k turned for their positions)") if on else tr("RoPE off (q and k before the turns)")


def unavailable_text(message: str) -> str:
    """The reason a model is missing, with how to add it (once, even if the reason says it already)."""
    try:
        hint = install_hint()
    except ImportError:
        return message
    return message if hint in message else f"{message}\n{hint}"
