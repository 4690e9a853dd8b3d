"""Every menu and toolbar command of the main window, as one table.

The table says what each command is called, which keys reach it, where it sits and what it
runs: a function of the window's parts (`Commands`), such as `lambda c: c.documents.save()`,
so a misspelt handler is a type error. `build_actions` makes the QActions from it and
`fill_menus` and `fill_toolbar` place them. The menus show the commands in the table's order,
so a new command is one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar, QWidget

from attn_desktop import APP_NAME
from attn_desktop.language import LANGUAGE_NAMES, N_, current_language, number, shown_languages, tr
from attn_desktop.model import HeadReading, Scene
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.document.qt_dialogs import fill_recent_menu
from attn_desktop.ui.document.undo_actions import redo_action, undo_action
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.widgets.action_check_box import ActionCheckBox
from attn_desktop.ui.window.actions.menu_id import MenuId

if TYPE_CHECKING:  # the parts the commands act on; none of them needs this table
    from attn_desktop.ui.accessibility.description_panel import DescriptionPanel
    from attn_desktop.ui.canvas.canvas import AttentionCanvas
    from attn_desktop.ui.canvas.coordinate_dialog import CoordinateDialog
    from attn_desktop.ui.document.document_controller import DocumentController
    from attn_desktop.ui.document.edit_history import EditHistory
    from attn_desktop.ui.document.scene_exports import SceneExports
    from attn_desktop.ui.lessons.editor.lesson_authoring import LessonAuthoring
    from attn_desktop.ui.lessons.lesson_controller import LessonController
    from attn_desktop.ui.lessons.lesson_file_opener import LessonFileOpener
    from attn_desktop.ui.lessons.lesson_results_controller import LessonResultsController
    from attn_desktop.ui.lessons.your_lessons_menu import YourLessonsMenu
    from attn_desktop.ui.panels.matrix_view import MatrixView
    from attn_desktop.ui.predict.prediction_controller import PredictionController
    from attn_desktop.ui.pretrained.pretrained_controller import ModelController
    from attn_desktop.ui.window.actions.scene_switches import SceneSwitches
    from attn_desktop.ui.window.actions.snap_steps import SnapSteps
    from attn_desktop.ui.window.layout.dock_layout import DockLayout

Key = QKeySequence.StandardKey
SNAP_STEPS = (0.1, 0.5, 1.0)


class Commands(Protocol):
    """What the commands act on: the main window's parts, and the few commands of the window itself."""

    @property
    def scene(self) -> Scene: ...
    def reading(self, layer: int = 0, head: int = 0) -> HeadReading: ...
    @property
    def documents(self) -> DocumentController: ...
    @property
    def exports(self) -> SceneExports: ...
    @property
    def model_heads(self) -> ModelController: ...
    @property
    def history(self) -> EditHistory: ...
    @property
    def switches(self) -> SceneSwitches: ...
    @property
    def snap(self) -> SnapSteps: ...
    @property
    def lessons(self) -> LessonController: ...
    @property
    def lesson_files(self) -> LessonFileOpener: ...
    @property
    def lesson_results(self) -> LessonResultsController: ...
    @property
    def lesson_authoring(self) -> LessonAuthoring: ...
    @property
    def your_lessons(self) -> YourLessonsMenu: ...
    @property
    def predictions(self) -> PredictionController: ...
    @property
    def canvas(self) -> AttentionCanvas: ...
    @property
    def matrix_view(self) -> MatrixView: ...
    @property
    def coordinates(self) -> CoordinateDialog: ...
    @property
    def dock_layout(self) -> DockLayout: ...
    @property
    def description_panel(self) -> DescriptionPanel: ...
    def set_presentation(self, on: bool) -> None: ...
    def reset_layout(self) -> None: ...
    def show_about(self) -> None: ...
    def switch_language(self, code: str) -> None: ...
    def close(self) -> bool: ...


