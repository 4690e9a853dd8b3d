"""The status bar: hints, the progress notice and the unprotected-work label."""
