"""`cardlab lab-bench`: the lab's speed figures, measured, never asserted.

- throughput: games/s of `simulate` (greedy agents) with 1 worker and with W
  workers, and their ratio (the target: 2 workers >= 1.7x one);
- report: wall time of `cardlab report GAME` with its defaults (target < 3 min);
- gate: the sum, i.e. `cardlab gate all` (target < 10 min).
Machines shared with other work give noisy figures: run it on a quiet one."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from cardlab.games import list_games
from cardlab.lab.backends import run_spec
from cardlab.lab.simulate import engine_ready, make_spec


def throughput(game: str, games: int, workers: int) -> dict[str, Any]:
    spec = make_spec(game, None, "greedy", 0, games)
    one = run_spec(spec, 1, progress=False)
    many = run_spec(spec, workers, progress=False)
    return {
        "game": game,
        "games": games,
        "games_per_s_1_worker": round(games / one.elapsed_s, 2),
        f"games_per_s_{workers}_workers": round(games / many.elapsed_s, 2),
        "speedup": round(one.elapsed_s / many.elapsed_s, 2),
    }


def lab_bench(
    games: Annotated[int, typer.Option(help="Games per throughput measurement.")] = 200,
    workers: Annotated[int, typer.Option(help="Workers to compare with one.")] = 2,
    reports: Annotated[bool, typer.Option(help="Also time each default report.")] = True,
    out: Annotated[Path, typer.Option(help="Where the timed reports go.")] = Path("lab-bench"),
) -> None:
    """Measure simulate throughput (1 vs W workers) and default report times."""
    from cardlab.lab.report_commands import write_report

    ready = [g for g in list_games() if engine_ready(g)]
    result: dict[str, Any] = {"throughput": [throughput(g, games, workers) for g in ready]}
    if reports:
        times = {}
        for g in ready:
            start = time.perf_counter()
            write_report(g, out / g, workers=workers, progress=False)
            times[g] = round(time.perf_counter() - start, 1)
        result["report_s"] = times
        result["gate_all_s"] = round(sum(times.values()), 1)
    typer.echo(json.dumps(result, indent=1))


def register(app: typer.Typer) -> None:
    app.command("lab-bench")(lab_bench)
