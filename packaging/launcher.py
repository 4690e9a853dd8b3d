"""Entry script that PyInstaller freezes into dist/attn-desktop/attn-desktop.

It is a plain script, not attn_desktop/__main__.py: frozen as the top-level
script, a package's __main__ module would lose its package and its relative
imports would fail.
"""

import sys

from attn_desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
