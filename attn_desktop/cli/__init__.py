"""The command line, `attn-desktop`: with no command it opens the app (open_app.py, and app_checks.py
for --version and --self-test); export, snapshot, train, heads, induction and lesson work headless, one module each.
errors.py is how they all report a mistake: one line on standard error and exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable

from attn_desktop.cli.errors import stopped_by_interrupt
from attn_desktop.cli.export import export_main
from attn_desktop.cli.heads import heads_main
from attn_desktop.cli.induction import induction_main
from attn_desktop.cli.lesson import lesson_main
from attn_desktop.cli.open_app import gui_main
from attn_desktop.cli.snapshot import snapshot_main
from attn_desktop.cli.train import train_main
from attn_desktop.language import language_of_system, set_language

HEADLESS_COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "export": export_main,
    "snapshot": snapshot_main,
    "train": train_main,
    "heads": heads_main,
    "induction": induction_main,
    "lesson": lesson_main,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _utf8_for_a_c_locale()
    set_language(language_of_system())  # the window, snapshot and export may choose another (--lang)
    if argv and argv[0] in HEADLESS_COMMANDS:
        try:
            code = HEADLESS_COMMANDS[argv[0]](argv[1:])
            _finish_cache_writes()
            return code
        except KeyboardInterrupt:  # Ctrl+C: every output is written whole or not at all (safe_write)
            return stopped_by_interrupt()
    return gui_main(argv)


def _finish_cache_writes() -> None:
    """A model's weights cache, written in the background after the command's output (the output comes
    first), is whole before the command ends; Ctrl+C meanwhile stops the command as anywhere else."""
    loading = sys.modules.get("attn_desktop.model.pretrained.loading")  # only a command that loaded a model
    if loading is not None:
        loading.finish_cache_writes()


def _utf8_for_a_c_locale() -> None:
    """LC_ALL=C (usual in containers, cron and CI) as LC_ALL=C.UTF-8, before Qt starts: Qt needs a UTF-8 locale
    and would switch to C.UTF-8 itself, printing four lines of warning. Python does the same for LANG=C
    (PEP 538), but not when LC_ALL is set. Only where C.UTF-8 exists; C and C.UTF-8 differ in nothing else."""
    import locale
    import os

    if os.environ.get("LC_ALL") not in ("C", "POSIX"):
        return
    before = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    except locale.Error:  # no C.UTF-8 here: Qt says what it does
        return
    locale.setlocale(locale.LC_CTYPE, before)
    os.environ["LC_ALL"] = "C.UTF-8"


__all__ = ["main"]
