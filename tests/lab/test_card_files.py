"""Card files everywhere: a designer's --cards file is played, recorded
(path and sha256) in Parquet rows and report.json, compared side by side, and
`-o cards=...` is refused with a hint instead of being silently dropped."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.core import CardlabError
from cardlab.games import game_info
from cardlab.lab.backends import run_spec
from cardlab.lab.simulate import make_spec
from cardlab.lab.storage import read_records, write_run

runner = CliRunner()


@pytest.fixture(scope="module")
def charter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RUNWAY's cards with Bank Charter at 2 points instead of 5."""
    data = tomllib.loads((game_info("runway").package_dir() / "cards.toml").read_text())
    for deal in data["deals"]:
        if deal["name"] == "Bank Charter":
            deal["score"] = 2
    path = tmp_path_factory.mktemp("cards") / "charter.toml"
    path.write_text(tomli_w.dumps(data))
    return path


def test_a_card_file_changes_the_games_and_is_recorded(charter: Path, tmp_path: Path) -> None:
    base = run_spec(make_spec("runway", 3, "greedy", 0, 30), 1, progress=False)
    spec = make_spec("runway", 3, "greedy", 0, 30, cards=charter)
    changed = run_spec(spec, 1, progress=False)
    assert spec.cards == str(charter)
    assert spec.cards_sha256 == hashlib.sha256(charter.read_bytes()).hexdigest()
    assert [r.scores for r in changed.records] != [r.scores for r in base.records]
    assert all(r.cards == str(charter) for r in changed.records)
    path = write_run(changed, tmp_path)
    assert read_records(path)[0].cards_sha256 == spec.cards_sha256
    assert base.records[0].cards is None and base.records[0].cards_sha256 == ""


def test_cards_as_a_rule_option_is_refused_with_a_hint(charter: Path) -> None:
    with pytest.raises(CardlabError, match="--cards PATH"):
        make_spec("runway", 3, "greedy", 0, 1, {"cards": str(charter)})
    for cmd in (["simulate", "runway"], ["report", "runway"], ["bench", "runway"]):
        result = runner.invoke(app, [*cmd, "-o", f"cards={charter}"])
        assert result.exit_code == 2, cmd
        assert "--cards" in result.stderr, (cmd, result.stderr)


def test_a_missing_card_file_is_a_clear_error() -> None:
    result = runner.invoke(app, ["simulate", "runway", "--cards", "/nonexistent.toml"])
    assert result.exit_code == 2 and "nonexistent.toml" in result.stderr


def test_report_records_and_compares_card_files(charter: Path, tmp_path: Path) -> None:
    from cardlab.lab.reporting import write_report

    packaged = game_info("runway").package_dir() / "cards.toml"
    rep = write_report(
        "runway",
        tmp_path,
        players=3,
        games=16,
        side_games=16,
        ladder_games=0,
        workers=1,
        progress=False,
        probe_games=8,
        ablation_games=0,
        cards=str(charter),
        compare=("cards", [str(packaged), str(charter)]),
    )
    assert rep["settings"]["cards"] == str(charter)
    assert rep["settings"]["cards_sha256"] == hashlib.sha256(charter.read_bytes()).hexdigest()
    rows = rep["compare"]["values"]
    assert [r["value"] for r in rows] == [str(packaged), str(charter)]
    assert rows[0]["cards_sha256"] != rows[1]["cards_sha256"]
    assert (
        rows[0]["outcome"]["mean_scores_by_position"]
        != rows[1]["outcome"]["mean_scores_by_position"]
    )
    saved = json.loads((tmp_path / "report.json").read_text())
    assert saved["settings"]["cards"] == str(charter)
    assert "Card files compared" in (tmp_path / "report.html").read_text()


def test_cards_flag_on_every_command() -> None:
    for cmd in ("simulate", "report", "gate", "ladder", "bench", "play"):
        result = runner.invoke(app, [cmd, "--help"])
        assert "--cards" in result.stdout, cmd


def _runway_with(tmp_path: Path, old: str, new: str, name: str) -> Path:
    text = (game_info("runway").package_dir() / "cards.toml").read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def test_a_boolean_for_a_number_names_the_number_wanted(tmp_path: Path) -> None:
    """`score = true` is not read as 1: the error says a whole number from 2 to 5 was
    wanted and what was given, on the card and field."""
    from cardlab.core.errors import CardDataError
    from cardlab.core.registry import load_game

    bad = _runway_with(tmp_path, "score = 5", "score = true", "bool.toml")
    with pytest.raises(CardDataError) as err:
        load_game("runway", players=3, cards=bad)
    assert "card 'Bank Charter' (deals[2]): field 'score'" in str(err.value)
    assert "should be a whole number from 2 to 5, got true" in str(err.value)
    high = _runway_with(tmp_path, "score = 5", "score = 9", "high.toml")
    with pytest.raises(CardDataError, match="whole number from 2 to 5, got 9"):
        load_game("runway", players=3, cards=high)


def test_a_duplicate_name_names_both_entries(tmp_path: Path) -> None:
    from cardlab.core.errors import CardDataError
    from cardlab.core.registry import load_game

    dup = _runway_with(tmp_path, 'name = "Conference Badge"', 'name = "Bank Charter"', "dup.toml")
    with pytest.raises(CardDataError, match=r"deals\[2\] and deals\[3\]: field 'name'"):
        load_game("runway", players=3, cards=dup)
