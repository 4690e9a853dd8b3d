"""Leaving a window's recovery copy exactly as a crash would, without ending the test's own process."""

import subprocess
import sys

from attn_desktop.ui.document.autosave import lock_path_for

TAKE_LOCK_AND_DIE = """
import os, sys
from PySide6.QtCore import QLockFile
lock = QLockFile(sys.argv[1])
assert lock.tryLock(0)
os._exit(0)  # no unlock: the lock file stays, naming a process that is gone
"""


def pretend_the_process_died(window) -> None:
    """The copy stays; its lock names a dead process (not ours: our process still holds the lock's flock)."""
    lock = lock_path_for(window.autosaver.path)
    window.autosaver._lock.unlock()
    subprocess.run([sys.executable, "-c", TAKE_LOCK_AND_DIE, str(lock)], check=True)
    assert lock.exists() and window.autosaver.path.exists()
