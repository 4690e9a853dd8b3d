"""Where the files under the project's top-level resources/ folder live at run time."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def resource_dir() -> Path:
    # A wheel and a frozen app carry the folder inside the package; a source
    # checkout (including an editable install) has it beside the package.
    candidates = [PACKAGE_DIR / "resources", PACKAGE_DIR.parent / "resources"]
    frozen_dir = getattr(sys, "_MEIPASS", None)  # where PyInstaller unpacked a frozen app
    if frozen_dir:
        candidates.insert(0, Path(frozen_dir) / "attn_desktop" / "resources")
    for candidate in candidates:
        if (candidate / "scenes").is_dir():
            return candidate
    raise FileNotFoundError("the app's resources folder is missing; reinstall Attention Desktop")


def scene_path(name: str) -> Path:
    return resource_dir() / "scenes" / name


DEFAULT_SCENE = "the_cat_sat_on_the_mat.json"
CROSS_SCENE = "cross_attention.json"  # File → New Cross-Attention Scene
APP_ID = "io.github.attn_desktop.AttentionDesktop"  # the desktop file's and AppStream's name
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def icon_files() -> list[Path]:
    folder = resource_dir() / "icons"
    return [folder / "attn-desktop.svg"] + [folder / f"attn-desktop-{size}.png" for size in ICON_SIZES]
