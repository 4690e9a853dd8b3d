"""`attn-desktop --self-test` in every language it speaks: it compares the window with the numbers and words
written as that language writes them ("1,54" and "enmascarada" in Spanish, marks around Arabic numbers),
so a Spanish, Chinese or Arabic machine passes it, and a number that is off still fails it."""

import os
import subprocess
import sys

import pytest

from tests.support.project_root import ROOT
from tests.support.self_test_language import spoke

pytestmark = pytest.mark.slow  # every test runs the app in a child process

LANGUAGES = ["en", "es", "zh_CN", "ar", "en_XA"]


def _self_test(*args: str, code: str | None = None, **environment: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "attn_desktop", *args]
    env = dict(os.environ, **environment)
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    return subprocess.run(command, check=False, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_self_test_passes_in_each_language(language):
    done = _self_test("--self-test", "--lang", language)
    failed = [line for line in done.stdout.splitlines() if not line.startswith("ok ")]
    assert done.returncode == 0 and failed == [], done.stdout + done.stderr
    assert done.stdout.count("ok   lesson ") == 11
    assert spoke(language, done.stdout), done.stdout  # in the language asked for, not English passed off as it


def test_the_self_test_passes_on_a_spanish_machine_and_checks_the_spanish_numbers():
    done = _self_test("--self-test", LANG="es_ES.UTF-8")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   default output (1,54; 0,48)" in done.stdout.splitlines()
    assert "'enmascarada'" in done.stdout  # the two-heads lesson's masked keys, in Spanish


_ONE_NUMBER_OFF = """
import sys
from attn_desktop.ui.tools import self_test
self_test.LESSON_WEIGHTS["soft-lookup"] = [59, 9, 33]  # the window shows 8%
from attn_desktop.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("language", ["es", "ar"])
def test_a_number_that_is_off_still_fails_the_self_test_in_the_language(language):
    done = _self_test("--self-test", "--lang", language, code=_ONE_NUMBER_OFF)
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert done.returncode == 1, done.stdout + done.stderr
    assert len(failed) == 1 and failed[0].startswith("FAIL lesson 1. "), failed
