"""A real language model loads and runs sentences on a thread of its own; the window never waits.

`ModelRunner` lives on the GUI thread and sends its work to the model's thread as jobs
(WorkerThread, ui/workers.py): a load, a sentence. `ModelOnItsThread` holds the loaded model; it
is only ever used by those jobs, so nothing on the GUI thread touches the model. What comes back
reaches the views as the runner's signals: load progress (at the screen's pace), the model
loaded (or why not), each run (or why not), and whether the thread is busy.

The random sequence that finds induction heads is a job too (`probe_induction`), queued after the
sentences sent before it (a tenth of a second for SmolLM2), and so is the logit lens of one position
(`read_lens`).

A run can have heads knocked out (their output zeroed before the layer's output projection): the
model recomputes only the layers from the first knocked head on, and the result carries the intact
model's prediction beside it (`RunResult.intact`). A generation step (`extend`) adds one token to the
run shown and computes only that token, reading the earlier tokens' keys and values from the cache.

Newer sentences supersede older ones: a sentence typed while another waits replaces it. So
however fast someone types, at most one run is under way and one waits: the last one typed.

A model that fails to load leaves the one loaded before in place: the model is swapped only once
the new one has loaded whole.

Shutting down (`ModelRunner.shutdown()`, also when the owner is destroyed and when the
application is about to quit) ends the thread. A load in progress stops at its next progress
report, so closing the window during a long load does not wait for the load to finish, and
nobody is told of a load given up.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from PySide6.QtCore import QObject, QThread, Signal, Slot

from attn_desktop.ui.workers import JobFailure, ThreadRunner

if TYPE_CHECKING:  # the model's modules load only when a model is first wanted: start-up stays quick
    from attn_desktop.model.pretrained.gguf_config import LlamaConfig
    from attn_desktop.model.pretrained.head_kinds import HeadKind, HeadScore
    from attn_desktop.model.pretrained.induction import InductionProbe
    from attn_desktop.model.pretrained.llama import LlamaModel
    from attn_desktop.model.pretrained.next_token import NextTokenScores
    from attn_desktop.model.pretrained.run import ModelRun

SHUTDOWN_WAIT_MS = 10_000

ProgressCallback = Callable[[float, str], None]
# Named in quotes: the model's types are known to the type checker only (see the imports above).
ModelLoader: TypeAlias = "Callable[[Path, ProgressCallback], LlamaModel]"
KindsFound: TypeAlias = "dict[HeadKind, list[HeadScore]]"  # the heads of each kind, best first
RunDescriber: TypeAlias = "Callable[[ModelRun], KindsFound]"
KnockedOutHeads = frozenset[tuple[int, int]]  # (layer, head) pairs, numbered from 0
Probes: TypeAlias = "tuple[InductionProbe, InductionProbe | None]"  # intact, and with the heads knocked out


def load_llama_model(path: Path, progress: ProgressCallback) -> LlamaModel:
    """The app's NumPy LLaMA reader (imported only when a model is first wanted: start-up stays quick)."""
    from attn_desktop.model.pretrained.llama import LlamaModel

    return LlamaModel.load(path, progress=progress)


@dataclass(frozen=True)
class LoadedModel:
    """What the views learn about a model that loaded; the model itself stays on its thread."""

    name: str
    path: Path
    config: LlamaConfig | None  # layer_count, head_count, kv_head_count, head_width, ...
    memory_bytes: int
    seconds: float  # how long the load took
    longest_probe: int = 0  # the longest R of the induction probe (0: none known)


@dataclass(frozen=True)
class LoadFailure:
    path: Path | None
    message: str  # one line, naming the file and what was found
    unavailable: bool  # the optional pack or its libraries are missing (ModelUnavailable)


@dataclass(frozen=True)
class RunResult:
    """One sentence through the model, and what the views show of it besides the run."""

    run: ModelRun
    seconds: float
    kinds: KindsFound = field(default_factory=dict)
    intact: NextTokenScores | None = None  # of the model with no head knocked out, when the run has some
    step: bool = False  # a generation step: one token added to the run before, through the key-value cache


@dataclass(frozen=True)
class RunFailure:
    sentence: str
    message: str


@dataclass(frozen=True)
class LensResult:
    """What the model says after every layer at one position of a run (ModelRun.logit_lens)."""

    run: ModelRun  # the run read
    position: int
    rows: list[list[tuple[str, float]]]  # rows[layer]: the likeliest (token, probability)


@dataclass(frozen=True)
class InductionFailure:
    length: int
    seed: int
    message: str


def probe_model(model: LlamaModel, length: int, seed: int,
                knocked_out: KnockedOutHeads = frozenset()) -> InductionProbe:
    """The model reads LENGTH random tokens twice (an InductionProbe), with KNOCKED_OUT heads off."""
    from attn_desktop.model.pretrained.induction import probe_induction

    if not knocked_out:
        return probe_induction(model, length, seed)
    return probe_induction(model, length, seed, knocked_out=knocked_out)


