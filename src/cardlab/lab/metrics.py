"""The report's metrics, each computed from a run's records.

Every function takes the records of one configuration and returns plain
JSON-ready data: the figures and, where a game stands out, its seed so the
designer can replay it. Games that errored or hit the lab's decision cap are
excluded from outcome figures (they have no winner) and listed under `ends`."""

from __future__ import annotations

import bisect
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from cardlab.lab.simulate import GameRecord
from cardlab.lab.stats import describe, wilson
from cardlab.lab.timemodel import TimeModel, mean_range

MAX_SEEDS = 5
"""Replayable example seeds listed per finding."""


def finished(records: Sequence[GameRecord]) -> list[GameRecord]:
    return [r for r in records if r.winners and r.error is None]


def position(record: GameRecord, seat: int) -> int:
    """Turn position of `seat`: 0 for the seat that decided first (the seed
    picks the first player, so seat index alone says nothing about order)."""
    first = record.first_player if record.first_player >= 0 else 0
    return (seat - first) % record.players


def win_shares(records: Sequence[GameRecord], by_position: bool = False) -> list[float]:
    """Wins per seat (or turn position); a shared win is split, so they sum to games."""
    if not records:
        return []
    wins = [0.0] * records[0].players
    for r in records:
        for w in r.winners:
            wins[position(r, w) if by_position else w] += 1 / len(r.winners)
    return wins


