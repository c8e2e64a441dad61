"""Every replay command a report prints reproduces its game, for a
claim's probe as well as the main run: RUNWAY's catch-up probe (its own option arms at
2-4 players) and the seed each claim cites are replayed by `cardlab replay GAME ...`
with the probe's seats, run seed, options, variant and card file, and the replayed
returns equal the recorded ones, under a variant and under a designer's card file."""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.core import CardlabError
from cardlab.lab import replay
from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext
from cardlab.lab.findings import headline_findings


def _variant(tmp_path: Path) -> str:
    path = tmp_path / "no-penalty.toml"
    path.write_text(
        'game = "runway"\ntitle = "no Cash penalty"\n\n[options]\ncash_penalty = 0\n'
        '\n[options_why]\ncash_penalty = "a replay test: the option must reach the replay"\n'
    )
    return str(path)


def _cards(tmp_path: Path) -> str:
    import cardlab.games.runway as runway

    data = tomllib.loads((Path(runway.__file__).parent / "cards.toml").read_text())
    deal = data["deals"][0]
    deal["score"] = 2 if int(deal["score"]) != 2 else 3  # a real change: another game
    path = tmp_path / "my-cards.toml"
    path.write_text(tomli_w.dumps(data))
    return str(path)


def _run(command: str) -> dict[str, Any]:
    args = shlex.split(command)
    assert args[:2] == ["cardlab", "replay"], command
    result = CliRunner().invoke(app, [*args[1:], "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _recorded(ctx: LabContext, spec: Any, seed: int) -> list[float]:
    """The returns the probe recorded for game `seed` of the run with these settings."""
    for (s, _observer), result in ctx._cache.items():
        if s == spec:
            for r in result.records:
                rec = r if isinstance(r, dict) else vars(r)
                if rec["seed"] == seed:
                    return [float(x) for x in rec.get("returns", rec.get("scores"))]
    raise AssertionError(f"no recorded game {seed}")


def _small_runway(variant: str | None = None, cards: str | None = None) -> LabContext:
    """A small 3-player RUNWAY lab (6 games a run, 6 per probe), one worker."""
    return LabContext(
        game="runway",
        players=3,
        agents=("greedy", "random"),
        options={},
        games=6,
        workers=1,
        progress=False,
        probe_games=6,
        variant=variant,
        cards=cards,
    )


@pytest.mark.parametrize("which", ["variant", "cards"])
def test_a_claims_replay_commands_reproduce_its_games(tmp_path: Path, which: str) -> None:
    variant = _variant(tmp_path) if which == "variant" else None
    cards = _cards(tmp_path) if which == "cards" else None
    ctx = _small_runway(variant=variant, cards=cards)
    (c,) = evaluate(ctx, ["runway.catch_up_seat"])
    checked = 0
    for n, row in c["evidence"]["by_players"].items():
        seed = row["seeds_most_narrowed_by_catch_up"][0]
        for arm, command in row["replay"].items():
            assert f"--seed {seed}" in command and f"--players {n}" in command
            if variant:
                assert f"--variant {variant}" in command
            if cards:
                assert f"--cards {cards}" in command
            if arm == "rotation":
                assert "last_seat=rotate" in command
            got = _check(ctx, command, seed)
            assert got["variant"] == variant and got["cards"] == cards
            checked += 1
    assert checked == 6  # two arms at each of 2, 3 and 4 players
    # the seed the claim cites first carries the commands of every run that played it
    # (both arms; the player-count probes share the run seed, so one seed names a game
    # at each count), each reproducing its recorded game
    cited = c["replay"]
    assert cited["seed"] == c["evidence"]["by_players"]["2"]["seeds_most_narrowed_by_catch_up"][0]
    assert cited["commands"] == list(c["evidence"]["by_players"]["2"]["replay"].values())
    for command in cited["commands"]:
        _check(ctx, command, cited["seed"])


def test_a_cited_seed_is_looked_up_only_in_the_runs_its_claim_read() -> None:
    """Every run of a report shares the run seed, so game i has the same seed in all of
    them: a claim's seed names a game of the runs that claim read, not of the main run."""
    ctx = _small_runway()
    ctx.run()  # the report's main run, played first as build_report does
    (c,) = evaluate(ctx, ["runway.two_players_same"])
    commands = c["replay"]["commands"]
    assert commands and all("--players 2 " in cmd for cmd in commands)
    for command in commands:
        assert _run(command)["seed"] == c["replay"]["seed"]


def _check(ctx: LabContext, command: str, seed: int) -> dict[str, Any]:
    """Run a printed command; its returns must equal the ones the probe recorded."""
    got = _run(command)
    spec, _ = replay.from_settings(*_settings(command))
    assert got["seed"] == seed
    assert got["returns"] == _recorded(ctx, spec.with_(games=_games(command)), seed)
    return got


def _games(command: str) -> int:
    args = shlex.split(command)
    return int(args[args.index("--games") + 1])


def _settings(command: str) -> tuple[Any, ...]:
    """The arguments of `replay.from_settings` a printed command gives."""
    args = shlex.split(command)

    def flag(name: str) -> str | None:
        return args[args.index(name) + 1] if name in args else None

    options = dict(a.split("=", 1) for a, o in zip(args[1:], args, strict=False) if o == "-o")
    return (
        args[2],
        int(flag("--players") or 0),
        flag("--agents"),
        int(flag("--run-seed") or 0),
        int(flag("--games") or 0),
        options,
        flag("--cards"),
        flag("--variant"),
        int(flag("--seed") or 0),
    )


def test_a_failing_claims_finding_prints_its_replay(tmp_path: Path) -> None:
    """A claim finding (a probe's seed, not the main run's) prints the claim's command."""
    ctx = _small_runway()
    claims = evaluate(ctx, ["runway.catch_up_seat"])
    claims[0]["verdict"] = "fails"  # as if it failed: the finding cites its seed
    main = ctx.run().records
    report = {
        "title": "RUNWAY",
        "settings": {"players": 3, "report_dir": str(tmp_path)},
        "claims": claims,
        "main": {
            "ends": {"reasons": {}, "seeds": {}},
            "length": {"rounds": {"median": 12}},
            "outcome": {"games": 0},
            "decisions": {"noop_turn_share": 0.0},
        },
    }
    assert main
    (found,) = [f for f in headline_findings(report) if f["title"].startswith("Fails")]
    assert found["seed"] == claims[0]["replay"]["seed"]
    assert found["replay"] == " ; ".join(claims[0]["replay"]["commands"])
    for command in found["replay"].split(" ; "):
        assert _run(command)["seed"] == found["seed"]


def test_replay_by_settings_names_what_was_wrong() -> None:
    run = CliRunner()
    missing = run.invoke(app, ["replay", "runway", "--games", "5", "--seed", "1"])
    assert missing.exit_code == 2 and "seed 1 is not one of the first 5 games" in missing.output
    both = run.invoke(app, ["replay", "runway", "--seed", "1", "--index", "0"])
    assert both.exit_code == 2 and "one of them" in both.output
    stray = run.invoke(app, ["replay", "no-such-dir", "--agents", "greedy", "--seed", "1"])
    assert stray.exit_code == 2 and "go with a game name" in stray.output
    with pytest.raises(CardlabError, match="--index 9"):
        replay.from_settings("runway", 3, "random", 0, 5, {}, None, None, index=9)


def test_the_skill_sections_replay_is_a_whole_command(toy: str, tmp_path: Path) -> None:
    """ "Replay exactly these games" prints the report command with the section's flags,
    the report's seats, options and seed included (not two flags to paste somewhere)."""
    from cardlab.lab import summary
    from cardlab.lab.report import build_report

    ctx = LabContext(toy, 2, ("random",), {}, 6, seed=4, workers=1, progress=False)
    report = build_report(ctx, side_games=4, ladder_games=2, ladder_iterations=20)
    skill = report["skill"]
    assert skill["replay"] and skill["replay_command"].startswith(f"cardlab report {toy} ")
    assert skill["replay_command"].endswith(f"{skill['replay']} --workers 1")
    assert "--seed 4" in skill["replay_command"] and "--games 6" in skill["replay_command"]
    if skill.get("why_not"):
        assert skill["replay_command"] in summary.render(report)
