"""Lesson 10's lines of the Code panel: the shuffle that changes nothing, and RoPE's rotation, in NumPy.

They follow the scene's own script (its `tokens`, `Q`, `K`, `V`, `softmax`, `d_k`, `weights`, `output` and
chosen query `i`: see model/exports/codegen.py), so a student can paste the whole panel and run it. The
rotation is the one SmolLM2 and Llama use, written for adjacent pairs (numbers 2j and 2j + 1), as the app's
own forward pass does.
"""

from __future__ import annotations

from attn_desktop.language import tr
from attn_desktop.model.teaching.lesson_words import token_word

ROPE_BASE = 10000.0  # the original RoPE's; SmolLM2 uses 100,000 (its file says so)


def numpy_code(width: int) -> str:
    """The lesson's script for a scene whose queries and keys are WIDTH numbers wide."""
    return "\n".join((*_shuffle_lines(), "", *_rope_lines(width))) + "\n"


def _shuffle_lines() -> tuple[str, ...]:
    return (
        "# " + tr("Order-blind: shuffle the words, and every word keeps its weights and its output"),
        "order = np.random.default_rng(0).permutation(len(tokens))",
        "shuffled = softmax(Q[order] @ K[order].T / np.sqrt(d_k)) @ V[order]",
        'print("same outputs, reordered:", np.allclose(shuffled, output[order]))',
    )


def _rope_lines(width: int) -> tuple[str, ...]:
    if width % 2:
        return ("# " + tr("RoPE turns pairs of numbers: these vectors are {width} wide, an odd width, so it cannot "
                          "turn them").format(width=width),)
    dog = token_word("dog")  # as the lesson's sentence has it in the student's words
    return (
        "# " + tr("RoPE: turn each pair (2j, 2j + 1) of q at position m by m * theta_j, of k at n by n * theta_j"),
        f"theta = {ROPE_BASE:g} ** (-np.arange(d_k // 2) * 2 / d_k)  # "
        + tr("one speed per pair: the first the fastest"),
        "",
        "def rotate(vectors, positions):",
        "    angles = np.asarray(positions, dtype=float)[:, None] * theta[None, :]",
        "    cos, sin = np.cos(angles), np.sin(angles)",
        "    x, y = vectors[:, 0::2], vectors[:, 1::2]",
        "    turned = np.empty_like(vectors)",
        "    turned[:, 0::2] = x * cos - y * sin",
        "    turned[:, 1::2] = x * sin + y * cos",
        "    return turned",
        "",
        "places = np.arange(len(tokens))",
        "rope_weights = softmax(rotate(Q, places) @ rotate(K, places).T / np.sqrt(d_k))",
        'print("with RoPE, " + tokens[i] + " attends to:", ", ".join(f"{t} {w:.0%}" for t, w in zip(tokens, rope_weights[i])))',
        "",
        "# " + tr("The score depends only on the distance m - n: shift both positions, the score stays"),
        f"j = tokens.index({_quoted(dog)}) if {_quoted(dog)} in tokens else 0  # " + tr("the key lesson 10 asks about"),
        "q, k = Q[i:i + 1], K[j:j + 1]",
        "at_4_0 = (rotate(q, [4]) @ rotate(k, [0]).T).item()",
        "at_7_3 = (rotate(q, [7]) @ rotate(k, [3]).T).item()",
        'print(f"q.k at m=4, n=0: {at_4_0:.4f}   at m=7, n=3: {at_7_3:.4f}")',
    )


def _quoted(text: str) -> str:
    """TEXT as a Python string literal in double quotes ("dog")."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