def outcome(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Win rate per turn position with Wilson intervals, first-seat advantage,
    balance (1 - largest gap between two positions), shared wins, tie-breaks."""
    done = finished(records)
    n = len(done)
    if n == 0:
        return {"games": 0}
    players = done[0].players
    wins = win_shares(done, by_position=True)
    rates = [w / n for w in wins]
    intervals = [wilson(w, n) for w in wins]
    shared = [r for r in done if len(r.winners) > 1]
    levels = Counter(r.tiebreak or "not needed" for r in done)
    tb = tiebreak_share(done)
    tb_lo, tb_hi = tb["ci95"]
    balance = round(1 - (max(rates) - min(rates)), 4)
    fair = fair_balance(players, n)
    return {
        "games": n,
        "win_rate_by_position": [round(x, 4) for x in rates],
        "wilson95_by_position": [[round(lo, 4), round(hi, 4)] for lo, hi in intervals],
        "win_rate_by_seat": [round(w / n, 4) for w in win_shares(done)],
        "fair_share": round(1 / players, 4),
        "first_seat_advantage": round(rates[0] - 1 / players, 4),
        "first_seat_advantage_ci95": [
            round(intervals[0][0] - 1 / players, 4),
            round(intervals[0][1] - 1 / players, 4),
        ],
        "balance": balance,
        "fair_balance": fair,
        "balance_reading": (
            "within what a fair game reads"
            if balance >= fair["low"]
            else "less even than a fair game"
        ),
        "tiebreak_share": tb["share"],
        "tiebreak_share_ci95": [tb_lo, tb_hi],
        "shared_wins": len(shared),
        "shared_seeds": [r.seed for r in shared[:MAX_SEEDS]],
        "tiebreak_levels": dict(levels.most_common()),
        "tiebreak_seeds": {
            lvl: [r.seed for r in done if (r.tiebreak or "not needed") == lvl][:MAX_SEEDS]
            for lvl in levels
            if lvl != "not needed"
        },
        "mean_scores_by_position": _mean_scores_by_position(done),
    }


def tiebreak_share(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Share of the finished games a tie-break decided (a tie for most points), with its
    Wilson 95% interval: the one computation of this figure, read by the report's outcome
    section and by a claim about the tie-break (SUPER COMPUTER's tie_break_4way)."""
    done = finished(records)
    k = sum(1 for r in done if r.tiebreak not in (None, "", "not needed"))
    lo, hi = wilson(k, len(done)) if done else (0.0, 0.0)
    return {
        "games": len(done),
        "games_by_tiebreak": k,
        "share": round(k / len(done), 4) if done else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


FAIR_DRAWS = 2000


def fair_balance(players: int, games: int) -> dict[str, float]:
    """What `balance` reads for a perfectly fair game at this many games: the median
    and the 2.5% point of 1 - (max - min) position win rate over simulated fair games
    (every position wins with probability 1/players; a fixed seed, so it is stable).
    A perfectly fair 4-player game reads about 0.93 at 200 games, not 1."""
    import numpy as np

    rng = np.random.default_rng(1000 * players + games)
    wins = rng.multinomial(games, [1 / players] * players, size=FAIR_DRAWS)
    values = sorted((1 - (wins.max(axis=1) - wins.min(axis=1)) / games).tolist())
    return {
        "median": round(values[len(values) // 2], 4),
        "low": round(values[int(0.025 * len(values))], 4),
        "games": games,
    }


def _mean_scores_by_position(done: Sequence[GameRecord]) -> list[float]:
    players = done[0].players
    totals = [0.0] * players
    for r in done:
        for seat, s in enumerate(r.scores):
            totals[position(r, seat)] += s
    return [round(t / len(done), 3) for t in totals]


HIST_BINS = 24
"""About this many bins per length histogram (fewer when the data is narrow)."""

HISTOGRAMS = ("decisions", "minutes")
"""The length figures the report draws as histograms."""


def length_values(records: Sequence[GameRecord], model: TimeModel) -> dict[str, list[float]]:
    """Per finished-or-stopped game (errors left out): decisions and estimated minutes
    (the middle of the game's quick-slow range; the range itself is in `minutes_range`)."""
    done = [r for r in records if r.error is None]
    return {
        "decisions": [float(r.decisions) for r in done],
        "minutes": [round(model.mid_minutes(r), 2) for r in done],
    }


def nice_edges(values: Sequence[float], integer: bool, bins: int = HIST_BINS) -> list[float]:
    """Bin edges at multiples of a round width (1, 2, 2.5, 5 x 10^k; whole numbers
    for integer data) covering every value, with about `bins` bins."""
    if not values:
        return [0.0, 1.0]
    lo, hi = min(values), max(values)
    raw = (hi - lo) / bins
    widths = [m * 10.0**e for e in range(-1, 7) for m in (1, 2, 2.5, 5)]
    if integer:
        widths = [w for w in widths if w >= 1 and w == int(w)]
    width = next((w for w in widths if w >= raw), widths[-1])
    start = math.floor(lo / width) * width
    edges = [start]
    while edges[-1] <= hi:  # the last bin [e, e + width) holds `hi`
        edges.append(round(start + len(edges) * width, 6))
    return edges


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts per bin [edges[i], edges[i+1]); values outside the edges are not counted."""
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = bisect.bisect_right(edges, v) - 1
        if 0 <= i < len(counts):
            counts[i] += 1
    return counts


def shared_edges(
    record_sets: Sequence[Sequence[GameRecord]], model: TimeModel
) -> dict[str, list[float]]:
    """One set of bin edges per length figure for several configurations, so
    their histograms (one series each) can be drawn over each other."""
    pooled: dict[str, list[float]] = {k: [] for k in HISTOGRAMS}
    for records in record_sets:
        for k, vals in length_values(records, model).items():
            pooled[k].extend(vals)
    return {k: nice_edges(v, integer=k == "decisions") for k, v in pooled.items()}


def length(
    records: Sequence[GameRecord],
    model: TimeModel,
    edges: dict[str, list[float]] | None = None,
) -> dict[str, Any]:
    """Decisions, turns, rounds per game and estimated minutes at a table, with
    histograms of decisions and minutes (`edges`: shared bins, else the data's own)."""
    done = [r for r in records if r.error is None]
    values = length_values(records, model)
    edges = edges or shared_edges([records], model)
    ranges = [model.minutes(r) for r in done]
    return {
        "decisions": describe([r.decisions for r in done]),
        "turns": describe([r.turns for r in done]),
        "rounds": describe([r.rounds for r in done]),
        "minutes": describe(values["minutes"]),
        "minutes_quick": describe([round(q, 2) for q, _ in ranges]),
        "minutes_slow": describe([round(s, 2) for _, s in ranges]),
        "minutes_range": mean_range(ranges) if ranges else {},
        "unpriced_kinds": model.unpriced({k for r in done for k in r.kind_decisions}),
        "histograms": {
            k: {"edges": edges[k], "counts": histogram(values[k], edges[k])} for k in HISTOGRAMS
        },
        "time_model": model.as_dict(),
    }


def decisions(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Branching factor per decision kind, forced-move share, dead turns."""
    count: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    forced: Counter[str] = Counter()
    for r in records:
        count.update(r.kind_decisions)
        legal.update(r.kind_legal)
        forced.update(r.kind_forced)
    noop: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    for r in records:
        noop.update(r.kind_noop)
        turns.update(r.kind_turns)
    total = sum(count.values())
    all_turns = sum(turns.values())
    dead_games = [r for r in records if r.dead_turns]
    noop_games = sorted(
        (r for r in records if r.kind_turns),
        key=lambda r: -sum(r.kind_noop.values()) / sum(r.kind_turns.values()),
    )
    return {
        "by_kind": {
            k: {
                "decisions": count[k],
                "share": round(count[k] / total, 4) if total else 0.0,
                "mean_branching": round(legal[k] / count[k], 3),
                "forced_share": round(forced[k] / count[k], 4),
                "turns_begun": turns[k],
                "noop_share": round(noop[k] / turns[k], 4) if turns[k] else 0.0,
            }
            for k in sorted(count)
        },
        "turns": all_turns,
        "noop_turns": sum(noop.values()),
        "noop_turn_share": round(sum(noop.values()) / all_turns, 4) if all_turns else 0.0,
        "noop_share_by_position": _noop_by_position(records),
        "noop_share_by_seat": _noop_by_position(records, by_seat=True),
        "noop_seeds": [r.seed for r in noop_games[:MAX_SEEDS] if sum(r.kind_noop.values())],
        "actions": action_kinds(records),
        "mean_branching": round(sum(legal.values()) / total, 3) if total else 0.0,
        "forced_share": round(sum(forced.values()) / total, 4) if total else 0.0,
        "dead_turns_per_game": round(sum(r.dead_turns for r in records) / len(records), 4)
        if records
        else 0.0,
        "games_with_dead_turns": len(dead_games),
        "dead_turn_seeds": [r.seed for r in dead_games[:MAX_SEEDS]],
    }


def _noop_by_position(records: Sequence[GameRecord], by_seat: bool = False) -> list[float]:
    """No-op share of turns per turn position (or per seat index)."""
    if not records:
        return []
    n = records[0].players
    made = [0] * n
    noop = [0] * n
    for r in records:
        for seat in range(min(n, len(r.seat_turns))):
            where = seat if by_seat else position(r, seat)
            made[where] += r.seat_turns[seat]
            noop[where] += r.seat_noop[seat]
    return [round(noop[i] / made[i], 4) if made[i] else 0.0 for i in range(n)]


def action_kinds(records: Sequence[GameRecord]) -> dict[str, Any]:
    """How often each action kind is chosen (share of that group's decisions), by turn
    position and by winners vs losers: does the winning play look different?"""
    done = finished(records)
    if not done:
        return {}
    n = done[0].players
    by_pos: list[Counter[str]] = [Counter() for _ in range(n)]
    won: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    for r in done:
        for seat, acts in enumerate(r.seat_actions):
            by_pos[position(r, seat)].update(acts)
            (won if seat in r.winners else lost).update(acts)
    kinds = sorted(set().union(*by_pos, won, lost))

    def shares(c: Counter[str]) -> dict[str, float]:
        total = sum(c.values())
        return {k: round(c[k] / total, 4) if total else 0.0 for k in kinds}

    return {
        "kinds": kinds,
        "by_position": [shares(c) for c in by_pos],
        "winners": shares(won),
        "losers": shares(lost),
        "per_game": {k: round((won[k] + lost[k]) / len(done), 3) for k in kinds},
    }


def tension(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Lead changes per game, and how far behind the eventual winner ever was."""
    done = finished(records)
    deficits = [r.winner_max_deficit for r in done]
    comebacks = [r for r in done if r.winner_max_deficit > 0]
    biggest = max(done, key=lambda r: r.winner_max_deficit, default=None)
    decided = [r.decided_at for r in done if len(r.winners) == 1]
    return {
        "lead_changes": describe([r.lead_changes for r in done]),
        "eval_lead_changes": describe([r.eval_lead_changes for r in done]),
        "decided_at": describe(decided),
        "decided_by_half_share": round(sum(1 for d in decided if d <= 0.5) / len(decided), 4)
        if decided
        else 0.0,
        "drama_seed": max(done, key=lambda r: r.eval_lead_changes).seed if done else None,
        "winner_largest_deficit": describe(deficits),
        "winner_ever_behind_share": round(len(comebacks) / len(done), 4) if done else 0.0,
        "biggest_comeback_seed": biggest.seed if biggest and biggest.winner_max_deficit else None,
        "no_lead_change_share": round(sum(1 for r in done if r.lead_changes == 0) / len(done), 4)
        if done
        else 0.0,
    }


def curves(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per tenth of the game, averaged over games: legal actions (branching) and
    each public resource the game's lab hooks name (UPTIME's Supply, RUNWAY's Hype...)."""
    done = [r for r in records if r.error is None and r.branching_curve]
    if not done:
        return {"deciles": 0, "branching": [], "resources": {}}
    deciles = len(done[0].branching_curve)

    def mean_curve(rows: list[list[float]]) -> list[float]:
        rows = [r for r in rows if len(r) == deciles]
        return (
            [round(sum(r[i] for r in rows) / len(rows), 3) for i in range(deciles)] if rows else []
        )

    names = sorted({k for r in done for k in r.resource_curves})
    return {
        "deciles": deciles,
        "branching": mean_curve([r.branching_curve for r in done]),
        "resources": {
            k: mean_curve([r.resource_curves[k] for r in done if k in r.resource_curves])
            for k in names
        },
    }


def picks(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Draft games: per card, picks per game, the mean pick number in its round (1 = taken
    first) and how often it was a round's first pick: what players reach for early."""
    done = [r for r in records if r.error is None]
    by_card: dict[str, list[int]] = defaultdict(list)
    for r in done:
        for name, positions in r.picks.items():
            by_card[name].extend(positions)
    if not by_card:
        return {}
    rows = {
        name: {
            "picks_per_game": round(len(pos) / len(done), 3),
            "mean_pick_number": round(sum(pos) / len(pos), 2),
            "first_pick_share": round(sum(1 for p in pos if p == 1) / len(pos), 4),
        }
        for name, pos in by_card.items()
    }
    return dict(sorted(rows.items(), key=lambda kv: kv[1]["mean_pick_number"]))


def content(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per card: how often a seat acquired it, the points it brought, and the win
    rate of seats that acquired it. This is correlation, not cause (in a stalled
    game decided by a tie-break, buying anything "wins"): no card is called strong
    or weak here; `card_impact` does that by experiment."""
    done = finished(records)
    if not done:
        return {"kind": "correlation", "cards": {}}
    players = done[0].players
    fair = 1 / players
    seat_games: Counter[str] = Counter()
    games_seen: Counter[str] = Counter()
    wins: defaultdict[str, float] = defaultdict(float)
    points: defaultdict[str, float] = defaultdict(float)
    for r in done:
        seen_here: set[str] = set()
        for seat, acquired in enumerate(r.acquired):
            names = set(acquired)
            seen_here |= names
            share = 1 / len(r.winners) if seat in r.winners else 0.0
            for name in names:
                seat_games[name] += 1
                wins[name] += share
            seat_points = r.card_points[seat] if seat < len(r.card_points) else {}
            for name in names:
                points[name] += seat_points.get(name, 0.0)
        games_seen.update(seen_here)
    cards: dict[str, Any] = {}
    for name in sorted(seat_games):
        k = seat_games[name]
        lo, hi = wilson(wins[name], k)
        cards[name] = {
            "acquired_in_games": round(games_seen[name] / len(done), 4),
            "seat_games": k,
            "mean_points": round(points[name] / k, 3),
            "acquirer_win_rate": round(wins[name] / k, 4),
            "wilson95": [round(lo, 4), round(hi, 4)],
        }
    return {
        "kind": "correlation",
        "fair_share": round(fair, 4),
        "cards": cards,
        "picks": picks(done),
    }


def ends(records: Sequence[GameRecord]) -> dict[str, Any]:
    """End reasons with counts, shares of the run's games and example seeds; errors
    with their message. The one computation of an end reason's share (e.g. UPTIME's
    stall share): the report's headline, its ends section and a claim's evidence that
    cites the report's runs all read it from here (one fact, one number)."""
    by_reason: dict[str, list[int]] = defaultdict(list)
    for r in records:
        by_reason[r.end_reason].append(r.seed)
    errors = [
        {"seed": r.seed, "index": r.index, "error": r.error} for r in records if r.error is not None
    ]
    ranked = sorted(by_reason.items(), key=lambda kv: -len(kv[1]))
    return {
        "games": len(records),
        "players": records[0].players if records else 0,
        "shares": {k: round(len(v) / len(records), 4) for k, v in ranked},
        "reasons": {k: len(v) for k, v in ranked},
        "seeds": {k: v[:MAX_SEEDS] for k, v in by_reason.items()},
        "errors": errors[:20],
        "error_count": len(errors),
    }


def summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The `simulate --json` figures."""
    done = finished(records)
    players = records[0].players if records else 0
    mean_scores = [0.0] * players
    for r in done:
        for i, s in enumerate(r.scores):
            mean_scores[i] += s / len(done)
    return {
        "wins_by_seat": [round(w, 4) for w in win_shares(done)] if done else [0.0] * players,
        "mean_scores": [round(s, 3) for s in mean_scores],
        "mean_decisions": round(sum(r.decisions for r in records) / len(records), 3)
        if records
        else 0.0,
        "end_reasons": dict(Counter(r.end_reason for r in records).most_common()),
        "errors": sum(1 for r in records if r.error is not None),
    }


def decides_simultaneously(info: Any) -> bool:
    """Every decision of the game is simultaneous (SUPER COMPUTER's draft, build choice
    and placement): nobody moves first at the table, so a "turn position" is only the
    engine's resolution order and the report says so. A game with one sequential kind
    (the toy's lay-or-pass) has a real turn order."""
    kinds = list(getattr(info, "decision_kinds", ()) or ())
    return bool(kinds) and all(k.simultaneous for k in kinds)


def config_metrics(
    records: Sequence[GameRecord],
    model: TimeModel,
    edges: dict[str, list[float]] | None = None,
) -> dict[str, Any]:
    return {
        "games": len(records),
        "outcome": outcome(records),
        "length": length(records, model, edges),
        "decisions": decisions(records),
        "tension": tension(records),
        "curves": curves(records),
        "content": content(records),
        "ends": ends(records),
    }


def side_metrics(
    records: Sequence[GameRecord], model: TimeModel, edges: dict[str, list[float]]
) -> dict[str, Any]:
    """The side-by-side subset (no per-card table); `edges` are shared by the rows."""
    full = config_metrics(records, model, edges)
    full.pop("content")
    return full
