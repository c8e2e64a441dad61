"""Skill vs luck: does the stronger bot win more, clearly?

The ladder has cells, one per pair of neighbouring bots (random vs greedy, greedy vs
ISMCTS). Each cell is a seat-rotated ladder (`cardlab.ladder`) of the two bots on the
same deals, played in balanced blocks: one deal in every seat rotation, so each bot
takes each seat equally often in every block.

**Stopping when it knows.** A cell is looked at after 25, 50, 100, 150 and 200 games
(`LOOK_GAMES`, in whole blocks) and at the games asked: at most `MAX_LOOKS` looks. At
each look both bots' win rates get Wilson intervals at the Bonferroni-corrected level
1 - ALPHA / (MAX_LOOKS x cells): when they separate, the cell stops there and its
sentence is decided. So the chance that any cell of the section reads a difference that
is not there is at most ALPHA (5%), however early it stops. A cell that reaches the
standard (`MIN_CELL_GAMES` games) without separating concludes that the bots cannot be
told apart. A cell with ISMCTS concludes only at the standard's strength
(`MIN_ITERATIONS`); random against greedy concludes at any. Below that the section
shows its numbers and says it cannot conclude. The sentence for a cell:

- the stronger bot's interval lies wholly above the weaker's: it clearly wins more;
- the weaker bot's interval lies wholly above: the "weaker" bot wins more;
- the intervals overlap: the cell cannot tell them apart at this many games.

**Budget.** At the standard the section costs minutes to over an hour per game (ISMCTS
at 1,000 iterations), so it may be given a time budget. It then plays round after round
(one block of every cell per round) until the next game would likely overrun the
budget, keeps only complete rounds, and reports how many games per cell it reached.
The budget decides only *how many* rounds are played: the games themselves depend on
the seed and their place in the ladder, never on timing, so the same numbers come back
with `--ladder-games N` (N = the games per cell reached) and no budget. When it stops
short it says so, with the numbers so far, and estimates from the games it timed how
long the standard would take.

Games run in parallel on the report's workers, one game per task.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from cardlab.agents import parse_agent_spec
from cardlab.lab.backends import _progress
from cardlab.lab.context import LabContext
from cardlab.lab.simulate import SimSpec, make_spec, spec_game
from cardlab.lab.stats import wilson
from cardlab.ladder import block_size, deal_seeds, play_rotation, tabulate

MIN_CELL_GAMES = 200
MIN_ITERATIONS = 1000
ALPHA = 0.05
"""The chance, over the whole section (every cell, every look), of reading a difference
between two bots that is not there."""
LOOK_GAMES = (25, 50, 100, 150, 200)
"""Games per cell at which a cell is looked at (and at the games asked)."""
MAX_LOOKS = len(LOOK_GAMES) + 1


def look_deals(target_deals: int, size: int) -> list[int]:
    """The deals (blocks) after which a cell is looked at: `LOOK_GAMES` rounded up to
    whole blocks, below the deals asked, and the deals asked."""
    points = {math.ceil(g / size) for g in LOOK_GAMES}
    return sorted({d for d in points if d < target_deals} | {target_deals})


def look_z(cells: int) -> float:
    """The z of each look's intervals: Bonferroni over `MAX_LOOKS` looks of `cells` cells,
    two-sided, so the section's error rate is at most `ALPHA`."""
    return NormalDist().inv_cdf(1 - ALPHA / (2 * MAX_LOOKS * cells))


T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
"""Student's t, two-sided 95%, by degrees of freedom (few timed games: a wider range)."""


def t95(df: int) -> float:
    if df in T95:
        return T95[df]
    return 2.23 if df < 15 else 2.09 if df < 30 else 1.96


def ladder_agents(iterations: int) -> list[str]:
    return ["random", "greedy", f"ismcts:iterations={iterations}"]