Trigger = Callable[[Commands], object]  # a click
Toggle = Callable[[Commands, bool], object]  # a checkable command's new state
Maker = Callable[[Commands, QObject, str], QAction]  # (parent, text): for actions a part makes (Undo, Redo)
MenuFiller = Callable[[Commands, QMenu], object]  # fills a submenu as it opens


@dataclass(frozen=True)
class ActionSpec:
    id: str  # the name the built action is found under, e.g. "save_action"
    text: str  # marked N_() and shown with tr() (English here, as the table reads)
    menu: MenuId  # the menu it is an entry of
    on_trigger: Trigger | None = None
    on_toggle: Toggle | None = None  # for a checkable command: runs on every change of its state
    shortcuts: tuple[str | QKeySequence.StandardKey, ...] = ()  # a standard key brings all the platform's keys
    checkable: bool = False
    checked: bool = False
    tooltip: str = ""
    separator_before: bool = False
    toolbar: bool = False  # also a check box in the toolbar
    made_by: Maker | None = None
    fill_submenu: MenuFiller | None = None  # given: a menu of its own, filled as it opens
    wording: Callable[[], str] | None = None  # a text with values: its words in the current language
    group: str = ""  # exclusive choices share a QActionGroup, found under this name
    data: Any = None


def step_query(commands: Commands, step: int) -> None:
    """Ctrl+] and Ctrl+[: the next or previous query (round the sentence), said as the matrix's ↓ and ↑ say it."""
    shown = commands.reading()
    shown.select_query((shown.selected + step) % shown.n_queries)
    commands.matrix_view.announce_chosen_query()


def _opens_lesson(lesson_id: str) -> Trigger:
    return lambda c: c.lessons.open(lesson_id)


def lesson_shortcut(number: int) -> str:
    """Ctrl+1 to Ctrl+9 for the first nine lessons; Ctrl+0 fits the view, so lesson 10 takes Alt+0 (Ctrl+Shift+0
    is a layout switch on some Windows machines, and Ctrl+Alt is AltGr, which types on European keyboards)."""
    return f"Ctrl+{number}" if number <= 9 else f"Alt+{number % 10}"


def lesson_specs() -> list[ActionSpec]:
    return [
        ActionSpec(f"lesson_{position}_action", item.title, MenuId.LESSONS, _opens_lesson(item.id),
                   shortcuts=(lesson_shortcut(position),))
        for position, item in enumerate(lessons.LESSONS, start=1)
    ]


def snap_step_specs() -> list[ActionSpec]:
    return [
        ActionSpec(f"snap_{position}_action", f"Grid of {step:g}", MenuId.ATTENTION_SNAP_STEP,
                   lambda c: c.snap.apply(True), checkable=True, checked=position == 1, group="snap_step_actions",
                   data=step, wording=_grid_wording(step))
        for position, step in enumerate(SNAP_STEPS, start=1)
    ]


def _grid_wording(step: float) -> Callable[[], str]:
    """ "Grid of 0.5", the step as the language writes it, with no needless decimals ("Grid of 1")."""
    return lambda: tr("Grid of {step}").format(step=number(step, 0 if step.is_integer() else 1))


def fill_language_menu(commands: Commands, menu: QMenu) -> None:
    """View → Language as it opens: each language the app speaks, named in its own language, one choice
    of them (made once), and the current one checked."""
    if not menu.actions():
        group = QActionGroup(menu)
        for code in shown_languages():
            action = menu.addAction(LANGUAGE_NAMES[code])  # not translated: the name its speakers look for
            action.setCheckable(True)
            action.setData(code)
            group.addAction(action)
            action.triggered.connect(lambda checked=False, code=code: commands.switch_language(code))
    check_current_language(menu)


def check_current_language(menu: QMenu) -> None:
    for action in menu.actions():
        action.setChecked(action.data() == current_language())


def _predict(c: Commands, on: bool) -> None:
    """Predict, then See on or off; presenting on a small screen, the weights chart comes back for the guess."""
    c.predictions.set_on(on)
    c.dock_layout.follow_activity()


