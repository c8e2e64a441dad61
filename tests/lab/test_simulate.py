"""simulate: same seed = same records for any worker count; Parquet round-trips."""

from __future__ import annotations

import duckdb

from cardlab.lab.backends import run_spec
from cardlab.lab.seeds import game_seed
from cardlab.lab.simulate import make_spec
from cardlab.lab.storage import list_runs, read_records, write_run


def test_game_seeds_depend_on_run_seed_and_index_only() -> None:
    assert game_seed(5, 3) == game_seed(5, 3)
    assert len({game_seed(s, i) for s in range(4) for i in range(50)}) == 200


def test_one_and_two_workers_give_identical_records(toy: str) -> None:
    spec = make_spec(toy, None, "random,greedy", 7, 60)
    one = run_spec(spec, workers=1, progress=False).records
    two = run_spec(spec, workers=2, progress=False).records
    assert [r.index for r in one] == list(range(60))
    assert one == two
    other = run_spec(make_spec(toy, None, "random,greedy", 8, 60), workers=1, progress=False)
    assert other.records != one  # the seed matters


def test_real_engine_is_deterministic_across_workers() -> None:
    spec = make_spec("runway", 3, "random", 1, 12)
    assert run_spec(spec, 1, progress=False).records == run_spec(spec, 2, progress=False).records


