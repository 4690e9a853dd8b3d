"""Attention Desktop: drag queries, keys and values; watch attention recompute."""

import os

# Matrix products on one core, set before NumPy loads its BLAS. The app's own products are tiny;
# a real model's sentence is faster on one steady thread when the window paints on the other core,
# and leaves the window that core. Set once here because changing BLAS threads later, while the
# model's or the training's thread multiplies (threadpoolctl's limits), is not thread-safe in
# OpenBLAS and can hang the process. Whoever sets the variable themselves keeps their choice.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
APP_NAME = "Attention Desktop"
