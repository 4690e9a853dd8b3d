"""How every command speaks: a mistake is one line on standard error and exit code 2 (never a
traceback), and a progress line on standard output survives a reader that went away."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from attn_desktop.language import tr

EXIT_BAD_INPUT = 2  # a command line, file or output the command cannot use
EXIT_INTERRUPTED = 130  # stopped with Ctrl+C, as a shell reports it


def fail(message: str) -> int:
    """Print MESSAGE as the command's one error line; the exit code for bad input."""
    print(f"attn-desktop: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def stopped_by_interrupt() -> int:
    """Ctrl+C stopped the command before it wrote anything: one line, and the exit code a shell reports."""
    print("attn-desktop: " + tr("stopped (Ctrl+C); nothing written"), file=sys.stderr)
    return EXIT_INTERRUPTED


def cannot_write(shown_name: str, error: OSError) -> str:
    """The message for a file that could not be written: its name and the system's reason."""
    return tr("{file}: cannot write ({reason})").format(file=shown_name, reason=error.strerror or error)


def say(line: str) -> None:
    """A progress line; a reader that went away (| head) stops the lines, not the work."""
    try:
        print(line, flush=True)
    except (BrokenPipeError, ValueError, AttributeError):  # closed pipe, closed or missing stdout
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


class OneLineErrorParser(argparse.ArgumentParser):
    """A mistake on the command line reads like every other error: one line, exit 2."""

    def error(self, message: str) -> NoReturn:
        # The "attn-desktop: error:" that starts every error line stays as it is (scripts look for it).
        print("attn-desktop: error: " + tr("{message} (see {command} --help)").format(
            message=message, command=self.prog), file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
