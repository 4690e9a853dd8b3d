"""What a trained document holds whatever was trained (one head or layers of heads): its format and version,
the task, the widths, the training settings, the parameters and the metrics on fresh sequences. Nothing here
imports Qt; head_document.py and induction_document.py add their example."""

from __future__ import annotations

from typing import Any

from attn_desktop.model.training.training import Params, Trainer, fresh_metrics


def training_document(trainer: Trainer, params: Params, file_format: str, version: int, widths: dict[str, int],
                      example: dict[str, Any]) -> dict[str, Any]:
    """The document as plain JSON values, keys in the order the files have always had: WIDTHS (the model's
    own, after d_model) and EXAMPLE (one sequence worked through) are the trained model's kind's own."""
    task = trainer.task
    return {
        "format": file_format,
        "version": version,
        "task": task.name,
        "vocab": list(task.vocab),
        "seq_len": task.seq_len,
        "causal": task.causal,
        "d_model": params.d_model,
        **widths,
        "optimiser": trainer.optimiser,
        "seed": trainer.seed,
        "lr": trainer.lr,
        "batch_size": trainer.batch_size,
        "model": params.to_lists(),
        "metrics": fresh_metrics(trainer, params),
        "example": example,
    }