def _play(
    setting: tuple[SimSpec, int],
    pair: tuple[str, str],
    deal: int,
    deal_seed: int,
    rotation: int,
) -> tuple[dict[str, Any], float]:
    """One ladder game and the seconds it took (its result never depends on the time)."""
    spec, seed = setting
    g = spec_game(spec)  # loaded once per worker process
    specs = [parse_agent_spec(a) for a in pair]
    start = time.perf_counter()
    result = play_rotation(g, specs, seed, deal, deal_seed, rotation)
    return result, time.perf_counter() - start


def reading(weak: dict[str, Any], strong: dict[str, Any], key: str = "wilson95") -> str:
    """The cell's reading from the two bots' intervals (`key`: which interval)."""
    if strong[key][0] > weak[key][1]:
        return "stronger_clearly_ahead"
    if weak[key][0] > strong[key][1]:
        return "weaker_clearly_ahead"
    return "cannot_tell_apart"


def _separated(results: list[dict[str, Any]], z: float) -> bool:
    """Do the two bots' win-rate intervals (at `z`) lie apart in these games? (A game's
    `seat_agents` index the cell's pair: 0 the weaker, 1 the stronger.)"""
    seats, wins = [0, 0], [0.0, 0.0]
    for result in results:
        for seat, i in enumerate(result["seat_agents"]):
            seats[i] += 1
            if seat in result["winners"]:  # as the ladder's table counts a shared win
                wins[i] += 1
    (lo0, hi0), (lo1, hi1) = (wilson(wins[i], seats[i], z) for i in (0, 1))
    return lo1 > hi0 or lo0 > hi1


def sentence(weak: str, strong: str, read: str, games: int, concludes: bool) -> str:
    if not concludes:
        return (
            f"{strong} vs {weak}: cannot conclude — the intervals have not separated in "
            f"{games} games, and that is below the gate's standard ({MIN_CELL_GAMES} games "
            f"per cell, ISMCTS at {MIN_ITERATIONS:,} iterations)"
        )
    if read == "stronger_clearly_ahead":
        return (
            f"{strong} clearly wins more often than {weak} (intervals apart at {games} "
            "games): skill pays"
        )
    if read == "weaker_clearly_ahead":
        return (
            f"{weak} wins more often than {strong} (intervals apart at {games} games): the "
            "stronger bot plays worse here, or the rules reward its weaker play"
        )
    return (
        f"{strong} and {weak} cannot be told apart at {games} games (intervals overlap): "
        "luck weighs heavily at this level of play"
    )


@dataclass
class Played:
    """What a skill section has played so far in this process. Handed back to `skill`
    with more budget, the section goes on from these games instead of playing them
    again: the same games, as each depends only on the seed and its place in the
    ladder, never on when it was played. The gate uses this to give the time one
    game's section leaves unused to a section that stopped short."""

    results: dict[tuple[int, int, int], dict[str, Any]] = field(default_factory=dict)
    seconds: list[list[float]] = field(default_factory=list)
    wall_s: float = 0.0
    budget_s: float = 0.0


