"""Draw the README's and the teachers' guide's pictures with the app's own snapshot command.

    .venv/bin/python docs/make_screenshots.py                  # every picture
    .venv/bin/python docs/make_screenshots.py lesson-7-1024x768 training-1024x768

Each picture is `attn-desktop snapshot` of the real window at a screen size, after the steps a teacher
takes (`--steps`, see docs/developers.md, "Command line"): no display is needed, and the snapshot uses
settings of its own, so the pictures never depend on this machine's saved layout. Run it again after
a change to the window so the pictures show what a teacher sees.

The three pictures of *Write your own lesson* (lesson-editor, lesson-student-view, collect-results) show a
window beside the main one, which a snapshot of one window cannot: they were taken of the real app at
1024 × 768 on an X server with a window manager, by hand, following the guide's steps.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "docs" / "screenshots"

# name: the snapshot's arguments after -o
PICTURES: dict[str, list[str]] = {
    "default-1920x1080": ["--size", "1920x1080"],
    "default-1024x768-presentation": ["--size", "1024x768", "--presentation"],
    "lesson-7-1024x768": ["--size", "1024x768", "--steps", "lesson:two-heads"],
    "training-1024x768": ["--size", "1024x768", "--steps", "train:reverse:300"],
    **{f"lesson-3-{code}-1024x768": ["--lang", code, "--size", "1024x768", "--steps", "lesson:self-attention"]
       for code in ("es", "zh_CN", "ar")},
}


def make(name: str) -> Path:
    picture = SCREENSHOTS / f"{name}.png"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, "-m", "attn_desktop", "snapshot", "-o", str(picture), *PICTURES[name]],
                   check=True, cwd=ROOT, env=env)
    return picture


def main(names: list[str]) -> int:
    unknown = [name for name in names if name not in PICTURES]
    if unknown:
        print(f"make_screenshots: no picture called {', '.join(unknown)}; choose from {', '.join(PICTURES)}",
              file=sys.stderr)
        return 2
    for name in names or list(PICTURES):
        print(make(name).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