def test_parquet_rows_round_trip_and_query(toy: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = run_spec(make_spec(toy, 4, "random", 3, 25), workers=1, progress=False)
    path = write_run(result, tmp_path)
    assert read_records(path) == result.records
    rows = duckdb.sql(
        f"SELECT seed, scores, winners, end_reason, acquired FROM read_parquet('{path}') "
        "ORDER BY index"
    ).fetchall()
    assert [r[0] for r in rows] == [r.seed for r in result.records]
    assert [list(r[1]) for r in rows] == [r.scores for r in result.records]
    (run,) = list_runs(tmp_path)
    assert run["games"] == 25 and run["players"] == 4


def test_engine_errors_are_recorded_with_their_seed(toy: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from lab_toy import ToyState

    def broken(self, action):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setattr(ToyState, "apply_action", broken)
    (record,) = run_spec(make_spec(toy, 2, "random", 0, 1), 1, progress=False).records
    assert record.end_reason == "error" and "boom" in (record.error or "")
    assert record.seed == game_seed(0, 0)


def test_a_dead_turn_that_ends_the_game_is_counted(toy: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Toy with passing (R6): a rule change makes the last seat of a run of passes
    pass too (a forced move that moves no card, changes no score, and ends the game:
    a dead turn); the last card of the game has to be laid (R6: the last seat to lay
    cannot pass; forced, but it moves a card: not dead)."""
    from lab_toy import ALL_PASSED, ALL_ROUNDS, PASSING, ToyState

    real = ToyState.legal_actions

    def forced_endings(self):  # type: ignore[no-untyped-def]
        legal = real(self)
        passing = legal and self.action_to_string(legal[-1]) == "pass"
        if passing and self.passes and self.passes >= self.still_to_lay() - 1:
            return [legal[-1]]
        return legal

    monkeypatch.setattr(ToyState, "legal_actions", forced_endings)
    records = run_spec(make_spec(toy, 2, "random", 4, 80, PASSING), 1, progress=False).records
    by_end = {r.end_reason for r in records}
    assert {ALL_PASSED, ALL_ROUNDS} <= by_end  # both endings were played
    for r in records:
        assert r.dead_turns == (1 if r.end_reason == ALL_PASSED else 0), r.seed


def test_run_ids_include_the_backend(toy: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A Ray run must not overwrite the local run of the same spec in one --out."""
    from dataclasses import replace

    from cardlab.lab.storage import run_id

    result = run_spec(make_spec(toy, 2, "random", 1, 5), workers=1, progress=False)
    local = write_run(result, tmp_path)
    on_ray = write_run(replace(result, backend="ray"), tmp_path)
    assert local != on_ray and "-local-" in local.name and "-ray-" in on_ray.name
    assert run_id(result.spec, "local") != run_id(result.spec, "ray")
    assert len(list_runs(tmp_path)) == 2


def test_mixed_seats_rotate_so_each_agent_takes_each_seat(toy: str) -> None:
    """With mixed agents, game i is seated by rotating the spec's seats by i: over any
    run of `players` games each agent sits in each seat equally often, and the seating
    is recorded per game."""
    spec = make_spec(toy, 3, "random,greedy,random", 0, 6)
    records = run_spec(spec, 1, progress=False).records
    for seat in range(3):
        taken = [r.agents[seat] for r in records]
        assert taken.count("greedy") == 2, seat
    assert records[0].agents == ["random", "greedy", "random"]
    assert records[1].agents == ["greedy", "random", "random"]


def test_simulate_report_and_ladder_agree_per_agent(toy: str) -> None:
    """`simulate` gives each bot's wins and mean points with 95% intervals (the seats
    rotate, so the per-seat table is no bot's result); the report's persona rows and a
    ladder tabulated over the same games say the same, and a ladder of its own deals
    agrees within the intervals."""
    import json

    import pytest
    from typer.testing import CliRunner

    from cardlab.cli import app
    from cardlab.lab import strategy
    from cardlab.ladder import run_ladder, tabulate

    args = ["simulate", toy, "--players", "3", "--agents", "greedy,random", "-n", "80",
            "--seed", "2", "--workers", "1", "--quiet"]  # fmt: skip
    done = CliRunner().invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    wins, means = data["wins_by_agent"], data["mean_score_by_agent"]
    assert set(wins) == set(means) == {"greedy", "random"}
    assert data["score_direction"] == "highest"
    assert sum(w["seats"] for w in wins.values()) == 3 * 80
    assert sum(w["wins"] for w in wins.values()) == pytest.approx(80)  # shared wins split
    for w in wins.values():
        assert w["wilson95"][0] <= w["rate"] <= w["wilson95"][1]
    text = CliRunner().invoke(app, args).stdout
    for agent, w in wins.items():
        lo, hi = w["wilson95"]
        assert (
            f"{agent}: wins {w['rate']:.1%} (95% {lo:.1%}-{hi:.1%}) of {w['seats']} seats" in text
        )

    records = run_spec(make_spec(toy, 3, "greedy,random", 2, 80), 1, progress=False).records
    rows = {r["who"]: r for r in strategy.personas(records)["rows"]}
    for agent, w in wins.items():  # the report's persona table: the same figures
        assert (rows[agent]["n"], rows[agent]["rate"], rows[agent]["wilson95"]) == (
            w["seats"], w["rate"], w["wilson95"],
        )  # fmt: skip
        assert rows[agent]["mean_score"] == means[agent]["mean"]
        assert rows[agent]["mean_score_ci95"] == means[agent]["ci95"]

    labels = ["greedy", "random"]
    results = [
        {"seat_agents": [labels.index(a) for a in r.agents], "winners": r.winners,
         "returns": r.scores}
        for r in records
    ]  # fmt: skip
    shared = any(len(r.winners) > 1 for r in records)
    for row in tabulate(toy, 3, 2, labels, results).rows:  # the ladder's table, same games
        w, m = wins[row.agent], means[row.agent]
        assert row.seats == w["seats"] and row.mean_points == m["mean"]
        assert list(row.mean_points_ci95) == pytest.approx(m["ci95"], abs=2e-3)
        assert row.wins >= w["wins"] and (shared or row.wins == w["wins"])
    ladder = {r.agent: r for r in run_ladder(toy, labels, players=3, games=80, seed=2).rows}
    for agent, w in wins.items():  # its own deals: within each other's intervals
        assert ladder[agent].low <= w["wilson95"][1] and w["wilson95"][0] <= ladder[agent].high
        lo, hi = ladder[agent].mean_points_ci95
        assert lo <= means[agent]["ci95"][1] and means[agent]["ci95"][0] <= hi
