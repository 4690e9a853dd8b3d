"""The project's folder, where pyproject.toml is.

A test that starts python in a child process runs it here so the child imports this checkout's
attn_desktop; other tests read the project's own files from here (resources, packaging, workflows).
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # tests/support/ is two folders down
