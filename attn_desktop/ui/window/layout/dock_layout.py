"""Where the panels go: the docks of the main window, in the everyday design or presentation's.

Classrooms project at 1024 × 768, 1280 × 720 or 1366 × 768; teachers' laptops are often 4K at
200 %. The layout is therefore made of shares of the window, never fixed pixels, and each panel
asks for the least room that keeps it legible (all score rows, matrix numbers): Qt's dock layout
honours those minimum sizes when it shares the window out.

Which panels show is declared per activity (model/teaching/panel_sets.py); the panels' hand-set sizes are
kept per activity and kind of screen (hand_sizes.py). Entering and leaving presentation mode is
presentation_mode.py's; the window state kept per screen, layout_store.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QFrame, QMainWindow, QScrollArea, QTabBar, QWidget

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import (
    COMPANION_PANELS,
    LABS,
    ON_REQUEST,
    Activity,
    OwnPanels,
    lesson_column_full_height,
    panels_shown,
)
from attn_desktop.ui.widgets.placed_at_once_style import PlacedAtOnceStyle
from attn_desktop.ui.widgets.tight_tabs_style import TightTabsStyle
from attn_desktop.ui.window.layout.dock_design import (
    LEFT_COLUMN,
    close_companions,
    left_column_as_designed,
    place_left_column,
)
from attn_desktop.ui.window.layout.hand_sizes import (
    MEDIUM_SCREEN_PX,
    NARROW_SCREEN_PX,
    HandSizes,
    activity_key,
    in_sight,
)
from attn_desktop.ui.window.layout.presentation_design import arrange_for_presentation, lay_out_now
from attn_desktop.ui.window.layout.tab_bars import (
    hide_stray_tab_bars,
    keep_tab_groups,
    show_whole_tab_titles,
    tab_row_width,
)

LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)
HORIZONTAL, VERTICAL = Qt.Orientation.Horizontal, Qt.Orientation.Vertical

TIDY_AFTER_DRAG_MS = 250
SHORT_SCREEN_PX = 800  # 1280 × 720 and 1366 × 768: the bottom row as low as it reads, the canvas the rest
LAB_SHARE = 0.62  # of the left column's height, for a lab under the lesson's text
WIDE_DOCK_SHARE = 0.36  # of the window's width, for a left panel that shows a grid of pictures
COLUMN_SHARES = {DockId.POSITIONS_LAB: 0.27}  # a canvas of three plots beside it keeps two columns 200 px wide at 1024
WIDE_COMPANIONS = (*LABS, DockId.MODEL_HEADS)  # an activity's own panel that widens the left column (show_wide)


def column_width(name: DockId, window_width: int, share: float = WIDE_DOCK_SHARE) -> int:
    """The left column's width, in a window WINDOW_WIDTH wide, for NAME's plots or grid."""
    return int(window_width * COLUMN_SHARES.get(name, share))


@dataclass(frozen=True)
class DockSpec:
    name: DockId  # saveState/restoreState find docks by this object name
    title: str
    area: Qt.DockWidgetArea
    scrolls: bool = False  # a tall panel scrolls rather than make the window taller than a 768-line screen


def _in_scroll_area(panel: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area


TABS_WIDEN_AT_MOST_PX = 16  # a narrow lesson column widens this much at most to show its tabs whole


class DockLayout(QObject):
    """Builds the docks of a main window and arranges them for the screen it is on and what it is doing.

    SCENE_USES_GRIDS: whether the scene's head makes q, k and v with grids (else no Grids panel);
    PREDICTING: whether the class guesses on the weights chart (Predict, then See).
    """

    def __init__(self, window: QMainWindow, scene_uses_grids: Callable[[], bool],
                 predicting: Callable[[], bool]) -> None:
        super().__init__(window)
        self.window = window
        self.scene_uses_grids, self.predicting = scene_uses_grids, predicting
        self.docks: dict[DockId, QDockWidget] = {}
        self.presenting = False  # presentation's design, not the everyday one (presentation_mode.py switches)
        self.in_front_before_presentation: list[DockId] = []  # the tabs in front when presentation began
        self._activity_shown: Activity | None = None  # what show_declared_panels last showed the panels for
        self._areas: dict[DockId, Qt.DockWidgetArea] = {}  # each dock's side of the window, as designed
        self.closed_by_user: set[DockId] = set()  # panels the user closed: kept closed until Reset Layout
        self.asked_for: set[DockId] = set()  # panels shown on request (ON_REQUEST) the user opened: kept until closed
        self._applying = False  # showing and hiding panels by design, not by the user's hand
        self._placed_at_once = PlacedAtOnceStyle()  # every panel's style: see placed_at_once_style.py
        self._placed_at_once.setParent(self)
        self._tight_tabs = TightTabsStyle()  # the dock tab bars' margins where a narrow column needs them
        self._tight_tabs.setParent(self)
        self.showing_heads = False  # several heads side by side where the canvas was (make_way_for_heads)
        self._tokens_shared_for = 0  # the scene's length when the window was last shared out for it
        self.companion: DockId | None = None  # the activity's own panel (Training, Model heads, the lab), if open
        self.subject: frozenset[DockId] = frozenset()  # the open lesson's panels that show its subject (presented too)
        self.own_panels = OwnPanels()  # a lesson file's own panels, in place of the design's (lesson_file_opener.py)
        # After every layout pass, look for ghost tab bars (see hide_stray_tab_bars).
        self._bars_hidden: set[int] = set()  # each bar is hidden once at most: one Qt shows again is in use
        self._tidy_timer = QTimer(self, singleShot=True, interval=0)
        self._tidy_timer.timeout.connect(self._tidy_tab_bars)
        # The bottom row measured again once the event loop has laid the panels out (see share_out).
        self._bottom_row_timer = QTimer(self, singleShot=True, interval=0)
        self._bottom_row_timer.timeout.connect(self._bottom_row_as_low_as_it_reads)
        window.installEventFilter(self)
        self.hand_sizes = HandSizes(window, self.docks, lambda: activity_key(self.activity, self.presenting))

    def _tidy_tab_bars(self) -> None:
        if QApplication.mouseButtons() != Qt.MouseButton.NoButton:
            self._tidy_timer.start(TIDY_AFTER_DRAG_MS)  # mid-drag every move re-lays the panels out: later
            return
        self._tidy_timer.setInterval(0)
        hide_stray_tab_bars(self.window, self.docks, self._bars_hidden)
        show_whole_tab_titles(self.window, self._tight_tabs)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self._tidy_timer.start()
        return False

    # ----- building ----------------------------------------------------
    def add_dock(self, spec: DockSpec, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(spec.title, self.window)
        dock.setObjectName(spec.name)
        dock.setStyle(self._placed_at_once)  # (the panel's own; its contents keep the application's)
        dock.setWidget(_in_scroll_area(widget) if spec.scrolls else widget)
        self.window.addDockWidget(spec.area, dock)
        self.docks[spec.name] = dock
        self._areas[spec.name] = spec.area
        dock.visibilityChanged.connect(lambda _visible, name=spec.name: self._user_toggled(name))
        return dock

    @contextmanager
    def by_design(self) -> Iterator[None]:
        """Panels shown and hidden meanwhile are the design's doing (or a restored state's), not the user's hand."""
        self._applying = True
        try:
            yield
        finally:
            self._applying = False

    def _user_toggled(self, name: DockId) -> None:
        """The user closed a panel (its ×, the View menu) or opened it again: the design respects that."""
        if self._applying:
            return
        if name in ON_REQUEST:
            if self.docks[name].isHidden():
                self.asked_for.discard(name)
            elif name not in self.asked_for:  # just opened (View): its tab in front, where the user looks for it
                self.asked_for.add(name)
                self.docks[name].raise_()
            return
        if name in COMPANION_PANELS:
            if name == self.companion and self.docks[name].isHidden():
                QTimer.singleShot(0, self._companion_closed)  # once Qt has put another tab in its place
            return
        if self.docks[name].isHidden():
            self.closed_by_user.add(name)
        else:
            self.closed_by_user.discard(name)

    def arrange_defaults(self) -> None:
        """The everyday layout, sized for the window as it is now (see dock_design.py)."""
        window, docks = self.window, self.docks
        left_column = not left_column_as_designed(window, docks)  # never moved again when it need not be
        for name, dock in docks.items():  # each on its own side first: presentation mode moves some
            if left_column or name not in LEFT_COLUMN:
                window.addDockWidget(self._areas[name], dock)
        # The right column (scores over the matrix) runs the full height: every score row and the
        # matrix's numbers need height more than width. The bottom row sits under the canvas and lesson.
        window.setCorner(Qt.Corner.BottomRightCorner, RIGHT)
        window.setCorner(Qt.Corner.BottomLeftCorner, BOTTOM)
        if left_column:
            place_left_column(window, docks)
        close_companions(docks)
        window.splitDockWidget(docks[DockId.SCORE], docks[DockId.MATRIX], VERTICAL)
        window.splitDockWidget(docks[DockId.OUTPUT], docks[DockId.WEIGHTS], HORIZONTAL)
        window.splitDockWidget(docks[DockId.WEIGHTS], docks[DockId.SHAPES], HORIZONTAL)
        # The grids share a tab with the shapes; a projection scene brings them to the front.
        window.tabifyDockWidget(docks[DockId.SHAPES], docks[DockId.GRIDS])
        docks[DockId.SHAPES].raise_()
        self.share_out()

    def rebuild(self) -> None:
        """The designed layout for the activity: every panel in its place, the activity's panels shown.

        Built afresh rather than restored from a saved state: a state saved before presentation mode,
        another lesson or several heads brings back panels of what the window was doing then (and Qt's
        restoreState, after presentation mode moved docks between sides, could crash the app).
        """
        companion = self.activity.companion
        # The tabs in front of their groups (Shapes or Grids, Lesson or Code) stay in front; leaving presentation,
        # the ones in front before it (presenting hides them).
        in_front = [name for name, dock in self.docks.items() if in_sight(dock)] + self.in_front_before_presentation
        size = self.window.size()
        with self.by_design():
            self.arrange_defaults()  # (which closes the companions)
            if companion is not None:
                self.docks[companion].show()
        self.show_declared_panels()
        keep_tab_groups(self.window, self.docks)
        for name in in_front:  # showing a tab behind another brings it to the front: the ones in front stay
            if not self.docks[name].isHidden():
                self.docks[name].raise_()
        self._keep_window_size(size)
        self.share_out()  # once the panels it shows are shown: a hidden panel takes no share

    def _keep_window_size(self, size: QSize) -> None:
        """The window as large as it was before the panels were placed afresh. Midway (every panel in the left
        column, say) the docks' minimums can add up to more than the window's height, and Qt grows a window to
        its layout's minimum but never shrinks it back: a language and back left a 720-px window 730 px tall,
        its status bar partly off the screen and every panel 10 px lower."""
        window = self.window
        if window.size() == size or window.windowState() & (Qt.WindowState.WindowMaximized
                                                             | Qt.WindowState.WindowFullScreen):
            return  # (a maximized or full-screen window is the screen's size: the window manager keeps it so)
        lay_out_now(window)  # the layout's minimum as the panels now stand, not as they stood midway
        window.resize(size)

    def arrange(self) -> None:
        """The design of the mode the window is in, for the window as it is now: presentation's, or shared out."""
        self.arrange_for_presentation() if self.presenting else self.share_out()

    def arrange_for_presentation(self) -> None:
        arrange_for_presentation(self.window, self.docks, small_screen=self.activity.small_screen)
        self.hand_sizes.give_back()

    def share_out(self) -> None:
        """Give the canvas about half the window at any size: dock sizes are shares of the window (fixed sizes
        that suit a 1480-pixel window leave a 1024 × 768 projector a canvas a few hundred pixels wide). A
        panel's own minimum size (all score rows, readable matrix numbers) wins over its share."""
        window, docks = self.window, self.docks
        # The docks laid out where they now are first: shared out over them as they were before (panels just shown
        # or hidden, the lab under a bottom row, presentation's font), Qt kept the bottom row taller than designed.
        lay_out_now(window)
        width, height = window.width(), window.height()
        narrow = self._squeezed()
        lesson_column = self._reading_tabs_width() if narrow else int(width * 0.20)
        window.resizeDocks([docks[DockId.LESSON]], [max(1, lesson_column)], HORIZONTAL)
        window.resizeDocks([docks[DockId.SCORE]], [max(1, int(width * (0.0 if narrow else 0.30)))], HORIZONTAL)
        score_height = docks[DockId.SCORE].minimumSizeHint().height()
        window.resizeDocks([docks[DockId.SCORE], docks[DockId.MATRIX]], [score_height, height], VERTICAL)
        bottom_row = docks[DockId.OUTPUT].minimumSizeHint().height() if narrow else int(height * 0.22)
        window.resizeDocks([docks[DockId.OUTPUT]], [bottom_row], VERTICAL)
        if DockId.GRIDS not in panels_shown(self.activity, self.presenting):  # the bottom row spans canvas and lesson
            shares = (0.34, 0.22, 0.12) if narrow else (0.24, 0.28, 0.15)  # narrow: the output's numbers first
            window.resizeDocks([docks[DockId.OUTPUT], docks[DockId.WEIGHTS], docks[DockId.SHAPES]],
                               [int(width * share) for share in shares], HORIZONTAL)
        else:
            self.make_room_for_grids()
        self._size_companion_column()
        given_back = self.hand_sizes.give_back()  # what the user made of this design, on this kind of screen
        if narrow and not given_back:
            self._bottom_row_timer.start()

    def _bottom_row_as_low_as_it_reads(self) -> None:
        """On a small screen the bottom row is as low as the output reads, and the output's wrapped lines need
        fewer of them wider. share_out measures it before Qt has handed the panel its new width (a dock keeps its
        panel's minimum until the event loop passes): after lesson 2's narrow output, or presentation's large
        type, the row came back up to 48 px taller and the plots lost those pixels. Measured again here."""
        if self.presenting or not self.window.isVisible() or not self._squeezed():
            return  # (a window that grew meanwhile, as a restored one does when it is maximised, keeps its design)
        output = self.docks[DockId.OUTPUT]
        least = output.minimumSizeHint().height()
        if not output.isHidden() and output.height() != least:
            self.window.resizeDocks([output], [least], VERTICAL)

    def _reading_tabs_width(self) -> int:
        """The width the lesson column's tabs (Lesson, Challenges, Code, Sentence) take side by side with tight
        margins: a narrow column is as narrow as its panels read, but not so narrow that a tab scrolls out of
        sight. At most TABS_WIDEN_AT_MOST_PX wider than its panels need: the canvas's plots need those pixels
        more (lesson 2's three plots at 1024 × 768 are at their least readable width), so longer names (the
        pseudo-language's) scroll their tabs as before. 0 when the lesson is in no tab group, or it would
        widen more."""
        lesson = self.docks[DockId.LESSON]
        bars = [bar for bar in self.window.findChildren(QTabBar) if bar.parent() is self.window and bar.isVisible()
                and lesson.windowTitle() in (bar.tabText(index) for index in range(bar.count()))]
        row = max((tab_row_width(bar, self._tight_tabs) for bar in bars), default=0)
        return row if row <= lesson.minimumSizeHint().width() + TABS_WIDEN_AT_MOST_PX else 0

    def _size_companion_column(self) -> None:
        """The left column as the activity's own panel needs it: wide for a lab's plots or a grid of heads, a lab
        under most of the column's height. Part of the design, so that F11 twice, another lesson and back, and
        Reset Layout give the column the lesson opened with (never the reading panels' narrower one, which cut
        lesson 6's axis titles)."""
        companion = self.activity.companion
        if companion not in WIDE_COMPANIONS or self.presenting:  # presentation's design sizes its own
            return
        dock = self.docks[companion]
        if dock.isFloating() or self.window.dockWidgetArea(dock) != LEFT:
            return  # the user's to size
        self.window.resizeDocks([dock], [column_width(companion, self.window.width())], HORIZONTAL)
        if companion in LABS:  # under the lesson's text: most of the column
            lesson = self.docks[DockId.LESSON]
            height = lesson.height() + dock.height()
            self.window.resizeDocks([lesson, dock], [int(height * (1 - LAB_SHARE)), int(height * LAB_SHARE)], VERTICAL)

    def make_room_for_grids(self) -> None:
        """The grids need more of the bottom row than the shapes (on a small screen Shapes makes way for them)."""
        self.show_declared_panels()
        if self.presenting or self.docks[DockId.GRIDS].isHidden():
            return
        docks, width = self.docks, self.window.width()
        self.window.resizeDocks([docks[DockId.OUTPUT], docks[DockId.WEIGHTS], docks[DockId.GRIDS]],
                                [int(width * 0.24), int(width * 0.16), int(width * 0.34)], HORIZONTAL)

    def make_way_for_heads(self, on: bool, tokens: int = 0) -> None:
        """With several heads the panels that show one head make way (the View menu still shows them,
        for the head chosen); a scene of one head shows them again. A scene of another length on a small
        screen (Training's five digits after a six-word sentence) shares the window out again: the matrix's
        column, as narrow as its numbers, is narrower or wider."""
        if on != self.showing_heads:
            self.showing_heads = on
            self.show_declared_panels()
        elif tokens != self._tokens_shared_for and self.activity.small_screen and self.window.isVisible():
            self.arrange()
        self._tokens_shared_for = tokens

    # ----- the panels the activity declares --------------------------------
    @property
    def activity(self) -> Activity:
        companion = self.companion if self.companion is not None and not self.docks[self.companion].isHidden() else None
        return Activity(several_heads=self.showing_heads, companion=companion, grids=self.scene_uses_grids(),
                        small_screen=self.window.width() <= NARROW_SCREEN_PX or self._short_screen(),
                        predicting=self.predicting(), subject=self.subject, asked_for=frozenset(self.asked_for),
                        own=self.own_panels)

    def show_declared_panels(self) -> None:
        """Show the panels the activity declares (panel_sets.py) and close the rest, whatever the window
        went through before: presentation mode, other lessons, a restored state."""
        activity = self._activity_shown = self.activity
        wanted = panels_shown(activity, self.presenting) - self.closed_by_user
        full_height = lesson_column_full_height(activity, self.presenting)
        self.window.setCorner(Qt.Corner.BottomLeftCorner, LEFT if full_height else BOTTOM)
        with self.by_design():
            for name, dock in self.docks.items():
                if name in wanted and dock.isHidden():
                    dock.show()
                elif name not in wanted and not dock.isHidden():
                    dock.hide()

    def follow_activity(self) -> None:
        """The activity changed in a way that may change the panels or their room (Predict, then See on or off:
        the weights chart's strip and bars to guess on): the panels it declares, arranged again for it. The room
        is given now, when the activity is declared, so that no message arriving later (Reveal's) takes it."""
        if self._activity_shown == self.activity:
            return
        self.show_declared_panels()
        self.arrange()

    def open_companion(self, name: DockId | None) -> None:
        """The activity's own panel (a lesson's √d_k lab, Training, Model heads), or none: any other
        companion closes, so a panel one lesson opened never stays beside the next."""
        self.companion = name
        if name is not None:
            self.docks[name].show()
        self.show_declared_panels()
        # The design's shares, not what the last activity squeezed them to (presenting, its own design: another
        # lesson's output may read in fewer lines, and the plots get them); the companion's column among them.
        self.arrange()

    def _companion_closed(self) -> None:
        """The activity's own panel closed (its ×): the arrangement of what is left, the lesson's text in front
        (not the Sentence tab Qt brings forward) and the column as narrow as the reading panels have it."""
        if self.companion is None or not self.docks[self.companion].isHidden():
            return  # opened again meanwhile
        self.open_companion(None)
        lesson = self.docks[DockId.LESSON]
        if not lesson.isHidden():
            lesson.raise_()

    def show_dock(self, name: DockId) -> None:
        """Bring a dock to the front (Lessons → Train a Head…)."""
        if name in COMPANION_PANELS:
            self.open_companion(name)
        self.docks[name].show()
        self.docks[name].raise_()

    def show_wide(self, name: DockId, share: float = WIDE_DOCK_SHARE) -> None:
        """Bring a dock of the left column to the front, the column widened to SHARE of the window
        (a grid of thumbnails needs more than the reading panels' fifth)."""
        dock = self.docks[name]
        if name in COMPANION_PANELS:
            self.open_companion(name)
        dock.show()
        dock.raise_()
        # Presentation's design has sized an activity's own panel (open_companion): the everyday share would widen
        # the Model heads panel until the next arrangement narrowed it again, under the class's eyes.
        presented = self.presenting and name in COMPANION_PANELS
        if self.window.dockWidgetArea(dock) == LEFT and not dock.isFloating() and not presented:
            self.window.resizeDocks([dock], [column_width(name, self.window.width(), share)], HORIZONTAL)

    def reset(self) -> None:
        """View → Reset Layout: every panel back where the design puts it, sized for this window (presenting:
        presentation's design)."""
        self.closed_by_user.clear()
        self.asked_for.clear()  # the design's panels only: the Description panel waits in View again
        self.hand_sizes.forget()
        if self.companion is not None:
            self.docks[self.companion].show()  # the activity's own panel is part of its design
        self.rebuild()
        if self.presenting:
            self.arrange_for_presentation()

    def follow_direction(self) -> None:
        """The language's direction changed (Arabic, or back): every panel on its side for the new direction."""
        self.rebuild()
        if self.presenting:
            self.arrange_for_presentation()

    def window_resized(self) -> None:
        """The window has another size (not while presentation mode settles it: see PresentationMode)."""
        if self.window.isVisible() and self.activity != self._activity_shown:
            self.show_declared_panels()  # another kind of screen: its panels, shared out as designed for it
            self.share_out()
        if self.companion == DockId.MODEL_HEADS and self.window.isVisible():
            # A grid of heads asks for more than its share as the window shrinks: its share holds, not the canvas's.
            dock = self.docks[DockId.MODEL_HEADS]
            wanted = int(self.window.width() * WIDE_DOCK_SHARE)
            if not dock.isHidden() and not dock.isFloating() and dock.width() > wanted * 1.1:
                self.window.resizeDocks([dock], [wanted], HORIZONTAL)
                self.window.resizeDocks([self.docks[DockId.SCORE]], [int(self.window.width() * 0.30)], HORIZONTAL)

    def _squeezed(self) -> bool:
        """Every pixel to the canvas on a narrow or short screen (or a medium one whose left column holds the lab):
        the side columns as narrow as they read, the bottom row as low."""
        width = self.window.width()
        return width <= NARROW_SCREEN_PX or self._short_screen() or width <= MEDIUM_SCREEN_PX and self.companion in LABS

    def _short_screen(self) -> bool:  # the window's height: a small window on a tall screen is short too
        return self.window.height() <= SHORT_SCREEN_PX
