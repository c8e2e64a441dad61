"""The `cardlab tune` command (registered by cardlab.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardlab.agents import parse_agent_list
from cardlab.core import CardlabError
from cardlab.core.options import parse_option_pairs, resolve_options
from cardlab.core.registry import game_info
from cardlab.lab.tune import TuneSpec, run_tune
from cardlab.lab.tune.confirm import confirm
from cardlab.lab.tune.objectives import unmet
from cardlab.lab.tune.output import describe, power_text, write_outputs
from cardlab.lab.tune.space import list_tunables
from cardlab.lab.tune.study import start_from


def register(app: typer.Typer) -> None:
    @app.command()
    def tune(
        game: Annotated[str, typer.Argument(help="game to tune")],
        list_: Annotated[
            bool,
            typer.Option(
                "--list", help="Print every tunable (options, levers, card numbers) and stop."
            ),
        ] = False,
        option: Annotated[
            list[str] | None,
            typer.Option(
                "--option", "-o", help="Play every trial with this rule option, not searched."
            ),
        ] = None,
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
            str,
            typer.Option(help="the ISMCTS seats of the confirmation (after the persona seats)"),
        ] = "ismcts:iterations=200,greedy",
        confirm_games: Annotated[
            int,
            typer.Option(
                help="most games per arm of the persona-seat confirmation (0: no confirmation)"
            ),
        ] = 400,
        check_games: Annotated[
            int, typer.Option(help="most games per arm of the ISMCTS-seat confirmation")
        ] = 100,
        confirm_min: Annotated[
            int, typer.Option(help="fewest games per arm of a confirmation")
        ] = 40,
        candidates: Annotated[
            int, typer.Option(help="candidates to confirm, best first, until one holds")
        ] = 2,
        variant: Annotated[
            str | None,
            typer.Option(
                "--variant",
                help="start from this variant (a packaged name such as lab, or a .toml): its "
                "options are held, its card numbers are the starting values",
            ),
        ] = None,
        progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    ) -> None:
        """Search rule options, levers and card numbers for the smallest change that
        clears the gate, then confirm it on fresh seeds before calling it best."""
        from rich.progress import Progress

        try:
            info = game_info(game)
            given = parse_option_pairs(option or [])
            resolved = resolve_options(game, info.game_class().option_specs, given)
            fixed = tuple((k, resolved[k]) for k in given)
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if list_:
            typer.echo(list_tunables(info, dict(fixed)))
            return
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
            options=fixed,
            variant=variant,
        )
        try:
            spec = start_from(spec)
            if progress:
                with Progress(transient=True) as bar:
                    task = bar.add_task(f"tune {game} {players}p", total=trials)
                    result = run_tune(spec, lambda done, total: bar.update(task, completed=done))
            else:
                result = run_tune(spec)
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        best, base = result.best(), result.baseline
        start = result.spec.start_name
        held = (
            "clears every target" if base.clears else "not met: " + ", ".join(unmet(base.metrics))
        )
        typer.echo(f"{start}: misses {base.misses:.3f} ({held})")
        state = (
            "clears every target"
            if best.clears
            else "closest found; not met: " + ", ".join(unmet(best.metrics))
        )
        typer.echo(
            f"search's best: trial {best.number} ({state}), {len(best.changed)} change(s): "
            f"{describe(best, start)}; misses {best.misses:.3f}"
        )
        if result.exhausted:
            typer.echo(
                f"  the search stopped at {len(result.trials)} trials: the sampler drew "
                f"{result.exhausted} proposals in a row that repeat measured changes"
            )
        confirmation = None
        if confirm_games > 0 and best.changed:
            try:
                seats = tuple(a.label for a in parse_agent_list(check_agents))
                confirmation = confirm(
                    result,
                    persona_games=confirm_games,
                    ismcts_games=check_games,
                    min_games=confirm_min,
                    ismcts_seats=seats,
                    candidates=candidates,
                    progress=lambda msg: typer.echo(f"  {msg}") if progress else None,
                )
            except CardlabError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
            for tried in confirmation.tried:
                mark = (
                    f"confirmed with {tried['bots']}"
                    if tried["confirmed"]
                    else f"not confirmed ({tried['why_not']})"
                )
                typer.echo(f"  trial {tried['trial']} {tried['changed']}: {mark}")
            typer.echo(f"power: {power_text(confirmation)}")
            if confirmation.confirmed:
                typer.echo(f"best: {confirmation.candidate} ({confirmation.summary})")
                for name, why in confirmation.whys.items():
                    typer.echo(f"  {name.split(':', 1)[1]}: {why}")
                if confirmation.pruned_from is not None:
                    typer.echo(
                        f"  (trial's {confirmation.pruned_from} without the changes that did "
                        "nothing measurable on their own)"
                    )
                for name in confirmation.noise_changes:
                    typer.echo(
                        f"  note: {name.split(':', 1)[1]}'s own effect is within the noise on "
                        "these seeds; the variant may do as well without it"
                    )
            else:
                typer.echo(f"best: {start}: {confirmation.summary}")
        elif not best.changed:
            typer.echo(f"best: {start} (no change did better in the search; no variant written)")
        paths = write_outputs(result, out, None, confirmation)
        for key in ("json", "variant", "html"):
            if key in paths:
                typer.echo(f"  {paths[key]}")
