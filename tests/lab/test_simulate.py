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
