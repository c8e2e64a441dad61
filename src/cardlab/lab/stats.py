"""Small statistics helpers (no numpy needed for these)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a rate; it stays inside [0, 1] and behaves
    near 0 and 1 and for small n, where the normal approximation does not."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def games_for_half_width(rate: float, half_width: float) -> int:
    """Games needed so a rate near `rate` has a 95% interval of +-`half_width`."""
    return math.ceil(Z95 * Z95 * rate * (1 - rate) / (half_width * half_width))


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean, spread and quantiles of a distribution (empty -> zeros)."""
    if not values:
        return {
            "n": 0,
            "mean": 0.0,
            "sd": 0.0,
            "min": 0.0,
            "p10": 0.0,
            "median": 0.0,
            "p90": 0.0,
            "max": 0.0,
        }
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "mean": round(statistics.fmean(ordered), 3),
        "sd": round(statistics.pstdev(ordered), 3),
        "min": ordered[0],
        "p10": quantile(ordered, 0.10),
        "median": quantile(ordered, 0.50),
        "p90": quantile(ordered, 0.90),
        "max": ordered[-1],
    }


def quantile(ordered: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile of already sorted values."""
    if len(ordered) == 1:
        return float(ordered[0])
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return round(float(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)), 3)
