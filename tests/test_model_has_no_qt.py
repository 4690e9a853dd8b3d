"""The model must stay importable and usable with no Qt at all."""

import subprocess
import sys

import pytest

from tests.support.project_root import ROOT


@pytest.mark.slow
def test_importing_the_model_and_export_loads_no_qt():
    code = (
        "import sys\n"
        "import attn_desktop.model, attn_desktop.model.exports.export, attn_desktop.model.explain\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6', 'PyQt6', 'PyQt5'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_model_sources_do_not_import_qt():
    for path in (ROOT / "attn_desktop" / "model").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("PySide6", "pyqtgraph", "shiboken6"):
            assert f"import {name}" not in text and f"from {name}" not in text, f"{path.name} imports {name}"
