"""`cardlab replay`: a cited lab game replays with the same bots, seats,
options, variant and cards, and its returns equal the recorded ones: from a report and a
seed (a plain run and a variant run) and from a Parquet row of `cardlab simulate`. Every
replay command a report prints is that command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.lab import replay
from cardlab.lab.findings import headline_findings
from cardlab.lab.reporting import save_report, start_report


def _variant(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "passing.toml"
    path.write_text(f'game = "{game}"\ntitle = "passing allowed"\n\n[options]\nmay_pass = true\n')
    return path


def _report(toy: str, out: Path, variant: str | None = None, players: int | None = None):  # type: ignore[no-untyped-def]
    ctx, report, old = start_report(
        toy,
        out,
        games=6,
        side_games=4,
        ladder_games=0,
        probe_games=4,
        ablation_games=0,
        workers=1,
        progress=False,
        variant=variant,
    )
    save_report(out, report, old)
    n = ctx.players if players is None else players
    games = ctx.games if players is None else 4
    main = next(
        r
        for (spec, observer), r in ctx._cache.items()
        if observer is None and spec.players == n and spec.games == games
    )
    return report, main.records


@pytest.mark.parametrize("with_variant", [False, True], ids=["plain", "variant"])
def test_a_reports_games_replay_with_their_recorded_returns(
    toy: str, tmp_path: Path, with_variant: bool
) -> None:
    variant = str(_variant(tmp_path, toy)) if with_variant else None
    out = tmp_path / "report"
    report, records = _report(toy, out, variant)
    assert records
    for record in records:
        spec, index = replay.from_report(out, record.seed)
        game = replay.replay(spec, index)
        assert game.returns == record.scores and game.seats == record.agents
        assert game.winners == record.winners
    if with_variant:
        assert spec.variant == variant and dict(spec.options)["may_pass"] is True
    # the command line does the same and prints the narrative
    seed = records[0].seed
    result = CliRunner().invoke(app, ["replay", str(out), "--seed", str(seed), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["returns"] == records[0].scores
    told = CliRunner().invoke(app, ["replay", str(out), "--seed", str(seed)])
    assert told.exit_code == 0 and f"game seed {seed}" in told.output
    assert ("variant: " + (variant or "none")) in told.output


def test_every_replay_command_a_report_prints_is_cardlab_replay(toy: str, tmp_path: Path) -> None:
    out = tmp_path / "report"
    report, records = _report(toy, out)
    # a finding that cites a game of the main run carries the one replay command
    report["main"]["ends"]["seeds"] = {"stalled": [records[0].seed]}
    report["main"]["ends"]["reasons"] = {"stalled": len(records)}
    (found,) = [f for f in headline_findings(report) if f["seed"] is not None]
    assert found["replay"] == replay.command(out, records[0].seed)
    assert found["replay"].startswith("cardlab replay ")
    args = found["replay"].split()[2:]
    result = CliRunner().invoke(app, ["replay", *args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["returns"] == records[0].scores
    page = (out / "report.html").read_text()
    assert "cardlab play" not in page


def test_the_report_header_names_its_variant_and_card_file(toy: str, tmp_path: Path) -> None:
    variant = _variant(tmp_path, toy)
    out = tmp_path / "report"
    report, _ = _report(toy, out, str(variant))
    digest = report["settings"]["variant_sha256"]
    assert len(digest) == 64
    summary = (out / "summary.md").read_text()
    assert f"variant {variant} (sha256 {digest})" in summary and "cards packaged" in summary
    assert digest in (out / "report.html").read_text()


@pytest.mark.parametrize("variant", [None, "lab"], ids=["plain", "variant"])
def test_a_parquet_row_replays_with_its_recorded_returns(tmp_path: Path, variant) -> None:  # type: ignore[no-untyped-def]
    args = ["simulate", "uptime", "--players", "3", "-n", "3", "--agents", "greedy,random"]
    args += ["--seed", "5", "--workers", "1", "--quiet", "--out", str(tmp_path), "--json"]
    if variant:
        args += ["--variant", variant]
    ran = CliRunner().invoke(app, args)
    assert ran.exit_code == 0, ran.output
    path = json.loads(ran.output)["parquet"]
    for index in range(3):
        spec, i, recorded = replay.from_parquet(path, index=index)
        game = replay.replay(spec, i, recorded)
        assert game.returns == recorded
        if variant:
            assert dict(spec.options)["row_sweep"] is True
    result = CliRunner().invoke(app, ["replay", path, "--index", "2"])
    assert result.exit_code == 0, result.output
    assert "the recorded returns match" in result.output


def test_bad_replay_input_names_what_was_wrong(toy: str, tmp_path: Path) -> None:
    out = tmp_path / "report"
    _report(toy, out)
    run = CliRunner()
    missing = run.invoke(app, ["replay", str(out), "--seed", "12345"])
    assert missing.exit_code == 2 and "seed 12345 is not a game of this report's" in missing.output
    no_seed = run.invoke(app, ["replay", str(out)])
    assert no_seed.exit_code == 2 and "--seed" in no_seed.output
    not_report = run.invoke(app, ["replay", str(tmp_path), "--seed", "1"])
    assert not_report.exit_code == 2 and "not a cardlab report" in not_report.output


def test_a_card_file_changed_since_the_run_is_refused(tmp_path: Path) -> None:
    import cardlab.games.uptime as uptime

    cards = tmp_path / "cards.toml"
    source = Path(uptime.__file__).parent / "cards.toml"
    cards.write_text(source.read_text())
    args = ["simulate", "uptime", "--players", "2", "-n", "1", "--seed", "1", "--workers", "1"]
    args += ["--quiet", "--cards", str(cards), "--out", str(tmp_path / "runs"), "--json"]
    ran = CliRunner().invoke(app, args)
    assert ran.exit_code == 0, ran.output
    path = json.loads(ran.output)["parquet"]
    assert CliRunner().invoke(app, ["replay", path, "--index", "0"]).exit_code == 0
    cards.write_text(source.read_text() + "\n# edited\n")
    changed = CliRunner().invoke(app, ["replay", path, "--index", "0"])
    assert (
        changed.exit_code == 2 and f"the card file {cards} changed since the run" in changed.output
    )


def test_a_game_of_a_player_count_run_replays_with_players(toy: str, tmp_path: Path) -> None:
    # the player-count runs share the main run's seed: --players picks the run
    out = tmp_path / "report"
    _, records = _report(toy, out, players=3)
    for record in records:
        spec, index = replay.from_report(out, record.seed, players=3)
        assert spec.players == 3
        assert replay.replay(spec, index).returns == record.scores
    cmd = replay.command(out, records[0].seed, players=3)
    result = CliRunner().invoke(app, [*cmd.split()[1:], "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["returns"] == records[0].scores


def test_reveal_shows_every_hand_and_deck_at_each_step(tmp_path: Path) -> None:
    """`--reveal` tells the designer what the spectator's story hides: before each
    decision every seat's hand and every hidden deck of the true state, the same game
    (returns unchanged); the plain replay still shows no hand."""
    from cardlab.lab.backends import run_spec
    from cardlab.lab.simulate import make_spec
    from cardlab.lab.storage import write_run

    spec = make_spec("runway", 3, "greedy,random", 2, 2)
    path = write_run(run_spec(spec, 1, progress=False), tmp_path)
    spec, i, recorded = replay.from_parquet(path, index=1)
    plain = replay.replay(spec, i, recorded)
    shown = replay.replay(spec, i, recorded, reveal=True)
    assert shown.returns == plain.returns == recorded and plain.steps is None
    assert shown.steps and shown.steps[0].number == 1
    first = shown.steps[0].zones
    hands = [z for z in first if z.startswith("private:")]
    assert len(hands) == 3 and any(z.startswith("hidden:") for z in first)
    text = replay.reveal_text(shown)
    card = first[hands[1]][0]
    assert f"{hands[1]} ({len(first[hands[1]])}): {shown.names.get(card, card)}" in text
    assert len([ln for ln in text.splitlines() if ln.lstrip()[:1].isdigit()]) == len(shown.steps)
    out = CliRunner().invoke(app, ["replay", str(path), "--index", "1", "--reveal"])
    assert out.exit_code == 0 and "REVEALED: every hand and deck is shown" in out.output
    assert "private:" not in CliRunner().invoke(app, ["replay", str(path), "--index", "1"]).output
    data = json.loads(
        CliRunner().invoke(app, ["replay", str(path), "--index", "1", "--reveal", "--json"]).output
    )
    assert len(data["steps"]) == len(shown.steps) and data["card_names"]
