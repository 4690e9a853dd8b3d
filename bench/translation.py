"""How fast the translator (issue 46's encoder-decoder) learns, and whether its cross-attention is the alignment.

Run by hand from the project root (it prints figures; it checks nothing):

    python bench/translation.py [--seeds 0 1 2] [--give-up-after 2000]

For each seed, with the task's default shape and settings (attn_desktop/model/training/translation_task.py),
training step by step and reading the model after every step on the held-out pairs (never trained on):

* the first step where the exact match (greedy decoding, word for word to <eos>) is 99 % or more, and the
  seconds of training to get there: a fresh trainer from the same seed, timed through that many steps (the same
  seed gives the same model), so the readings after every step are not counted. The issue allows 2,000 steps
  and 15 s on 2 cores.
* at that step: the best cross-attention head of the last decoder layer, how often each content word's row
  (noun, adjective, verb) puts its largest weight on its aligned source word (the issue wants ≥ 90 %), the same
  for the adjectives and nouns that swapped places, and the exact match with every cross-attention head's output
  zeroed (the issue wants < 10 %).
* the step where the alignment appears: the first step where that head looks at the aligned word for 90 % of the
  content words or more; and the step where the crossing appears, 90 % of the swapped adjectives and nouns.
* the same figures after the command's default steps (what `attn-desktop train translate` writes), and its time.

And once: the share of held-out pairs with a crossing (an adjective before its noun; the issue wants ≥ 30 %).
The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_desktop.model.training.translation_document import greedy_exact_match
from attn_desktop.model.training.translation_task import TRANSLATE
from attn_desktop.model.training.translation_trainer import TranslationTrainer, alignment_hits, best_cross_head

TARGET_EXACT_MATCH = 0.99
ALIGNMENT_APPEARS = 0.90


def reading(trainer: TranslationTrainer) -> dict[str, float | int]:
    """The model now, on the held-out pairs: greedy exact match, the best cross head's alignment, and the exact
    match with every cross-attention head knocked out."""
    task, params = trainer.task, trainer.snapshot()
    layer, head = best_cross_head(task, params, task.held_out)
    hits = alignment_hits(task, params, task.held_out, layer, head)
    every_cross_head = [("cross", index, cross_head) for index, decoder_layer in enumerate(params.decoder)
                        for cross_head in range(decoder_layer.cross.n_heads)]
    return {"step": trainer.steps, "exact_match": greedy_exact_match(task, params, task.held_out),
            "best_cross_head": [layer, head], "alignment_content": hits.content, "alignment_crossing": hits.crossing,
            "exact_match_cross_knocked_out": trainer.held_out_exact_match(knocked_out=every_cross_head)}


def first_steps(seed: int, give_up_after: int) -> dict[str, int | None]:
    """The first step at 99 % held-out exact match, where the alignment appears and where the crossing does."""
    trainer = TranslationTrainer(TRANSLATE, seed)
    found: dict[str, int | None] = {"reached_99": None, "alignment_appears": None, "crossing_appears": None}
    while trainer.steps < give_up_after and None in found.values():
        held_out = trainer.step(1).held_out_exact_match  # teacher-forced: the same share as greedy decoding's
        task, params = trainer.task, trainer.snapshot()
        hits = alignment_hits(task, params, task.held_out, *best_cross_head(task, params, task.held_out))
        for name, reached in (("reached_99", held_out >= TARGET_EXACT_MATCH),
                              ("alignment_appears", hits.content >= ALIGNMENT_APPEARS),
                              ("crossing_appears", hits.crossing >= ALIGNMENT_APPEARS)):
            if reached and found[name] is None:
                found[name] = trainer.steps
    return found


def trained_for(seed: int, steps: int) -> tuple[TranslationTrainer, float]:
    """A fresh trainer from SEED after STEPS steps, and the seconds they took (one held-out reading at the end)."""
    trainer = TranslationTrainer(TRANSLATE, seed)
    started = time.perf_counter()
    trainer.step(steps)
    return trainer, time.perf_counter() - started


def run(seed: int, give_up_after: int) -> dict[str, object]:
    steps = first_steps(seed, give_up_after)
    figures: dict[str, object] = {"seed": seed, **steps}
    if steps["reached_99"] is not None:
        trainer, seconds = trained_for(seed, steps["reached_99"])
        figures["seconds_to_99"] = round(seconds, 2)
        figures["at_99"] = reading(trainer)
    trainer, seconds = trained_for(seed, TRANSLATE.default_steps)
    figures["default_steps_seconds"] = round(seconds, 2)
    figures["after_default_steps"] = reading(trainer)
    return figures


def percent(share: object) -> str:
    return f"{100 * float(share):.1f} %"  # type: ignore[arg-type]


def say(figures: dict[str, object]) -> None:
    seed = figures["seed"]
    if figures["reached_99"] is None:
        print(f"seed {seed}: did NOT reach 99 % held-out exact match")
    else:
        at = figures["at_99"]
        assert isinstance(at, dict)
        print(f"seed {seed}: {percent(at['exact_match'])} held-out exact match at step {figures['reached_99']} after "
              f"{figures['seconds_to_99']} s of training; best cross head (layer, head) {tuple(at['best_cross_head'])} "
              f"on the aligned word for {percent(at['alignment_content'])} of content words, "
              f"{percent(at['alignment_crossing'])} of the crossed ones; every cross head zeroed: "
              f"{percent(at['exact_match_cross_knocked_out'])} exact match")
    print(f"seed {seed}: the alignment appears (≥ 90 % of content words) at step {figures['alignment_appears']}, "
          f"the crossing (≥ 90 % of the swapped adjectives and nouns) at step {figures['crossing_appears']}")
    after = figures["after_default_steps"]
    assert isinstance(after, dict)
    print(f"seed {seed}: after the default {TRANSLATE.default_steps} steps ({figures['default_steps_seconds']} s): "
          f"{percent(after['exact_match'])} exact match, aligned {percent(after['alignment_content'])} "
          f"(crossed {percent(after['alignment_crossing'])}), cross heads zeroed "
          f"{percent(after['exact_match_cross_knocked_out'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="training seeds")
    parser.add_argument("--give-up-after", type=int, default=2000, help="steps (the issue allows 2,000)")
    args = parser.parse_args()

    pairs = TRANSLATE.held_out
    crossing_share = sum(pair.has_crossing for pair in pairs) / len(pairs)
    print(f"{os.cpu_count()} CPUs, load average {', '.join(f'{load:.2f}' for load in os.getloadavg())}; "
          f"{len(pairs)} held-out pairs, {percent(crossing_share)} with a crossing; lr {TRANSLATE.default_lr:g}, "
          f"batch {TRANSLATE.default_batch_size}, d_model {TRANSLATE.d_model}, {TRANSLATE.encoder_layers} encoder "
          f"self-attention layers, {TRANSLATE.decoder_layers} decoder layer(s) of {TRANSLATE.n_heads} head(s), "
          f"MLP width {TRANSLATE.mlp_width}")
    runs = []
    for seed in args.seeds:
        figures = run(seed, args.give_up_after)
        say(figures)
        runs.append(figures)
    print(json.dumps({"held_out_pairs": len(pairs), "crossing_share": crossing_share, "runs": runs}))


if __name__ == "__main__":
    main()
