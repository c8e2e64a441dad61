"""Placement metrics for a SUPER COMPUTER card set: is the connector
puzzle a real decision?

- `placement_options`: legal cells per placement decision (mean, share with one
  cell), over every placement of the games, with and without the round's first
  part (which always has exactly one cell, (0,0), by S4's convention).
- `play_stats`: per seat kind, the share of picked parts scrapped, mean points a
  round and the share of a round's points that a met build brings.
- `placement_ablation`: what random placement costs: the same seeds and agents,
  one seat's placements replaced by a uniformly random legal cell; the paired
  difference in that seat's points per round with a 95% interval, and the paired
  win counts (won in both games of a pair, only with its own placement, only placing
  at random, in neither) from which the lab's claim draws a paired interval on the
  win rates (skill is judged on the result).

Engine-only (it imports the core and this game): agents are passed in as objects
with `step(state) -> action` (cardlab.agents' personas, greedy, random, ...).
Like `cardlab.play_game`, each agent is handed a resample from its seat's view
and a decision with one legal action is played for it.

    from cardlab.agents import make_agent
    from cardlab.games.supercomputer import metrics
    print(metrics.report(["builder", "points", "greedy", "random"], make_agent, games=100))
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cardlab.games.supercomputer.rules import SuperComputerGame
from cardlab.games.supercomputer.state import SuperComputerState

if TYPE_CHECKING:
    from cardlab.core.variants import Variant


class Stepper(Protocol):
    def step(self, state: Any) -> int: ...


MakeAgent = Callable[..., Stepper]
"""`make(kind, seed=...)` -> an agent (cardlab.agents.make_agent)."""


@dataclass
class SeatRecord:
    """What one seat did in one game."""

    kind: str
    picks: int = 0
    scrapped: int = 0
    round_points: list[int] = field(default_factory=list)
    build_points: list[int] = field(default_factory=list)
    builds_met: int = 0
    builds_held: int = 0
    met_build_shares: list[float] = field(default_factory=list)
    """Per round whose builds were all met: bonus / (attached green + bonus)."""
    kept: list[str] = field(default_factory=list)
    """The names of the builds held each round."""
    round_picks: list[int] = field(default_factory=list)
    round_scrapped: list[int] = field(default_factory=list)
    """Parts picked and scrapped, per round (for scrap by round)."""


@dataclass
class GameRecord:
    seats: list[SeatRecord]
    options: list[int]
    """Legal cells of every placement decision (placements only, not scrap)."""
    first_options: list[int]
    """The same for each round's first part (always 1)."""
    winners: list[int] = field(default_factory=list)
    """The seats that won (S8; a shared win lists every winner)."""


def play(
    game: SuperComputerGame,
    agents: Sequence[Stepper],
    kinds: Sequence[str],
    seed: int,
) -> GameRecord:
    """One game; agents see a resample from their seat's view (as in play_game)."""
    state: SuperComputerState = game.new_initial_state(seed)
    view_rng = random.Random(f"views-{seed}")
    options: list[int] = []
    first: list[int] = []
    layout = game.actions
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if state.decision_kind() == "place":
            cells = sum(1 for a in legal if layout.kind(a) == "place")
            (options if state.computers[seat] else first).append(cells)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = state.resample_from_infostate(seat, view_rng.getrandbits(63))
            action = agents[seat].step(view)
        state.apply_action(action)
    seats = [SeatRecord(kind) for kind in kinds]
    for _r, q, attached, scrapped, blines in state.round_records:
        rec = seats[q]
        rec.picks += len(attached) + len(scrapped)
        rec.scrapped += len(scrapped)
        rec.round_picks.append(len(attached) + len(scrapped))
        rec.round_scrapped.append(len(scrapped))
        points = sum(p for _, p in attached) + sum(p for _, p in scrapped)
        builds = sum(p for _, p, _ in blines)
        rec.round_points.append(points + builds)
        rec.build_points.append(builds)
        rec.builds_held += len(blines)
        rec.builds_met += sum(1 for _, _, met in blines if met)
        rec.kept.extend(name for name, _, _ in blines)
        green = sum(p for _, p in attached)
        if blines and all(met for _, _, met in blines) and builds > 0:
            rec.met_build_shares.append(builds / (green + builds))
    return GameRecord(seats, options, first, state.winners())


