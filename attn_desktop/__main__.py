import sys

from attn_desktop.cli import main

sys.exit(main())
