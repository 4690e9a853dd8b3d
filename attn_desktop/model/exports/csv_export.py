"""CSV tables for handouts: the attention weights matrix, and one query's score table.

Numbers are written with 15 significant digits, not repr(): that is as many
as a float is sure to keep from decimal text (a score typed as 3.78 prints as
3.78, not 3.7800000000000002) and as many as a spreadsheet holds, so a
spreadsheet or a script reads back the app's number to within one part in
10^15, not a copy rounded for show; the handout rounds as it likes. (The JSON
export keeps every bit.) A masked entry is an empty cell: masked is not a
weight of 0, and an empty cell says so in every spreadsheet.

Rows end in "\\n"; a file written in text mode gets the platform's line ends.
The csv module quotes any token holding a comma, a quote or a newline.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from attn_desktop.model.head_reading import HeadReading

CORNER = "query \\ key"  # the top-left cell: rows are queries, columns are keys
MASKED_NOTE = "masked"


def weights_csv(scene: HeadReading) -> str:
    """The weights matrix: a header of key tokens, then one row per query, its token first."""
    result = scene.result
    rows = [[CORNER, *scene.tokens]]
    for token, weights, visible in zip(scene.query_tokens, result.weights, result.mask):
        rows.append([token, *(_number(w) if shown else "" for w, shown in zip(weights, visible))])
    return _csv_text(rows)


def scores_csv(scene: HeadReading) -> str:
    """The selected query's score table, one row per key.

    Columns: key; q_<query>·k (the dot product); scaled (÷√d_k, or ÷1 with
    scaling off: the header says which); weight; note ("masked" for a key
    the causal mask hides: its scaled score and weight are then empty, since
    it never enters the softmax; its dot product is still shown).
    """
    result, row = scene.result, scene.selected
    header = ["key", f"q_{scene.selected_token}·k", _scaled_header(scene), "weight", "note"]
    rows = [header]
    for column, key in enumerate(scene.tokens):
        score = _number(result.scores[row, column])
        if result.mask[row, column]:
            rows.append([key, score, _number(result.scaled[row, column]), _number(result.weights[row, column]), ""])
        else:
            rows.append([key, score, "", "", MASKED_NOTE])
    return _csv_text(rows)


def _scaled_header(scene: HeadReading) -> str:
    return f"scaled (÷√{scene.key_width})" if scene.scale else "scaled (÷1, scaling off)"


def _number(value: float) -> str:
    # + 0.0 turns -0.0 into 0.0: a signed zero reads as a sign error to a student.
    return f"{float(value) + 0.0:.15g}"


def _csv_text(rows: Iterable[Sequence[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


__all__ = ["scores_csv", "weights_csv"]
