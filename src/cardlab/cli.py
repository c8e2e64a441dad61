"""The `cardlab` command line."""

from __future__ import annotations

import json
import shlex
import sys
from typing import Annotated

import typer
from rich.console import Console

from cardlab.core.errors import CardlabError
from cardlab.core.options import parse_option_pairs
from cardlab.core.registry import game_class, list_games, load_game

app = typer.Typer(help="cardlab: play and playtest new card games.", no_args_is_help=True)
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Rule option name=value (repeatable).")
]
CardsOpt = Annotated[
    str | None, typer.Option("--cards", help="A card data file to use instead of the packaged one.")
]
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        help="A variant: a .toml file (rule options + card changes) or the name of one the game ships.",
    ),
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        from cardlab.core.build import build_info

        try:
            number = version("cardlab")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        typer.echo(f"cardlab {number}, engines {build_info().text()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and the build."
        ),
    ] = False,
) -> None:
    """cardlab: play and playtest new card games."""


def _build_line(as_json: bool, text: str) -> None:
    """A bench figure names its build (compiled and pure differ several-fold)."""
    from cardlab.core.build import build_info

    info = build_info()
    if as_json:
        typer.echo(json.dumps({**json.loads(text), "build": info.text()}))
    else:
        typer.echo(f"{text}\nbuild: {info.text()}")


def _fail(exc: Exception) -> None:
    err.print(f"[red]error:[/red] {exc}")
    raise typer.Exit(2)


def _game(  # type: ignore[no-untyped-def]
    name: str,
    players: int | None,
    cards: str | None,
    option: list[str] | None,
    variant: str | None = None,
):
    try:
        options = parse_option_pairs(option or [])
        if "cards" in options:
            raise CardlabError("cards is not a rule option; give a card file with --cards PATH")
        if "variant" in options:
            raise CardlabError("variant is not a rule option; give it with --variant FILE|NAME")
        return load_game(name, players=players, cards=cards, variant=variant, **options)
    except CardlabError as exc:
        _fail(exc)


@app.command()
def games() -> None:
    """List the games with their player counts and rule options."""
    from cardlab.core.plugin import lowest_wins

    for name in list_games():
        cls = game_class(name)
        fewest = ", fewest points win" if lowest_wins(name) else ""
        typer.echo(f"{name}: {cls.title}, {cls.min_players}-{cls.max_players} players{fewest}")
        for spec in cls.option_specs:
            if spec.lever is None:
                typer.echo(f"    {spec.name} = {_allowed(spec)}  ({spec.doc})")
        lever_specs = [spec for spec in cls.option_specs if spec.lever is not None]
        if lever_specs:
            typer.echo("  rule levers (default = the rule as written):")
        for spec in lever_specs:
            assert spec.lever is not None
            typer.echo(
                f"    {spec.name} = {_allowed(spec)}, default {_word(spec.default)}  ({spec.doc})"
            )
            typer.echo(f"        for: {spec.lever.purpose}")


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _allowed(spec) -> str:  # type: ignore[no-untyped-def]
    """An option's values; an integer lever's range (its listed grid beside it)."""
    listed = "|".join(_word(v) for v in spec.allowed)
    if spec.low is not None:
        return f"{spec.low}..{spec.high} (grid {listed})"
    return listed


