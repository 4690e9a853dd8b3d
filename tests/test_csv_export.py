"""The CSV tables a teacher pastes into a handout: read back as a spreadsheet would read them."""

import csv
import io
import json

import numpy as np
import pytest

from attn_desktop.model import HeadReading, read
from attn_desktop.model.exports.csv_export import scores_csv, weights_csv
from attn_desktop.model.scene_files import reading_from_document, scene_from_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.seed_numbers import SAT, TOKENS


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def default_reading(**changes) -> HeadReading:
    """The demo's scene, CHANGES made to its file, looked at with the query the file chose ("sat")."""
    document = json.loads(scene_path(DEFAULT_SCENE).read_text(encoding="utf-8"))
    document.update(changes)
    return reading_from_document(document)


def test_weights_matrix_has_token_labels_and_the_sat_row_of_the_demo():
    rows = rows_of(weights_csv(default_reading()))
    assert rows[0] == ["query \\ key", *TOKENS]
    assert [row[0] for row in rows[1:]] == TOKENS
    sat = rows[1 + SAT]
    assert sat[1].startswith("0.00199") and sat[2].startswith("0.759")


def test_weights_matrix_numbers_read_back_as_the_computed_weights():
    shown = default_reading()
    rows = rows_of(weights_csv(shown))
    read_back = [[float(cell) for cell in row[1:]] for row in rows[1:]]
    np.testing.assert_allclose(read_back, shown.result.weights, rtol=0, atol=1e-6)
    assert all(sum(row) == pytest.approx(1.0, abs=1e-12) for row in read_back)


def test_masked_weights_are_empty_cells_not_zeros():
    shown = default_reading(causal=True)
    rows = rows_of(weights_csv(shown))
    for query, row in enumerate(rows[1:]):
        cells = row[1:]
        assert all(cell != "" for cell in cells[: query + 1]), row
        assert all(cell == "" for cell in cells[query + 1:]), row
    assert rows[1][1] == "1"  # "The" sees only itself


def test_tokens_with_commas_and_quotes_are_quoted():
    scene = scene_from_document({
        "tokens": ["a,b", 'say "hi"', "c"], "queries": [[1, 0], [0, 1], [1, 1]],
        "keys": [[1, 0], [0, 1], [1, 1]], "values": [[1, 0], [0, 1], [1, 1]],
    })
    text = weights_csv(read(scene))
    assert text.splitlines()[0] == 'query \\ key,"a,b","say ""hi""",c'
    rows = rows_of(text)
    assert rows[0][1:] == ["a,b", 'say "hi"', "c"] and [row[0] for row in rows[1:]] == ["a,b", 'say "hi"', "c"]
    assert all(len(row) == 4 for row in rows)


def test_score_table_of_the_selected_query():
    rows = rows_of(scores_csv(default_reading()))
    assert rows[0] == ["key", "q_sat·k", "scaled (÷√2)", "weight", "note"]
    assert [row[0] for row in rows[1:]] == TOKENS
    cat = rows[2]
    assert cat[1] == "5.88" and float(cat[2]) == pytest.approx(4.1578, abs=1e-4)
    assert float(cat[3]) == pytest.approx(0.7594, abs=1e-4) and cat[4] == ""
    assert rows[6][1] == "3.78"  # as typed, not 3.7800000000000002


def test_score_table_with_the_mask_and_without_scaling():
    rows = rows_of(scores_csv(default_reading(causal=True, scale=False)))
    assert rows[0][2] == "scaled (÷1, scaling off)"
    visible, masked = rows[1:4], rows[4:]
    assert [row[:3] for row in visible] == [["The", "-2.52", "-2.52"], ["cat", "5.88", "5.88"], ["sat", "2.28", "2.28"]]
    assert sum(float(row[3]) for row in visible) == pytest.approx(1.0) and all(row[4] == "" for row in visible)
    assert masked == [["on", "-0.96", "", "", "masked"], ["the", "-3.48", "", "", "masked"],
                      ["mat", "3.78", "", "", "masked"]]


@pytest.mark.parametrize("code", ["es", "zh_CN", "ar"])
def test_exports_stay_machine_readable_whatever_the_language(speaking, code):
    """A Spanish class's CSV and JSON still read back in any spreadsheet or script: dots, English keys."""
    from attn_desktop.model.exports.export import export_document

    english_scores, english_weights = scores_csv(default_reading()), weights_csv(default_reading())
    english_json = json.dumps(export_document(default_reading()))
    speaking(code)
    shown = default_reading()
    assert scores_csv(shown) == english_scores
    assert weights_csv(shown) == english_weights
    assert json.dumps(export_document(shown)) == english_json
    assert rows_of(english_weights)[1][1].count(".") == 1  # (a weight, written with a dot)
