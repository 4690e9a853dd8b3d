"""The window state a user leaves behind, kept per screen size: where the window and its panels were, the
panels the user closed and the sizes set by hand, so a laptop and a projector each get their own back."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QMainWindow

from attn_desktop.language import tr
from attn_desktop.model.teaching.panel_sets import ON_REQUEST, Activity, panels_shown
from attn_desktop.ui.settings import LAYOUT_VERSION, app_settings
from attn_desktop.ui.settings_reader import read_setting, report_dropped
from attn_desktop.ui.window.layout.dock_design import closed_panels, lesson_back_in_front, shown_companions
from attn_desktop.ui.window.layout.dock_layout import DockLayout
from attn_desktop.ui.window.layout.presentation_mode import PresentationMode
from attn_desktop.ui.window.layout.screen_fit import screen_size

RESTORED_SIZE_SETTLES_MS = 150  # no resize for this long after a restore: the window has its size


class LayoutStore(QObject):
    """Keeps and gives back WINDOW's state for the screen it is on; DOCKS arranges its panels, PRESENTATION
    says what the everyday window was while it presents."""

    def __init__(self, window: QMainWindow, docks: DockLayout, presentation: PresentationMode) -> None:
        super().__init__(window)
        self.window, self.docks, self.presentation = window, docks, presentation
        self._settle_timer = QTimer(self, singleShot=True, interval=RESTORED_SIZE_SETTLES_MS)
        self._settle_timer.timeout.connect(self._share_out_for_the_activity)
        self._passes_left = 0  # share-outs still to come after the one running (see _share_out_for_the_activity)
        window.installEventFilter(self)

    @property
    def _layout_group(self) -> str:
        """The settings group this screen's layout is kept under: "layouts/1920x1080" ("…-rtl" for a right-to-left
        language's, whose docks are on the other sides)."""
        size = screen_size(self.window)
        return f"layouts/{size.width()}x{size.height()}{'-rtl' if self.window.isRightToLeft() else ''}"

    def restore(self) -> bool:
        """Where the window and the docks were when this screen size was last used; False if never (or if
        what was saved cannot be used: the computed layout then stands)."""
        settings = app_settings()
        if read_setting(settings, "layout_version") != LAYOUT_VERSION:
            return False  # a layout saved by another version could hide a new panel
        settings.beginGroup(self._layout_group)
        geometry, state = read_setting(settings, "geometry"), read_setting(settings, "window_state")
        saved_closed = read_setting(settings, "closed_by_user")
        self.docks.hand_sizes.load(settings)
        if geometry is None or state is None:
            return False  # another screen's layout would not fit this one: keep the computed one
        if not self.window.restoreGeometry(geometry):
            report_dropped(settings, f"{self._layout_group}/geometry", tr("Qt cannot read it"))
            return False
        with self.docks.by_design():
            if not self.window.restoreState(state):
                report_dropped(settings, f"{self._layout_group}/window_state", tr("Qt cannot read it"))
                return False
        docks = self.docks.docks
        self.docks.asked_for = {name for name in ON_REQUEST if name in docks and not docks[name].isHidden()}
        # What the user had closed stays closed; a panel the last session's activity had open is not this one's.
        designed = panels_shown(Activity(several_heads=self.docks.showing_heads), presenting=False)
        self.docks.closed_by_user = closed_panels(saved_closed, designed, docks)
        companions_before = shown_companions(docks)
        self._show_the_activitys_companion()
        self.docks.show_declared_panels()
        lesson_back_in_front(docks, companions_before)
        # Shared out once the window has its restored size: after the window manager's last resize (a
        # maximised window gets its size after it is shown), as sizes given to hidden docks do not hold.
        self._settle_timer.start()
        return True

    @property
    def settling(self) -> bool:
        """A restored window waits for its last resize before its panels are shared out (and shares out twice)."""
        return self._settle_timer.isActive() or self._passes_left > 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Resize and self._settle_timer.isActive():
            self._settle_timer.start()  # another resize while settling: wait for the last
        return False

    def _show_the_activitys_companion(self) -> None:
        """The panel of the activity the window starts in (the reopened lesson's lab), shown again: the saved
        state is the last session's activity's (the real model's panel, no lab), and restoring it hid it."""
        companion = self.docks.companion
        if companion is not None:
            with self.docks.by_design():
                self.docks.docks[companion].show()

    def _share_out_for_the_activity(self, passes: int = 2) -> None:
        """The sizes the activity opens with (its companion's column widened as LessonController.open does), and
        the user's hand-set ones, not the last session's (a score column sized for the real model's sentence).
        Twice: the panels' least heights (the output's wrapped lines) follow the widths the first pass gave."""
        self._passes_left = passes - 1
        if self.docks.presenting or not self.window.isVisible():
            self._passes_left = 0
            return  # presentation's design sizes its own panels
        self.docks.arrange()
        companion = self.docks.companion
        if companion is not None and not self.docks.docks[companion].isHidden():
            self.docks.show_wide(companion)
        if passes > 1:
            QTimer.singleShot(0, self.window, lambda: self._share_out_for_the_activity(passes - 1))

    def save(self) -> None:
        """Keep the everyday window for this screen size (never the projector one)."""
        settings = app_settings()
        settings.setValue("layout_version", LAYOUT_VERSION)
        geometry = self.window.saveGeometry()
        state = self.window.saveState()
        if self.presentation.presenting:
            geometry = self.presentation.geometry_before_presentation or geometry
            state = self.presentation.layout_before_presentation or state
        settings.beginGroup(self._layout_group)
        settings.setValue("geometry", geometry)
        settings.setValue("window_state", state)
        settings.setValue("closed_by_user", ",".join(sorted(self.docks.closed_by_user)))
        self.docks.hand_sizes.save(settings)
        settings.endGroup()
