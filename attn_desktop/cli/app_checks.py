"""The options that check the app rather than open it for work: --version, --self-test (builds the
window offscreen, drags once, checks the numbers) and bench/latency.py's hidden --quit-after-paint."""

from __future__ import annotations

import argparse
import os

from attn_desktop import APP_NAME, __version__
from attn_desktop.cli.offscreen import hide_offscreen_notes, use_temporary_user_files
from attn_desktop.language import tr

EXIT_SELF_TEST_FAILED = 1


def add_check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    parser.add_argument("--self-test", action="store_true", help=tr("build the window offscreen, drag once, check the numbers"))
    parser.add_argument("--quit-after-paint", action="store_true", help=argparse.SUPPRESS)  # for bench/latency.py


def prepare_for_checks(args: argparse.Namespace) -> None:
    """Before anything else starts: the self-test runs offscreen and quietly, and checks and timings
    run on their own empty folders, neither reading nor disturbing the student's progress, autosave
    or window layout."""
    if args.self_test:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        hide_offscreen_notes()  # a passing self-test prints its checks and nothing else
    if args.self_test or args.quit_after_paint:
        use_temporary_user_files()


def run_self_test() -> int:
    """The self-test's checks, printed as they pass (the application must exist); its exit code."""
    from attn_desktop.ui.tools import self_test

    return 0 if self_test.run_self_test() else EXIT_SELF_TEST_FAILED
