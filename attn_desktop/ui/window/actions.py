"""Every menu and toolbar command of the main window, as one table.

The table says what each command is called, which keys reach it, where it sits and what it
runs (a method of the window or of one of its parts: "documents.save"); `build_actions` makes
the QActions from it and `fill_menus` and `fill_toolbar` place them. The menus show the
commands in the table's order, so a new command is one row here and one method to run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from attn_desktop import APP_NAME
from attn_desktop.model.teaching import lessons
from attn_desktop.ui.window.action_check_box import ActionCheckBox

Key = QKeySequence.StandardKey
SNAP_STEPS = (0.1, 0.5, 1.0)


@dataclass(frozen=True)
class ActionSpec:
    id: str  # the attribute the window keeps it under, e.g. "save_action"
    text: str
    menu: str  # menu path, submenus after "/": "&File/&Export"
    handler: str = ""  # dotted name on the window: "documents.save", "switches.set_scale"
    args: tuple = ()  # given: the handler gets these on a click; else a checkable one gets its state
    shortcuts: tuple[str | QKeySequence.StandardKey, ...] = ()  # a standard key brings all the platform's keys
    checkable: bool = False
    checked: bool = False
    tooltip: str = ""
    separator_before: bool = False
    toolbar: bool = False  # also a check box in the toolbar
    made_by: str = ""  # dotted name of a factory(window, text), for actions Qt makes (Undo, Redo)
    submenu: bool = False  # a menu of its own (filled by the handler as it opens)
    group: str = ""  # exclusive choices share a QActionGroup kept on the window under this name
    data: Any = None


def lesson_specs() -> list[ActionSpec]:
    return [
        ActionSpec(f"lesson_{number}_action", item.title, "&Lessons", "lessons.open", args=(item.id,),
                   shortcuts=(f"Ctrl+{number}",))
        for number, item in enumerate(lessons.LESSONS, start=1)
    ]


def snap_step_specs() -> list[ActionSpec]:
    return [
        ActionSpec(f"snap_{number}_action", f"Grid of {step:g}", "&Attention/Snap &Step", "_apply_snap",
                   args=(True,), checkable=True, checked=number == 1, group="snap_step_actions", data=step)
        for number, step in enumerate(SNAP_STEPS, start=1)
    ]


ACTIONS: list[ActionSpec] = [
    ActionSpec("new_action", "&New Scene", "&File", "documents.new_scene", shortcuts=(Key.New,),
               tooltip="Start again from the six-token scene, untitled"),
    ActionSpec("open_action", "&Open Scene…", "&File", "documents.choose_and_open", shortcuts=(Key.Open,)),
    ActionSpec("recent_menu", "Open &Recent", "&File", "_fill_recent_menu", submenu=True),
    ActionSpec("open_model_action", "Open &Model…", "&File", "model_heads.choose_and_open_model",
               tooltip="Show the heads of a LLaMA-style language model read from a GGUF file on this computer"),
    ActionSpec("save_action", "&Save Scene", "&File", "documents.save", shortcuts=(Key.Save,)),
    ActionSpec("save_as_action", "Save Scene &As…", "&File", "documents.choose_and_save", shortcuts=(Key.SaveAs,)),
    ActionSpec("export_png_action", "Picture as &PNG…", "&File/&Export", "exports.picture", args=("png",)),
    ActionSpec("export_svg_action", "Picture as &SVG…", "&File/&Export", "exports.picture", args=("svg",)),
    ActionSpec("export_weights_csv_action", "Attention Matrix as &CSV…", "&File/&Export", "exports.table_csv",
               args=("weights",)),
    ActionSpec("export_scores_csv_action", "Score &Table as CSV…", "&File/&Export", "exports.table_csv",
               args=("scores",)),
    ActionSpec("export_action", "Results as &JSON…", "&File/&Export", "exports.results_json", shortcuts=("Ctrl+E",)),
    ActionSpec("copy_image_action", "&Copy Picture", "&File", "exports.copy_picture", shortcuts=("Ctrl+Shift+C",),
               tooltip="The canvas and the matrix, ready to paste into slides or a handout"),
    ActionSpec("quit_action", "&Quit", "&File", "close", shortcuts=(Key.Quit,), separator_before=True),
    # Undo/Redo name the step they would take back ("Undo Move k·cat").
    ActionSpec("undo_action", "&Undo", "&Edit", made_by="history.stack.createUndoAction", shortcuts=(Key.Undo,)),
    # X11 offers only Ctrl+Shift+Z and Windows leads with Ctrl+Y; people bring the habit of one or the other.
    ActionSpec("redo_action", "&Redo", "&Edit", made_by="history.stack.createRedoAction",
               shortcuts=(Key.Redo, "Ctrl+Shift+Z", "Ctrl+Y")),
    ActionSpec("scale_action", "Scale by √d_k", "&Attention", "switches.set_scale", checkable=True,
               shortcuts=("Ctrl+K",), tooltip="Divide every score by √d_k before the softmax", toolbar=True),
    ActionSpec("causal_action", "Causal mask", "&Attention", "switches.set_causal", checkable=True, shortcuts=("Ctrl+M",),
               tooltip="Each query sees only itself and earlier tokens", toolbar=True),
    ActionSpec("next_query_action", "&Next Query", "&Attention", "_step_query", args=(+1,), shortcuts=("Ctrl+]",),
               separator_before=True),
    ActionSpec("previous_query_action", "&Previous Query", "&Attention", "_step_query", args=(-1,),
               shortcuts=("Ctrl+[",)),
    ActionSpec("snap_action", "Snap to Grid", "&Attention", "_apply_snap", checkable=True, shortcuts=("Ctrl+G",),
               tooltip="Dragged tips land on round numbers, so two arrows can meet exactly",
               separator_before=True, toolbar=True),
    *snap_step_specs(),
    *lesson_specs(),
    ActionSpec("training_action", "&Train a Head…", "&Lessons", "show_training", shortcuts=("Ctrl+T",),
               tooltip="Watch gradient descent move the arrows of a head learning a task", separator_before=True),
    ActionSpec("model_heads_action", "&Heads of a Real Model…", "&Lessons", "model_heads.show_heads",
               shortcuts=("Ctrl+H",), tooltip="Every attention head of a pretrained language model, for a sentence "
               "you type; open any head as a scene"),
    ActionSpec("scaling_lab_action", "√d_k &Lab…", "&Lessons", "show_scaling_lab", shortcuts=("Ctrl+L",),
               tooltip="Why scores are divided by √d_k: how far random scores spread at each key width, "
               "and what that does to a softmax"),
    ActionSpec("predict_action", "&Predict, then See", "&Lessons", "predictions.set_on", checkable=True,
               shortcuts=("Ctrl+P",), separator_before=True,
               tooltip="Before a move's weights show, guess them on the weights chart; then see the real ones "
               "beside your guess, with the difference and a score"),
    # The View menu begins with the docks' own show/hide entries, which the docks make.
    ActionSpec("presentation_action", "&Presentation Mode", "&View", "set_presentation", checkable=True,
               shortcuts=("F11",), tooltip="Full screen, large text and thick arrows for the back of the room",
               separator_before=True),
    ActionSpec("shapes_action", "Arrowheads by &Role", "&View", "canvas.set_shapes_by_role", checkable=True,
               tooltip="Keys with open heads, values with diamonds: roles read without colour"),
    ActionSpec("entropy_action", "Row &Entropy in the Matrix", "&View", "matrix_view.set_show_entropy",
               checkable=True, tooltip="Beside each row of the attention matrix, how spread its weights are, in bits: "
               "0 when one key takes all"),
    ActionSpec("fit_action", "&Fit Arrows in View", "&View", "canvas.fit_view", shortcuts=("Ctrl+0",)),
    ActionSpec("dims_action", "Choose Canvas &Dimensions…", "&View", "coordinates.choose_dims", shortcuts=("Ctrl+D",),
               tooltip="For vectors of more than two numbers: which two the canvas draws"),
    ActionSpec("pca_plane_action", "Draw the &PCA Plane", "&View", made_by="canvas.plane_action.make",
               shortcuts=("Ctrl+Shift+D",), checkable=True,
               tooltip="For vectors of more than two numbers: the plane they spread along most, not two of their numbers"),
    ActionSpec("reset_layout_action", "Reset &Layout", "&View", "reset_layout"),
    ActionSpec("about_action", f"&About {APP_NAME}", "&Help", "_show_about"),
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


def _find(window: QMainWindow, dotted: str):
    target = window
    for name in dotted.split("."):
        target = getattr(target, name)
    return target


def build_actions(window: QMainWindow, specs: list[ActionSpec] = ACTIONS) -> None:
    """Make each command's QAction (or submenu) and keep it on the window under the spec's id."""
    for spec in specs:
        if spec.submenu:
            menu = QMenu(spec.text, window)
            menu.aboutToShow.connect(_find(window, spec.handler))
            setattr(window, spec.id, menu)
            continue
        action = _find(window, spec.made_by)(window, spec.text) if spec.made_by else QAction(spec.text, window)
        action.setShortcuts(key_sequences(spec))
        action.setCheckable(spec.checkable)
        action.setChecked(spec.checked)
        if spec.tooltip:
            action.setToolTip(spec.tooltip)
        if spec.data is not None:
            action.setData(spec.data)
        if spec.group:
            if not hasattr(window, spec.group):
                setattr(window, spec.group, QActionGroup(window))
            getattr(window, spec.group).addAction(action)
        if spec.handler:
            _connect(action, _find(window, spec.handler), spec)
        setattr(window, spec.id, action)


def _connect(action: QAction, handler, spec: ActionSpec) -> None:
    if spec.args:
        action.triggered.connect(lambda checked=False: handler(*spec.args))
    elif spec.checkable:
        action.toggled.connect(handler)
    else:
        action.triggered.connect(lambda checked=False: handler())


def fill_menus(window: QMainWindow, leading: dict[str, list[QAction]], specs: list[ActionSpec] = ACTIONS) -> None:
    """The menu bar, in the table's order; LEADING actions open a menu (the View menu's docks)."""
    menus: dict[str, QMenu] = {}
    for spec in specs:
        menu = _menu(window, menus, spec.menu, leading)
        if spec.separator_before:
            menu.addSeparator()
        item = getattr(window, spec.id)
        if isinstance(item, QMenu):
            menu.addMenu(item)
        else:
            menu.addAction(item)


def _menu(window: QMainWindow, menus: dict[str, QMenu], path: str, leading: dict[str, list[QAction]]) -> QMenu:
    if path not in menus:
        parent, _, title = path.rpartition("/")
        menus[path] = (_menu(window, menus, parent, leading) if parent else window.menuBar()).addMenu(title)
        menus[path].addActions(leading.get(path, []))
    return menus[path]


def fill_toolbar(window: QMainWindow, toolbar: QToolBar, specs: list[ActionSpec] = ACTIONS) -> dict:
    """A check box for each toolbar command, in the table's order; the boxes by their action."""
    boxes = {}
    for spec in specs:
        if spec.toolbar:
            action = getattr(window, spec.id)
            boxes[action] = box = ActionCheckBox(action, toolbar)
            toolbar.addWidget(box)
            toolbar.addSeparator()
    return boxes
