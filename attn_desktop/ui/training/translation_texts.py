"""What the Training panel says in words on translate: a head's name, the held-out exact match (with heads knocked
out or not), the sentence as written (each word right or wrong against the reference), and why a typed sentence
is refused. In the language shown."""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

from attn_desktop.language import number, tr
from attn_desktop.language.numbers import whole_number
from attn_desktop.model.training.translation_maths import HeadAt

WRONG_COLOR = "#B00020"  # the panel's error red: 7:1 on white


def head_name(head: HeadAt, layers: int = 1) -> str:
    """"the cross-attention head", with its layer and number when the model has more than one of them."""
    block, layer, index = head
    name = {"self": tr("the decoder's self-attention head"), "cross": tr("the cross-attention head"),
            "encoder": tr("the encoder's self-attention head")}[block]
    if layers > 1 or index > 0:
        # Translators: a head of the translator named with its layer and number: "the cross-attention head (layer 1 · head 2)".
        return tr("{head} (layer {layer} · head {index})").format(head=name, layer=layer + 1, index=index + 1)
    return name


def short_head_name(head: HeadAt, layers: int = 1) -> str:
    """"cross-attention", as a switch after "Knock out:" says it, with its layer and number where there are more."""
    block, layer, index = head
    name = {"self": tr("self-attention"), "cross": tr("cross-attention"), "encoder": tr("encoder")}[block]
    if layers > 1 or index > 0:
        # Translators: a knock-out switch's short name of a translator's head: "cross-attention 1·2" (layer 1, head 2).
        return tr("{head} {layer}·{index}").format(head=name, layer=layer + 1, index=index + 1)
    return name


def exact_match_text(exact_match: float, count: int, knocked_out: Collection[HeadAt], layers: int = 1) -> str:
    """"Held-out exact match: 99.3 % of 304 sentences", saying which heads are knocked out."""
    shown, sentences = number(100 * exact_match, 1), whole_number(count)
    if not knocked_out:
        return tr("Held-out exact match: {percent} % of {count} sentences").format(percent=shown, count=sentences)
    # Translators: {heads} names the heads knocked out: "the cross-attention head".
    return tr("Held-out exact match with {heads} knocked out: {percent} % of {count} sentences").format(
        heads=", ".join(head_name(head, layers) for head in sorted(knocked_out)), percent=shown, count=sentences)


def word_marks(written: Sequence[str], reference: Sequence[str]) -> list[bool]:
    """For each word written, whether the reference has that word in that place."""
    return [place < len(reference) and word == reference[place] for place, word in enumerate(written)]


def written_html(written: Sequence[str], reference: Sequence[str]) -> str:
    """The sentence as the model writes it, wrong words struck through in red, then whether it is right."""
    marks = word_marks(written, reference)
    words = [html.escape(word) if right else
             f'<span style="color:{WRONG_COLOR}; text-decoration: line-through">{html.escape(word)}</span>'
             for word, right in zip(written, marks, strict=True)]
    sentence = " ".join(words) or "…"
    if all(marks) and len(written) == len(reference):
        # Translators: under the cross-attention matrix: the sentence the model writes, and that it is the right one.
        return tr("Written: {sentence} ✓ right").format(sentence=sentence)
    # Translators: under the cross-attention matrix: the sentence the model writes (wrong words struck), and the right one.
    return tr("Written: {sentence} ✗ wrong (right: {reference})").format(
        sentence=sentence, reference=html.escape(" ".join(reference)))


def written_plain(written: Sequence[str], reference: Sequence[str]) -> str:
    """The same for a screen reader, without marks: "Written: the black cat sleeps, right"."""
    if list(written) == list(reference):
        return tr("Written: {sentence}, right").format(sentence=" ".join(written))
    return tr("Written: {sentence}, wrong; right: {reference}").format(sentence=" ".join(written),
                                                                       reference=" ".join(reference))


def bad_sentence_text(typed: str) -> str:
    # Translators: {sentence} is what the student typed; keep the example sentence "el gato negro duerme" as it is.
    return tr("“{sentence}” is not a sentence the translator knows: a determiner (el, un), a noun, perhaps an "
              "adjective after it, a verb, and after a verb like “ve” a second noun phrase, as in “el gato negro "
              "duerme”").format(sentence=typed.strip())


def reached_text(percent: float, step: int) -> str:
    # Translators: a screen reader's announcement on the Training panel's translate task.
    return tr("Held-out exact match reached {percent} % at step {step}: the model translates the sentences it "
              "never saw word for word").format(percent=number(percent, 0), step=whole_number(step))
