"""`cardlab shelf calibrate`: measure the reference shelf with the gate's bots and
write the experience bands (`bands.toml`) the world-class gate judges designs by.

Each shelf game is played as the gate plays a design: at the experience seats
(`experience.experience_seats`: personas mixed with greedy, else greedy in every seat) at
every player count it supports (up to `--max-players`), the same choice and skill
probes, the same seeds. The loved games shape the bands; the controls (War: pure
luck) are measured beside them and must fall outside on agency and skill, which the
command checks and prints."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from cardlab.core.registry import game_info, list_games
from cardlab.lab import experience
from cardlab.lab.backends import default_workers
from cardlab.lab.bands import BANDS_FILE, bands_from_profiles, dump_bands, judge
from cardlab.lab.context import LabContext
from cardlab.lab.experience import experience_seats, measure

LOVED = "hearts,ohhell,crazyeights"
CONTROLS = "war"

shelf_app = typer.Typer(help="The reference shelf: games people love, measured.")


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            timeout=5,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def measure_game(
    game: str,
    players: list[int],
    games: int,
    seed: int,
    workers: int,
    choice_games: int,
    skill_games: int,
    iterations: int,
    progress: bool = False,
) -> list[Any]:
    """The experience profile of `game` at each player count, played as the gate plays."""
    agents = experience_seats(game)
    out = []
    for n in players:
        ctx = LabContext(game, n, agents, {}, games, seed=seed, workers=workers,
                         progress=progress)  # fmt: skip
        main = ctx.run(label=f"{game} {n}p")
        out.append(measure(ctx, main.records, main.spec, n, choice_games, skill_games, iterations))
    return out


def counts_of(game: str, max_players: int) -> list[int]:

    cls = game_info(game).game_class()
    return list(range(cls.min_players, min(cls.max_players, max_players) + 1))


def calibrate(
    loved: Annotated[str, typer.Option(help="The loved games, comma separated.")] = LOVED,
    controls: Annotated[str, typer.Option(help="Control games (pure luck).")] = CONTROLS,
    games: Annotated[int, typer.Option("--games", "-n", help="Main-run games per count.")] = 200,
    choice_games: Annotated[int, typer.Option(help="Choice-probe games per count.")] = 40,
    skill_games: Annotated[int, typer.Option(help="Skill-probe games per opponent.")] = 24,
    iterations: Annotated[int, typer.Option(help="ISMCTS iterations of the strong bot.")] = 100,
    max_players: Annotated[int, typer.Option(help="Highest player count measured.")] = 4,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Worker processes.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Bands file to write (default: cardlab's own).")
    ] = None,
    profiles: Annotated[
        Path | None, typer.Option(help="Also write every measured profile as JSON here.")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
) -> None:
    """Measure the shelf and write the bands the world-class gate judges by."""
    names = {"loved": _names(loved), "controls": _names(controls)}
    known = list_games()
    for name in names["loved"] + names["controls"]:
        if name not in known:
            raise typer.BadParameter(f"unknown game {name!r}; games: {', '.join(known)}")
    if not names["loved"]:
        raise typer.BadParameter("--loved needs at least one game")
    start = time.perf_counter()
    measured: dict[str, dict[str, list[Any]]] = {"loved": {}, "controls": {}}
    w = workers or default_workers()
    for role, group in names.items():
        for game in group:
            counts = counts_of(game, max_players)
            typer.echo(f"measuring {game} at {', '.join(map(str, counts))} players ...")
            measured[role][game] = measure_game(game, counts, games, seed, w, choice_games,
                                                skill_games, iterations, not quiet)  # fmt: skip
    about = {
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": _commit(),
        "command": (
            f"cardlab shelf calibrate --loved {loved} --controls {controls} --games {games} "
            f"--choice-games {choice_games} --skill-games {skill_games} --iterations "
            f"{iterations} --max-players {max_players} --seed {seed}"
        ),
        "loved": names["loved"],
        "controls": names["controls"],
        "seats": "experience.experience_seats: each game's personas mixed with greedy, "
        "greedy in every seat for a game without personas",
        "games_per_count": games,
        "choice_probe": f"{choice_games} games, {experience.CHOICE_SAMPLES} decisions each, "
        f"{experience.CHOICE_ROLLOUTS} paired rollouts of {experience.CHOICE_DEPTH} decisions",
        "skill_probe": f"{skill_games} games per opponent, one "
        f"{experience.STRONG.format(iterations=iterations)} seat rotated",
        "seconds": round(time.perf_counter() - start, 1),
    }
    bands = bands_from_profiles(measured["loved"], measured["controls"], about)
    path = out or Path(__file__).with_name(BANDS_FILE)
    path.write_text(dump_bands(bands), encoding="utf-8")
    typer.echo(f"wrote {path}")
    if profiles is not None:
        dumped = {role: {g: [p.to_dict() for p in ps] for g, ps in by_game.items()}
                  for role, by_game in measured.items()}  # fmt: skip
        profiles.write_text(json.dumps(dumped, indent=1), encoding="utf-8")
    for role, by_game in measured.items():
        for game, ps in by_game.items():
            for p in ps:
                j = judge(p, bands)
                outside = ", ".join(j["outside"]) or "nothing"
                typer.echo(f"{role:<8} {game} {p.players}p: {j['words']}; outside: {outside}")
    for b in bands.bands.values():
        typer.echo(f"  {b.metric:<22} band {b.describe()}")


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def register(app: typer.Typer) -> None:
    shelf_app.command()(calibrate)
    app.add_typer(shelf_app, name="shelf")
