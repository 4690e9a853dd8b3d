"""How fast the real model's heads come: loading the pack, the first sentence, later ones, and memory.

Run by hand from the project root with the model pack installed (it prints figures; it checks nothing):

    python bench/model_heads.py [--loads 3] [--sentences 10] [--model PATH]

Each load runs in a fresh process, so its time and peak memory are those of a student opening the
model once. The processes share a weights cache in a temporary folder: the first load reads the GGUF file
and writes the cache (first load), the later ones map it (cached loads; the issue asks for at most 2 s).
In each process, after loading:

* first sentence: the first 12-token sentence run after the load (nothing cached yet);
* later sentences: --sentences different 12-token sentences (at most their first word in common),
  the median; the issue asks for at most 0.5 s on 2 cores;
* a word typed at the end: the same sentence with one more word (the shared start is reused);
* memory: the process's peak resident size with the model loaded and run, and what the dequantized
  weights take; then, in one more process, the app's own peak (the issue asks <= 900 MB): the window
  open, the pack loaded (from the cache) through Lessons → Heads of a Real Model…, a head opened as the scene;
* a long sentence: `attn-desktop heads` on a 250-token sentence, as a user runs it (the cached load, the
  sentence, the JSON of its 17 million weights written), its wall time and peak resident size.

* knocking out a head (issue 29): layer 10's heads knocked out one at a time on a 12-token sentence and the
  new prediction read (only layers 10 to 29 recomputed; the issue asks <= 0.3 s), restoring the intact run
  (remembered) and recomputing it whole once forgotten, beside the full forward pass;
* a generation step: one token added to a 30-token context with the key-value cache (the issue asks <= 50 ms)
  and the same step without it, side by side, with the multiply-adds of each.

`--steps` measures only the last two (one process, the model loaded once).

The last line printed is one JSON object with the headline figures (medians over the loads).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TWELVE_TOKEN_SENTENCES = [
    "The cat sat on the mat because it was tired and hungry",
    "A small dog ran across the busy road to find its owner",
    "My sister bought three red apples at the market early this morning",
    "Every student in the class wrote a short poem about the winter",
    "The old man walked slowly to the station because he was late",
    "The teacher asked the class a question and everyone raised a hand",
    "She opened the old wooden box and found a small golden key",
    "When the rain stopped, the children went outside to play football",
    "His grandfather planted an apple tree in the garden last year too",
    "Nobody expected the quiet boy to win the chess tournament so easily",
    "In the morning we walked along the river and watched the boats",
]

# 250 words of one token each for SmolLM2: 250 tokens (the limit is 256).
LONG_SENTENCE = " ".join(("The quick brown fox jumps over the lazy dog while the children watch from the old stone "
                          "bridge near the river " * 20).split()[:250])


def one_load(model_path: str | None, sentences: int) -> dict[str, float]:
    from attn_desktop.model.pretrained.llama import LlamaModel
    from attn_desktop.model.pretrained.pack import find_pack_model

    path = Path(model_path) if model_path else find_pack_model()
    started = time.perf_counter()
    model = LlamaModel.load(path)
    load_s = time.perf_counter() - started
    texts = TWELVE_TOKEN_SENTENCES[: sentences + 1]
    lengths = [len(model.token_ids(text)) for text in texts]
    timings = []
    for text in texts:
        started = time.perf_counter()
        model.run(text)
        timings.append(time.perf_counter() - started)
    started = time.perf_counter()
    model.run(texts[-1] + " today")
    appended_s = time.perf_counter() - started
    return {
        "load_s": load_s,
        "first_sentence_s": timings[0],
        "later_sentence_s": statistics.median(timings[1:]),
        "later_sentence_max_s": max(timings[1:]),
        "word_appended_s": appended_s,
        "tokens_min": min(lengths),
        "tokens_max": max(lengths),
        "weights_mb": model.memory_bytes / 1e6,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "layers": model.config.layer_count,
        "heads": model.config.head_count,
    }


KNOCK_OUT_LAYER = 10
CONTEXT_TOKENS = 30  # the first 30 tokens of two of the sentences above


def median_seconds(action: Callable[[int], object], repeats: int) -> float:
    """The median time of ACTION(i) for i in range(REPEATS)."""
    timings = []
    for index in range(repeats):
        started = time.perf_counter()
        action(index)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def knock_out_and_generation(model_path: str | None) -> dict[str, float]:
    """Knocking heads out and generation steps, the model loaded once (see the module's docstring)."""
    from attn_desktop.model.pretrained.llama import LlamaModel
    from attn_desktop.model.pretrained.pack import find_pack_model

    model = LlamaModel.load(Path(model_path) if model_path else find_pack_model())
    sentence = TWELVE_TOKEN_SENTENCES[0]
    heads = model.config.head_count
    intact = model.run(sentence)
    figures: dict[str, float] = {"sentence_tokens": len(intact.token_ids)}
    # each repeat knocks out another head of the layer: a new run, never one remembered
    figures["knock_out_s"] = median_seconds(lambda head: model.run(sentence, {(KNOCK_OUT_LAYER, head)}), heads)
    knocked = model.run(sentence, {(KNOCK_OUT_LAYER, 3)})
    figures["knock_out_multiply_adds"] = knocked.multiply_adds
    figures["restore_s"] = median_seconds(lambda _: model.run(sentence), heads)
    figures["full_forward_s"] = median_seconds(lambda _: model.run_without_cache(intact.token_ids), heads)
    context = model.run_token_ids(model.token_ids(" ".join(TWELVE_TOKEN_SENTENCES[4:7]))[:CONTEXT_TOKENS])
    figures["context_tokens"] = len(context.token_ids)
    tokens = [int(token) for token in context.next_scores.top_ids]  # each repeat a different next token
    figures["step_with_cache_s"] = median_seconds(lambda index: model.extend(context, tokens[index]), len(tokens))
    figures["step_without_cache_s"] = median_seconds(
        lambda index: model.run_without_cache([*context.token_ids, tokens[index]]), len(tokens))
    step = model.extend(context, tokens[0])
    figures["step_multiply_adds"] = step.multiply_adds
    figures["step_multiply_adds_without_cache"] = step.multiply_adds_without_cache
    return figures


def print_knock_out_and_generation(figures: dict[str, float]) -> None:
    print(f"knock out layer {KNOCK_OUT_LAYER}'s heads one at a time on a {figures['sentence_tokens']:.0f}-token "
          f"sentence and read the prediction: median {figures['knock_out_s']:.3f} s "
          f"({figures['knock_out_multiply_adds'] / 1e6:,.0f} M multiply-adds); restore (remembered) "
          f"{figures['restore_s'] * 1e3:.2f} ms; the full forward pass {figures['full_forward_s']:.3f} s")
    print(f"a generation step at a {figures['context_tokens']:.0f}-token context: with the cache "
          f"{figures['step_with_cache_s'] * 1e3:.1f} ms ({figures['step_multiply_adds'] / 1e6:,.0f} M multiply-adds), "
          f"without it {figures['step_without_cache_s'] * 1e3:.1f} ms "
          f"({figures['step_multiply_adds_without_cache'] / 1e6:,.0f} M multiply-adds)")


def in_the_app() -> dict[str, float]:
    """Peak memory of the app itself: the window open offscreen, Lessons → Heads of a Real Model… loading
    the pack on the model's thread, the default sentence run, and layer 13 head 8 opened as the scene."""
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    folder = tempfile.mkdtemp()  # its own settings and autosave: the student's are never touched
    os.environ["XDG_CONFIG_HOME"] = os.environ["XDG_DATA_HOME"] = os.environ["XDG_CACHE_HOME"] = folder
    from PySide6.QtCore import QTimer

    from attn_desktop.ui.window.startup.app import build_window, make_application

    app = make_application()
    window = build_window()
    window.resize(1024, 768)
    window.show()
    started = time.perf_counter()
    figures: dict[str, float] = {}

    def check() -> None:
        if window.model_heads_panel.run is None:
            if time.perf_counter() - started > 120:
                app.quit()
            return
        figures["app_heads_shown_s"] = time.perf_counter() - started
        window.model_heads.open_head(13, 8)
        app.processEvents()
        figures["app_peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        app.quit()

    timer = QTimer(interval=50)
    timer.timeout.connect(check)
    timer.start()
    window.model_heads.show_heads()
    app.exec()
    window.model_heads.shutdown()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=10)
    parser.add_argument("--model")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child process: one load
    parser.add_argument("--app", action="store_true", help=argparse.SUPPRESS)  # a child process: the window
    parser.add_argument("--steps", action="store_true", help="measure only knocking heads out and generation steps")
    parser.add_argument("--steps-child", action="store_true", help=argparse.SUPPRESS)  # a child process: those
    args = parser.parse_args()
    if args.steps_child:
        print(json.dumps(knock_out_and_generation(args.model)))
        return
    if args.one:
        print(json.dumps(one_load(args.model, args.sentences)))
        return
    if args.app:
        print(json.dumps(in_the_app()))
        return
    # Every process of this run shares one weights cache of its own (half a gigabyte, removed at the end);
    # the student's is never touched.
    with tempfile.TemporaryDirectory(prefix="attn-desktop-bench-cache-") as cache:
        os.environ["ATTN_DESKTOP_CACHE_DIR"] = cache
        if args.steps:
            print_knock_out_and_generation(steps_in_a_process(args.model))
            return
        measure(args)


def steps_in_a_process(model_path: str | None) -> dict[str, float]:
    command = [sys.executable, __file__, "--steps-child"] + (["--model", model_path] if model_path else [])
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(args: argparse.Namespace) -> None:
    runs = []
    for number in range(max(args.loads, 2)):  # the first load builds the cache, the others read it
        command = [sys.executable, __file__, "--one", "--sentences", str(args.sentences)]
        if args.model:
            command += ["--model", args.model]
        run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        runs.append(run)
        print(f"load {number + 1} ({'first: reading the file' if number == 0 else 'cached'}): loaded in {run['load_s']:.2f} s; first sentence {run['first_sentence_s']:.3f} s, "
              f"later sentences median {run['later_sentence_s']:.3f} s (max {run['later_sentence_max_s']:.3f}), "
              f"a word typed at the end {run['word_appended_s']:.3f} s; peak RSS {run['peak_rss_mb']:.0f} MB")
    first = runs[0]
    print(f"{first['layers']} layers x {first['heads']} heads; sentences of {first['tokens_min']}-{first['tokens_max']} "
          f"tokens; dequantized weights {first['weights_mb']:.0f} MB")
    cached = runs[1:]
    summary = {key: round(statistics.median(run[key] for run in cached), 4)
               for key in ("load_s", "first_sentence_s", "later_sentence_s", "word_appended_s", "peak_rss_mb")}
    summary["first_load_s"] = round(first["load_s"], 4)
    summary["first_load_peak_rss_mb"] = round(first["peak_rss_mb"], 1)
    summary["cached_load_s"] = summary["load_s"]
    summary["weights_mb"] = round(first["weights_mb"], 1)
    done = subprocess.run([sys.executable, __file__, "--app"], check=True, capture_output=True, text=True)
    app = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"in the app: heads shown {app['app_heads_shown_s']:.1f} s after Lessons → Heads of a Real Model…; "
          f"peak RSS {app['app_peak_rss_mb']:.0f} MB with the model loaded and a head opened")
    summary["app_peak_rss_mb"] = round(app["app_peak_rss_mb"], 1)
    long_s, long_peak_mb = long_sentence(args.model)
    print(f"attn-desktop heads on a 250-token sentence: {long_s:.1f} s, peak RSS {long_peak_mb:.0f} MB")
    summary["long_sentence_s"], summary["long_sentence_peak_mb"] = round(long_s, 3), round(long_peak_mb, 1)
    steps = steps_in_a_process(args.model)
    print_knock_out_and_generation(steps)
    summary.update({key: round(value, 4) for key, value in steps.items() if key.endswith("_s")})
    print(json.dumps(summary))


def long_sentence(model_path: str | None) -> tuple[float, float]:
    """`attn-desktop heads` on LONG_SENTENCE in a process of its own: its wall time and peak resident size
    (of it or any process it started), as /usr/bin/time -v reports them."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "attn_desktop", "heads", LONG_SENTENCE, "-o", str(Path(folder) / "heads.json")]
        if model_path:
            command += ["--model", model_path]
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=Path(__file__).resolve().parent.parent,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"attn-desktop heads failed: {process.stderr.read().decode() if process.stderr else ''}")
    return seconds, usage.ru_maxrss / 1024


if __name__ == "__main__":
    main()