# Undo and Redo word their step in the language of the moment, so they are handed the marked text itself.
UNDO_TEXT = N_("&Undo")
REDO_TEXT = N_("&Redo")

ACTIONS: list[ActionSpec] = [
    ActionSpec("new_action", N_("&New Scene"), MenuId.FILE, lambda c: c.documents.new_scene(), shortcuts=(Key.New,),
               tooltip=N_("Start again from the six-token scene, untitled")),
    ActionSpec("new_cross_action", N_("Ne&w Cross-Attention Scene"), MenuId.FILE,
               lambda c: c.documents.new_cross_scene(),
               tooltip=N_("A scene that reads one sentence while writing another: the target's words ask, the "
                          "source's answer")),
    ActionSpec("open_action", N_("&Open Scene…"), MenuId.FILE, lambda c: c.documents.choose_and_open(),
               shortcuts=(Key.Open,)),
    ActionSpec("open_lesson_action", N_("Open &Lesson…"), MenuId.FILE, lambda c: c.lesson_files.choose_and_open(),
               tooltip=N_("Open a lesson file (*.attn-lesson) a teacher wrote: its scene, text, exercises and "
               "challenges")),
    ActionSpec("new_lesson_action", N_("New Lesson &from This Scene…"), MenuId.FILE,
               lambda c: c.lesson_authoring.new_from_scene(),
               tooltip=N_("Write a lesson on the scene shown now: its text, exercises, challenges and what it hides")),
    ActionSpec("edit_lesson_action", N_("Edi&t Lesson…"), MenuId.FILE, lambda c: c.lesson_authoring.choose_and_edit(),
               tooltip=N_("Open a lesson file in the lesson editor, to change it and save it again")),
    ActionSpec("recent_menu", N_("Open &Recent"), MenuId.FILE, fill_submenu=lambda c, menu: fill_recent_menu(
        menu, c.documents.recent_files(), c.documents.open_recent)),
    ActionSpec("open_model_action", N_("Open &Model…"), MenuId.FILE, lambda c: c.model_heads.choose_and_open_model(),
               tooltip=N_("Show the heads of a LLaMA-style language model read from a GGUF file on this computer")),
    ActionSpec("save_action", N_("&Save Scene"), MenuId.FILE, lambda c: c.documents.save(), shortcuts=(Key.Save,)),
    ActionSpec("save_as_action", N_("Save Scene &As…"), MenuId.FILE, lambda c: c.documents.choose_and_save(),
               shortcuts=(Key.SaveAs,)),
    ActionSpec("export_png_action", N_("Picture as &PNG…"), MenuId.FILE_EXPORT, lambda c: c.exports.picture("png")),
    ActionSpec("export_svg_action", N_("Picture as &SVG…"), MenuId.FILE_EXPORT, lambda c: c.exports.picture("svg")),
    ActionSpec("export_weights_csv_action", N_("Attention Matrix as &CSV…"), MenuId.FILE_EXPORT,
               lambda c: c.exports.table_csv("weights")),
    ActionSpec("export_scores_csv_action", N_("Score &Table as CSV…"), MenuId.FILE_EXPORT,
               lambda c: c.exports.table_csv("scores")),
    ActionSpec("export_action", N_("Results as &JSON…"), MenuId.FILE_EXPORT, lambda c: c.exports.results_json(),
               shortcuts=("Ctrl+E",)),
    ActionSpec("copy_image_action", N_("&Copy Picture"), MenuId.FILE, lambda c: c.exports.copy_picture(),
               shortcuts=("Ctrl+Shift+C",),
               tooltip=N_("The canvas and the matrix, ready to paste into slides or a handout")),
    # Hand in and collect, with no network (issue 45): a small results file passed on as any file is.
    ActionSpec("hand_in_action", N_("&Hand In…"), MenuId.FILE, lambda c: c.lesson_results.hand_in(),
               separator_before=True,
               tooltip=N_("Save your answers to the lesson file open, their verdicts and the challenges you did in a "
               "small file for your teacher")),
    ActionSpec("collect_results_action", N_("Collect Res&ults…"), MenuId.FILE, lambda c: c.lesson_results.collect(),
               tooltip=N_("Read a folder of students' hand-ins into a table, a row per student, and export it as "
               "CSV")),
    ActionSpec("quit_action", N_("&Quit"), MenuId.FILE, lambda c: c.close(), shortcuts=(Key.Quit,), separator_before=True),
    # Undo/Redo name the step they would take back ("Undo Move k·cat").
    ActionSpec("undo_action", UNDO_TEXT, MenuId.EDIT, shortcuts=(Key.Undo,),
               made_by=lambda c, parent, _shown: undo_action(c.history.stack, parent, UNDO_TEXT)),
    # X11 offers only Ctrl+Shift+Z and Windows leads with Ctrl+Y; people bring the habit of one or the other.
    ActionSpec("redo_action", REDO_TEXT, MenuId.EDIT, shortcuts=(Key.Redo, "Ctrl+Shift+Z", "Ctrl+Y"),
               made_by=lambda c, parent, _shown: redo_action(c.history.stack, parent, REDO_TEXT)),
    ActionSpec("scale_action", N_("Scale by √d_k"), MenuId.ATTENTION, on_toggle=lambda c, on: c.switches.set_scale(on),
               checkable=True, shortcuts=("Ctrl+K",), tooltip=N_("Divide every score by √d_k before the softmax"),
               toolbar=True),
    ActionSpec("causal_action", N_("Causal mask"), MenuId.ATTENTION, on_toggle=lambda c, on: c.switches.set_causal(on),
               checkable=True, shortcuts=("Ctrl+M",), tooltip=N_("Each query sees only itself and earlier tokens"),
               toolbar=True),
    ActionSpec("next_query_action", N_("&Next Query"), MenuId.ATTENTION, lambda c: step_query(c, +1),
               shortcuts=("Ctrl+]",), separator_before=True),
    ActionSpec("previous_query_action", N_("&Previous Query"), MenuId.ATTENTION, lambda c: step_query(c, -1),
               shortcuts=("Ctrl+[",)),
    ActionSpec("snap_action", N_("Snap to Grid"), MenuId.ATTENTION, on_toggle=lambda c, on: c.snap.apply(on), checkable=True,
               shortcuts=("Ctrl+G",), tooltip=N_("Dragged tips land on round numbers, so two arrows can meet exactly"),
               separator_before=True, toolbar=True),
    *snap_step_specs(),
    *lesson_specs(),
    # Your lessons: the folder's lesson files are listed right after this entry as the menu opens (YourLessonsMenu).
    ActionSpec("lessons_folder_action", N_("Choose Your Lessons Folder…"), MenuId.LESSONS,
               lambda c: c.your_lessons.choose_folder(), separator_before=True,
               tooltip=N_("A folder of your own lesson files (*.attn-lesson), listed here after the built-in lessons")),
    ActionSpec("training_action", N_("&Train a Head…"), MenuId.LESSONS, lambda c: c.dock_layout.show_dock(DockId.TRAINING),
               shortcuts=("Ctrl+T",), separator_before=True,
               tooltip=N_("Watch gradient descent move the arrows of a head learning a task")),
    ActionSpec("model_heads_action", N_("&Heads of a Real Model…"), MenuId.LESSONS, lambda c: c.model_heads.show_heads(),
               shortcuts=("Ctrl+H",), tooltip=N_("Every attention head of a pretrained language model, for a sentence "
               "you type; open any head as a scene")),
    ActionSpec("scaling_lab_action", N_("√d_k &Lab…"), MenuId.LESSONS,
               lambda c: c.dock_layout.show_wide(DockId.SCALING_LAB), shortcuts=("Ctrl+L",),
               tooltip=N_("Why scores are divided by √d_k: how far random scores spread at each key width, "
               "and what that does to a softmax")),
    ActionSpec("positions_lab_action", N_("P&ositions Lab…"), MenuId.LESSONS,
               lambda c: c.dock_layout.show_wide(DockId.POSITIONS_LAB), shortcuts=("Ctrl+Shift+L",),
               tooltip=N_("Where is each word? Attention without positions, positions added to x, and RoPE's turns")),
    ActionSpec("predict_action", N_("&Predict, then See"), MenuId.LESSONS,
               on_toggle=lambda c, on: _predict(c, on),
               checkable=True, shortcuts=("Ctrl+P",), separator_before=True,
               tooltip=N_("Before a move's weights show, guess them on the weights chart; then see the real ones "
               "beside your guess, with the difference and a score")),
    # The View menu begins with the docks' own show/hide entries, which the docks make.
    ActionSpec("presentation_action", N_("&Presentation Mode"), MenuId.VIEW, on_toggle=lambda c, on: c.set_presentation(on),
               checkable=True, shortcuts=("F11",), separator_before=True,
               tooltip=N_("Full screen, large text and thick arrows for the back of the room")),
    ActionSpec("shapes_action", N_("Arrowheads by &Role"), MenuId.VIEW, on_toggle=lambda c, on: c.canvas.set_shapes_by_role(on),
               checkable=True, tooltip=N_("Keys with open heads, values with diamonds: roles read without colour")),
    ActionSpec("entropy_action", N_("Row &Entropy in the Matrix"), MenuId.VIEW,
               on_toggle=lambda c, on: c.matrix_view.set_show_entropy(on), checkable=True,
               tooltip=N_("Beside each row of the attention matrix, how spread its weights are, in bits: "
               "0 when one key takes all")),
    ActionSpec("fit_action", N_("&Fit Arrows in View"), MenuId.VIEW, lambda c: c.canvas.fit_view(), shortcuts=("Ctrl+0",)),
    ActionSpec("dims_action", N_("Choose Canvas &Dimensions…"), MenuId.VIEW, lambda c: c.coordinates.choose_dims(),
               shortcuts=("Ctrl+D",), tooltip=N_("For vectors of more than two numbers: which two the canvas draws")),
    ActionSpec("pca_plane_action", N_("Draw the &PCA Plane"), MenuId.VIEW, shortcuts=("Ctrl+Shift+D",), checkable=True,
               made_by=lambda c, parent, text: c.canvas.plane_action.make(parent, text),
               tooltip=N_("For vectors of more than two numbers: the plane they spread along most, "
               "not two of their numbers")),
    # F1: the key a student reaches for when lost; no other command has it, and screen readers leave it to the app.
    ActionSpec("describe_action", N_("Say the Screen's &Description"), MenuId.VIEW, lambda c: c.description_panel.speak(),
               shortcuts=("F1",), tooltip=N_("What is on the screen, the controls, the numbers now and what to try, "
               "said by the screen reader (the Description panel shows it)")),
    ActionSpec("reset_layout_action", N_("Reset &Layout"), MenuId.VIEW, lambda c: c.reset_layout()),
    ActionSpec("language_menu", N_("&Language"), MenuId.VIEW, fill_submenu=fill_language_menu, separator_before=True),
    ActionSpec("about_action", f"&About {APP_NAME}", MenuId.HELP, lambda c: c.show_about(),
               wording=lambda: tr("&About {app}").format(app=APP_NAME)),
]