class _Runner:
    """Plays ladder games in order (round by round, cell by cell, rotation by rotation)
    on `workers` processes, never more in flight than workers, and stops starting games
    once the next one would likely end after `deadline`."""

    def __init__(
        self,
        setting: tuple[SimSpec, int],
        pairs: list[tuple[str, str]],
        seeds: list[int],
        size: int,
        workers: int,
        deadline: float | None,
        clock: Callable[[], float],
        played: Played,
        looks: list[int] | None = None,
        z: float = 0.0,
    ) -> None:
        if not played.seconds:
            played.seconds.extend([] for _ in pairs)
        self.results, self.seconds = played.results, played.seconds  # filled in place
        self.tasks = [
            (cell, deal, rotation)
            for deal in range(len(seeds))
            for cell in range(len(pairs))
            for rotation in range(size)
            if (cell, deal, rotation) not in self.results
        ]
        self.setting, self.pairs, self.seeds = setting, pairs, seeds
        self.workers, self.deadline, self.clock = workers, deadline, clock
        self.stopped_by_budget = False
        self.advance: Callable[[int], None] = lambda n: None
        self.size, self.looks, self.z = size, looks or [], z
        self.stop_at: dict[int, int] = {}
        """Cell -> the deals at whose look its intervals separated (it plays no more)."""
        self._next_look = [0] * len(pairs)
        for cell in range(len(pairs)):  # games played earlier are looked at in order
            self._look(cell)

    def _deals_done(self, cell: int) -> int:
        deals = 0
        while deals < len(self.seeds) and all(
            (cell, deals, r) in self.results for r in range(self.size)
        ):
            deals += 1
        return deals

    def _look(self, cell: int) -> None:
        """Look at every point this cell's complete deals have passed, in order; stop it
        at the first where its intervals separate (the same point however the games were
        scheduled: the looks depend only on the games' results)."""
        done = self._deals_done(cell)
        while cell not in self.stop_at and self._next_look[cell] < len(self.looks):
            point = self.looks[self._next_look[cell]]
            if point > done:
                return
            self._next_look[cell] += 1
            games = [self.results[(cell, d, r)] for d in range(point) for r in range(self.size)]
            if _separated(games, self.z):
                self.stop_at[cell] = point

    def _open(self) -> Any:
        """The tasks still to play, skipping a cell once it has stopped (read lazily)."""
        return (t for t in self.tasks if t[0] not in self.stop_at)

    def _args(self, task: tuple[int, int, int]) -> tuple[Any, ...]:
        cell, deal, rotation = task
        return (self.setting, self.pairs[cell], deal, self.seeds[deal], rotation)

    def _fits(self, task: tuple[int, int, int], running: int) -> bool:
        """Start a game only if it (and those already running) likely end in time: a cell
        not yet timed always starts, so every cell gets timed at least once."""
        if self.deadline is None:
            return True
        now = self.clock()
        if now >= self.deadline:
            return False
        done = self.seconds[task[0]]
        if not done:
            return True
        # the workers share what is in flight; this game waits for a free one
        return now + statistics.fmean(done) * (1 + running / self.workers) <= self.deadline

    def _record(self, task: tuple[int, int, int], out: tuple[dict[str, Any], float]) -> None:
        self.results[task] = out[0]
        self.seconds[task[0]].append(out[1])
        self.advance(1)
        if self.looks:
            self._look(task[0])

    def run(self) -> None:
        if self.workers <= 1:
            self._run_here()
        else:
            self._run_pool()

    def _run_here(self) -> None:
        for task in self._open():
            if not self._fits(task, 0):
                self.stopped_by_budget = True
                return
            self._record(task, _play(*self._args(task)))

    def _run_pool(self) -> None:
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            pending: dict[Future[Any], tuple[int, int, int]] = {}
            queue = self._open()
            nxt = next(queue, None)
            while nxt is not None or pending:
                while nxt is not None and len(pending) < self.workers:
                    if not self._fits(nxt, len(pending)):
                        self.stopped_by_budget = True
                        nxt = None
                        break
                    pending[pool.submit(_play, *self._args(nxt))] = nxt
                    nxt = next(queue, None)
                if not pending:
                    break
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    self._record(pending.pop(future), future.result())

    def complete_deals(self) -> list[int]:
        """Per cell, the deals kept: where it stopped, else the rounds every cell still
        open played in every rotation (so the open cells share their games)."""
        still = [c for c in range(len(self.pairs)) if c not in self.stop_at]
        common = min((self._deals_done(c) for c in still), default=0)
        return [self.stop_at.get(c, common) for c in range(len(self.pairs))]


