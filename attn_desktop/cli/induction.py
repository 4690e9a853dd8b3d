"""`attn-desktop induction`: every head's induction score on random tokens read twice, as JSON (no Qt)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attn_desktop.cli.errors import OneLineErrorParser, cannot_write, fail, say
from attn_desktop.cli.output_checks import (
    STANDARD_OUTPUT_CLOSED,
    json_output_problem,
    model_inputs,
    output_is_an_input,
    write_standard_output,
)
from attn_desktop.language import tr

if TYPE_CHECKING:
    from attn_desktop.model.pretrained.induction import InductionProbe

# Kept here so --help needs no NumPy (the model's module imports it); a test checks they are the same.
DEFAULT_LENGTH = 20
DEFAULT_SEED = 0


def induction_main(argv: list[str]) -> int:
    parser = OneLineErrorParser(
        prog="attn-desktop induction",
        description=tr("Find a real language model's induction heads, offline: the model (the optional SmolLM2 "
                       "pack, or a LLaMA-style GGUF file) reads R random tokens, then the same tokens again. A "
                       "head's induction score is its average weight, from each token of the second copy, on the "
                       "token that followed the same token in the first copy; a head scoring at least 0.5 is an "
                       "induction head. Writes the token ids read, induction_score[layer][head] and the ten best "
                       "heads as JSON."),
    )
    parser.add_argument("--model", metavar="PATH", help=tr("a LLaMA-style GGUF file (default: the installed model pack)"))
    parser.add_argument("--length", metavar="R", type=whole_number_argument, default=DEFAULT_LENGTH,
                        help=tr("random tokens in each copy, 2 to 128 (default {length})").format(
                            length=DEFAULT_LENGTH))
    parser.add_argument("--seed", metavar="S", type=whole_number_argument, default=DEFAULT_SEED,
                        help=tr("which random tokens, a whole number from 0 (default {seed})").format(
                            seed=DEFAULT_SEED))
    parser.add_argument("-o", "--output", required=True, help=tr("the JSON file to write; - writes to standard output"))
    args = parser.parse_args(argv)
    return _probe_and_write(args.model, args.length, args.seed, args.output)


def whole_number_argument(text: str) -> int:
    """An option's whole number in digits 0-9, perhaps signed (not "٣" or "1_0"); else argparse's one-line error.
    Its range is settings_problem's to say."""
    from attn_desktop.model.ascii_numbers import ascii_whole_number

    text = text.strip()
    negative = text.startswith("-")
    number = ascii_whole_number(text[1:] if text[:1] in "+-" else text)
    if number is None:
        raise argparse.ArgumentTypeError(tr("expected a whole number written with the digits 0-9, found {text}").format(
            text=repr(text)))
    return -number if negative else number


def _probe_and_write(model_path: str | None, length: int, seed: int, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_chunks_atomically
    from attn_desktop.model.pretrained.induction import probe_induction, settings_problem
    from attn_desktop.model.pretrained.llama import LlamaModel, ModelFileError, SentenceError
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    problem = settings_problem(length, seed) or _output_problem(output, model_path)
    if problem:
        return fail(problem)
    try:
        path = Path(model_path) if model_path else find_pack_model()
        started = time.perf_counter()
        probe = probe_induction(LlamaModel.load(path), length, seed)
    except (ModelUnavailable, ModelFileError, SentenceError, ValueError) as error:
        return fail(str(error))
    except MemoryError:
        return fail(tr("{file}: not enough memory to load this model").format(file=path.name))
    text = json.dumps(induction_document(probe), separators=(",", ":"), allow_nan=False) + "\n"
    if output == "-":
        return write_standard_output([text])
    try:
        write_chunks_atomically(output, [text.encode()])
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    best = probe.top(1)[0]
    say(f"wrote {shown_path(output)}: {probe.run.model_name} read {length} random tokens twice (seed {seed}); "
        f"the strongest induction head is layer {best.layer}, head {best.head} ({best.score:.2f}), "
        f"in {time.perf_counter() - started:.1f} s")
    return 0


def _output_problem(output: str, model_path: str | None) -> str | None:
    """Why OUTPUT cannot take the JSON, checked before the model loads: among others, it is the model itself."""
    from attn_desktop.model.files.json_reading import shown_path

    if output == "-":
        return STANDARD_OUTPUT_CLOSED if sys.stdout is None else None
    problem = output_is_an_input(output, model_inputs(model_path))
    problem = problem or json_output_problem(output)
    return f"{shown_path(output)}: {problem}" if problem else None


def induction_document(probe: InductionProbe) -> dict[str, Any]:
    """The JSON the induction command writes."""
    return {
        "model": probe.run.model_name,
        "token_ids": probe.token_ids,
        "length": probe.length,
        "seed": probe.seed,
        "induction_score": probe.scores.tolist(),
        "top": [[score.layer, score.head, score.score] for score in probe.top()],
    }
