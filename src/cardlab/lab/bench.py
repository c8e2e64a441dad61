"""`cardlab lab-bench`: the lab's speed figures, measured, never asserted.

- throughput: games/s of `simulate` (greedy agents) with 1 worker and with W
  workers, and their ratio (the target: 2 workers >= 1.7x one);
- report: wall time of `cardlab report GAME` with its defaults except the skill
  ladder (`--ladder-games`, default 0 here: at the gate's standard of 200 games per
  cell with ISMCTS at 1,000 iterations it dwarfs the rest);
- ladder: with `--ladder-sample N`, N games per skill cell at `--ladder-iterations`,
  timed, as seconds per ladder game of each cell (what 200 games per cell cost follows),
  and the skill section's own range for the standard (`standard_wall_s`);
- gate: the sum of the reports, i.e. `cardlab gate all --ladder-games 0` (the gate at its
  defaults keeps to its 10-minute budget and says when its skill sections cannot conclude).
Machines shared with other work give noisy figures: run it on a quiet one."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from cardlab.core.registry import game_info, list_games
from cardlab.lab.backends import run_spec
from cardlab.lab.context import LabContext
from cardlab.lab.reporting import write_report
from cardlab.lab.simulate import engine_ready, make_spec
from cardlab.lab.skill import skill


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
    ladder_games: Annotated[int, typer.Option(help="Skill games per cell in the reports.")] = 0,
    ladder_sample: Annotated[
        int, typer.Option(help="Time this many games per skill cell (0: skip).")
    ] = 0,
    ladder_iterations: Annotated[int, typer.Option(help="ISMCTS iterations.")] = 1000,
) -> None:
    """Measure simulate throughput (1 vs W workers) and default report times."""
    ready = [g for g in list_games() if engine_ready(g)]
    result: dict[str, Any] = {"throughput": [throughput(g, games, workers) for g in ready]}
    if reports:
        times = {}
        for g in ready:
            start = time.perf_counter()
            write_report(g, out / g, workers=workers, progress=False, ladder_games=ladder_games)
            times[g] = round(time.perf_counter() - start, 1)
        result["report_s"] = times
        result["gate_all_s"] = round(sum(times.values()), 1)
    if ladder_sample:
        result["ladder_s_per_game"] = {
            g: skill_cost(g, ladder_sample, ladder_iterations, workers) for g in ready
        }
    typer.echo(json.dumps(result, indent=1))


def skill_cost(game: str, games: int, iterations: int, workers: int) -> dict[str, Any]:
    """Seconds per ladder game of each skill cell, played as the report plays them (games
    of both cells shared by the workers, one game per task), and the section's own range
    for the standard's wall time, estimated from the same timed games."""
    info = game_info(game)
    ctx = LabContext(
        game, info.default_players, ("greedy",), {}, 1, workers=workers, progress=False
    )
    start = time.perf_counter()
    out = skill(ctx, games, iterations)
    wall = time.perf_counter() - start
    return {
        "players": info.default_players,
        "iterations": iterations,
        "games_per_cell": {f"{c['stronger']} v {c['weaker']}": c["games"] for c in out["cells"]},
        "wall_s": round(wall, 1),
        "wall_s_per_game_per_cell": round(wall / max(c["games"] for c in out["cells"]), 2),
        # the skill section's own estimate for its standard (200 games per cell), a range
        "standard_wall_s": (out.get("to_conclude") or {}).get("wall_s"),
    }


def register(app: typer.Typer) -> None:
    app.command("lab-bench")(lab_bench)
