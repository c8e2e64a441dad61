"""Helpers the per-game claims share: length against a box's minutes, mean
differences with 95% intervals, and seat-rotated style match-ups."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from cardlab.lab.context import LabContext
from cardlab.lab.metrics import finished
from cardlab.lab.stats import Z95, wilson

LENGTH_TOLERANCE = 0.25
"""A box time of T minutes holds when the estimated mean is within T +- 25%."""


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    m = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, m - Z95 * se, m + Z95 * se


def diff_ci(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """Mean(a) - mean(b) with a Welch 95% interval (independent samples)."""
    d = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d, d - Z95 * se, d + Z95 * se


def minutes_by_count(ctx: LabContext, counts: Sequence[int], games: int) -> dict[int, Any]:
    """Estimated minutes (time model) per player count, with a 95% interval."""
    out = {}
    for n in counts:
        run = ctx.run(players=n, games=games if n != ctx.players else ctx.games)
        mins = [
            ctx.time_model.game_seconds(r.kind_decisions, r.kind_forced) / 60
            for r in run.records
            if r.error is None
        ]
        m, lo, hi = mean_ci(mins)
        out[n] = {
            "mean_minutes": round(m, 2),
            "ci95": [round(lo, 2), round(hi, 2)],
            "games": len(mins),
        }
    return out


def length_verdict(
    ctx: LabContext, counts: Sequence[int], low: float, high: float, games: int
) -> tuple[bool, dict[str, Any]]:
    """Does every player count's estimated mean length fall in [low, high] minutes?"""
    per = minutes_by_count(ctx, counts, games)
    ok = all(low <= v["mean_minutes"] <= high for v in per.values())
    return ok, {
        "accepted_range_min": [low, high],
        "by_players": {str(k): v for k, v in per.items()},
        "time_model": ctx.time_model.as_dict(),
        "caveat": "minutes come from the time model (seconds per decision kind); "
        "override it with --time-model from stopwatch playtests",
    }


def style_matchup(ctx: LabContext, styles: Sequence[str], games: int) -> dict[str, Any]:
    """Styles seated in rotation (each seat held by each style equally often):
    win rate per seat taken, with 95% Wilson intervals."""
    n = ctx.players
    seats_taken = {s: 0 for s in styles}
    wins = {s: 0.0 for s in styles}
    seeds: dict[str, list[int]] = {s: [] for s in styles}
    for shift in range(len(styles)):
        agents = [styles[(seat + shift) % len(styles)] for seat in range(n)]
        run = ctx.run(agents=agents, games=max(1, games // len(styles)), seed=ctx.seed + shift)
        for r in finished(run.records):
            for seat, style in enumerate(agents):
                seats_taken[style] += 1
                if seat in r.winners:
                    wins[style] += 1 / len(r.winners)
                    if len(seeds[style]) < 3:
                        seeds[style].append(r.seed)
    out = {}
    for s in styles:
        lo, hi = wilson(wins[s], seats_taken[s])
        out[s] = {
            "seats": seats_taken[s],
            "win_rate": round(wins[s] / max(1, seats_taken[s]), 4),
            "wilson95": [round(lo, 4), round(hi, 4)],
            "example_winning_seeds": seeds[s],
        }
    return out