def longest_probe(model: LlamaModel) -> int:
    """The longest random sequence the model can read twice."""
    from attn_desktop.model.pretrained.induction import longest_length

    return longest_length(model.tokenizer)


def find_kinds(run: ModelRun) -> KindsFound:
    """Every common kind of head the model's rules find in this run, by kind."""
    from attn_desktop.model.pretrained.head_kinds import HeadKind, heads_of_kind

    return {kind: heads_of_kind(run, kind) for kind in HeadKind}


class ModelOnItsThread:
    """The loaded model and what is done with it. Every method runs on the model's thread."""

    def __init__(self, load_model: ModelLoader, describe_run: RunDescriber) -> None:
        self._load_model = load_model
        self._describe_run = describe_run
        self._model: LlamaModel | None = None

    @property
    def has_model(self) -> bool:
        return self._model is not None

    @property
    def _loaded(self) -> LlamaModel:
        """The model, for a job: every job that uses it has looked at `has_model` first."""
        if self._model is None:
            raise RuntimeError("no model has loaded")
        return self._model

    def load(self, path: Path, progress: ProgressCallback) -> LoadedModel:
        started = time.perf_counter()
        model = self._load_model(path, progress)
        self._model = model  # only now: a failed load leaves the model before it in place
        return LoadedModel(
            name=str(getattr(model, "name", path.stem)), path=path, config=getattr(model, "config", None),
            memory_bytes=int(getattr(model, "memory_bytes", 0)), seconds=time.perf_counter() - started,
            longest_probe=longest_probe(model) if hasattr(model, "run_token_ids") else 0,
        )

    def run(self, sentence: str, knocked_out: KnockedOutHeads = frozenset(),
            ids: list[int] | None = None) -> RunResult:
        """SENTENCE through the model (or IDS, read as they are, SENTENCE their text), with KNOCKED_OUT heads off."""
        started = time.perf_counter()
        run = self._run(sentence, knocked_out, ids)
        intact = self._run(sentence, frozenset(), ids).next_scores if knocked_out else None
        return RunResult(run, time.perf_counter() - started, self._describe_run(run), intact)

    def _run(self, sentence: str, knocked_out: KnockedOutHeads, ids: list[int] | None) -> ModelRun:
        options = {"knocked_out": knocked_out} if knocked_out else {}  # a model without knock-outs runs as before
        if ids is None:
            return self._loaded.run(sentence, **options)
        return dataclasses.replace(self._loaded.run_token_ids(list(ids), **options), sentence=sentence)

    def extend(self, run: ModelRun, token_id: int) -> RunResult:
        """RUN with one more token: only it is computed, the earlier keys and values read from the cache."""
        started = time.perf_counter()
        longer = self._loaded.extend(run, token_id)
        intact = None
        if run.knocked_out:  # the intact model reading the same tokens (remembered), one token longer
            intact = self._loaded.extend(self._loaded.run_token_ids(list(run.token_ids)), token_id).next_scores
        return RunResult(longer, time.perf_counter() - started, self._describe_run(longer), intact, step=True)

    def read_lens(self, run: ModelRun, position: int) -> LensResult:
        return LensResult(run, position, self._loaded.logit_lens(run, position))

    def probe_induction(self, length: int, seed: int, knocked_out: KnockedOutHeads = frozenset()) -> InductionProbe:
        return probe_model(self._loaded, length, seed, knocked_out)

    def let_go(self) -> None:
        self._model = None


def is_unavailable(error: Exception) -> bool:
    """Whether the error says the optional pack or libraries are missing (rather than a bad file)."""
    try:
        from attn_desktop.model.pretrained.pack import ModelUnavailable
    except ImportError:
        return False
    return isinstance(error, ModelUnavailable)


