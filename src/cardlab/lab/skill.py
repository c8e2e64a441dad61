"""Skill vs luck: does the stronger bot win more, clearly?

The ladder has cells, one per pair of neighbouring bots (random vs greedy, greedy vs
ISMCTS). Each cell is a seat-rotated ladder (`cardlab.ladder.run_ladder`) of the two
bots on the same deals. A cell concludes only when it was played at the gate's
standard (`MIN_CELL_GAMES` games with ISMCTS at `MIN_ITERATIONS` iterations): below
that the section shows its numbers and says it cannot conclude. The sentence for a
cell follows from the intervals:

- the stronger bot's 95% interval lies wholly above the weaker's: it clearly wins more;
- the weaker bot's interval lies wholly above: the "weaker" bot wins more;
- the intervals overlap: the cell cannot tell them apart at this many games.

Cells are independent, so they run in parallel on the report's workers.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardlab.lab.context import LabContext
from cardlab.ladder import run_ladder

MIN_CELL_GAMES = 200
MIN_ITERATIONS = 1000


def ladder_agents(iterations: int) -> list[str]:
    return ["random", "greedy", f"ismcts:iterations={iterations}"]


def _cell(
    game: str,
    pair: tuple[str, str],
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any],
    cards: str | None,
    variant: str | None = None,
) -> dict[str, Any]:
    from cardlab.lab.simulate import load_checked

    g = load_checked(game, players, options, cards, variant)
    table = run_ladder(g, list(pair), games=games, seed=seed)
    rows = {
        r.agent: {
            "seats": r.seats,
            "wins": r.wins,
            "win_rate": round(r.win_rate, 4),
            "wilson95": [round(r.low, 4), round(r.high, 4)],
            "rating": round(r.rating, 1),
        }
        for r in table.rows
    }
    return {"games": table.games, "rows": rows}


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


def skill(ctx: LabContext, games: int, iterations: int) -> dict[str, Any]:
    """Play each ladder cell and read it from the intervals."""
    agents = ladder_agents(iterations)
    pairs = list(zip(agents, agents[1:], strict=False))
    args = [
        (ctx.game, p, ctx.players, games, ctx.seed, ctx.options, ctx.cards, ctx.variant)
        for p in pairs
    ]
    if ctx.workers > 1:
        with ProcessPoolExecutor(max_workers=min(ctx.workers, len(args))) as pool:
            cells_raw = list(pool.map(_cell, *zip(*args, strict=True)))
    else:
        cells_raw = [_cell(*a) for a in args]
    concludes = games >= MIN_CELL_GAMES and iterations >= MIN_ITERATIONS
    cells = []
    for (weak, strong), raw in zip(pairs, cells_raw, strict=True):
        w, s = raw["rows"][weak], raw["rows"][strong]
        read = reading(w, s)
        cells.append(
            {
                "weaker": weak,
                "stronger": strong,
                "games": raw["games"],
                "rows": [{"agent": weak, **w}, {"agent": strong, **s}],
                "gap": round(s["win_rate"] - w["win_rate"], 4),
                "reading": read if concludes else "cannot_conclude",
                "sentence": sentence(weak, strong, read, raw["games"], concludes),
            }
        )
    return {
        "agents": agents,
        "players": ctx.players,
        "seed": ctx.seed,
        "games_per_cell": games,
        "iterations": iterations,
        "standard": {"games_per_cell": MIN_CELL_GAMES, "iterations": MIN_ITERATIONS},
        "concludes": concludes,
        "cells": cells,
        "fair_share": round(1 / ctx.players, 4),
    }