def _stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def _choose_game() -> str:
    """`cardlab play` without a game: list the games and ask which one; with no
    terminal to ask on, exit saying how to name one (never play whichever sorts first)."""

    names = list_games()
    if not names:
        _fail(CardlabError("no game is installed"))
    rows = []
    for i, name in enumerate(names, 1):
        cls = game_class(name)
        rows.append(f"  {i}. {name}: {cls.title}, {cls.min_players}-{cls.max_players} players")
    if not _stdin_is_terminal():
        err.print(
            "[red]error:[/red] no game given and no terminal to ask on; name one, "
            f"e.g. `cardlab play {names[0]}`. The games:\n" + "\n".join(rows),
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(2)
    typer.echo("Which game?\n" + "\n".join(rows))
    while True:
        try:
            raw = input(f"Game (1-{len(names)} or its name; q to quit): ").strip().lower()
        except EOFError:
            raw = "q"
        if raw in ("q", "quit", "exit"):
            raise typer.Exit(0)
        if raw.isdigit() and 1 <= int(raw) <= len(names):
            return names[int(raw) - 1]
        if raw in names:
            return raw
        typer.echo(
            f"No game {raw!r}: type a number from 1 to {len(names)} or one of {', '.join(names)}."
        )


def replay_command(
    game: str,
    players: int,
    seat: int,
    seed: int,
    bots: str,
    option: list[str] | None,
    cards: str | None,
    variant: str | None,
) -> str:
    """The `cardlab play` command that deals this game again with the same bots, so the
    same moves of the human's give the same game (shell-quoted, ready to paste)."""
    args = ["cardlab", "play", game, "--players", str(players), "--seat", str(seat)]
    args += ["--seed", str(seed), "--bots", bots]
    for pair in option or []:
        args += ["-o", pair]
    if variant is not None:
        args += ["--variant", variant]
    if cards is not None:
        args += ["--cards", cards]
    return shlex.join(args)


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(help="Game name (see `cardlab games`); if omitted, you are asked."),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0-based).")] = 0,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Game seed (64 random bits if omitted). Shown only after the game, "
            "with the command that replays it."
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="Bots for the other seats, comma separated, cycled; parameters as "
            "kind:name=value,name=value (e.g. ismcts:iterations=300,greedy)."
        ),
    ] = "greedy,random",
    option: OptionOpt = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
) -> None:
    """Play GAME at the terminal against bots."""
    from cardlab.agents import parse_agent_list
    from cardlab.core.rng import fresh_seed
    from cardlab.terminal import make_bots, play_terminal

    game = game or _choose_game()
    g = _game(game, players, cards, option, variant)
    if not 0 <= seat < g.num_players:
        _fail(CardlabError(f"--seat must be 0..{g.num_players - 1}"))
    # Never shown while the game runs: it deals every hidden card.
    seed = seed if seed is not None else fresh_seed()
    try:
        specs = parse_agent_list(bots) or parse_agent_list("random")
        agents = make_bots(g.num_players, seat, specs, seed)
    except CardlabError as exc:
        _fail(exc)
    typer.echo(f"{g.title if hasattr(g, 'title') else game}: you are seat {seat}")
    replay = replay_command(game, g.num_players, seat, seed, bots, option, cards, variant)
    play_terminal(g, [seat], agents, seed, replay_command=replay)
    if any(spec.params.get("seconds") for spec in specs):
        typer.echo("(A bot with a time budget may search differently when replayed.)")


