"""Every lesson in every language passes the classroom audit: at 1024 × 768, normal and presenting, and at
1920 × 1080, with no text shown in English that the catalog translates (the audit's untranslated_texts).

One `attn-desktop snapshot --lang CODE --steps lesson:…` per language and screen walks all the lessons in one
window (a walk, not a fresh window per lesson: a used window is what a class sees), two at a time. The
pseudo-language en_XA (every text accented and 40 % longer) stands for the languages still to come.
"""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from attn_desktop.model.teaching.lessons import LESSONS

from tests.support.audit_criteria import described, problems_in
from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # child processes drawing the real window

LANGUAGES = ("es", "zh_CN", "ar", "en_XA")
EVERY_LESSON = ",".join(f"lesson:{lesson.id}" for lesson in LESSONS)
WALKS = {  # screen: the steps walked on it
    "1024x768": f"{EVERY_LESSON},present,{EVERY_LESSON},unpresent,restart",
    "1920x1080": EVERY_LESSON,
}
CASES = [(code, screen) for code in LANGUAGES for screen in WALKS]


def _walk(case, folder) -> tuple[subprocess.CompletedProcess, dict | None]:
    code, screen = case
    audit = folder / f"{code}-{screen}.json"
    home = folder / f"home-{code}-{screen}"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "ATTN_DESKTOP_DATA_DIR": str(home / "data"), "QT_QPA_PLATFORM": "offscreen", "LANGUAGE": "en"}
    done = subprocess.run(
        [sys.executable, "-m", "attn_desktop", "snapshot", "--lang", code, "--size", screen, "--steps", WALKS[screen],
         "-o", str(folder / f"{code}-{screen}.png"), "--audit", str(audit)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    return done, json.loads(audit.read_text(encoding="utf-8")) if audit.exists() else None


@pytest.fixture(scope="module")
def walks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("language-walks")
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(CASES, pool.map(lambda case: _walk(case, folder), CASES)))


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0]} {case[1]}")
def test_every_lesson_passes_the_audit_in_every_language(walks, case):
    done, audit = walks[case]
    assert done.returncode == 0 and audit is not None, done.stderr[-2000:]
    # Each step by its place in the walk: a lesson is walked twice, normal and presenting.
    found = {f"{number} {entry['step']}": problems_in(entry["audit"]) for number, entry in enumerate(audit["steps"], 1)}
    failing = {step: problems for step, problems in found.items() if problems}
    assert not failing, described(failing)
    assert all(entry["audit"]["untranslated_texts"] == [] for entry in audit["steps"])