class ModelRunner(ThreadRunner):
    """The GUI thread's handle on the model's thread: requests in, results out.

    Call `shutdown()` before the owner goes away; it also happens when the owner is destroyed and
    when the application is about to quit.
    """

    progress = Signal(float, str)
    loaded = Signal(object)  # LoadedModel
    load_failed = Signal(object)  # LoadFailure
    ran = Signal(object)  # RunResult
    run_failed = Signal(object)  # RunFailure
    induction_ran = Signal(object)  # InductionProbe
    induction_failed = Signal(object)  # InductionFailure
    induction_knocked_ran = Signal(object)  # InductionProbe with the knocked-out heads off (after induction_ran)
    lens_read = Signal(object)  # LensResult
    lens_failed = Signal(str)  # why the lens could not be read
    busy_changed = Signal(bool)  # False comes after the result: whoever waits for "not busy" finds it there

    def __init__(self, load_model: ModelLoader = load_llama_model, parent: QObject | None = None,
                 describe_run: RunDescriber = find_kinds) -> None:
        super().__init__("model", SHUTDOWN_WAIT_MS, parent)
        self._on_its_thread = ModelOnItsThread(load_model, describe_run)  # used only by the jobs

    # ----- requests -----------------------------------------------------------------
    def load(self, path: Path) -> None:
        """Load a model file; `loaded` or `load_failed` says how it went. Sentences asked for meanwhile wait."""
        path = Path(path)
        # What the job needs, taken here: on its thread it reads nothing of the runner's.
        model, worker_thread = self._on_its_thread, self._worker_thread
        say_busy, show_progress = self.busy_changed.emit, self.progress.emit

        def load_on_its_thread() -> LoadedModel:
            worker_thread.deliver(say_busy, True)
            return model.load(path, worker_thread.progress_reporter(show_progress))

        worker_thread.submit(load_on_its_thread, self._on_loaded, lambda failure: self._on_load_failed(path, failure))

    def run(self, sentence: str, knocked_out: KnockedOutHeads = frozenset(), ids: list[int] | None = None) -> None:
        """Run a sentence (or token IDS, SENTENCE their text) with KNOCKED_OUT heads off once the thread is free,
        replacing any run still waiting."""
        model = self._on_its_thread
        self._submit_run(sentence, lambda: model.run(sentence, knocked_out, ids))

    def extend(self, run: ModelRun, token_id: int) -> None:
        """RUN with TOKEN_ID added, only the new token computed (a generation step); `ran` brings it."""
        model = self._on_its_thread
        self._submit_run(run.sentence, lambda: model.extend(run, token_id))

    def _submit_run(self, sentence: str, work: Callable[[], RunResult]) -> None:
        model, worker_thread, say_busy = self._on_its_thread, self._worker_thread, self.busy_changed.emit

        def run_on_its_thread() -> RunResult | None:
            if not model.has_model:
                return None  # nothing to run it through
            worker_thread.deliver(say_busy, True)
            return work()

        worker_thread.submit_newest(run_on_its_thread, self._on_ran,
                                    lambda failure: self._on_run_failed(sentence, failure))

    def read_lens(self, run: ModelRun, position: int) -> None:
        """What the model says after each layer at POSITION of RUN; `lens_read` brings it."""
        model, worker_thread = self._on_its_thread, self._worker_thread

        def lens_on_its_thread() -> LensResult | None:
            return model.read_lens(run, position) if model.has_model else None

        worker_thread.submit(lens_on_its_thread, self._on_lens_read, lambda failure: self.lens_failed.emit(failure.message))

    def probe_induction(self, length: int, seed: int, knocked_out: KnockedOutHeads = frozenset()) -> None:
        """Read LENGTH random tokens (drawn with SEED) twice once the thread is free; `induction_ran` brings the
        scores, then, with heads KNOCKED_OUT, `induction_knocked_ran` the same read with them off (its loss)."""
        model, worker_thread, say_busy = self._on_its_thread, self._worker_thread, self.busy_changed.emit

        def probe_on_its_thread() -> Probes | None:
            if not model.has_model:
                return None
            worker_thread.deliver(say_busy, True)
            intact = model.probe_induction(length, seed)
            return intact, (model.probe_induction(length, seed, knocked_out) if knocked_out else None)

        worker_thread.submit(probe_on_its_thread, self._on_probed,
                             lambda failure: self._on_probe_failed(length, seed, failure))

    @property
    def model_thread(self) -> QThread:
        return self._worker_thread.qthread

    @Slot()
    def shutdown(self) -> None:
        """Stop the thread and wait for it to end, then let the model go; safe to call more than once."""
        super().shutdown()
        self._on_its_thread.let_go()

    # ----- what comes back (on the GUI thread) -----------------------------------------
    def _on_loaded(self, model: LoadedModel) -> None:
        self.loaded.emit(model)
        self.busy_changed.emit(False)

    def _on_load_failed(self, path: Path, failure: JobFailure) -> None:
        self.load_failed.emit(LoadFailure(path, failure.message, is_unavailable(failure.error)))
        self.busy_changed.emit(False)

    def _on_ran(self, result: RunResult | None) -> None:
        if result is not None:
            self.ran.emit(result)
            self.busy_changed.emit(False)

    def _on_probed(self, probes: Probes | None) -> None:
        if probes is not None:
            intact, knocked = probes
            self.induction_ran.emit(intact)
            if knocked is not None:
                self.induction_knocked_ran.emit(knocked)
            self.busy_changed.emit(False)

    def _on_lens_read(self, lens: LensResult | None) -> None:
        if lens is not None:
            self.lens_read.emit(lens)

    def _on_probe_failed(self, length: int, seed: int, failure: JobFailure) -> None:
        self.induction_failed.emit(InductionFailure(length, seed, failure.message))
        self.busy_changed.emit(False)

    def _on_run_failed(self, sentence: str, failure: JobFailure) -> None:
        self.run_failed.emit(RunFailure(sentence, failure.message))
        self.busy_changed.emit(False)
