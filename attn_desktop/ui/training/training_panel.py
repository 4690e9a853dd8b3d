"""The Training panel: train one attention head on a task, live, and watch it learn.

The student picks a task, a seed, a learning rate and a pace; Train / Pause / Step / Reset
drive a trainer on its own thread (TrainingRunner), and the loss and accuracy curves grow as
it learns. One example sentence of the task is shown under the head as it is now: the panel
announces it as a projection scene (`example_changed`) whenever the head or the example
changes, at most about 30 times a second, for the window to show on the canvas.

Changing the task, seed or learning rate starts training again from step 0 (the same settings
always give the same run); changing the pace does not.

Induction trains two layers, not one head: for it the panel also marks the loss's plateau and drop on
the curves (LossDropMarks) and shows both layers' heads on the example, each with a knock-out switch,
with the circuit's scores (CircuitView); the window follows it too, with the layers' matrices large (side by
side where the screen has room, else one at a time; a head knocked out in the panel writing nothing there
either), but at most LAYERED_WINDOW_UPDATES_PER_SECOND times a second: redrawing a 20-letter scene of two layers on every update (up to 30 a second) took the CPU training needs
and slowed it about fourfold.
`choose_task("induction")` picks it as a click on the list would.

Translate trains an encoder-decoder: in place of the example, its own view (TranslationView) shows a sentence,
its cross-attention matrix and the words written, with knock-out switches; the second curve is the exact match.
The window is not handed its scene while it trains: the panel's matrix is the live picture (handed over, its
three plots beside the panel and the large matrix left one plot 181 px wide presenting at 1024 × 768); Keep as scene
opens its cross-attention head on the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.language.numbers import significant, whole_number
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE, OPTIMISER_NAME
from attn_desktop.model.training.translation_task import TranslationTask
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.training.circuit_view import CircuitView
from attn_desktop.ui.training.example_area import ERROR_STYLE, ExampleArea
from attn_desktop.ui.training.loss_drop_marks import LossDropMarks
from attn_desktop.ui.training.panel_tasks import (
    PANEL_TASKS,
    PanelTask,
    all_numbers,
    example_scene,
    example_text,
    first_example,
    is_layered,
    is_translation,
    parse_typed_example,
    typing_hint,
)
from attn_desktop.ui.training.training_curves import TrainingCurves
from attn_desktop.ui.training.training_texts import pace_text, status_text
from attn_desktop.ui.training.training_worker import (
    TrainerFactory,
    TrainingRunner,
    TrainingSettings,
    TrainingUpdate,
    make_real_trainer,
)
from attn_desktop.ui.training.translation_view import TranslationView
from attn_desktop.ui.widgets.flow_layout import FlowLayout
from attn_desktop.ui.widgets.vertical_scroll_area import VerticalScrollArea
from attn_desktop.ui.workers import Throttle

DEFAULT_TASK = "reverse"
DEFAULT_STEPS_PER_SECOND = 100.0
# The issue asks for at least 5 live updates a second; the panel's squares get every update (up to 30).
LAYERED_WINDOW_UPDATES_PER_SECOND = 6.0
PACES: list[float | None] = [float(pace) for pace in (1, 2, 5, 10, 20, 50, 100, 200, 500)] + [None]
MAX_SEED = 2**31 - 1

ExampleScene = Callable[[Any, Any, list[int]], SceneData]


class TrainingPanel(QWidget):
    example_changed = Signal(object)  # SceneData: the example sentence under the head as it is now (one-head tasks)
    keep_requested = Signal()  # "Keep as scene": the head as it is now, as a scene of its own
    running_changed = Signal(bool)
    announcement = Signal(str)  # a milestone (the loss's drop) or a knock-out's effect, in words: for a screen reader

    def __init__(self, tasks: Mapping[str, PanelTask] = PANEL_TASKS, make_trainer: TrainerFactory = make_real_trainer,
                 example_scene: ExampleScene = example_scene, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = dict(tasks)
        self._example_scene = example_scene
        self._running = False
        self._params: Any = None  # HeadParams (LayeredParams for induction) of the current settings, as last reported
        self._last_update: TrainingUpdate | None = None
        self._last_metrics: Any = None  # StepMetrics of the last step taken, for the status line
        self._fresh_accuracy: float | None = None  # on unseen examples, measured at the last pause
        self._picker = np.random.default_rng()  # "Pick another example" is meant to surprise
        first_task = DEFAULT_TASK if DEFAULT_TASK in self.tasks else next(iter(self.tasks))
        self.example_tokens: list[int] = first_example(self.tasks[first_task])

        self._build_settings(first_task)
        self._build_buttons()
        self.curves = TrainingCurves()
        self.curves.start(self.tasks[first_task].default_steps)
        self.drop_marks = LossDropMarks(self.curves.loss_plot, [self.curves.accuracy_plot])
        self.example_area = ExampleArea()  # hidden for translate, whose view has sentences of its own
        self.example_box = self.example_area.box
        self.pick_example_button, self.example_message = self.example_area.pick_button, self.example_area.message
        self.example_area.typed.connect(self._on_example_typed)
        self.example_area.pick_requested.connect(self.pick_another_example)
        self.circuit = self._build_circuit()
        self.translation = self._build_translation()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self._lay_out()
        self._name_controls()

        self.runner = TrainingRunner(self.settings, make_trainer, DEFAULT_STEPS_PER_SECOND, parent=self)
        self._layers_pace = Throttle(LAYERED_WINDOW_UPDATES_PER_SECOND)
        self._window_behind = False  # the window was last handed an older model than the panel shows
        self.runner.updated.connect(self._on_update)
        if self.circuit is not None:
            self.circuit.knock_out_switched.connect(self._announce_example)  # the large matrices lose the head too
            self.circuit.announcement.connect(self.announcement)
        if self.translation is not None:
            self.translation.announcement.connect(self.announcement)
        self._show_task(self.current_task)
        self._set_example(self.example_tokens)
        self._set_running(False)  # paused until Train or Step
        follow_language(self, self._reword)

    # ----- building ---------------------------------------------------------------
    def _build_settings(self, first_task: str) -> None:
        self.task_box = QComboBox()
        for name, task in self.tasks.items():
            self.task_box.addItem(tr(task.title), name)
        self.task_box.setCurrentIndex(self.task_box.findData(first_task))
        self.task_box.currentIndexChanged.connect(self._on_task_chosen)
        self.task_description = QLabel()
        self.task_description.setWordWrap(True)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, MAX_SEED)
        self.seed_box.setKeyboardTracking(False)  # one restart when the number is typed, not one per digit
        self.seed_box.valueChanged.connect(self._on_setting_changed)
        self.rate_box = QDoubleSpinBox()
        self.rate_box.setDecimals(4)
        self.rate_box.setRange(MIN_LEARNING_RATE, MAX_LEARNING_RATE)  # the command line's: far above, the head blows up
        self.rate_box.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)
        self.rate_box.setKeyboardTracking(False)
        self.rate_box.setValue(self.tasks[first_task].default_lr)
        self.rate_box.valueChanged.connect(self._on_setting_changed)
        self.pace_box = QComboBox()
        for pace in PACES:
            self.pace_box.addItem(pace_text(pace), pace)
        self.pace_box.setCurrentIndex(self.pace_box.findData(DEFAULT_STEPS_PER_SECOND))
        self.pace_box.currentIndexChanged.connect(self._on_pace_chosen)
        self.optimiser_label = QLabel(OPTIMISER_NAME)

    def _build_buttons(self) -> None:
        self.train_button = QPushButton(tr("Train"))
        self.train_button.setToolTip(tr("Train the head, step after step, at the chosen speed"))
        self.train_button.clicked.connect(self.train)
        self.pause_button = QPushButton(tr("Pause"))
        self.pause_button.clicked.connect(self.pause)
        self.step_button = QPushButton(tr("Step"))
        self.step_button.setToolTip(tr("Take exactly one training step"))
        self.step_button.clicked.connect(self.step_once)
        self.reset_button = QPushButton(tr("Reset"))
        self.reset_button.setToolTip(tr("Start again from step 0 with the same settings (the same first steps)"))
        self.reset_button.clicked.connect(self.reset)
        self._fit_buttons()
        self.keep_button = QPushButton(tr("Keep as scene"))
        self.keep_button.setToolTip(tr("Pause, and open the head as it is now as a scene to drag, save and export"))
        self.keep_button.clicked.connect(self.keep_requested)

    def _fit_buttons(self) -> None:
        """Each of the four buttons at least as wide as its word."""
        for button in (self.train_button, self.pause_button, self.step_button, self.reset_button):
            button.setMinimumWidth(button.fontMetrics().horizontalAdvance(button.text()) + 16)

    def _build_circuit(self) -> CircuitView | None:
        """The heads of a layered task on the example, if the panel offers one (one such task at most)."""
        layered = next((task for task in self.tasks.values() if isinstance(task, InductionTask)), None)
        return None if layered is None else CircuitView(layered)

    def _build_translation(self) -> TranslationView | None:
        """The translator's sentence, matrix and switches, if the panel offers translate."""
        translation = next((task for task in self.tasks.values() if isinstance(task, TranslationTask)), None)
        return None if translation is None else TranslationView(translation)

    def _lay_out(self) -> None:
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(tr("Task"), self.task_box)
        form.addRow(self.task_description)
        form.addRow(tr("Seed"), self.seed_box)
        form.addRow(tr("Learning rate"), self.rate_box)
        form.addRow(tr("Speed"), self.pace_box)
        form.addRow(tr("Optimiser"), self.optimiser_label)
        # Train, Pause, Step, Reset: on a second line when the column is too narrow for the four, never cut.
        buttons = FlowLayout(last_to_far_edge=False)
        buttons.setSpacing(4)
        buttons.add_widgets(self.train_button, self.pause_button, self.step_button, self.reset_button)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 6, 4, 6)  # (each pixel of the column's width is one the canvas's plots lack)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.keep_button)
        layout.addWidget(self.status_label)
        layout.addWidget(self.curves, 1)
        layout.addWidget(self.example_area)
        for view in self._task_views:
            layout.addWidget(view)
        # Taller than a 768-line screen: it scrolls up and down, and its column is as wide as it reads.
        self.scroll_area = VerticalScrollArea(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)

    # ----- what the panel holds -----------------------------------------------------
    @property
    def _task_views(self) -> list[CircuitView | TranslationView]:
        """The views of the layered task and of translate that the panel offers (each in place of the example)."""
        return [view for view in (self.circuit, self.translation) if view is not None]

    @property
    def current_task(self) -> Any:
        return self.tasks[self.task_box.currentData()]

    @property
    def settings(self) -> TrainingSettings:
        return TrainingSettings(self.task_box.currentData(), self.seed_box.value(), self.rate_box.value())

    @property
    def current_params(self) -> Any:
        """The head (layers, for induction) as last reported by the trainer of the current settings
        (a copy; None before the first)."""
        return self._params

    @property
    def is_running(self) -> bool:
        return self._running

    @property
    def steps_taken(self) -> int:
        return self._last_update.step if self._last_update is not None else 0

    def example_scene(self) -> SceneData | None:
        """The current example under the current head, as a projection scene."""
        if self._params is None or is_translation(self.current_task):
            return None  # (translate's matrix is the panel's own; Keep as scene opens it)
        return self._example_scene(self.current_task, self._shown_params(), list(self.example_tokens))

    def _shown_params(self) -> Any:
        """The model as the panel's squares show it: heads knocked out there write nothing in the window either."""
        knocked_out = self.circuit.knocked_out if self.circuit is not None and is_layered(self.current_task) else None
        return self._params.with_heads_silenced(knocked_out) if knocked_out else self._params

    # ----- commands -------------------------------------------------------------------
    def choose_task(self, name: str) -> None:
        """Choose the task called NAME ("reverse", "induction", ...) as choosing it in the list does: training
        starts again on it from step 0, running or paused as before (the task already chosen stays as it is).
        Raises KeyError for a task the panel does not offer."""
        index = self.task_box.findData(name)
        if index < 0:
            raise KeyError(f"the Training panel has no task {name!r}; it has {', '.join(self.tasks)}")
        self.task_box.setCurrentIndex(index)

    def train(self) -> None:
        self._set_running(True)
        self.runner.resume()

    def pause(self) -> None:
        self._set_running(False)
        self.runner.pause()

    def step_once(self) -> None:
        self._set_running(False)
        self.runner.step_once()

    def reset(self) -> None:
        """Back to step 0 with the same settings, paused: the run starts again exactly as before."""
        self._set_running(False)
        self.runner.pause()
        self.runner.restart(self.settings)

    def pick_another_example(self) -> None:
        task = self.current_task
        for _ in range(20):  # a different sentence, unless the task hardly has any
            tokens = [int(token) for token in task.sample(self._picker, 1).tokens[0]]
            if tokens != self.example_tokens:
                break
        self._set_example(tokens)

    def shutdown(self) -> None:
        """Stop training and end its thread (the window calls this when it closes)."""
        self._set_running(False)
        self.runner.shutdown()
        if self.circuit is not None:
            self.circuit.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    # ----- settings --------------------------------------------------------------------
    def _on_task_chosen(self) -> None:
        task = self.current_task
        self.rate_box.blockSignals(True)  # one restart for the new task, not a second for its rate
        self.rate_box.setValue(task.default_lr)
        self.rate_box.blockSignals(False)
        self._params = None  # the old task's head does not fit the new task's sentences
        for view in self._task_views:
            view.clear()
        self._show_task(task)
        self._set_example(first_example(task))
        self.runner.restart(self.settings)

    def _on_setting_changed(self) -> None:
        self.runner.restart(self.settings)

    def _on_pace_chosen(self) -> None:
        self.runner.set_pace(self.pace_box.currentData())

    def _show_task(self, task: PanelTask) -> None:
        self._describe_task(task)
        self.drop_marks.clear()
        self.example_area.setVisible(not is_translation(task))
        if self.circuit is not None:
            self.circuit.setVisible(is_layered(task))
        if self.translation is not None:
            self.translation.setVisible(is_translation(task))

    def _describe_task(self, task: PanelTask) -> None:
        self.task_description.setText(tr(task.description))
        self.curves.name_accuracy(exact_match=is_translation(task))
        if not isinstance(task, TranslationTask):
            self.example_box.setPlaceholderText(" ".join(task.vocab))
            self.example_box.setToolTip(typing_hint(task))

    # ----- the language -------------------------------------------------------------------
    def _name_controls(self) -> None:
        """The texts the window does not re-translate itself: names for screen readers, built tooltips."""
        for label, control in ((tr("Task"), self.task_box), (tr("Seed"), self.seed_box),
                               (tr("Learning rate"), self.rate_box), (tr("Speed"), self.pace_box),
                               (tr("Example sentence"), self.example_box), (tr("Training status"), self.status_label)):
            control.setAccessibleName(label)
        self.rate_box.setToolTip(tr("Adam's learning rate, from {lowest} to {highest}").format(
            lowest=significant(MIN_LEARNING_RATE, 6), highest=significant(MAX_LEARNING_RATE, 6)))

    def _reword(self) -> None:
        """Every text of the panel in the language just chosen: the lists' items, the task's description,
        the status line and the marks on the curves."""
        self._name_controls()
        self._fit_buttons()
        for index, name in enumerate(self.tasks):
            self.task_box.setItemText(index, tr(self.tasks[name].title))
        for index, pace in enumerate(PACES):
            self.pace_box.setItemText(index, pace_text(pace))
        self._describe_task(self.current_task)
        self.curves.reword()
        self.drop_marks.reword()
        for view in self._task_views:
            view.reword()
        if self.status_label.styleSheet() != ERROR_STYLE:  # a failure keeps the words it was reported in
            self._show_status()

    # ----- the example sentence ------------------------------------------------------
    def _on_example_typed(self, text: str) -> None:
        try:
            tokens = parse_typed_example(self.current_task, text)
        except ValueError as error:
            self.example_area.show_refusal(str(error))
            return
        self._set_example(tokens)

    def _set_example(self, tokens: list[int]) -> None:
        self.example_tokens = list(tokens)
        if is_translation(self.current_task):
            return  # its view keeps its own sentence
        self.example_area.show_sentence(example_text(self.current_task, tokens))
        if self.circuit is not None and is_layered(self.current_task):
            self.circuit.show_example(self.example_tokens)
        self._announce_example()

    def _announce_example(self, force: bool = True) -> None:
        """Hand the window the example under the model as it is now (FORCE: even if it had one a moment ago)."""
        if is_layered(self.current_task) and not self._layers_pace.due(force):
            self._window_behind = True  # the panel's own squares show every update; the window's a few a second
            return
        self._window_behind = False
        scene = self.example_scene()
        if scene is not None:
            self.example_changed.emit(scene)

    # ----- what the trainer reports ------------------------------------------------------
    def _on_update(self, update: TrainingUpdate) -> None:
        if update.settings.task_name != self.task_box.currentData():
            return  # from the task before the one just chosen; its own restart is on its way
        self._last_update = update
        if update.restarted:
            self.curves.start(self.current_task.default_steps)
            self.drop_marks.clear()
            for view in self._task_views:
                view.clear()  # readings of the run before are dropped, even if still under way
            self._last_metrics = None
        if update.metrics:
            self._last_metrics = update.metrics[-1]
        self._fresh_accuracy = None if update.running else update.fresh_accuracy
        self.curves.extend(update.metrics)
        if update.params is not None and all_numbers(self.current_task, update.params, self.example_tokens):
            self._params = update.params  # (a head that is not all numbers is never shown, nor kept as a scene)
            self._show_layers(update)
            self._show_translation(update)
            self._announce_example(force=not update.running)
        if not update.running and self._window_behind:
            self._announce_example()  # a run that stops leaves the window on the model as it stopped
        if update.failure:
            self._set_running(False)
            self.status_label.setText(update.failure)
            self.status_label.setStyleSheet(ERROR_STYLE)
        else:
            self._show_status()

    def _show_layers(self, update: TrainingUpdate) -> None:
        """Induction: the plateau and drop so far, and the heads on the example (read at once when paused)."""
        task = self.current_task
        if self.circuit is None or not is_layered(task):
            return
        dropped_before = self.drop_marks.drop_step
        self.drop_marks.follow(self.curves.series.steps, self.curves.series.losses, len(task.vocab))
        if dropped_before is None and self.drop_marks.drop_step is not None:  # once a run, as the line appears
            # Translators: a screen reader's announcement when the induction loss drops on the Training panel.
            self.announcement.emit(tr("The loss dropped at step {step}: the induction circuit has formed.").format(
                step=whole_number(round(self.drop_marks.drop_step))))
        self.circuit.show_model(self._params, self.example_tokens, read_now=not update.running)

    def _show_translation(self, update: TrainingUpdate) -> None:
        """Translate: the sentence under the model as it is now (read at once when paused)."""
        if self.translation is not None and is_translation(self.current_task):
            self.translation.show_model(self._params, update.metrics, read_now=not update.running)

    def _set_running(self, running: bool) -> None:
        changed = running != self._running
        self._running = running
        self.train_button.setEnabled(not running)
        self.pause_button.setEnabled(running)
        self._show_status()
        if changed:
            self.running_changed.emit(running)

    def _show_status(self) -> None:
        self.status_label.setStyleSheet("")
        # "Paused" when the trainer says so: a step already under way when Pause was clicked still shows.
        trainer_running = self._last_update is not None and self._last_update.running
        held_out = len(self.current_task.held_out) if is_translation(self.current_task) else None
        self.status_label.setText(status_text(self.steps_taken, self._last_metrics, trainer_running,
                                              self._fresh_accuracy, held_out))
