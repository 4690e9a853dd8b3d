"""Which panels the window shows for what the user is doing: declared, never accumulated.

A teacher's window goes through presentation mode, other lessons, Training, a real model's heads
and restarts. If each of those showed and hid panels on top of what the one before left, the
window would drift into arrangements nobody designed (the one-head panels back beside two heads
after F11; the √d_k lab still open in lesson 8). So the set of panels is a function of the
activity and of presentation mode alone, and the window applies it after every such change.

Panels are named by DockId (their docks' object names). No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_desktop.model.teaching.dock_id import DockId

READING_PANELS = (DockId.LESSON, DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE)  # tabs of the left column
ONE_HEAD_PANELS = (DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS, DockId.SHAPES, DockId.GRIDS)
PRESENTED_NUMBERS = (DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS)  # what a class reads from afar
COMPANION_PANELS = (DockId.TRAINING, DockId.MODEL_HEADS, DockId.SCALING_LAB, DockId.POSITIONS_LAB)  # an activity's own panel
LABS = (DockId.SCALING_LAB, DockId.POSITIONS_LAB)  # under the lesson's text, not a tab behind it
# Panels no activity opens: the user asks for them (View) and they stay, a tab of the reading column, until closed.
# The Description panel is the teacher's view of what a screen reader says, not every student's.
ON_REQUEST = (DockId.DESCRIPTION,)
# A companion that needs room: the panels it closes. A lab takes the left column's height, so the
# bottom row spans the canvas only: it keeps the output whole (the score table shows the weights as bars).
MADE_WAY_FOR: dict[DockId, tuple[DockId, ...]] = {lab: (DockId.SHAPES, DockId.GRIDS, DockId.WEIGHTS) for lab in LABS}
# Training writes the scene itself: the challenges, the code and the sentence have nothing to do meanwhile, and
# their tabs beside it scrolled the column's tab bar on a 1024 screen ("ode" for Code). The lesson's tab stays.
MADE_WAY_FOR[DockId.TRAINING] = (DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE)


@dataclass(frozen=True)
class OwnPanels:
    """A teacher's lesson file's own panels (its `panels`), in place of the design's: those shown in the window and
    those shown presenting (empty: the design's, as for any lesson), and those its hidden controls take away."""

    window: frozenset[DockId] = frozenset()
    presenting: frozenset[DockId] = frozenset()
    hidden: frozenset[DockId] = frozenset()  # never shown, whatever the rest says (its View entry is gone too)


@dataclass(frozen=True)
class Activity:
    """What the user is doing, as far as the panels go."""

    several_heads: bool = False  # the heads side by side where the canvas was: no one-head panels
    companion: DockId | None = None  # Training, Model heads or a lab, when that is what is open
    grids: bool = True  # the head on the canvas makes q, k and v with W_Q, W_K, W_V grids (else no Grids panel)
    small_screen: bool = False  # a projector's 1024 × 768 or 1280 × 720: every pixel of height to the plots
    predicting: bool = False  # Predict, then See: the class guesses on the weights chart
    subject: frozenset[DockId] = frozenset()  # panels that show the lesson's subject: presented too (its grids)
    asked_for: frozenset[DockId] = frozenset()  # panels ON_REQUEST the user opened (View): kept until closed
    own: OwnPanels = OwnPanels()  # a lesson file's own panels, if it names them


def panels_shown(activity: Activity, presenting: bool) -> frozenset[DockId]:
    """The panels to show. Presenting, the reading waits on the teacher's screen and the class sees
    the canvas (or the heads) with the numbers; an activity's own panel stays in both. A lesson file that names
    its panels has them instead, as the screen allows them (no Grids tab without grids, Shapes making way for
    the grids on a small screen, the one-head panels for several heads)."""
    own = activity.own.presenting if presenting else activity.own.window
    if own:
        shown = set(own) - (set(ONE_HEAD_PANELS) if activity.several_heads else set())
        if not presenting:
            shown |= activity.asked_for & set(ON_REQUEST)
        if activity.predicting and not activity.several_heads:
            shown.add(DockId.WEIGHTS)  # the class guesses on the weights chart
    elif presenting:
        shown = set() if activity.several_heads else set(PRESENTED_NUMBERS)
        if activity.small_screen and not activity.predicting:
            # The score table shows the weights as bars too; the chart's row would cost the plots their height.
            shown.discard(DockId.WEIGHTS)
        if not activity.several_heads:
            shown |= activity.subject  # what the lesson is about, the class sees
    else:
        shown = set(READING_PANELS) | (set() if activity.several_heads else set(ONE_HEAD_PANELS))
        shown |= activity.asked_for & set(ON_REQUEST)  # presenting, they wait on the teacher's screen with the reading
    if not activity.grids:
        shown.discard(DockId.GRIDS)  # an empty tab would only take the bottom row's height
    elif activity.small_screen and (DockId.GRIDS in shown or not own):
        shown.discard(DockId.SHAPES)  # the grids say the shapes; Shapes' tab bar would cost the plots its height
        if activity.companion == DockId.TRAINING:  # training rewrites the grids each step: the plots get the row
            shown.discard(DockId.GRIDS)
    if activity.companion is not None:
        shown.add(activity.companion)
        shown -= set(MADE_WAY_FOR.get(activity.companion, ()))
    return frozenset(shown - activity.own.hidden)


def lesson_column_full_height(activity: Activity, presenting: bool) -> bool:
    """Whether the left column runs down to the status bar (the bottom row then spans the canvas only):
    the lesson's text and a lab under it need the whole height of a 768-line screen."""
    return activity.companion in LABS and not presenting
