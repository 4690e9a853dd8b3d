"""`attn-desktop heads`: every head's attention for one sentence of a real model, as JSON (no Qt).

With --no-rope every head's weights are recomputed from its q and k before RoPE turned them for their
positions (each layer reading what it read in the normal pass): what the heads would do without knowing
where each word is. The JSON says which: "rope": true or false.

With --knock-out L.H,... the named heads' outputs are zeroed before their layer's output projection (the JSON's
"knocked_out", [] when none); --temperature T reads the next tokens from softmax(logits / T); --logit-lens adds
each layer's five likeliest tokens at the last position. A head's syntax and the temperature are checked before
the model loads, whether the model has the head after it loads (before anything is written).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
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
    import numpy as np

    from attn_desktop.model.pretrained.run import ModelRun


def heads_main(argv: list[str]) -> int:
    parser = OneLineErrorParser(
        prog="attn-desktop heads",
        description=tr("Run one sentence through a real language model (the optional SmolLM2 pack, or a "
                       "LLaMA-style GGUF file) offline and write its tokens, every head's attention weights "
                       "[layer][head][query][key] and the five likeliest next tokens as JSON. The JSON's \"rope\" "
                       "says whether q and k were turned by RoPE for their positions (true, as the model computes) "
                       "or not (--no-rope)."),
    )
    parser.add_argument("sentence", help=tr('the sentence, e.g. "The cat sat on the mat because it was tired"'))
    parser.add_argument("--model", metavar="PATH", help=tr("a LLaMA-style GGUF file (default: the installed model pack)"))
    parser.add_argument("-o", "--output", required=True, help=tr("the JSON file to write; - writes to standard output"))
    parser.add_argument("--no-rope", dest="rope", action="store_false",
                        help=tr("recompute every head's weights from its q and k before RoPE turned them for their "
                                "positions (each layer reads what it read with RoPE; only the weights written "
                                "change)"))
    parser.add_argument("--knock-out", metavar="L.H,L.H", type=knocked_heads, default=frozenset(),
                        help=tr("zero the output of these heads (layer.head, numbered from 0, e.g. 17.3,18.6) "
                                "before their layer's output projection: the next tokens are those of the model "
                                "without them"))
    parser.add_argument("--temperature", metavar="T", type=temperature, default=1.0,
                        help=tr("read the next tokens from softmax(logits / T) (default 1; above 0)"))
    parser.add_argument("--logit-lens", action="store_true",
                        help=tr("add \"logit_lens\": for each layer, the stream after it at the last token through "
                                "the final norm and the unembedding, its five likeliest tokens [token, probability] "
                                "at temperature 1"))
    args = parser.parse_args(argv)
    return _run_and_write(args.sentence, args.model, args.output, args.rope,
                          HeadsOptions(args.knock_out, args.temperature, args.logit_lens))


@dataclass(frozen=True)
class HeadsOptions:
    """What the heads command reads beyond the attention: heads knocked out, the temperature, the lens."""

    knocked_out: frozenset[tuple[int, int]] = frozenset()
    temperature: float = 1.0
    logit_lens: bool = False


def knocked_heads(text: str) -> frozenset[tuple[int, int]]:
    """--knock-out's value, "L.H,L.H", as (layer, head) pairs; a mistake raises argparse's one-line error."""
    pieces = text.split(",")
    for piece in pieces:
        if not re.fullmatch(r"[0-9]+\.[0-9]+", piece.strip()):
            raise argparse.ArgumentTypeError(
                tr("{text} is not a head: write layer.head, numbered from 0 (e.g. 17.3,18.6)").format(
                    text=repr(piece.strip())))
    return frozenset((int(layer), int(head)) for layer, head in (piece.strip().split(".") for piece in pieces))


def temperature(text: str) -> float:
    """--temperature's value: a number above 0 (not NaN or infinite); else argparse's one-line error."""
    from attn_desktop.model.ascii_numbers import ascii_decimal
    from attn_desktop.model.pretrained.next_token import temperature_problem

    value = ascii_decimal(text.strip())  # not "１" or "1_0"
    if value is None:
        raise argparse.ArgumentTypeError(
            tr("the temperature must be a number above 0, not {text}").format(text=repr(text)))
    problem = temperature_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


def _run_and_write(sentence: str, model_path: str | None, output: str, rope: bool = True,
                   options: HeadsOptions | None = None) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_chunks_atomically
    from attn_desktop.model.pretrained.llama import HeadError, LlamaModel, ModelFileError, SentenceError
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    options = options or HeadsOptions()
    problem = _input_problem(sentence, output, model_path)
    if problem:
        return fail(problem)
    try:
        path = Path(model_path) if model_path else find_pack_model()
        started = time.perf_counter()
        model = LlamaModel.load(path)
        loaded = time.perf_counter()
        run = model.run(sentence, options.knocked_out)
        lens = model.logit_lens(run, len(run.token_ids) - 1) if options.logit_lens else None
    except (ModelUnavailable, ModelFileError, SentenceError, HeadError) as error:
        return fail(str(error))
    except MemoryError:
        return fail(tr("{file}: not enough memory to load this model").format(file=path.name))
    if output == "-":
        return write_standard_output(heads_json_pieces(run, rope, options.temperature, lens))
    try:
        write_chunks_atomically(output, heads_json_chunks(run, rope, options.temperature, lens))
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    _say_written(run, shown_path(output), loaded - started, loaded, rope)
    return 0


def _input_problem(sentence: str, output: str, model_path: str | None = None) -> str | None:
    """One line saying why the sentence or the output cannot be used (the model file itself among others),
    checked before the model loads."""
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.pretrained.llama import sentence_problem

    if not sentence.strip():
        return tr("the sentence is empty; give a few words in quotes")
    problem = sentence_problem(sentence)
    if problem:
        return problem
    if output == "-" and sys.stdout is None:
        return STANDARD_OUTPUT_CLOSED
    if output == "-":
        return None
    problem = output_is_an_input(output, model_inputs(model_path))
    problem = problem or json_output_problem(output)
    return f"{shown_path(output)}: {problem}" if problem else None


def _say_written(run: ModelRun, shown_output: str, load_seconds: float, loaded_at: float, rope: bool) -> None:
    tokens = f"{len(run.tokens)} token{'s' if len(run.tokens) != 1 else ''}"
    knocked = f", {len(run.knocked_out)} head{'s' if len(run.knocked_out) != 1 else ''} knocked out" if run.knocked_out else ""
    say(f"wrote {shown_output}: {run.layer_count} layers x {run.head_count} heads over {tokens} "
        f"of {run.model_name}{'' if rope else ', RoPE off'}{knocked} (loaded in {load_seconds:.1f} s, sentence in {time.perf_counter() - loaded_at:.2f} s)")


Lens = list[list[tuple[str, float]]]  # [layer][rank] = (token, probability)


def next_tokens_at(run: ModelRun, temperature: float = 1.0) -> list[list[Any]]:
    """The NEXT_TOKEN_COUNT likeliest next tokens of RUN at TEMPERATURE, [token, probability] each."""
    from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT

    if run.next_scores is None:  # a run made without the model's scores: its own list, at T = 1
        return [[token, probability] for token, probability in run.next_tokens]
    return [[token, probability] for token, probability in run.next_scores.top(temperature, NEXT_TOKEN_COUNT)]


def _knocked_json(run: ModelRun) -> list[list[int]]:
    return [[layer, head] for layer, head in sorted(run.knocked_out)]


def _lens_json(lens: Lens) -> list[list[list[Any]]]:
    return [[[token, probability] for token, probability in layer] for layer in lens]


def heads_document(run: ModelRun, rope: bool = True, temperature: float = 1.0, lens: Lens | None = None
                   ) -> dict[str, Any]:
    """The JSON the heads command writes (a ModelRun's tokens, heads knocked out, weights, with RoPE or without,
    and next tokens at TEMPERATURE; the logit lens's columns if LENS is given)."""
    document = {
        "model": run.model_name,
        "sentence": run.sentence,
        "tokens": list(run.tokens),
        "rope": rope,
        "knocked_out": _knocked_json(run),
        "temperature": temperature,
        "attention": (run.attention if rope else run.attention_without_rope()).tolist(),
        "next_tokens": next_tokens_at(run, temperature),
    }
    if lens is not None:
        document["logit_lens"] = _lens_json(lens)
    return document


def heads_json_pieces(run: ModelRun, rope: bool = True, temperature: float = 1.0, lens: Lens | None = None
                      ) -> Iterator[str]:
    """The text of json.dumps(heads_document(run, rope, temperature, lens)) (compact) and a newline, made a
    head at a time: heads_json_chunks's pieces as text."""
    for chunk in heads_json_chunks(run, rope, temperature, lens):
        yield chunk.decode("utf-8")


def heads_json_chunks(run: ModelRun, rope: bool = True, temperature: float = 1.0, lens: Lens | None = None
                      ) -> Iterator[bytes]:
    """heads_json_pieces's text in UTF-8, made a layer at a time, as the heads command writes it to a file.

    A 250-token sentence has 17 million weights: as one list of Python floats and one string they took
    a gigabyte more. Half of them are the causal mask's zeros, written here without formatting each one;
    the others take about a microsecond each for Python to format, most of the command's time for a long
    sentence: orjson (installed with the model pack) writes the same numbers ten times quicker, where it is,
    and its bytes go to the file as they are (220 MB decoded to text and encoded back took a quarter second).
    (Formatting them in a forked process per core gained a tenth at most on the 2-core machine.)
    Without RoPE each layer's weights are recomputed as it is written: never a second copy of them all.
    """
    import numpy as np

    if not np.isfinite(run.attention).all():
        raise ValueError("Out of range float values are not JSON compliant")
    yield (f'{{"model":{_json(run.model_name)},"sentence":{_json(run.sentence)},"tokens":{_json(list(run.tokens))},'
           f'"rope":{_json(rope)},"knocked_out":{_json(_knocked_json(run))},"temperature":{_json(temperature)},'
           '"attention":[').encode()
    for index in range(run.layer_count):
        layer = run.attention[index] if rope else run.attention_without_rope(index)
        if index:
            yield b","
        yield _layer_json(layer)
    lens_json = "" if lens is None else f',"logit_lens":{_json(_lens_json(lens))}'
    yield f'],"next_tokens":{_json(next_tokens_at(run, temperature))}{lens_json}}}\n'.encode()


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _matrix_json(matrix: np.ndarray) -> str:
    """One head's weights [query][key] as json.dumps writes them (a finite float as its repr)."""
    import numpy as np

    n = len(matrix)
    above = np.triu(matrix, 1)
    if above.any() or np.signbit(above).any():  # not only zeros (+0.0) above the diagonal: every number is written
        return _json(matrix.tolist())
    rows = matrix.tolist()
    return "[" + ",".join("[" + ",".join(map(float.__repr__, row[: query + 1])) + ",0.0" * (n - 1 - query) + "]"
                          for query, row in enumerate(rows)) + "]"


def _layer_json(layer: np.ndarray) -> bytes:
    fast = _orjson()
    if fast is not None:  # formats a float ten times quicker than Python, to the same digits (the shortest repr)
        import numpy as np

        return bytes(fast.dumps(np.ascontiguousarray(layer, dtype=np.float64), option=fast.OPT_SERIALIZE_NUMPY))
    return ("[" + ",".join(_matrix_json(matrix) for matrix in layer) + "]").encode()


def _orjson() -> Any:
    """orjson, which the model pack's extra installs, or None: then Python's own formatting."""
    try:
        import orjson
    except ImportError:
        return None
    return orjson
