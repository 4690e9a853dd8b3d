"""A monkey test: a thousand random things a student might do, and the app must keep its word.

After every action no exception may have escaped and every panel must agree
with the model; at the end, undoing everything the history keeps must give
back the scene as it was before its oldest step exactly (the starting scene,
unless the run was longer than the undo limit).

ATTN_MONKEY_ACTIONS=10000 makes a long run (a few minutes) instead of the usual thousand.
"""

import os
import random
import sys

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog

from attn_desktop.model import Role, attention, causal_mask, explain
from attn_desktop.model.scene_files import scene_document
from attn_desktop.ui.document.edit_history import UNDO_LIMIT

from tests.support.in_the_window import drag_arrow, matrix_cells, table_column

ACTIONS = int(os.environ.get("ATTN_MONKEY_ACTIONS", "1000"))


def panels_agree_with_the_model(window) -> None:
    scene = window.scene
    mask = causal_mask(scene.n_queries, scene.n_tokens) if scene.causal else None
    fresh = attention(window.reading().vectors(Role.QUERY), window.reading().vectors(Role.KEY), window.reading().vectors(Role.VALUE),
                      scale=scene.scale, mask=mask)
    row = fresh.weights[window.reading().selected]
    visible = fresh.mask[window.reading().selected]
    assert table_column(window, 0) == scene.tokens
    assert table_column(window, 3) == [explain.percent(w) if v else "masked" for w, v in zip(row, visible)]
    assert matrix_cells(window)[window.reading().selected] == [explain.number(w) if v else "—" for w, v in zip(row, visible)]
    assert window.output_panel.vector_label.text() == explain.vector(fresh.output[window.reading().selected])
    assert window.query_picker.currentText() == window.reading().selected_token
    assert len(window.canvas.arrows[Role.KEY]) == scene.n_tokens


def remember_the_scene_before_a_new_step(stack, before: dict) -> None:
    """The step an action pushed (a drag merged into one step keeps its first) is told the scene as it was
    before the action: a run longer than the undo limit checks that undoing reaches the oldest step kept."""
    if stack.index() > 0:
        top = stack.command(stack.index() - 1)
        if not hasattr(top, "scene_before"):
            top.scene_before = before


def test_a_thousand_random_actions(qtbot, window, tmp_path, monkeypatch):
    rng = random.Random(20261129)
    errors = []
    monkeypatch.setattr(sys, "excepthook", lambda *info: errors.append(info))  # a slot's exception lands here
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "monkey.json"), ""))
    start = scene_document(window.scene, window.view_state)
    scene = window.scene

    def drag():
        role = rng.choice([Role.QUERY, Role.KEY, Role.VALUE])
        index = rng.randrange(len(window.canvas.arrows[role]))
        drag_arrow(window, role, index, QPointF(rng.uniform(-40, 40), rng.uniform(-40, 40)), steps=3)

    def typed():
        role = rng.choice([Role.QUERY, Role.KEY, Role.VALUE])
        text = rng.choice(["0.5, -0.5", "1 2", "abc", "3", "1e400, 0", "-1.25, 0.75"])
        monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (text, True))
        window.coordinates.type_coordinates(role, rng.randrange(scene.n_tokens))

    def sentence():
        panel = window.sentence_panel
        choice = rng.random()
        if choice < 0.4 and scene.n_tokens < 10:
            panel.new_name.setText(rng.choice(["dog", "a", "sat", "  ", "x" * 50]))
            panel.add()
        elif choice < 0.7 and scene.n_tokens > 2:
            panel.list.setCurrentRow(rng.randrange(scene.n_tokens))
            panel.remove()
        else:
            panel.list.setCurrentRow(rng.randrange(scene.n_tokens))
            panel.move_token(rng.choice([-1, 1]))

    def undo_or_redo():
        modifiers = Qt.KeyboardModifier.ControlModifier
        if rng.random() < 0.4:
            modifiers |= Qt.KeyboardModifier.ShiftModifier
        qtbot.keyClick(window, Qt.Key.Key_Z, modifiers)

    def toggle():
        rng.choice([window.scale_action, window.causal_action]).trigger()

    def choose_query():
        window.reading().select_query(rng.randrange(scene.n_queries))

    def save():
        window.documents.choose_and_save()

    actions = [drag] * 4 + [typed, sentence, sentence, undo_or_redo, undo_or_redo, toggle, choose_query, save]
    stack = window.history.stack
    for _ in range(ACTIONS):
        before = scene_document(window.scene, window.view_state)
        rng.choice(actions)()
        remember_the_scene_before_a_new_step(stack, before)
        assert not errors, errors
        assert not np.isnan(window.reading().result.weights).any()
        panels_agree_with_the_model(window)
        assert stack.count() <= UNDO_LIMIT

    if stack.count() == UNDO_LIMIT:  # the oldest steps were forgotten: undo reaches the oldest one kept
        start = stack.command(0).scene_before
    stack.setIndex(0)  # undo everything
    assert scene_document(window.scene, window.view_state) == {**start, "selected": window.reading().selected}
    panels_agree_with_the_model(window)
