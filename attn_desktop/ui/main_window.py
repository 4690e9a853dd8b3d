"""The main window: composes the canvas and the panels around one scene."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QToolBar, QWidget

from .. import APP_NAME, __version__
from ..model import Change, Scene, SceneFileError
from ..model.export import export_json_text
from ..model.scene_file import write_text_atomically
from .canvas import AttentionCanvas
from .matrix_view import MatrixView
from .output_panel import OutputPanel
from .query_picker import QueryPicker
from .score_table import ScoreTablePanel
from .shapes_panel import ShapesPanel
from .weights_chart import WeightsChart

SCENE_FILTER = "Attention scenes (*.json);;All files (*)"
STATUS_HINT = "Drag an arrow tip. Click a query arrow or a matrix row to choose the query. Esc cancels a drag."


class MainWindow(QMainWindow):
    def __init__(self, scene: Scene, scene_path: Path | None = None) -> None:
        super().__init__()
        self.scene = scene
        self.scene_path = scene_path
        self.setObjectName("MainWindow")
        self.canvas = AttentionCanvas(scene, self)
        self.setCentralWidget(self.canvas)
        self.score_panel = ScoreTablePanel(scene)
        self.output_panel = OutputPanel(scene)
        self.weights_chart = WeightsChart(scene)
        self.matrix_view = MatrixView(scene)
        self.shapes_panel = ShapesPanel(scene)
        self.docks: dict[str, QDockWidget] = {}
        self._add_dock("scoreDock", "Scores", self.score_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self._add_dock("matrixDock", "Attention matrix", self.matrix_view, Qt.DockWidgetArea.RightDockWidgetArea)
        self._add_dock("outputDock", "Output", self.output_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._add_dock("weightsDock", "Weights", self.weights_chart, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._add_dock("shapesDock", "Shapes", self.shapes_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.splitDockWidget(self.docks["outputDock"], self.docks["weightsDock"], Qt.Orientation.Horizontal)
        self.splitDockWidget(self.docks["weightsDock"], self.docks["shapesDock"], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["scoreDock"]], [430], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["scoreDock"], self.docks["matrixDock"]], [255, 395], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["outputDock"]], [180], Qt.Orientation.Vertical)
        self.resizeDocks(
            [self.docks["outputDock"], self.docks["weightsDock"], self.docks["shapesDock"]],
            [330, 400, 220], Qt.Orientation.Horizontal,
        )
        self._build_actions()
        self._build_toolbar()
        self._build_menus()
        # A normal widget stays; drag read-outs are temporary messages shown over it.
        self.statusBar().addWidget(QLabel(STATUS_HINT))
        self.canvas.drag_moved.connect(lambda text: self.statusBar().showMessage(text, 4000))
        self.resize(1320, 880)
        self._default_layout = self.saveState()
        scene.subscribe(self._on_scene_changed)
        self._update_title()

    def _add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)  # saveState/restoreState find docks by this name
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[name] = dock

    # ----- actions ------------------------------------------------------
    def _build_actions(self) -> None:
        self.open_action = QAction("&Open Scene…", self, shortcut=QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(self.choose_and_open)
        self.save_as_action = QAction("Save Scene &As…", self, shortcut=QKeySequence.StandardKey.SaveAs)
        self.save_as_action.triggered.connect(self.choose_and_save)
        self.export_action = QAction("&Export Results as JSON…", self, shortcut=QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.choose_and_export)
        self.quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)

        self.scale_action = QAction("Scale by √d_k", self, checkable=True, shortcut=QKeySequence("Ctrl+K"))
        self.scale_action.setToolTip("Divide every score by √d_k before the softmax")
        self.scale_action.toggled.connect(self.scene.set_scale)
        self.causal_action = QAction("Causal mask", self, checkable=True, shortcut=QKeySequence("Ctrl+M"))
        self.causal_action.setToolTip("Each query sees only itself and earlier tokens")
        self.causal_action.toggled.connect(self._set_causal)
        self.fit_action = QAction("&Fit Arrows in View", self, shortcut=QKeySequence("Ctrl+0"))
        self.fit_action.triggered.connect(self.canvas.fit_view)
        self.reset_layout_action = QAction("&Reset Layout", self)
        self.reset_layout_action.triggered.connect(self.reset_layout)
        self.about_action = QAction(f"&About {APP_NAME}", self)
        self.about_action.triggered.connect(self._show_about)
        self._sync_settings()

    def _build_toolbar(self) -> None:
        self.toolbar = toolbar = QToolBar("Query and settings", self)
        toolbar.setObjectName("mainToolBar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(" Query: "))
        self.query_picker = QueryPicker(self.scene, toolbar)
        toolbar.addWidget(self.query_picker)
        toolbar.addSeparator()
        toolbar.addAction(self.scale_action)
        toolbar.addAction(self.causal_action)
        self.addToolBar(toolbar)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        for action in (self.open_action, self.save_as_action, self.export_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        attention_menu = self.menuBar().addMenu("&Attention")
        attention_menu.addAction(self.scale_action)
        attention_menu.addAction(self.causal_action)
        view_menu = self.menuBar().addMenu("&View")
        for dock in self.docks.values():
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addSeparator()
        view_menu.addAction(self.fit_action)
        view_menu.addAction(self.reset_layout_action)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(self.about_action)

    # ----- following the scene -----------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.SETTINGS | Change.STRUCTURE):
            self._sync_settings()
        if change & Change.STRUCTURE:
            self._update_title()

    def _sync_settings(self) -> None:
        with QSignalBlocker(self.scale_action), QSignalBlocker(self.causal_action):
            self.scale_action.setChecked(self.scene.scale)
            self.causal_action.setChecked(self.scene.causal)
        self.causal_action.setEnabled(self.scene.n_queries == self.scene.n_tokens)

    def _set_causal(self, on: bool) -> None:
        try:
            self.scene.set_causal(on)
        except ValueError as error:
            self._sync_settings()
            self.show_error("Causal mask", str(error))

    def _update_title(self) -> None:
        name = self.scene_path.name if self.scene_path else (self.scene.title or "Untitled")
        self.setWindowTitle(f"{name} — {APP_NAME}")

    # ----- files --------------------------------------------------------
    def open_scene(self, path: Path) -> bool:
        """Open a scene file; on any problem say so and keep the current scene."""
        try:
            self.scene.load(path)
        except SceneFileError as error:
            self.show_error("Cannot open scene", str(error))
            return False
        self.scene_path = Path(path)
        self._update_title()
        return True

    def choose_and_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open Scene", str(self._dialog_dir()), SCENE_FILTER)
        if path:
            self.open_scene(Path(path))

    def choose_and_save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save Scene As", str(self._dialog_dir()), SCENE_FILTER)
        if not path:
            return
        try:
            self.scene.save(path)
        except OSError as error:
            self.show_error("Cannot save scene", f"{path}: {error.strerror or error}")
            return
        self.scene_path = Path(path)
        self._update_title()

    def choose_and_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export Results", str(self._dialog_dir()), "JSON (*.json)")
        if not path:
            return
        try:
            write_text_atomically(path, export_json_text(self.scene))
        except OSError as error:
            self.show_error("Cannot export", f"{path}: {error.strerror or error}")

    def _dialog_dir(self) -> Path:
        return self.scene_path.parent if self.scene_path else Path.home()

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    # ----- layout -------------------------------------------------------
    def reset_layout(self) -> None:
        self.restoreState(self._default_layout)
        for dock in self.docks.values():
            dock.show()

    def _show_about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME}</b> {__version__}<p>Drag the query, key and value arrows and watch "
            "scaled dot-product attention recompute: softmax(QKᵀ/√d_k)·V.</p><p>Works fully offline.</p>",
        )