class RandomPlacement:
    """An agent that places uniformly at random (never scraps by choice) and leaves
    every other decision to `inner`: the ablation's seat."""

    def __init__(self, inner: Stepper, seed: int) -> None:
        self.inner = inner
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        if state.decision_kind() == "place":
            layout = state.game.actions
            cells = [a for a in state.legal_actions() if layout.kind(a) == "place"]
            return int(self.rng.choice(cells))
        return self.inner.step(state)


def _seats(kinds: Sequence[str], make: MakeAgent, seed: int) -> list[Stepper]:
    return [make(kind, seed=seed * 31 + i) for i, kind in enumerate(kinds)]


def games(
    kinds: Sequence[str],
    make: MakeAgent,
    n_games: int,
    players: int = 4,
    cards: str | Path | None = None,
    seed0: int = 0,
    variant: Variant | None = None,
    game: SuperComputerGame | None = None,
    **options: Any,
) -> list[GameRecord]:
    """`n_games` games with the seat kinds rotated one seat per game, over
    max(players, kinds) games, so with fewer seats than kinds (2 or 3 players, four
    kinds) every kind still sits. `game`: a game already loaded (its players, cards,
    variant and options win over the others)."""
    if game is None:
        game = SuperComputerGame(players, cards=cards, variant=variant, **options)
    players = game.num_players
    out = []
    for i in range(n_games):
        shift = i % max(players, len(kinds))
        seat_kinds = [kinds[(q + shift) % len(kinds)] for q in range(players)]
        out.append(play(game, _seats(seat_kinds, make, seed0 + i), seat_kinds, seed0 + i))
    return out


def placement_options(records: Sequence[GameRecord]) -> dict[str, float]:
    """Mean legal cells per placement and the share with exactly one, over all
    placements and without each round's first part."""
    later = [n for g in records for n in g.options]
    every = later + [n for g in records for n in g.first_options]
    return {
        "mean_cells": statistics.fmean(every),
        "one_cell_share": sum(n == 1 for n in every) / len(every),
        "mean_cells_after_first": statistics.fmean(later),
        "one_cell_share_after_first": sum(n == 1 for n in later) / len(later),
        "placements": len(every),
    }


def options_histogram(records: Sequence[GameRecord], top: int = 6) -> dict[str, float]:
    """Share of placement decisions (each round's first part included) with 1, 2, ...
    legal cells; the last bucket is `top` or more."""
    every = [n for g in records for n in (*g.options, *g.first_options)]
    out: dict[str, float] = {}
    for k in range(1, top + 1):
        hits = sum(1 for n in every if (n >= top if k == top else n == k))
        out[f"{k}+" if k == top else str(k)] = hits / len(every) if every else 0.0
    return out


def scrap_by_round(records: Sequence[GameRecord]) -> dict[str, list[float]]:
    """Per seat kind: the share of parts scrapped in round 1, 2, 3 (scrapped / picked)."""
    picks: dict[str, list[int]] = {}
    scrapped: dict[str, list[int]] = {}
    for g in records:
        for s in g.seats:
            p = picks.setdefault(s.kind, [])
            c = scrapped.setdefault(s.kind, [])
            for r, (n, k) in enumerate(zip(s.round_picks, s.round_scrapped, strict=True)):
                if r >= len(p):
                    p.append(0)
                    c.append(0)
                p[r] += n
                c[r] += k
    return {
        kind: [k / n if n else 0.0 for n, k in zip(picks[kind], scrapped[kind], strict=True)]
        for kind in sorted(picks)
    }


def seat_scrap_rates(records: Sequence[GameRecord], kind: str) -> list[float]:
    """Each `kind` seat-game's scrap rate: the unit for an interval (the parts of one
    computer are not independent draws)."""
    return [s.scrapped / s.picks for g in records for s in g.seats if s.kind == kind and s.picks]


def play_stats(records: Sequence[GameRecord]) -> dict[str, dict[str, float]]:
    """Per seat kind: scrap rate (scrapped / picked), mean points a round, mean build
    points a round, builds met / held, and the share of the round's positive points a
    met build brings (bonus / (attached green + bonus), over rounds with a met build)."""
    out: dict[str, dict[str, float]] = {}
    by_kind: dict[str, list[SeatRecord]] = {}
    for g in records:
        for s in g.seats:
            by_kind.setdefault(s.kind, []).append(s)
    for kind, seats in sorted(by_kind.items()):
        picks = sum(s.picks for s in seats)
        out[kind] = {
            "scrap_rate": sum(s.scrapped for s in seats) / picks,
            "points_per_round": statistics.fmean(p for s in seats for p in s.round_points),
            "build_points_per_round": statistics.fmean(p for s in seats for p in s.build_points),
            "builds_met_share": sum(s.builds_met for s in seats)
            / max(1, sum(s.builds_held for s in seats)),
            "met_build_share_of_round": statistics.fmean(
                [x for s in seats for x in s.met_build_shares] or [0.0]
            ),
            "seats": len(seats),
        }
    return out


