"""A rating-over-time line chart as coordinates for an inline SVG (pure: no Django).

The template draws what this returns; the page needs no script and no chart library."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Tick spacings tried in order: the first giving at most five gridlines is used.
STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def rating_chart(
    ratings: Sequence[float],
    *,
    width: int = 640,
    height: int = 200,
    left: int = 44,
    right: int = 12,
    top: int = 12,
    bottom: int = 26,
    first_number: int = 1,
) -> dict | None:
    """Where each rating (in the order played) goes: x by match number, y by rating, with
    gridlines at round numbers spanning them all. None when there is nothing to draw.
    ``first_number`` is the first rating's match number, when the chart shows only the latest."""
    if not ratings:
        return None
    lo, hi = min(ratings), max(ratings)
    step = next((s for s in STEPS if (math.ceil(hi / s) - math.floor(lo / s)) <= 4), STEPS[-1])
    floor, ceil = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if ceil == floor:
        floor, ceil = floor - step, ceil + step
    plot_w, plot_h = width - left - right, height - top - bottom

    def y_of(value: float) -> float:
        return round(top + (ceil - value) * plot_h / (ceil - floor), 1)

    n = len(ratings)
    xs = [round(left + (i * plot_w / (n - 1) if n > 1 else plot_w / 2), 1) for i in range(n)]
    dots = [
        {"x": x, "y": y_of(r), "rating": round(r, 1), "number": first_number + i}
        for i, (x, r) in enumerate(zip(xs, ratings))
    ]
    ticks = [{"value": v, "y": y_of(v)} for v in range(int(floor), int(ceil) + 1, step)]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "bottom": height - bottom,
        "polyline": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "ticks": ticks,
        "first_number": first_number,
        "last_number": first_number + n - 1,
        "first": round(ratings[0], 1),
        "last": round(ratings[-1], 1),
        "low": round(lo, 1),
        "high": round(hi, 1),
    }
