"""Attention Desktop: drag queries, keys and values; watch attention recompute."""

__version__ = "0.1.0"
APP_NAME = "Attention Desktop"
