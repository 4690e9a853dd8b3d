"""The figures' targets, and a figure judged against its own: used by latency.py, cold_start.py and
frozen_app.py."""

from __future__ import annotations

TARGETS = {
    "n6_median_ms": 4.0,
    "n6_p95_ms": 8.0,
    "n64_p95_ms": 16.0,
    "startup_s": 1.5,
    "peak_rss_mb": 250.0,
}
# Against the paint floor (the canvas's arrows replayed in one painter pass; see paint_floor.py).
PAINT_FLOOR_TARGETS = {
    "n6_painted_over_paint_floor": 4.0,
    "n64_painted_over_paint_floor": 4.0,
    "n64_canvas_over_paint_floor": 1.5,
    "n64_update_over_paint_floor": 1.2,
}
TARGET_PAINTED_OVER_FLOOR = 1.4
TARGET_MPL_OVER_PAINTED = 12.0


def verdict(value: float, target: float, unit: str) -> str:
    return f"(target <= {target:g} {unit}: {'ok' if value <= target else 'MISSED'})"
