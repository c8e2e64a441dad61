"""`cardlab runs DIR --sql`: DuckDB over documented views of stored runs, so a designer's
question about the games is one command, checked here against the records themselves."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.lab.backends import run_spec
from cardlab.lab.simulate import make_spec
from cardlab.lab.storage import query, read_records, write_run

runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    spec = make_spec("runway", 3, "greedy,random", 5, 24)
    write_run(run_spec(spec, 1, progress=False), out)
    return out


def test_seats_view_matches_the_records(runs: Path) -> None:
    records = read_records(next(runs.glob("*.parquet")))
    cols, rows = query(runs, "SELECT game_index, seat, agent, points, rank, won FROM seats")
    got = {(r[0], r[1]): r[2:] for r in rows}
    assert len(got) == sum(r.players for r in records)
    for r in records:
        for s in range(r.players):
            agent, points, rank, won = got[(r.index, s)]
            assert agent == r.agents[s] and points == r.scores[s]
            assert rank == 1 + sum(x > r.scores[s] for x in r.scores)
            assert won == (s in r.winners)


def test_games_rounds_and_curves_views(runs: Path) -> None:
    records = {r.index: r for r in read_records(next(runs.glob("*.parquet")))}
    _, rows = query(runs, "SELECT game_index, seed, end_reason, rounds, winner FROM games")
    for i, seed, end, rounds, winner in rows:
        r = records[i]
        assert (seed, end, rounds) == (r.seed, r.end_reason, r.rounds)
        assert winner == (r.winners[0] if len(r.winners) == 1 else None)
    _, rows = query(runs, "SELECT game_index, round, final, scores, leader FROM rounds")
    for i, k, final, scores, leader in rows:
        r = records[i]
        assert scores == r.round_scores[k - 1] and final == (k == len(r.round_scores))
        top = max(scores)
        assert leader == (scores.index(top) if scores.count(top) == 1 else None)
    _, rows = query(runs, "SELECT game_index, tenth, value FROM curves WHERE resource = 'hype'")
    assert rows and all(v == records[i].resource_curves["hype"][t - 1] for i, t, v in rows)


def test_the_command_prints_a_table_and_writes_csv(runs: Path, tmp_path: Path) -> None:
    target = tmp_path / "zero.csv"
    sql = "SELECT agent, count(*) FILTER (WHERE points = 0) AS at_zero FROM seats GROUP BY 1 ORDER BY 1"
    res = runner.invoke(app, ["runs", str(runs), "--sql", sql, "--csv", str(target)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].split() == ["agent", "at_zero"]
    with target.open() as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["agent", "at_zero"] and [r[0] for r in rows[1:]] == ["greedy", "random"]
    res = runner.invoke(app, ["runs", str(runs), "--sql", sql, "--json"])
    assert [r["agent"] for r in json.loads(res.output)] == ["greedy", "random"]


def test_a_bad_query_is_one_clear_error(runs: Path) -> None:
    res = runner.invoke(app, ["runs", str(runs), "--sql", "SELECT nope FROM seats"])
    assert res.exit_code == 2
    assert "nope" in res.output and "views: games, seats, rounds, curves" in res.output
    res = runner.invoke(app, ["runs", str(runs), "--csv", "x.csv"])
    assert res.exit_code == 2 and "give --sql too" in res.output
