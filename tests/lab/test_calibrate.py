"""`cardlab calibrate`: ranges fitted on recorded think times; the report says which."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.games import game_info
from cardlab.lab.calibrate import MIN_RECORDS, fit
from cardlab.lab.timemodel import TimeModel

runner = CliRunner()


def _records(n: int, base: float, per_option: float) -> list[dict]:  # type: ignore[type-arg]
    rng = random.Random(1)
    out = []
    for _ in range(n):
        options = rng.randint(2, 12)
        seconds = base + per_option * (options - 2) + rng.uniform(-2, 2)
        out.append(
            {
                "game": "runway",
                "players": 3,
                "kind": "pitch",
                "options": options,
                "seconds": seconds,
            }
        )
    return out


def test_fit_recovers_the_per_option_slope_and_a_base_range() -> None:
    model = fit(game_info("runway"), _records(200, 12.0, 1.5))
    pitch = model["kinds"]["pitch"]
    assert 1.3 < pitch["per_option"][0] < 1.7
    lo, hi = pitch["seconds"]
    assert 10.0 < lo < 12.0 < hi < 14.0
    assert model["source"].startswith("fitted on 200 decisions")
    assert "guessed for trade" in model["source"]  # too few trade records: kept as declared


def test_too_few_records_keep_the_guess_and_away_times_are_dropped() -> None:
    few = _records(MIN_RECORDS - 1, 12.0, 1.0)
    few.append({"game": "runway", "players": 3, "kind": "pitch", "options": 3, "seconds": 4000})
    model = fit(game_info("runway"), few)
    assert model["kinds"] == {} and model["source"] == "guessed"


def test_calibrate_reads_the_table_database_and_the_report_says_fitted(tmp_path: Path) -> None:
    db = tmp_path / "cardlab.db"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE decisions (game TEXT, players INTEGER, kind TEXT, options INTEGER, "
        "seconds REAL, at REAL)"
    )
    rows = _records(60, 9.0, 0.5)
    con.executemany(
        "INSERT INTO decisions VALUES (?,?,?,?,?,?)",
        [
            (r["game"], r["players"], r["kind"], r["options"], r["seconds"], i)
            for i, r in enumerate(rows)
        ],
    )
    con.commit()
    con.close()
    out = tmp_path / "tm.json"
    result = runner.invoke(app, ["calibrate", "runway", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    model = TimeModel.for_game("runway", out)
    assert model.source.startswith("fitted on 60 decisions")
    assert json.loads(out.read_text())["fitted_on"] == 60
    assert model.kinds["trade"] == TimeModel.for_game("runway").kinds["trade"]


def test_calibrate_without_a_database_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["calibrate", "runway", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2 and "no such database" in result.stderr
