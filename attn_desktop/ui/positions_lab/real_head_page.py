"""The Positions lab's fourth page, Real head: a previous-token head of SmolLM2 with its rotation switched off.

The page asks; the window answers: "Open SmolLM2's previous-token head" is a signal (`real_head_requested`)
and so is the RoPE switch (`rope_switched`). The switch is enabled for a scene taken from a model and says
whether that scene's attention was computed with RoPE (`taken_from.rope`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QPushButton, QVBoxLayout, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import TakenFrom
from attn_desktop.ui.positions_lab.lab_text import wrapped_label

INTRO = N_("SmolLM2 turns every head's q and k by RoPE. Some of its heads look at the previous token: a diagonal "
           "just under the main one in the Attention matrix. Open one, then switch RoPE off: its pattern is "
           "recomputed from q and k before their turn, the rest of the model unchanged.")
LOOK_FOR = N_("<b>What to look for:</b> with RoPE off, the previous-token diagonal disappears. Lesson 10's third "
              "question asks about it (Alt+0 brings the lesson back).")
NOT_A_MODEL = N_("The switch works on a head opened from a real model (Lessons → Heads of a Real Model…).")


class RealHeadPage(QWidget):
    real_head_requested = Signal()
    rope_switched = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label(tr(INTRO))
        # Translators: a button on two lines (a narrow column): keep the line break.
        self.open_button = QPushButton(tr("Open SmolLM2's\nprevious-token head"))
        self.rope_box = QCheckBox(tr("RoPE on"))
        self.rope_box.setToolTip(tr("Off: the head's attention from its q and k before RoPE turned them"))
        self.look_for = wrapped_label(tr(LOOK_FOR))
        self.note = wrapped_label(tr(NOT_A_MODEL))
        self.open_button.clicked.connect(self.real_head_requested)
        self.rope_box.toggled.connect(self.rope_switched)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.intro, self.open_button, self.rope_box, self.look_for, self.note):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.show_source(None)

    def show_source(self, taken_from: TakenFrom | None) -> None:
        """The switch as the scene is: enabled for a model's head, checked while its RoPE is on."""
        self.rope_box.blockSignals(True)  # the scene's state shown, not a request to change it
        self.rope_box.setEnabled(taken_from is not None)
        self.rope_box.setChecked(taken_from is None or bool(getattr(taken_from, "rope", True)))
        self.rope_box.blockSignals(False)
        self.note.setVisible(taken_from is None)