def key_sequences(spec: ActionSpec) -> list[QKeySequence]:
    """The keys of one command, each once: a key listed twice is "ambiguous", and Qt refuses to fire it."""
    keys: list[QKeySequence] = []
    for shortcut in spec.shortcuts:
        found = QKeySequence.keyBindings(shortcut) if isinstance(shortcut, Key) else [QKeySequence(shortcut)]
        keys.extend(key for key in found if not key.isEmpty() and key not in keys)
    return keys


def redo_shortcuts() -> list[QKeySequence]:
    """The platform's Redo keys plus Ctrl+Shift+Z and Ctrl+Y, each once."""
    return key_sequences(next(spec for spec in ACTIONS if spec.id == "redo_action"))


class BuiltActions:
    """The table's QActions, submenus and exclusive groups, each found by its name in the table."""

    def __init__(self) -> None:
        self.actions: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        self.groups: dict[str, QActionGroup] = {}

    def __getitem__(self, action_id: str) -> QAction:
        return self.actions[action_id]


def build_actions(commands: Commands, parent: QWidget, specs: Iterable[ActionSpec] = ACTIONS) -> BuiltActions:
    """Make each command's QAction (or submenu), its handler bound to COMMANDS."""
    built = BuiltActions()
    for spec in specs:
        if spec.fill_submenu is not None:
            built.menus[spec.id] = _submenu(shown_text(spec), parent, commands, spec.fill_submenu)
            continue
        text = shown_text(spec)
        action = spec.made_by(commands, parent, text) if spec.made_by else QAction(text, parent)
        if spec.wording is not None:  # a text of its own making: the window's re-translation does not know it
            _reword_on_language_change(action, spec)
        action.setShortcuts(key_sequences(spec))
        action.setCheckable(spec.checkable)
        action.setChecked(spec.checked)
        if spec.tooltip:
            action.setToolTip(tr(spec.tooltip))
        if spec.data is not None:
            action.setData(spec.data)
        if spec.group:
            if spec.group not in built.groups:
                built.groups[spec.group] = QActionGroup(parent)
            built.groups[spec.group].addAction(action)
        if spec.on_trigger is not None:
            _on_trigger(action, commands, spec.on_trigger)
        if spec.on_toggle is not None:
            _on_toggle(action, commands, spec.on_toggle)
        built.actions[spec.id] = action
    return built


