"""Bad arguments: one clear line on stderr and a non-zero exit; --json fields."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardlab.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "nosuchgame"], "unknown game"),
        (["simulate", "runway", "--option", "nosuch=1"], "no rule option"),
        (["simulate", "runway", "--agents", "nosuchbot"], "unknown agent kind"),
        (["simulate", "runway", "--games", "0"], "at least 1"),
        (["simulate", "runway", "--backend", "cloud", "--games", "1"], "unknown backend"),
        (["report", "nosuchgame"], "unknown game"),
        (["report", "runway", "--games", "0"], "at least 1"),
        (["report", "runway", "--compare", "shock_effect=none"], "--compare"),
        (["gate", "nosuchgame"], "unknown game"),
    ],
)
def test_bad_arguments_give_one_line_and_nonzero_exit(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_simulate_json_fields(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(
        app,
        [
            "simulate",
            "runway",
            "--games",
            "6",
            "--agents",
            "random",
            "--seed",
            "3",
            "--json",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for key in (
        "game",
        "players",
        "games",
        "agents",
        "options",
        "seed",
        "wins_by_seat",
        "mean_scores",
        "mean_decisions",
        "end_reasons",
        "elapsed_s",
    ):
        assert key in data
    assert sum(data["wins_by_seat"]) == pytest.approx(6)
    listed = runner.invoke(app, ["runs", str(tmp_path), "--json"])
    assert json.loads(listed.stdout)[0]["games"] == 6


def test_probe_games_reach_the_probes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--probe-games` on the command line sizes every claim probe (it used to be dropped)."""
    result = runner.invoke(
        app,
        [
            "report",
            "runway",
            "--games",
            "10",
            "--side-games",
            "6",
            "--probe-games",
            "7",
            "--ablation-games",
            "0",
            "--ladder-games",
            "0",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads((tmp_path / "report.json").read_text())
    claims = {c["id"]: c for c in data["claims"]}
    assert claims["runway.two_players_same"]["evidence"]["games"] == 7
    assert claims["runway.catch_up_seat"]["evidence"]["games_per_arm_and_player_count"] == 7
    assert data["card_impact"] == {"skipped": "card experiments turned off (--ablation-games 0)"}
