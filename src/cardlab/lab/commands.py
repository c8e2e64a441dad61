"""The lab's commands: simulate, runs, replay, report, gate, lab-bench.

Each command validates its arguments before any game is played; a bad one
prints one line on stderr and exits with status 2."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Annotated

import typer

from cardlab.core import CardlabError
from cardlab.core.options import parse_option_pairs
from cardlab.core.registry import list_games
from cardlab.lab import bench, calibrate, metrics, report_commands
from cardlab.lab import replay as lab_replay
from cardlab.lab.backends import default_workers, run_spec
from cardlab.lab.command_options import (
    BackendOpt,
    CardsOpt,
    OptionOpt,
    RayOpt,
    VariantOpt,
    WorkersOpt,
    fail,
)
from cardlab.lab.simulate import make_spec
from cardlab.lab.storage import list_runs, query, write_run
from cardlab.lab.strategy import agent_lines, agent_summary


def _options(pairs: list[str] | None) -> dict[str, str]:
    return parse_option_pairs(pairs or [])


def simulate(
    game: Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 100,
    agents: Annotated[str, typer.Option(help="Agent kinds per seat, comma separated, cycled.")] = (
        "random"
    ),
    seed: Annotated[int, typer.Option(help="Run seed; game i's seed derives from it and i.")] = 0,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    out: Annotated[Path | None, typer.Option(help="Store one Parquet row per game here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Play GAME many times with bots and summarise the results."""
    try:
        spec = make_spec(game, players, agents, seed, games, _options(option), cards, variant)
        result = run_spec(
            spec, workers or default_workers(), backend, ray_address, progress=not quiet
        )
    except CardlabError as exc:
        fail(exc)
    summary = {
        "game": spec.game,
        "players": spec.players,
        "games": spec.games,
        "agents": list(spec.agents),
        "options": spec.options_dict,
        "cards": spec.cards,
        "cards_sha256": spec.cards_sha256,
        "variant": spec.variant,
        "variant_sha256": spec.variant_sha256,
        "seed": spec.seed,
        **metrics.summary(result.records),
        **agent_summary(result.records),
        "elapsed_s": round(result.elapsed_s, 3),
        "games_per_s": round(spec.games / result.elapsed_s, 2),
        "workers": result.workers,
        "backend": result.backend,
    }
    if out is not None:
        summary["parquet"] = str(write_run(result, out))
    if as_json:
        typer.echo(json.dumps(summary))
        return
    typer.echo(
        f"{spec.game} {spec.players}p x{spec.games} ({','.join(spec.agents)}), seed {spec.seed}: "
        f"{summary['games_per_s']} games/s on {result.workers} {result.backend} worker(s)"
    )
    typer.echo(f"  wins by seat {summary['wins_by_seat']}  mean scores {summary['mean_scores']}")
    for line in agent_lines(summary):
        typer.echo(f"  {line}")
    typer.echo(f"  mean decisions {summary['mean_decisions']}  ends {summary['end_reasons']}")
    if "parquet" in summary:
        typer.echo(f"  stored {summary['parquet']}")