def _reword_on_language_change(action: QAction, spec: ActionSpec) -> None:
    follow_language(action, lambda: action.setText(shown_text(spec)))


def shown_text(spec: ActionSpec) -> str:
    """The command's name in the current language."""
    return spec.wording() if spec.wording is not None else tr(spec.text)


def _submenu(text: str, parent: QWidget, commands: Commands, fill: MenuFiller) -> QMenu:
    menu = QMenu(text, parent)
    menu.aboutToShow.connect(lambda: fill(commands, menu))
    return menu


def _on_trigger(action: QAction, commands: Commands, handler: Trigger) -> None:
    action.triggered.connect(lambda checked=False: handler(commands))


def _on_toggle(action: QAction, commands: Commands, handler: Toggle) -> None:
    action.toggled.connect(lambda on: handler(commands, on))


def fill_menus(window: QMainWindow, built: BuiltActions, leading: dict[MenuId, list[QAction]],
               specs: Iterable[ActionSpec] = ACTIONS) -> dict[MenuId, QMenu]:
    """The menu bar, in the table's order; LEADING actions open a menu (the View menu's docks). The menus by id."""
    menus: dict[MenuId, QMenu] = {}
    for spec in specs:
        menu = _menu(window, menus, spec.menu, leading)
        if spec.separator_before:
            menu.addSeparator()
        if spec.id in built.menus:
            menu.addMenu(built.menus[spec.id])
        else:
            menu.addAction(built[spec.id])
    return menus


def _menu(window: QMainWindow, menus: dict[MenuId, QMenu], menu_id: MenuId,
          leading: dict[MenuId, list[QAction]]) -> QMenu:
    if menu_id not in menus:
        parent = _menu(window, menus, menu_id.parent, leading) if menu_id.parent else window.menuBar()
        menus[menu_id] = parent.addMenu(tr(menu_id.shown_title))
        menus[menu_id].addActions(leading.get(menu_id, []))
    return menus[menu_id]


def fill_toolbar(built: BuiltActions, toolbar: QToolBar,
                 specs: Iterable[ActionSpec] = ACTIONS) -> dict[QAction, ActionCheckBox]:
    """A check box for each toolbar command, in the table's order; the boxes by their action."""
    boxes = {}
    for spec in specs:
        if spec.toolbar:
            action = built[spec.id]
            boxes[action] = box = ActionCheckBox(action, toolbar)
            toolbar.addWidget(box)
            toolbar.addSeparator()
    return boxes
