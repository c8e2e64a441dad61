"""Helpers the per-game claims share: length against a box's minutes, mean
differences with 95% intervals, seat-rotated style match-ups, and the share of seats
shut out against the reference shelf's band (a claim on the distribution, not a mean)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from cardlab.lab.bands import load_bands
from cardlab.lab.context import LabContext
from cardlab.lab.experience import experience_profile
from cardlab.lab.metrics import finished
from cardlab.lab.stats import Z95, wilson
from cardlab.lab.timemodel import BOX_TOLERANCE, accepted_band, judge_length, mean_range
from cardlab.lab.verdicts import Verdict, by_interval, judged, part, untestable

LENGTH_TOLERANCE = BOX_TOLERANCE
"""A box time of T minutes is met by an estimate within T +- 25% (timemodel.BOX_TOLERANCE)."""


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
    """Estimated minutes (quick and slow ends of the time model) per player count, read
    from the report's own run at each count (`ctx.report_games`: the main run, else the
    player-count run), so the claim and the report's player-count table give one number.
    `games` is the probe size a context without a report falls back to."""
    out = {}
    for n in counts:
        n_games = (
            ctx.report_games(n)
            if ctx.side_games is not None
            else (games if n != ctx.players else ctx.games)
        )
        run = ctx.run(players=n, games=n_games)
        ranges = [ctx.time_model.minutes(r) for r in run.records if r.error is None]
        out[n] = mean_range(ranges) if ranges else {"games": 0, "range": [0.0, 0.0]}
    return out


def length_verdict(ctx: LabContext, counts: Sequence[int], games: int) -> Verdict:
    """The box's stated minutes (GameInfo.box_minutes, +-25%) against the estimated range
    at each player count: fails if any count's range lies wholly outside its band (even
    the generous end misses), holds if every count's range lies wholly inside, else
    needs_data (stopwatch play decides: `cardlab calibrate`)."""
    box = ctx.info.box_minutes
    missing = [n for n in counts if n not in box]
    if missing:
        return untestable(f"the rulebook states no playing time at {missing} players")
    per = minutes_by_count(ctx, counts, games)
    readings = {}
    for n, v in per.items():
        band = accepted_band(box[n])
        v["box_minutes"] = list(box[n])
        v["accepted_band"] = list(band)
        ok = judge_length(v["range"], band)
        v["reading"] = {True: "fits", False: "misses", None: "straddles"}[ok]
        readings[n] = ok
    ok = False if False in readings.values() else None if None in readings.values() else True
    model = ctx.time_model
    headline = (
        "; ".join(
            f"{n}p: estimated {v['quick_mean']:g}-{v['slow_mean']:g} min against the box's "
            f"{v['box_minutes'][0]:g}"
            + (f"-{v['box_minutes'][1]:g}" if v["box_minutes"][1] != v["box_minutes"][0] else "")
            + f" ({v['reading']})"
            for n, v in per.items()
        )
        + f" [time model {model.source}]"
    )
    return judged(
        ok,
        headline=headline,
        by_players={str(k): v for k, v in per.items()},
        time_model_source=model.source,
        time_model=model.as_dict(),
        rule="each player count's estimated range (quick end: every decision at its kind's "
        "quick time; slow end: every decision slow; simultaneous kinds at the slowest seat; "
        "plus each round's overhead) against the box +-25%: fails only if the range lies "
        "wholly outside, holds only if it lies wholly inside, else needs data",
        decides_it="stopwatch times: play at the browser table, then cardlab calibrate",
    )


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
            for seat, style in enumerate(r.agents):  # the seating this game was played with
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


def shutout_verdict(ctx: LabContext, counts: Sequence[int]) -> Verdict:
    """The share of seats that end with no points, at each player count (the report's own
    run there), against the reference shelf's band (`bands.toml`, `shutout_share`): holds
    when every count's 95% interval lies inside it, fails when one lies wholly outside.
    A claim on the distribution where a mean score hides it: a mean of 8 points a seat is
    met by a table where half the seats score 0."""
    band = load_bands()["shutout_share"]
    parts: dict[str, Any] = {}
    by_count: dict[str, Any] = {}
    seeds: list[int] = []
    for n in counts:
        run = ctx.run(players=n, games=ctx.report_games(n))
        m = experience_profile(run.records, game=ctx.game, players=n)["shutout_share"]
        if m.value is None or m.interval is None:
            return untestable(f"no finished game at {n} players")
        parts[f"{n}p"] = part(m.value, m.interval, band.target, m.n)
        by_count[f"{n}p"] = {
            "shut_out": m.value,
            "ci95": m.interval,
            "seat_games": m.n,
            "every_seat_shut_out": m.extra.get("every_seat_shut_out_share"),
            "by_position": m.per_position,
        }
        if m.example:
            seeds.append(int(m.example["seed"]))
    shown = "; ".join(
        f"{k} {v['shut_out']:.0%} [{v['ci95'][0]:.0%}, {v['ci95'][1]:.0%}] of "
        f"{v['seat_games']} seat-games"
        for k, v in by_count.items()
    )
    return by_interval(
        parts,
        headline=f"seats shut out (0 points): {shown}; the shelf's band: {band.describe()}",
        by_players=by_count,
        band=band.describe(),
        band_from=sorted(band.loved),
        shutout_seeds=seeds,
    )