def builds_kept(records: Sequence[GameRecord]) -> dict[str, dict[str, float]]:
    """Per build, per seat kind: the share of that kind's seat-games that held it at
    least once (the target: each build kept by some persona in >= 5% of games)."""
    out: dict[str, dict[str, float]] = {}
    totals: dict[str, int] = {}
    for g in records:
        for s in g.seats:
            totals[s.kind] = totals.get(s.kind, 0) + 1
            for name in set(s.kept):
                row = out.setdefault(name, {})
                row[s.kind] = row.get(s.kind, 0) + 1
    return {
        name: {kind: count / totals[kind] for kind, count in sorted(row.items())}
        for name, row in sorted(out.items())
    }


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a 95% normal-approximation interval (paired differences)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def placement_ablation(
    kind: str,
    make: MakeAgent,
    n_games: int,
    others: str = "greedy",
    players: int = 4,
    cards: str | Path | None = None,
    seed0: int = 0,
    variant: Variant | None = None,
    game: SuperComputerGame | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Points per round that random placement costs a `kind` seat, paired by seed:
    seat (game index mod players) is `kind` in one game and `kind` with random
    placement in its twin; the others are `others` with the same seeds. `game`: as
    in `games`. `wins` counts the pairs by whether that seat won (a shared win counts)
    in the game with its own placement, the one placing at random, both or neither."""
    if game is None:
        game = SuperComputerGame(players, cards=cards, variant=variant, **options)
    players = game.num_players
    diffs = []
    wins = {"both": 0, "own_only": 0, "random_only": 0, "neither": 0}
    for i in range(n_games):
        seed = seed0 + i
        me = i % players
        kinds = [kind if q == me else others for q in range(players)]
        normal = play(game, _seats(kinds, make, seed), kinds, seed)
        agents = _seats(kinds, make, seed)
        agents[me] = RandomPlacement(agents[me], seed)
        ablated = play(game, agents, kinds, seed)
        a = statistics.fmean(normal.seats[me].round_points)
        b = statistics.fmean(ablated.seats[me].round_points)
        diffs.append(a - b)
        own, rand = me in normal.winners, me in ablated.winners
        key = ("both" if rand else "own_only") if own else "random_only" if rand else "neither"
        wins[key] += 1
    m, lo, hi = mean_interval(diffs)
    return {"cost_per_round": m, "low": lo, "high": hi, "games": n_games, "wins": wins}


def report(
    kinds: Sequence[str],
    make: MakeAgent,
    n_games: int = 100,
    cards: str | Path | None = None,
    ablation_games: int = 60,
    variant: Variant | None = None,
) -> dict[str, Any]:
    """Every metric for one card set (the packaged cards, a designer's file and/or a
    variant): mixed-kind games for placement options and per-kind stats, random-only
    games for random's scrap rate, and the ablation for the first kind (the builder
    persona, by the issue's targets)."""
    mixed = games(kinds, make, n_games, cards=cards, variant=variant)
    rand = games(
        ["random"], make, max(20, n_games // 4), cards=cards, seed0=10_000, variant=variant
    )
    stats = play_stats(mixed)
    stats["random (all seats)"] = play_stats(rand)["random"]
    return {
        "placement": placement_options(mixed),
        "per_kind": stats,
        "builds_kept": builds_kept(mixed),
        "ablation": placement_ablation(
            kinds[0], make, ablation_games, cards=cards, variant=variant
        ),
    }


def tallies(state: SuperComputerState) -> dict[str, float]:
    """The lab's hook for a finished game (`cardlab.lab.simulate.tallies`): each part
    name picked (`picked:<part>`) and scrapped (`scrapped:<part>`), over every seat and
    round, read from the rounds' scoring records, for the report's scrap by part."""
    out: dict[str, float] = {}
    for _r, _q, attached, scrapped, _blines in state.round_records:
        for name, _ in (*attached, *scrapped):
            out[f"picked:{name}"] = out.get(f"picked:{name}", 0.0) + 1
        for name, _ in scrapped:
            out[f"scrapped:{name}"] = out.get(f"scrapped:{name}", 0.0) + 1
    return out