def estimate(
    seconds: list[list[float]],
    games_per_cell: int,
    parallel: float,
    done: list[int] | None = None,
) -> dict[str, Any] | None:
    """Wall seconds for every cell to play `games_per_cell` games, as a 95% range.

    Each cell's mean seconds per game is measured on the games it played (a 95%
    interval on the mean, so few or uneven games give a wide range; one timed game
    gives half to twice its time; Student's t for few games); the cells share `parallel` workers as they did
    here. The machine's load during the later games is not modelled: it is the same
    machine at the same load, or the figure does not apply.

    `done`: the games each cell has played already; `left_wall_s` is then the range for
    the games still to play (at most: a cell may stop earlier at a look)."""
    if not seconds or any(not s for s in seconds):
        return None
    low = high = left_low = left_high = 0.0
    for i, s in enumerate(seconds):
        mean = statistics.fmean(s)
        if len(s) < 2:
            lo, hi = mean / 2, mean * 2
        else:
            half = t95(len(s) - 1) * statistics.stdev(s) / math.sqrt(len(s))
            lo, hi = max(min(s), mean - half), mean + half
        low += lo * games_per_cell
        high += hi * games_per_cell
        left = max(0, games_per_cell - (done[i] if done else 0))
        left_low += lo * left
        left_high += hi * left
    timed = sum(len(s) for s in seconds)
    out: dict[str, Any] = {
        "games_per_cell": games_per_cell,
        "wall_s": [round(low / parallel), round(high / parallel)],
        "from_games": timed,
        "parallel": round(parallel, 2),
    }
    if done is not None:
        out["left_wall_s"] = [round(left_low / parallel), round(left_high / parallel)]
    return out


def skill(
    ctx: LabContext,
    games: int,
    iterations: int,
    budget_s: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    played: Played | None = None,
) -> dict[str, Any]:
    """Play each ladder cell (up to `games` games, in whole blocks) and read it from the
    intervals; with `budget_s`, stop when the budget runs out (complete rounds kept).
    `played`: the games an earlier call of this section played (it goes on from them;
    its wall time and budget add up)."""
    start = clock()
    played = played if played is not None else Played()
    agents = ladder_agents(iterations)
    pairs = list(zip(agents, agents[1:], strict=False))
    size = block_size(2, ctx.players)
    target_deals = max(1, math.ceil(games / size))
    # the game as the report plays it (its card and variant files' sha256 key the cache)
    spec = make_spec(
        ctx.game, ctx.players, "random", ctx.seed, 1, ctx.options, ctx.cards, ctx.variant
    )
    setting = (spec, ctx.seed)
    workers = max(1, ctx.workers)
    looks, z = look_deals(target_deals, size), look_z(len(pairs))
    runner = _Runner(
        setting,
        pairs,
        deal_seeds(ctx.seed, target_deals),
        size,
        workers,
        None if budget_s is None else start + budget_s,
        clock,
        played,
        looks,
        z,
    )
    label = f"{ctx.game} skill (ISMCTS {iterations:,})"
    with _progress(ctx.progress, label, len(runner.tasks)) as runner.advance:
        runner.run()
    played.wall_s += clock() - start
    played.budget_s += budget_s or 0.0
    wall = played.wall_s
    kept = runner.complete_deals()
    cells = []
    for index, (weak, strong) in enumerate(pairs):
        deals = kept[index]
        n = deals * size
        results = [runner.results[(index, d, r)] for d in range(deals) for r in range(size)]
        table = tabulate(ctx.game, ctx.players, ctx.seed, [weak, strong], results)
        rows: dict[str, dict[str, Any]] = {
            r.agent: {
                "seats": r.seats,
                "wins": r.wins,
                "win_rate": round(r.win_rate, 4),
                "wilson95": [round(r.low, 4), round(r.high, 4)],
                "look_interval": [round(x, 4) for x in wilson(r.wins, r.seats, z)],
                "rating": round(r.rating, 1),
            }
            for r in table.rows
        }
        w, s = rows[weak], rows[strong]
        read = reading(w, s, "look_interval")
        strong_enough = iterations >= MIN_ITERATIONS or not any(
            "ismcts" in a for a in (weak, strong)
        )
        stopped = index in runner.stop_at
        done = strong_enough and (stopped or n >= MIN_CELL_GAMES)
        cells.append(
            {
                "weaker": weak,
                "stronger": strong,
                "games": n,
                "stopped_at_look": stopped,
                "rows": [{"agent": weak, **w}, {"agent": strong, **s}],
                "gap": round(s["win_rate"] - w["win_rate"], 4),
                "reading": read if done else "cannot_conclude",
                "concludes": done,
                "sentence": sentence(weak, strong, read, n, done),
                "seconds_per_game": round(statistics.fmean(runner.seconds[index]), 3)
                if runner.seconds[index]
                else None,
            }
        )
    concludes = all(c["concludes"] for c in cells)
    reached = max(c["games"] for c in cells)
    open_cells = [i for i, c in enumerate(cells) if not c["concludes"]]
    n_played = sum(len(s) for s in runner.seconds)
    busy = sum(sum(s) for s in runner.seconds)
    standard_games = math.ceil(MIN_CELL_GAMES / size) * size
    out: dict[str, Any] = {
        "agents": agents,
        "players": ctx.players,
        "seed": ctx.seed,
        "games_per_cell": reached,
        "open_games_per_cell": min((cells[i]["games"] for i in open_cells), default=reached),
        "asked_games_per_cell": target_deals * size,
        "block_games": size,
        "blocks_per_cell": max(kept),
        "iterations": iterations,
        "standard": {"games_per_cell": MIN_CELL_GAMES, "iterations": MIN_ITERATIONS},
        "sequential": sequential_rule(looks, size, len(pairs), z),
        "concludes": concludes,
        "budget_s": None if budget_s is None else round(played.budget_s, 1),
        "stopped_by_budget": runner.stopped_by_budget,
        "wall_s": round(wall, 1),
        "games_played": n_played,
        "games_counted": sum(c["games"] for c in cells),
        "games_discarded": n_played - sum(c["games"] for c in cells),
        # --ladder-games 0 would skip the section: nothing to replay then
        "replay": f"--ladder-games {target_deals * size if not runner.stopped_by_budget else reached}"
        f" --ladder-iterations {iterations}"
        if reached
        else None,
        "cells": cells,
        "fair_share": round(1 / ctx.players, 4),
    }
    if not concludes:
        # timings at fewer iterations say nothing about the standard's cost
        parallel = max(1.0, min(workers, busy / wall if wall else 1.0))
        out["to_conclude"] = (
            estimate(
                [runner.seconds[i] for i in open_cells],
                standard_games,
                parallel,
                done=[cells[i]["games"] for i in open_cells],
            )
            if iterations >= MIN_ITERATIONS
            else None
        )
        out["why_not"] = why_not(out)
    return out


