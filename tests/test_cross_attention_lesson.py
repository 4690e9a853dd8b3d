"""Lesson 11's text and exercises say what its scene really gives: "the black cat sleeps" written while "el gato
negro duerme" is read, the rows of black and cat crossing."""

import numpy as np
import pytest

from attn_desktop.language import tr
from attn_desktop.model.layers import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.model.teaching.cross_attention_exercises import BLACK, BLACK_ON_NEGRO, CAT
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lessons import LESSONS, lesson
from attn_desktop.paths import scene_path
from attn_desktop.ui.lessons.lesson_controller import lesson_scene_data

ALIGNED = {"the": "el", "black": "negro", "cat": "gato", "sleeps": "duerme"}


@pytest.fixture
def shown():
    return open_reading(scene_path(lesson("cross-attention").scene))


def test_the_target_writes_rows_and_the_source_is_read_in_columns(shown):
    scene = shown.scene
    assert scene.query_tokens == ["the", "black", "cat", "sleeps"]
    assert scene.tokens == ["el", "gato", "negro", "duerme"]
    assert shown.result.weights.shape == (4, 4) and shown.selected_token == "black"


def test_each_target_word_reads_its_own_translation_and_black_and_cat_cross(shown):
    scene, weights = shown.scene, shown.result.weights
    read = {target: scene.tokens[int(np.argmax(row))] for target, row in zip(scene.query_tokens, weights)}
    assert read == ALIGNED
    columns = [int(np.argmax(row)) for row in weights]
    assert columns[BLACK] > columns[CAT]  # the crossing: the earlier target word reads the later source word


def test_the_numbers_the_lesson_and_its_exercises_state(shown):
    q, keys = shown.vectors(Role.QUERY)[BLACK], shown.vectors(Role.KEY)
    scores = keys @ q
    assert np.round(scores, 2).tolist() == [-3.22, 0.42, 3.22, -0.42]
    weight = shown.result.weights[BLACK][2]
    assert round(weight, 2) == BLACK_ON_NEGRO == 0.82
    assert round(shown.result.weights[CAT][1], 2) == 0.82
    assert "82%" in lesson("cross-attention").steps[0]
    exercises = {exercise.id: exercise for exercise in exercises_for("cross-attention")}
    assert len(exercises) == 3
    assert exercises["cross-black-weight"].check(f"{weight:.3f}").correct
    assert not exercises["cross-black-weight"].check("0.62").correct
    cat = exercises["cross-cat-reads"]
    assert cat.choices[cat.correct_choice].startswith("gato")


def test_it_is_the_eleventh_lesson_and_opens_on_its_own_shortcut():
    from attn_desktop.ui.window.actions.table import lesson_shortcut
    assert LESSONS[10].id == "cross-attention" and lesson_shortcut(11) == "Alt+1"


@pytest.mark.parametrize("language", ["es", "zh_CN", "ar"])
def test_its_two_sentences_stay_as_written_in_every_language_and_its_title_is_translated(language):
    data = lesson_scene_data(lesson("cross-attention").scene, language)
    assert data.tokens == ["el", "gato", "negro", "duerme"]
    assert data.query_tokens == ["the", "black", "cat", "sleeps"]
    english = lesson_scene_data(lesson("self-attention").scene, language)
    assert english.tokens != ["cat", "sat", "it"]  # other lessons' words are still the student's
    assert tr(lesson("cross-attention").title)  # (a title in every catalog: tests/test_catalogs.py)
