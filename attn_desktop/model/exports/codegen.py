"""The scene as a short NumPy script a student can copy, run and change.

The script carries the scene's exact numbers (repr of each float round-trips),
so running it gives the app's weights and output to the last bit or two. It
follows every setting of the scene: scaling, the causal mask, separate query
names (cross-attention), values that are plain numbers, and word vectors with
W_Q, W_K, W_V grids; a target sentence (cross-attention) makes the queries from its own word vectors Y.
Its own comments stay ASCII (sqrt, not √) so it survives any editor.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.exports.scene_kind import SceneKind, scene_kind
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import GRID_NAMES, Role
from attn_desktop.model.scene import Scene

ONE_LINE_LIMIT = 100  # a matrix longer than this on one line gets one row per line
SOFTMAX = (
    "def softmax(x):",
    "    e = np.exp(x - x.max(axis=-1, keepdims=True))",
    "    return e / e.sum(axis=-1, keepdims=True)",
)


def numpy_code(shown: HeadReading) -> str:
    """Runnable Python (NumPy only) that recomputes the scene SHOWN reads and prints what the app shows for
    the query SHOWN has chosen: the script of its kind (see scene_kind.py)."""
    scripts: dict[SceneKind, Callable[[Scene, int], str]] = {
        "vectors": _one_head_code, "projection": _one_head_code, "multi-head": _multi_head_code,
        "layers": _multi_layer_code}
    return scripts[scene_kind(shown.scene)](shown.scene, shown.selected)


def _one_head_code(scene: Scene, selected: int) -> str:
    sections = [
        _header(scene),
        _inputs(scene),
        list(SOFTMAX),
        _attention(scene),
        _report(scene, selected),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


# ----- sections -----------------------------------------------------------
def _header(scene: Scene) -> list[str]:
    title = _comment_text(scene.title)
    # Translators: the first comment of the Code panel's Python script (its comments are translated, its code not).
    lines = ["# " + tr("{title}: attention in plain NumPy").format(title=title)] if title else []
    return [*lines, "import numpy as np"]


def _inputs(scene: Scene) -> list[str]:
    names = _token_lists(scene)
    if scene.head(0, 0).grids is not None:  # the head makes its q, k and v from word vectors
        return [*names, *_projection_inputs(scene)]
    values_note = tr("one number per token: V is {count} x 1").format(count=scene.n_tokens) if scene.scalar_values else ""
    return [
        *names,
        *_matrix("Q", scene.vectors(Role.QUERY)),
        *_matrix("K", scene.vectors(Role.KEY)),
        *_matrix("V", scene.vectors(Role.VALUE), values_note),
    ]


def _projection_inputs(scene: Scene) -> list[str]:
    lines = _word_vectors(scene)
    if not scene.use_grids:
        lines.append("# " + tr("The grids are switched off: each is the identity, so q = k = v = x."))
    for name, grid in (scene.head(0, 0).grids or {}).items():
        lines += _matrix("W" + name[-1], grid if scene.use_grids else np.eye(grid.shape[0]))
    if scene.target_vectors is not None:
        return [*lines, *_aligned([("Q = Y @ Wq", tr("each target word's query")),
                                   ("K, V = X @ Wk, X @ Wv", tr("each source word's key and value"))])]
    lines.append("Q, K, V = X @ Wq, X @ Wk, X @ Wv   # " + tr("each word's query, key and value"))
    return lines


def _word_vectors(scene: Scene) -> list[str]:
    """X, the tokens' word vectors, and in cross-attention Y, the target's, which make the queries."""
    if scene.target_vectors is None:
        return _matrix("X", scene.vectors(Role.EMBEDDING), tr("one word vector per token"))
    return [*_matrix("X", scene.vectors(Role.EMBEDDING), tr("the source: one word vector per token")),
            *_matrix("Y", scene.target_vectors, tr("the target: one word vector per query"))]


def _token_lists(scene: Scene) -> list[str]:
    """tokens, and in cross-attention query_tokens (the target's words)."""
    names = [f"tokens = {_strings(scene.tokens)}"]
    if scene.query_tokens == scene.tokens:
        return names
    query_names = f"query_tokens = {_strings(scene.query_tokens)}"
    return _aligned([(names[0], tr("the keys and values")), (query_names, tr("the queries"))])


def _attention(scene: Scene) -> list[str]:
    lines: list[tuple[str, str | None]]  # code, then its comment (None: the line is a comment itself)
    if scene.scale:
        lines = [("d_k = K.shape[1]", ""), ("scores = Q @ K.T / np.sqrt(d_k)", tr("every query against every key"))]
    else:
        lines = [("# " + tr("Scaling is off in this scene: the scores are not divided by sqrt(d_k)."), None),
                 ("scores = Q @ K.T", tr("every query against every key"))]
    if scene.causal:
        lines += [
            ("# " + tr("Causal mask: hide the keys that come after each query (above the diagonal)."), None),
            ("# " + tr("A score of -inf before the softmax becomes a weight of exactly 0."), None),
            ("later = np.triu(np.ones(scores.shape, dtype=bool), k=1)", ""),
            ("scores[later] = -np.inf", ""),
        ]
    lines += [
        ("weights = softmax(scores)", tr("each row sums to 1")),
        ("output = weights @ V", tr("each row is a weighted average of the values")),
    ]
    return _aligned(lines)


def _report(scene: Scene, selected: int) -> list[str]:
    name = scene.query_tokens[selected]
    output = "round(float(output[i, 0]), 2)" if scene.output.shape[1] == 1 else "np.round(output[i], 2)"
    return [
        _pick_query(scene, selected),
        f'print({_string(name + " attends to:")}, ", ".join(f"{{t}} {{w:.0%}}" for t, w in zip(tokens, weights[i])))',
        f"print({_string('output for ' + name + ':')}, {output})",
        'print("shapes:", scores.shape, output.shape)',
    ]


def _pick_query(scene: Scene, selected: int) -> str:
    labels = scene.query_tokens
    list_name = "tokens" if labels == scene.tokens else "query_tokens"
    name = labels[selected]
    if labels.count(name) == 1:
        return f"i = {list_name}.index({_string(name)})"
    # .index() would find the first of two equal names; the row number is what the app selected.
    return f"i = {selected}   # " + tr("query {number}: {name} appears more than once").format(
        number=selected, name=_string(name))


# ----- several heads --------------------------------------------------------
def _multi_head_code(scene: Scene, selected: int) -> str:
    sections = [
        _header(scene),
        [*_token_lists(scene),
         *_word_vectors(scene),
         *_heads_list(scene, 0, "heads"),
         *_matrix("Wo", scene.grid("w_o"), tr("mixes the heads' outputs, side by side, into one"))],
        list(SOFTMAX),
        _attend_function(scene),
        _aligned([
            ("weights, outputs = [], []", ""),
            ("for Wq, Wk, Wv in heads:", tr("every head reads the same word vectors")),
            (f"    w, out = attend({'Y' if scene.target_vectors is not None else 'X'} @ Wq, X @ Wk, X @ Wv)", ""),
            ("    weights.append(w)", ""),
            ("    outputs.append(out)", ""),
            ("joined = np.hstack(outputs)", tr("the heads' outputs side by side")),
            ("output = joined @ Wo", tr("the layer's output")),
        ]),
        _multi_head_report(scene, selected),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _heads_list(scene: Scene, layer: int, variable: str) -> list[str]:
    lines = [f"{variable} = ["]
    for index, head in enumerate(scene.layers[layer].heads):
        name = _comment_text(head.name)
        lines.append("    # " + (tr("head {number}: {name}: W_Q, W_K, W_V").format(number=index + 1, name=name) if name
                                else tr("head {number}: W_Q, W_K, W_V").format(number=index + 1)))
        arrays = [_array_literal(scene.grid(name, layer, index)) for name in GRID_NAMES]
        lines += [f"    ({arrays[0]},", f"     {arrays[1]},", f"     {arrays[2]}),"]
    lines.append("]")
    return lines


# ----- several layers ---------------------------------------------------------
def _multi_layer_code(scene: Scene, selected: int) -> str:
    """Layer after layer: each reads the residual stream x, its heads attend, W_O mixes them, x grows."""
    definitions = [*_token_lists(scene), *_word_vectors(scene)]
    pairs = []
    for index, layer in enumerate(scene.layers, start=1):
        definitions += _heads_list(scene, index - 1, f"layer{index}_heads")
        w_o = layer.w_o if layer.w_o is not None else np.eye(layer.joined_output.shape[1])
        definitions += _matrix(f"Wo{index}", w_o, tr("mixes layer {number}'s heads").format(number=index))
        pairs.append(f"(layer{index}_heads, Wo{index})")
    name = scene.query_tokens[selected]
    sections = [
        _header(scene),
        definitions,
        list(SOFTMAX),
        _attend_function(scene),
        _aligned([
            (f"layers = [{', '.join(pairs)}]", ""),
            *_stream_start(scene),
            ("for number, (heads, Wo) in enumerate(layers, start=1):", ""),
            ("    weights, outputs = [], []", ""),
            ("    for Wq, Wk, Wv in heads:", tr("every head of a layer reads the same stream")),
            (f"        w, out = attend({_asking(scene)} @ Wq, x @ Wk, x @ Wv)", ""),
            ("        weights.append(w)", ""),
            ("        outputs.append(out)", ""),
            ("    output = np.hstack(outputs) @ Wo", tr("the layer's output")),
            ("    if number < len(layers):", ""),
            (f"        {_asking(scene)} = {_asking(scene)} + output", tr("what the next layer reads")),
            (f"    {_pick_query(scene, selected)}", ""),
            ("    for h, w in enumerate(weights, start=1):", ""),
            ((f'        print(f"layer {{number}} head {{h}}:", {_string(name + " attends to")}, '
              '", ".join(f"{t} {p:.0%}" for t, p in zip(tokens, w[i])))'), ""),
        ]),
        [f"print({_string('output for ' + name + ':')}, np.round(output[i], 2))"],
    ]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _asking(scene: Scene) -> str:
    """The stream whose rows make the queries: x, or in cross-attention the target's y."""
    return "y" if scene.target_vectors is not None else "x"


def _stream_start(scene: Scene) -> list[tuple[str, str | None]]:
    if scene.target_vectors is None:
        return [("x = X", tr("the residual stream: layer 1 reads the word vectors"))]
    # The residual stream runs on the target's side, as in a translator's decoder; every layer reads the source.
    return [("x = X", tr("the source, which every layer reads as it is")),
            ("y = Y", tr("the residual stream of the target: layer 1 reads its word vectors"))]


def _array_literal(array: np.ndarray) -> str:
    return "np.array([" + ", ".join("[" + ", ".join(map(repr, row)) + "]" for row in array.tolist()) + "])"


def _attend_function(scene: Scene) -> list[str]:
    body = ["def attend(Q, K, V):"]
    if scene.scale:
        body.append("    scores = Q @ K.T / np.sqrt(K.shape[1])   # " + tr("every query against every key"))
    else:
        body += ["    # " + tr("Scaling is off in this scene: the scores are not divided by sqrt(d_k)."),
                 "    scores = Q @ K.T"]
    if scene.causal:
        body += ["    # " + tr("Causal mask: a score of -inf for the keys after each query gives a weight of 0."),
                 "    scores[np.triu(np.ones(scores.shape, dtype=bool), k=1)] = -np.inf"]
    body += ["    weights = softmax(scores)", "    return weights, weights @ V"]
    return body


def _multi_head_report(scene: Scene, selected: int) -> list[str]:
    name = scene.query_tokens[selected]
    return [
        _pick_query(scene, selected),
        "for h, w in enumerate(weights, start=1):",
        (f'    print(f"head {{h}}:", {_string(name + " attends to")}, '
        '", ".join(f"{t} {x:.0%}" for t, x in zip(tokens, w[i])))'),
        f"print({_string('output for ' + name + ':')}, np.round(output[i], 2))",
        'print("shapes:", joined.shape, output.shape)',
    ]


# ----- formatting ---------------------------------------------------------
def _matrix(name: str, array: np.ndarray, comment: str = "") -> list[str]:
    # tolist() gives Python floats, whose repr is the shortest text that reads back as the same float:
    # exact, and "1.6" rather than "1.6000000000000001" (an np.float64 would print as "np.float64(1.6)").
    rows = ["[" + ", ".join(map(repr, row)) + "]" for row in np.asarray(array, dtype=np.float64).tolist()]
    suffix = f"   # {comment}" if comment else ""
    one_line = f"{name} = np.array([{', '.join(rows)}])"
    if len(one_line) <= ONE_LINE_LIMIT:
        return [one_line + suffix]
    return [f"{name} = np.array([{suffix}", *(f"    {row}," for row in rows), "])"]


def _aligned(lines: list[tuple[str, str | None]]) -> list[str]:
    """Code with its comments lined up in one column; lines with no comment (or comment lines) stand alone."""
    width = max(len(code) for code, comment in lines if comment) + 3
    return [
        code if not comment else f"{code.ljust(width)}# {comment}"
        for code, comment in lines
    ]


def _strings(items: Sequence[str]) -> str:
    return "[" + ", ".join(_string(item) for item in items) + "]"


def _string(text: str) -> str:
    """A double-quoted Python literal; every JSON escape is also a Python escape."""
    literal = json.dumps(text, ensure_ascii=False)
    # A line separator or a control character would break the line on screen; escape it then.
    return literal if literal.isprintable() else json.dumps(text)


def _comment_text(text: str) -> str:
    """Text safe inside a # comment: one line, nothing unprintable."""
    return "".join(ch for ch in " ".join(text.split()) if ch.isprintable())
