"""The hosted workflow that builds the bundles on Linux, Windows and macOS: its Linux job is this
project's CI (.ci/run), so what can be run here is what is tested here."""

from __future__ import annotations

import re

from packaging.requirements import Requirement

from tests.support.project_root import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "bundles.yml"


def job(name: str) -> str:
    """A job's block of the workflow: from its name to the next job."""
    text = WORKFLOW.read_text(encoding="utf-8")
    match = re.search(rf"^  {re.escape(name)}:\n(.*?)(?=^  \S|\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"no job {name}"
    return match.group(1)


def run_lines(block: str) -> list[str]:
    return [line.split("run:", 1)[1].strip() for line in block.splitlines() if line.strip().startswith("run:")]


def test_the_linux_job_runs_exactly_the_projects_ci():
    assert run_lines(job("linux")) == ["sudo --preserve-env=PATH bash .ci/run"]
    assert "dist/*.deb" in job("linux") and "dist/attn-desktop/" in job("linux")


def test_windows_and_macos_build_with_the_same_script_and_keep_the_folders():
    block = job("windows-macos")
    assert run_lines(block) == ["python packaging/build.py"]
    assert re.search(r"os: \[windows-\S+, macos-\S+\]", block)
    assert "dist/attn-desktop/" in block and "dist/Attention Desktop.app/" in block


def test_ci_builds_the_debian_package_where_it_can_and_tests_it():
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 packaging/build.py --deb" in text
    assert "tests/test_deb_package.py" in text


def test_every_build_pin_is_exact_and_its_platform_marker_valid():
    for line in (ROOT / "packaging" / "requirements-build.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        assert str(requirement.specifier).startswith("=="), line
        if requirement.marker is not None:
            requirement.marker.evaluate()  # a typo in a marker raises here, not on a Windows runner
