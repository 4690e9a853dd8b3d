"""A trained translator's cross-attention head on one sentence, as an ordinary cross-attention scene
("Keep as scene"). Nothing here imports Qt.

The scene reproduces the head exactly: its word vectors x are the encoder's final stream over the source
words (the keys and values read it), its target's word vectors y are the decoder's stream as the
cross-attention layer reads it (after that layer's self-attention; the queries read it), its grids are the
head's W_Q, W_K and W_V, and its W_O is the head's rows of the layer's W_O, so the scene's output is what the
head writes into the decoder's stream. Scores are divided by √d_head, as the model divides them, and no mask
is set (the model hides only padding, and a sentence alone has none). d_model is 32: too wide to draw as
arrows, so the scene shows its grids and numbers, as a kept induction model's scene does.

Row t of the target is named by the word the model writes there (the last row writes <eos>): its query is
made from <bos> and the words before t, and what it reads decides word t.
"""

from __future__ import annotations

from collections.abc import Sequence

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene, TargetSentence
from attn_desktop.model.training.translation_params import TranslationParams
from attn_desktop.model.training.translation_task import TranslationTask
from attn_desktop.model.training.translation_trainer import Sentence, greedy_decode, teacher_forced, words_of

SUBSCRIPT_DIGITS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def cross_head_scene_data(task: TranslationTask, params: TranslationParams, sentence: Sentence, layer: int = -1,
                          head: int = 0, target: Sequence[str] | None = None) -> ProjectedScene:
    """Cross-attention head HEAD of decoder layer LAYER reading SENTENCE, as a scene: the target is what greedy
    decoding writes (then <eos>), or TARGET (then <eos>) teacher-forced. Raises ValueError for a sentence the
    task's vocabulary cannot read."""
    source = words_of(sentence)
    written = greedy_decode(task, params, [source])[0] if target is None else [*target, "<eos>"]
    result = teacher_forced(task, params, source, written)
    layer = layer % len(params.decoder)
    cross = params.decoder[layer].cross
    width = cross.w_q.shape[-1]
    grids = HeadGrids(w_q=cross.w_q[head].tolist(), w_k=cross.w_k[head].tolist(), w_v=cross.w_v[head].tolist(),
                      name=f"cross L{layer + 1}H{head + 1}")
    return ProjectedScene(
        tokens=numbered(source), embeddings=result.memory[0].tolist(),
        layers=[LayerGrids(heads=[grids], w_o=cross.w_o[head * width:(head + 1) * width].tolist())],
        target=TargetSentence(tokens=numbered(written), embeddings=result.decoder[layer].after_self[0].tolist()),
        scale=True, causal=False, selected=0, title=tr("Trained model: {task}").format(task=task.name),
    )


def numbered(words: Sequence[str]) -> list[str]:
    """Each word as a name of its own: the second "el" is "el₂" (a scene names every arrow by its word)."""
    seen: dict[str, int] = {}
    names = []
    for word in words:
        seen[word] = seen.get(word, 0) + 1
        names.append(word if seen[word] == 1 else word + str(seen[word]).translate(SUBSCRIPT_DIGITS))
    return names


__all__ = ["cross_head_scene_data", "numbered"]