@app.command()
def bench(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seconds: Annotated[float, typer.Option(help="Seconds per run.")] = 2.0,
    runs: Annotated[int, typer.Option(help="Runs; the median is reported.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    option: OptionOpt = None,
    agent: Annotated[
        str | None,
        typer.Option(
            help="Benchmark this agent's decisions instead of random play "
            "(e.g. ismcts or ismcts:iterations=300)."
        ),
    ] = None,
    positions: Annotated[int, typer.Option(help="With --agent: positions per run.")] = 20,
    workers: Annotated[
        int | None,
        typer.Option(
            help="With --agent ismcts: search root-parallel over this many worker processes "
            "(iterations split between them; docs/agents.md)."
        ),
    ] = None,
    profile: Annotated[
        bool, typer.Option(help="With --agent: print a cProfile of the agent's decisions.")
    ] = False,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    adapter: Annotated[
        str | None,
        typer.Option(
            help="Random play through an RL adapter (pettingzoo, parallel or openspiel; "
            "needs cardlab[rl]) against the engine's in the same run: decisions/s and the ratio."
        ),
    ] = None,
) -> None:
    """Random play: games/s and decisions/s; with --agent, that bot's speed (median of runs)."""
    from cardlab.core.bench import bench_random_play

    g = _game(game, players, cards, option, variant)
    if agent is not None:
        _bench_agent(g, agent, positions, runs, as_json, profile, workers)
        return
    if adapter is not None:
        from cardlab.adapters.bench import ADAPTERS, bench_adapter

        if adapter not in ADAPTERS:
            _fail(CardlabError(f"--adapter must be one of {', '.join(ADAPTERS)}, not {adapter!r}"))
        found = bench_adapter(g, adapter, seconds=seconds, runs=runs)
        _build_line(as_json, json.dumps(found.as_dict()) if as_json else found.text())
        return
    result = bench_random_play(g, seconds=seconds, runs=runs)
    if as_json:
        _build_line(as_json, json.dumps(result.as_dict()))
    else:
        _build_line(
            as_json,
            f"{result.game} {result.players}p: {result.decisions_per_s:,.0f} decisions/s, "
            f"{result.games_per_s:,.1f} games/s, {result.mean_decisions_per_game:.1f} decisions/game "
            f"(median of {result.runs} runs of {result.seconds_per_run:g}s; runs: {result.all_decisions_per_s})",
        )


def _bench_agent(  # type: ignore[no-untyped-def]
    g,
    agent: str,
    positions: int,
    runs: int,
    as_json: bool,
    profile: bool,
    workers: int | None = None,
) -> None:
    from cardlab.agents import parse_agent_spec
    from cardlab.agents.bench import bench_agent, profile_agent
    from cardlab.agents.spec import check_agent_specs

    try:
        spec = parse_agent_spec(agent)
        if workers is not None:
            spec = type(spec)(spec.kind, {**spec.params, "workers": workers})
        check_agent_specs([spec])
    except CardlabError as exc:
        _fail(exc)
    if profile:
        typer.echo(profile_agent(g, spec, positions=max(1, positions // 2)))
    result = bench_agent(g, spec, positions=positions, runs=runs)
    _build_line(as_json, json.dumps(result.as_dict()) if as_json else result.text())


@app.command()
def ladder(
    game: GameArg,
    agents: Annotated[
        str,
        typer.Option(
            help="Agents, comma separated, parameters as kind:name=value "
            "(e.g. ismcts:iterations=300,greedy,random). Fewer agents than seats: "
            "filled cyclically."
        ),
    ] = "greedy,random",
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games: Annotated[int, typer.Option(help="Games (rounded up to whole seat rotations).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the agents.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    variant: VariantOpt = None,
    seating: Annotated[
        str,
        typer.Option(
            help="mixed: each deal seats the pool in another cyclic order (every agent has "
            "every other as neighbour equally often), then rotates it; rotated: the pool's "
            "order as listed, only rotated (neighbours never change).",
        ),
    ] = "mixed",
    rungs: Annotated[
        bool,
        typer.Option(
            "--rungs",
            help="Read the agents as rungs, weakest first, and say whether each one's win "
            "rate lies above the one before at the gate's corrected intervals.",
        ),
    ] = False,
) -> None:
    """Play agents against each other in every seat; win rates (95% Wilson) and ratings."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cardlab.agents import parse_agent_list
    from cardlab.ladder import run_ladder
    from cardlab.ladder_orders import run_mixed_ladder

    g = _game(game, players, cards, option, variant)
    try:
        specs = parse_agent_list(agents)
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task(f"{game} ladder", total=None)
            if seating not in ("mixed", "rotated"):
                raise CardlabError(f"--seating must be mixed or rotated, not {seating!r}")
            table = (run_mixed_ladder if seating == "mixed" else run_ladder)(
                g,
                specs,
                games=games,
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except CardlabError as exc:
        _fail(exc)
    order = list(dict.fromkeys(spec.label for spec in specs))  # distinct, as listed
    if as_json:
        out = {k: v for k, v in table.as_dict().items() if k != "results"}
        if rungs:
            from cardlab.ladder_rungs import rungs as ladder_rungs

            z, found = ladder_rungs(table, order)
            out["rungs"] = {
                "z": z,
                "pairs": [
                    {"weaker": r.weaker, "stronger": r.stronger, "apart": r.apart} for r in found
                ],
                "monotone": all(r.apart for r in found),
            }
        typer.echo(json.dumps(out))
    else:
        typer.echo(table.text())
        if rungs:
            from cardlab.ladder_rungs import rungs_text

            typer.echo(rungs_text(table, order))


# Feature packages add their own commands: each module listed here defines
# `register(app)`. A package that is not installed yet is simply skipped.
_COMMAND_MODULES = (
    "cardlab.lab.commands",
    "cardlab.lab.bands_commands",
    "cardlab.web.commands",
    "cardlab.printing.commands",
    "cardlab.lab.tune.commands",
    "cardlab.newgame.commands",
    "cardlab.sheets.commands",
)


def _register_feature_commands() -> None:
    import importlib
    import importlib.util

    for name in _COMMAND_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            importlib.import_module(name).register(app)


_register_feature_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
