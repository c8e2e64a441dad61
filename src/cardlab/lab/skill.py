"""Skill vs luck: does the stronger bot win more, clearly?

The ladder has cells, one per pair of neighbouring bots (random vs greedy, greedy vs
ISMCTS). Each cell is a seat-rotated ladder (`cardlab.ladder`) of the two bots on the
same deals, played in balanced blocks: one deal in every seat rotation, so each bot
takes each seat equally often in every block. A cell concludes only when it was played
at the gate's standard (`MIN_CELL_GAMES` games with ISMCTS at `MIN_ITERATIONS`
iterations): below that the section shows its numbers and says it cannot conclude.
The sentence for a cell follows from the intervals:

- the stronger bot's 95% interval lies wholly above the weaker's: it clearly wins more;
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
from typing import Any

from cardlab.agents import parse_agent_spec
from cardlab.lab.backends import _progress
from cardlab.lab.context import LabContext
from cardlab.lab.simulate import SimSpec, make_spec, spec_game
from cardlab.ladder import block_size, deal_seeds, play_rotation, tabulate

MIN_CELL_GAMES = 200
MIN_ITERATIONS = 1000
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


def reading(weak: dict[str, Any], strong: dict[str, Any]) -> str:
    if strong["wilson95"][0] > weak["wilson95"][1]:
        return "stronger_clearly_ahead"
    if weak["wilson95"][0] > strong["wilson95"][1]:
        return "weaker_clearly_ahead"
    return "cannot_tell_apart"


def sentence(weak: str, strong: str, read: str, games: int, concludes: bool) -> str:
    if not concludes:
        return (
            f"{strong} vs {weak}: cannot conclude — {games} games at this strength is below "
            f"the gate's standard ({MIN_CELL_GAMES} games per cell, ISMCTS at "
            f"{MIN_ITERATIONS:,} iterations)"
        )
    if read == "stronger_clearly_ahead":
        return f"{strong} clearly wins more often than {weak} (95% intervals apart): skill pays"
    if read == "weaker_clearly_ahead":
        return (
            f"{weak} wins more often than {strong} (95% intervals apart): the stronger bot "
            "plays worse here, or the rules reward its weaker play"
        )
    return (
        f"{strong} and {weak} cannot be told apart at {games} games (95% intervals overlap): "
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

    def run(self) -> None:
        if self.workers <= 1:
            self._run_here()
        else:
            self._run_pool()

    def _run_here(self) -> None:
        for task in self.tasks:
            if not self._fits(task, 0):
                self.stopped_by_budget = True
                return
            self._record(task, _play(*self._args(task)))

    def _run_pool(self) -> None:
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            pending: dict[Future[Any], tuple[int, int, int]] = {}
            queue = iter(self.tasks)
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

    def complete_deals(self, size: int) -> int:
        """Deals (rounds) that every cell played in every rotation: the games kept."""
        deals = 0
        while deals < len(self.seeds) and all(
            (cell, deals, r) in self.results for cell in range(len(self.pairs)) for r in range(size)
        ):
            deals += 1
        return deals


def estimate(
    seconds: list[list[float]], games_per_cell: int, parallel: float
) -> dict[str, Any] | None:
    """Wall seconds for every cell to play `games_per_cell` games, as a 95% range.

    Each cell's mean seconds per game is measured on the games it played (a 95%
    interval on the mean, so few or uneven games give a wide range; one timed game
    gives half to twice its time; Student's t for few games); the cells share `parallel` workers as they did
    here. The machine's load during the later games is not modelled: it is the same
    machine at the same load, or the figure does not apply."""
    if any(not s for s in seconds):
        return None
    low = high = 0.0
    for s in seconds:
        mean = statistics.fmean(s)
        if len(s) < 2:
            lo, hi = mean / 2, mean * 2
        else:
            half = t95(len(s) - 1) * statistics.stdev(s) / math.sqrt(len(s))
            lo, hi = max(min(s), mean - half), mean + half
        low += lo * games_per_cell
        high += hi * games_per_cell
    timed = sum(len(s) for s in seconds)
    return {
        "games_per_cell": games_per_cell,
        "wall_s": [round(low / parallel), round(high / parallel)],
        "from_games": timed,
        "parallel": round(parallel, 2),
    }


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
    runner = _Runner(
        setting,
        pairs,
        deal_seeds(ctx.seed, target_deals),
        size,
        workers,
        None if budget_s is None else start + budget_s,
        clock,
        played,
    )
    label = f"{ctx.game} skill (ISMCTS {iterations:,})"
    with _progress(ctx.progress, label, len(runner.tasks)) as runner.advance:
        runner.run()
    played.wall_s += clock() - start
    played.budget_s += budget_s or 0.0
    wall = played.wall_s
    deals = runner.complete_deals(size)
    reached = deals * size
    concludes = reached >= MIN_CELL_GAMES and iterations >= MIN_ITERATIONS
    cells = []
    for index, (weak, strong) in enumerate(pairs):
        results = [runner.results[(index, d, r)] for d in range(deals) for r in range(size)]
        table = tabulate(ctx.game, ctx.players, ctx.seed, [weak, strong], results)
        rows: dict[str, dict[str, Any]] = {
            r.agent: {
                "seats": r.seats,
                "wins": r.wins,
                "win_rate": round(r.win_rate, 4),
                "wilson95": [round(r.low, 4), round(r.high, 4)],
                "rating": round(r.rating, 1),
            }
            for r in table.rows
        }
        w, s = rows[weak], rows[strong]
        read = reading(w, s)
        cells.append(
            {
                "weaker": weak,
                "stronger": strong,
                "games": reached,
                "rows": [{"agent": weak, **w}, {"agent": strong, **s}],
                "gap": round(s["win_rate"] - w["win_rate"], 4),
                "reading": read if concludes else "cannot_conclude",
                "sentence": sentence(weak, strong, read, reached, concludes),
                "seconds_per_game": round(statistics.fmean(runner.seconds[index]), 3)
                if runner.seconds[index]
                else None,
            }
        )
    n_played = sum(len(s) for s in runner.seconds)
    busy = sum(sum(s) for s in runner.seconds)
    standard_games = math.ceil(MIN_CELL_GAMES / size) * size
    out: dict[str, Any] = {
        "agents": agents,
        "players": ctx.players,
        "seed": ctx.seed,
        "games_per_cell": reached,
        "asked_games_per_cell": target_deals * size,
        "block_games": size,
        "blocks_per_cell": deals,
        "iterations": iterations,
        "standard": {"games_per_cell": MIN_CELL_GAMES, "iterations": MIN_ITERATIONS},
        "concludes": concludes,
        "budget_s": None if budget_s is None else round(played.budget_s, 1),
        "stopped_by_budget": runner.stopped_by_budget,
        "wall_s": round(wall, 1),
        "games_played": n_played,
        "games_discarded": n_played - reached * len(pairs),
        # --ladder-games 0 would skip the section: nothing to replay then
        "replay": f"--ladder-games {reached} --ladder-iterations {iterations}" if reached else None,
        "cells": cells,
        "fair_share": round(1 / ctx.players, 4),
    }
    if not concludes:
        # timings at fewer iterations say nothing about the standard's cost
        parallel = max(1.0, min(workers, busy / wall if wall else 1.0))
        out["to_conclude"] = (
            estimate(runner.seconds, standard_games, parallel)
            if iterations >= MIN_ITERATIONS
            else None
        )
        out["why_not"] = why_not(out)
    return out


def why_not(section: dict[str, Any]) -> str:
    """Why the section cannot conclude, in one plain sentence."""
    reached, std = section["games_per_cell"], section["standard"]
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