def runs(
    directory: Annotated[Path, typer.Argument(help="Directory given to `simulate --out`.")] = Path(
        "lab-runs"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    sql: Annotated[
        str | None,
        typer.Option(
            "--sql",
            help="A DuckDB query over the views games, seats, rounds and curves "
            "(docs/lab.md); prints a table.",
        ),
    ] = None,
    csv: Annotated[
        Path | None, typer.Option("--csv", help="With --sql: also write the rows to this CSV.")
    ] = None,
) -> None:
    """List the runs stored in DIRECTORY (one Parquet file each), or with --sql query
    their games, seats, round boundaries and curves."""
    if not directory.is_dir():
        fail(f"no such directory {str(directory)!r}")
    if csv is not None and sql is None:
        fail("--csv writes the rows of a --sql query: give --sql too")
    if sql is not None:
        _query(directory, sql, csv, as_json)
        return
    rows = list_runs(directory)
    if as_json:
        typer.echo(json.dumps(rows, default=str))
        return
    if not rows:
        typer.echo(f"no runs in {directory}")
    for row in rows:
        typer.echo(
            f"{row['run_id']}  {row['game']} {row['players']}p seed {row['seed']}  "
            f"{row['games']} games  agents {row['agents']}  options {row['options']}  "
            f"mean decisions {row['mean_decisions']}  errors {row['errors']}"
        )


def _query(directory: Path, sql: str, csv_path: Path | None, as_json: bool) -> None:
    """`runs DIR --sql`: the query's rows as an aligned table (or JSON), and a CSV."""
    try:
        cols, rows = query(directory, sql)
    except CardlabError as exc:
        fail(exc)
    if csv_path is not None:
        try:
            with csv_path.open("w", newline="") as f:
                w = csv.writer(f)
                w.writerow(cols)
                w.writerows(rows)
        except OSError as exc:
            fail(f"--csv {csv_path}: {exc.strerror or exc}")
    if as_json:
        typer.echo(json.dumps([dict(zip(cols, r, strict=True)) for r in rows], default=str))
        return
    typer.echo(table_text(cols, rows))
    if csv_path is not None:
        typer.echo(f"{len(rows)} rows written to {csv_path}")


def table_text(cols: list[str], rows: list[tuple[object, ...]], limit: int = 200) -> str:
    """Columns padded to their widest cell, numbers right-aligned; at most `limit` rows
    (the rest counted, and all of them in --csv)."""

    def cell(v: object) -> str:
        if isinstance(v, float):
            return f"{v:.4g}"
        return "NULL" if v is None else str(v)

    shown = [[cell(v) for v in r] for r in rows[:limit]]
    widths = [max([len(c)] + [len(r[i]) for r in shown]) for i, c in enumerate(cols)]
    numeric = [
        all(isinstance(r[i], int | float) for r in rows[:limit] if r[i] is not None)
        for i in range(len(cols))
    ]

    def line(values: list[str]) -> str:
        return "  ".join(
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ).rstrip()

    out = [line(list(cols)), line(["-" * w for w in widths])] + [line(r) for r in shown]
    if len(rows) > limit:
        out.append(f"... {len(rows) - limit} more rows ({len(rows)} in all)")
    return "\n".join(out)


def replay(
    source: Annotated[
        Path,
        typer.Argument(
            help="A report directory, a run's .parquet file (simulate --out), or a game name "
            "with the run's settings (a claim's probe, as the report prints it)."
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="The game's seed, as the report cites it.")
    ] = None,
    index: Annotated[
        int | None, typer.Option(help="The game's index in a stored run (its Parquet row).")
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="A report's run at this player count (default: its main run)."),
    ] = None,
    agents: Annotated[
        str | None, typer.Option(help="With a game name: the run's seats, comma separated.")
    ] = None,
    run_seed: Annotated[
        int | None, typer.Option(help="With a game name: the run's seed (default 0).")
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="With a game name: the run's games (bounds the look-up).")
    ] = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Tell the game step by step with every hand and deck shown (lab games only).",
        ),
    ] = False,
) -> None:
    """Re-play a cited lab game with the same bots, seats, options, variant and cards, and
    print its narrative log (--reveal: every hand and deck at each step). Exit status 1
    if a stored run's returns are not reproduced."""
    by_settings = (agents, run_seed, games, option, cards, variant)
    try:
        if not source.exists() and _is_game(str(source)):
            spec, i = lab_replay.from_settings(
                str(source),
                players,
                agents or "random",
                run_seed or 0,
                games,
                _options(option),
                cards,
                variant,
                seed,
                index,
            )
            recorded = None
        elif any(x is not None for x in by_settings):
            fail(
                f"{source}: --agents, --run-seed, --games, -o, --cards and --variant go with a "
                "game name (a report or a stored run already records them)"
            )
        elif source.suffix == ".parquet":
            spec, i, recorded = lab_replay.from_parquet(source, index, seed)
        elif index is not None or seed is None:
            fail(f"{source}: a report's game is given by --seed (the seed the report cites)")
        else:
            spec, i = lab_replay.from_report(source, seed, players)
            recorded = None
        game = lab_replay.replay(spec, i, recorded, reveal=reveal)
    except CardlabError as exc:
        fail(exc)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": spec.game,
                    "players": spec.players,
                    "index": game.index,
                    "seed": game.seed,
                    "seats": game.seats,
                    "options": spec.options_dict,
                    "variant": spec.variant,
                    "variant_sha256": spec.variant_sha256,
                    "cards": spec.cards,
                    "cards_sha256": spec.cards_sha256,
                    "returns": game.returns,
                    "winners": game.winners,
                    "recorded_returns": game.recorded,
                    **(
                        {
                            "steps": [s.__dict__ for s in game.steps or []],
                            "card_names": game.names,
                            "final_zones": game.final_zones,
                        }
                        if reveal
                        else {}
                    ),
                }
            )
        )
    else:
        typer.echo(lab_replay.text(game))
        if reveal:
            typer.echo("")
            typer.echo(lab_replay.reveal_text(game))
    if game.recorded is not None and game.recorded != game.returns:
        raise typer.Exit(1)


def _is_game(name: str) -> bool:
    return name in list_games()


def register(app: typer.Typer) -> None:
    app.command()(simulate)
    app.command()(runs)
    app.command()(replay)
    report_commands.register(app)
    bench.register(app)
    calibrate.register(app)
