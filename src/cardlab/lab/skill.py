"""Skill vs luck: the bots' strength ladder (reused from `cardlab.ladder`).

If skill matters, random < greedy < ISMCTS in win rate. If a weaker bot wins
nearly as often as a stronger one (intervals overlap), the game's outcome
leans on luck at that level of play, and the report says so."""

from __future__ import annotations

from typing import Any

from cardlab.lab.context import LabContext
from cardlab.ladder import run_ladder

LADDER_ORDER = ("random", "greedy", "ismcts")


def ladder_agents(iterations: int) -> list[str]:
    return ["random", "greedy", f"ismcts:iterations={iterations}"]


def skill(ctx: LabContext, games: int, iterations: int) -> dict[str, Any]:
    """Play the ladder and read it: is each stronger bot clearly ahead?"""
    agents = ladder_agents(iterations)
    bar = _Bar(ctx.progress, f"{ctx.game} ladder")
    table = run_ladder(
        ctx.game,
        agents,
        players=ctx.players,
        games=games,
        seed=ctx.seed,
        options=ctx.options,
        progress=bar.update,
    )
    bar.close()
    rows = [
        {
            "agent": r.agent,
            "seats": r.seats,
            "wins": r.wins,
            "win_rate": round(r.win_rate, 4),
            "wilson95": [round(r.low, 4), round(r.high, 4)],
            "rating": round(r.rating, 1),
        }
        for r in table.rows
    ]
    steps = []
    for weak, strong in zip(rows, rows[1:], strict=False):
        clear = strong["wilson95"][0] > weak["wilson95"][1]
        ahead = strong["win_rate"] > weak["win_rate"]
        steps.append(
            {
                "weaker": weak["agent"],
                "stronger": strong["agent"],
                "stronger_ahead": ahead,
                "clearly_ahead": clear,
                "gap": round(strong["win_rate"] - weak["win_rate"], 4),
            }
        )
    ordered = all(s["stronger_ahead"] for s in steps)
    notes = [
        f"{s['weaker']} wins nearly as often as {s['stronger']} "
        f"(gap {s['gap']:+.1%}, intervals overlap): luck weighs heavily at this level"
        for s in steps
        if not s["clearly_ahead"]
    ]
    return {
        "agents": agents,
        "games": table.games,
        "players": table.players,
        "seed": table.seed,
        "rows": rows,
        "steps": steps,
        "ordered": ordered,
        "notes": notes,
        "fair_share": round(1 / table.players, 4),
    }


class _Bar:
    """Progress for the (single-process) ladder on stderr."""

    def __init__(self, enabled: bool, label: str) -> None:
        self.label = label
        self._progress: Any = None
        self._task: Any = None
        if enabled:
            from rich.console import Console
            from rich.progress import Progress

            self._progress = Progress(console=Console(stderr=True), transient=True)
            self._progress.start()

    def update(self, done: int, total: int) -> None:
        if self._progress is None:
            return
        if self._task is None:
            self._task = self._progress.add_task(self.label, total=total)
        self._progress.update(self._task, completed=done)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
