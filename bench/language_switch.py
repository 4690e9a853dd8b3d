"""How long a class waits when the teacher switches the language (View → Language), and what the languages
cost at start. Run by hand from the project root (it prints figures; it checks nothing):

    QT_QPA_PLATFORM=offscreen python bench/language_switch.py [--runs 7]

* Switch: the real window on lesson 3, at 1280 × 800, switched English → Spanish → Chinese → Arabic → English
  again and again; each switch timed until the window has re-worded, re-drawn and (into or out of Arabic)
  moved its docks to the other sides and settled. Medians per switch.
* Start: loading a language's catalog (the .mo) and registering the carried fonts, medians.

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from attn_desktop.language import set_language
from attn_desktop.language.catalog import _translations_for
from attn_desktop.model import ViewState
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import default_scene, make_application, settle

ORDER = ("es", "zh_CN", "ar", "en")


def time_switches(window: MainWindow, runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {code: [] for code in ORDER}
    for _ in range(runs):
        for code in ORDER:
            start = time.perf_counter()
            window.switch_language(code)
            settle(window)
            times[code].append(time.perf_counter() - start)
    return {code: statistics.median(values) for code, values in times.items()}


def time_catalog_loads(runs: int) -> dict[str, float]:
    loads = {}
    for code in ORDER[:3]:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            _translations_for(code)
            samples.append(time.perf_counter() - start)
        loads[code] = statistics.median(samples)
    return loads


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    app = make_application()
    from attn_desktop.ui.language.app_language import add_app_fonts

    start = time.perf_counter()
    add_app_fonts()
    fonts_s = time.perf_counter() - start
    set_language("en")
    view = ViewState()  # the default scene's own query chosen, as the app starts
    window = MainWindow(default_scene(view), view=view)
    window.resize(1280, 800)
    window.show()
    window.open_lesson("self-attention")
    settle(window)
    switches = time_switches(window, runs)
    loads = time_catalog_loads(runs)
    for code, seconds in switches.items():
        print(f"switch to {code:6s} {seconds * 1000:7.0f} ms (median of {runs})")
    for code, seconds in loads.items():
        print(f"catalog {code:6s} loads in {seconds * 1000:5.1f} ms")
    print(f"carried fonts registered in {fonts_s * 1000:.0f} ms")
    window.history.reset()
    window.close()
    app.processEvents()
    print(json.dumps({"switch_ms": {code: round(s * 1000) for code, s in switches.items()},
                      "catalog_ms": {code: round(s * 1000, 1) for code, s in loads.items()},
                      "fonts_ms": round(fonts_s * 1000)}))


if __name__ == "__main__":
    main()
