"""The `cardlab tune` command (registered by cardlab.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.core import CardlabError


def register(app: typer.Typer) -> None:
    @app.command()
    def tune(
        game: Annotated[str, typer.Argument(help="game to tune")],
        players: Annotated[int, typer.Option(help="player count")] = 4,
        trials: Annotated[
            int, typer.Option(help="trials in all (a resumed study counts its old ones)")
        ] = 40,
        games: Annotated[
            int, typer.Option(help="games per trial, on the same seeds for every trial")
        ] = 40,
        seed: Annotated[int, typer.Option(help="seed of the games and of the sampler")] = 0,
        workers: Annotated[int, typer.Option(help="parallel trials")] = 1,
        batch: Annotated[
            int, typer.Option(help="trials asked at once (default: --workers); fixes the schedule")
        ] = 0,
        out: Annotated[
            Path, typer.Option(help="folder for tune.json, variant.toml, report.html")
        ] = Path("tune"),
        backend: Annotated[str, typer.Option(help="local or ray")] = "local",
        address: Annotated[
            str | None, typer.Option(help="an existing Ray cluster's address")
        ] = None,
        storage: Annotated[
            str | None,
            typer.Option(help="Optuna storage URL to resume from, e.g. sqlite:///tune/tune.db"),
        ] = None,
        max_changes: Annotated[
            int, typer.Option(help="at most this many parameters changed in a sampled trial")
        ] = 3,
        check_agents: Annotated[
            str, typer.Option(help="after the search, replay as-written and best with these seats")
        ] = "ismcts:iterations=200,greedy",
        check_games: Annotated[int, typer.Option(help="games of that check (0: skip it)")] = 20,
        progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    ) -> None:
        """Search rule options and card numbers for the smallest change that clears the gate."""
        from rich.progress import Progress

        from cardlab.lab.tune import TuneSpec, run_tune
        from cardlab.lab.tune.output import describe, write_outputs

        if max_changes < 1:
            typer.echo("error: --max-changes must be at least 1", err=True)
            raise typer.Exit(2)
        spec = TuneSpec(
            game,
            players,
            trials,
            games,
            seed,
            workers,
            batch,
            backend,
            address,
            storage,
            max_changes=max_changes,
        )
        try:
            if progress:
                with Progress(transient=True) as bar:
                    task = bar.add_task(f"tune {game} {players}p", total=trials)
                    result = run_tune(spec, lambda done, total: bar.update(task, completed=done))
            else:
                result = run_tune(spec)
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        checks = None
        if check_games > 0:
            from cardlab.agents import parse_agent_list
            from cardlab.lab.tune.study import check_best

            agents = tuple(a.label for a in parse_agent_list(check_agents))
            checks = check_best(result, agents, check_games)
        paths = write_outputs(result, out, checks)
        best, base = result.best(), result.baseline
        typer.echo(f"as written: misses {base.misses:.3f}")
        state = "clears every target" if best.clears else "closest found"
        typer.echo(
            f"best: trial {best.number} ({state}), {len(best.changed)} change(s): {describe(best)}; misses {best.misses:.3f}"
        )
        if checks is not None:
            for label in ("baseline", "best"):
                c = checks[label]
                typer.echo(
                    f"check with {', '.join(checks['agents'])}: {label} misses {c['misses']:.3f}"
                )
        for key in ("json", "variant", "html"):
            typer.echo(f"  {paths[key]}")