def sequential_rule(looks: list[int], size: int, cells: int, z: float) -> dict[str, Any]:
    """The stopping rule as the section states it: its looks, the level of each look's
    intervals and the error rate over the whole section."""
    level = 1 - ALPHA / (MAX_LOOKS * cells)
    games = [d * size for d in looks]
    return {
        "looks_games_per_cell": games,
        "look_level": round(level, 5),
        "z": round(z, 3),
        "error_rate": ALPHA,
        "text": (
            f"each cell is looked at after {', '.join(str(g) for g in games)} games and stops "
            f"at the first look where the two bots' {level:.2%} intervals separate "
            f"(Bonferroni over at most {MAX_LOOKS} looks x {cells} cells): the chance that any "
            f"cell reads a difference that is not there is at most {ALPHA:.0%}"
        ),
    }


def why_not(section: dict[str, Any]) -> str:
    """Why the section cannot conclude, in one plain sentence."""
    reached = section.get("open_games_per_cell", section["games_per_cell"])
    std = section["standard"]
    parts = []
    if section["iterations"] < std["iterations"]:
        parts.append(
            f"ISMCTS played at {section['iterations']:,} iterations, below the standard's "
            f"{std['iterations']:,}"
        )
    if reached < std["games_per_cell"]:
        if section["stopped_by_budget"]:
            parts.append(
                f"the time budget ({section['budget_s']:,.0f} s) ran out after {reached} of "
                f"{std['games_per_cell']} games per cell"
            )
        else:
            parts.append(f"{reached} games per cell were asked, below {std['games_per_cell']}")
    return "; ".join(parts) or "below the standard"
