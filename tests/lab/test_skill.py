"""Skill cells: the sentence follows from the intervals, and a cell below the gate's
standard (200 games, ISMCTS at 1,000 iterations) says it cannot conclude."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.lab import skill as skill_module
from cardlab.lab.context import LabContext
from cardlab.lab.skill import (
    MIN_CELL_GAMES,
    MIN_ITERATIONS,
    estimate,
    reading,
    sentence,
    skill,
)


def _row(rate: float, lo: float, hi: float) -> dict:  # type: ignore[type-arg]
    return {"win_rate": rate, "wilson95": [lo, hi]}


def test_reading_follows_the_intervals() -> None:
    assert reading(_row(0.2, 0.15, 0.25), _row(0.4, 0.35, 0.45)) == "stronger_clearly_ahead"
    assert reading(_row(0.4, 0.35, 0.45), _row(0.2, 0.15, 0.25)) == "weaker_clearly_ahead"
    assert reading(_row(0.3, 0.2, 0.4), _row(0.35, 0.25, 0.45)) == "cannot_tell_apart"
    text = sentence("greedy", "ismcts", "weaker_clearly_ahead", 200, True)
    assert text.startswith("greedy wins more often than ismcts")
    assert "cannot conclude" in sentence("greedy", "ismcts", "stronger_clearly_ahead", 10, False)


def test_a_small_ladder_says_it_cannot_conclude(toy: str) -> None:
    ctx = LabContext(toy, 2, ("random",), {}, 10, workers=1, progress=False)
    out = skill(ctx, games=4, iterations=20)
    assert out["concludes"] is False
    assert out["standard"] == {"games_per_cell": MIN_CELL_GAMES, "iterations": MIN_ITERATIONS}
    assert [(c["weaker"], c["stronger"]) for c in out["cells"]] == [
        ("random", "greedy"),
        ("greedy", "ismcts:iterations=20"),
    ]
    for c in out["cells"]:
        assert c["reading"] == "cannot_conclude" and "cannot conclude" in c["sentence"]
        assert sum(r["seats"] for r in c["rows"]) == 2 * c["games"]


class _Clock:
    """A clock that moves `step` seconds each time it is read: a budget in reads."""

    def __init__(self, step: float = 1.0) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _ctx(toy: str, workers: int = 1, seed: int = 3) -> LabContext:
    return LabContext(toy, 2, ("random",), {}, 10, seed=seed, workers=workers, progress=False)


def _numbers(out: dict) -> list:  # type: ignore[type-arg]
    return [(c["weaker"], c["stronger"], c["games"], c["rows"]) for c in out["cells"]]


def test_the_budget_stops_the_section_and_it_says_it_cannot_conclude(toy: str) -> None:
    # the standard's iterations (so the estimate applies), a budget of a few clock reads
    out = skill(_ctx(toy), games=200, iterations=MIN_ITERATIONS, budget_s=12, clock=_Clock())
    assert out["stopped_by_budget"] and not out["concludes"]
    reached = out["games_per_cell"]
    assert 0 < reached < MIN_CELL_GAMES and reached % out["block_games"] == 0
    assert out["blocks_per_cell"] * out["block_games"] == reached
    assert "time budget" in out["why_not"] and f"after {reached} of 200" in out["why_not"]
    assert out["replay"] == f"--ladder-games {reached} --ladder-iterations {MIN_ITERATIONS}"
    for c in out["cells"]:
        assert c["reading"] == "cannot_conclude" and "cannot conclude" in c["sentence"]
        # balanced blocks: each bot sat as often as the other, in every cell
        assert [r["seats"] for r in c["rows"]] == [reached, reached]
    est = out["to_conclude"]
    assert est["games_per_cell"] == MIN_CELL_GAMES and est["from_games"] >= 2 * reached
    assert 0 <= est["wall_s"][0] <= est["wall_s"][1]


def test_replaying_the_recorded_games_gives_the_same_numbers(toy: str) -> None:
    cut = skill(_ctx(toy), games=200, iterations=30, budget_s=20, clock=_Clock())
    assert cut["stopped_by_budget"]
    n = cut["games_per_cell"]
    # replayed with --ladder-games N, no budget, on two workers instead of one
    again = skill(_ctx(toy, workers=2), games=n, iterations=30)
    assert not again["stopped_by_budget"] and again["games_discarded"] == 0
    assert _numbers(again) == _numbers(cut)


def test_a_section_given_more_budget_goes_on_from_the_games_it_played(
    toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.lab.skill import Played

    calls: list[tuple[int, int, int]] = []
    real = skill_module._play

    def counted(setting, pair, deal, deal_seed, rotation):  # type: ignore[no-untyped-def]
        calls.append((pair, deal, rotation))
        return real(setting, pair, deal, deal_seed, rotation)

    monkeypatch.setattr(skill_module, "_play", counted)
    played = Played()
    cut = skill(_ctx(toy), games=24, iterations=30, budget_s=12, clock=_Clock(), played=played)
    assert cut["stopped_by_budget"] and cut["games_per_cell"] < 24
    first = len(calls)
    more = skill(_ctx(toy), games=24, iterations=30, budget_s=10_000, clock=_Clock(), played=played)
    assert not more["stopped_by_budget"] and more["games_per_cell"] == 24
    assert len(calls) == len(set(calls)) == more["games_played"]  # no game played twice
    assert first == cut["games_played"] < more["games_played"]
    assert more["budget_s"] == 12 + 10_000  # the section's budgets add up
    # the same numbers as one call that plays them all
    assert _numbers(more) == _numbers(skill(_ctx(toy), games=24, iterations=30))


def _fake_gate(monkeypatch: pytest.MonkeyPatch, need: dict[str, float]) -> list[tuple[str, float]]:
    """The gate with stand-in sections: section `g` needs `need[g]` seconds of games for
    its verdict, and a fake clock moves only as sections spend their shares. Returns the
    (section, share) of every call, in order."""
    from cardlab.lab import gate

    monkeypatch.setattr(gate, "engine_ready", lambda game: True)
    monkeypatch.setattr(gate, "claims_for", lambda game: [])
    monkeypatch.setattr(gate, "claim_rows", lambda game, rep: [])
    monkeypatch.setattr(gate, "skill_row", lambda game, section: {"game": game})
    monkeypatch.setattr(gate, "start_report", lambda game, out, **kw: (game, {"skill": {}}, None))
    monkeypatch.setattr(gate, "save_report", lambda *a: None)
    now = [0.0]
    monkeypatch.setattr(gate.time, "perf_counter", lambda: now[0])
    shares: list[tuple[str, float]] = []

    def add_skill(rep, game, games, iterations, share, played):  # type: ignore[no-untyped-def]
        shares.append((game, share))
        spent = min(need[game] - played.wall_s, share)
        played.wall_s += spent
        now[0] += spent
        played.seconds.append([spent])
        done = played.wall_s >= need[game]
        rep["skill"] = {
            "cells": [],
            "concludes": done,
            "stopped_by_budget": not done,
            "games_per_cell": int(200 * played.wall_s / need[game]),
            "to_conclude": {"games_per_cell": 200, "wall_s": [need[game], need[game]]},
        }
        return rep

    monkeypatch.setattr(gate, "add_skill", add_skill)
    return shares


def test_the_gate_spends_its_budget_on_as_many_verdicts_as_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.lab import gate

    need = {"slow": 200.0, "medium": 40.0, "quick": 5.0}
    shares = _fake_gate(monkeypatch, need)
    rows = gate.run_gate(["slow", "medium", "quick"], tmp_path, budget_s=60.0)
    assert rows
    spent = {g: sum(s for h, s in shares if h == g) for g in need}
    # a first round each (a fifth of the budget shared), then the cheapest to finish
    # first: an equal split (20 s each) would have concluded only "quick"
    assert [g for g, _ in shares[:3]] == ["slow", "medium", "quick"]
    assert [g for g, _ in shares[3:6]] == ["quick", "medium", "slow"]
    assert spent["medium"] >= need["medium"] and spent["quick"] >= need["quick"]
    assert 0 < spent["slow"] < need["slow"]
    assert sum(min(s, need[g]) for g, s in spent.items()) == pytest.approx(60.0)


def test_the_gate_gives_time_a_section_left_unused_to_one_the_budget_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.lab import gate

    need = {"slow": 50.0, "quick": 1.0}
    shares = _fake_gate(monkeypatch, need)
    gate.run_gate(["slow", "quick"], tmp_path, budget_s=100.0)
    # both fit: each is given what it needs, and "slow" concludes
    assert sum(s for g, s in shares if g == "slow") >= need["slow"]
    assert [g for g, _ in shares][-1] == "slow"


def test_with_enough_games_it_concludes_and_the_sentence_follows_the_intervals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RUNWAY at two players, where skill shows (the template game is luck: random and
    # greedy win alike there); a standard it reaches in seconds (the logic is the
    # gate's; only the numbers shrink)
    monkeypatch.setattr(skill_module, "MIN_CELL_GAMES", 40)
    monkeypatch.setattr(skill_module, "MIN_ITERATIONS", 30)
    out = skill(_ctx("runway"), games=40, iterations=30, budget_s=3600)
    assert out["concludes"] and not out["stopped_by_budget"] and "to_conclude" not in out
    for c in out["cells"]:
        weak, strong = c["rows"]
        assert c["reading"] == reading(weak, strong, "look_interval") != "cannot_conclude"
        if strong["look_interval"][0] > weak["look_interval"][1]:
            assert "clearly wins more often" in c["sentence"]
        elif weak["look_interval"][0] > strong["look_interval"][1]:
            assert c["sentence"].startswith(f"{c['weaker']} wins more often")
        else:
            assert "cannot be told apart" in c["sentence"]
    # random against greedy in RUNWAY is not close: the intervals say so
    assert out["cells"][0]["reading"] == "stronger_clearly_ahead"


def test_the_estimate_is_a_range_from_the_timed_games() -> None:
    one = estimate([[2.0], [4.0]], 100, parallel=2.0)
    assert one is not None and one["wall_s"] == [150, 600]  # one game each: half to twice
    even = estimate([[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]], 100, parallel=1.0)
    assert even is not None and even["wall_s"] == [400, 400]
    uneven = estimate([[1.0, 3.0, 2.0, 2.0]], 100, parallel=1.0)
    assert uneven is not None and uneven["wall_s"][0] < 200 < uneven["wall_s"][1]
    assert estimate([[1.0], []], 100, parallel=1.0) is None


def test_the_gate_plays_cheap_sections_first_and_the_skill_section_within_the_budget(
    toy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.lab import gate

    monkeypatch.setattr(gate, "engine_ready", lambda game: True)
    monkeypatch.setattr(gate, "claims_for", lambda game: [])
    rows = gate.run_gate(
        [toy],
        tmp_path,
        budget_s=0.0001,  # spent by the cheap sections: the skill section cannot begin
        games=10,
        probe_games=5,
        ablation_games=0,
        workers=1,
        progress=False,
    )
    (row,) = [r for r in rows if r["kind"] == "skill"]
    assert row["verdict"] == "no_verdict" and "budget" in row["why"]
    assert f"cardlab report {toy} --players 2" in row["why"] and "--ladder-games 200" in row["why"]
    data = json.loads((tmp_path / toy / "report.json").read_text())
    assert data["skill"]["concludes"] is False and data["skill"]["games_per_cell"] == 0
    assert data["headline"]["skill_concludes"] == 0
    page = (tmp_path / toy / "report.html").read_text()
    assert "Skill vs luck: no verdict" in page  # among the headline findings
    text = gate.table(rows, 1.0)
    assert f"{toy}.skill" in text and "no verdict" in text and "skill sections" in text


def test_budgets_read_as_a_person_writes_them() -> None:
    from cardlab.core import CardlabError
    from cardlab.lab.reporting import parse_budget

    assert parse_budget("10m") == 600 and parse_budget("90s") == 90
    assert parse_budget("1h30m") == 5400 and parse_budget("600") == 600
    assert parse_budget("none") is None and parse_budget("2.5m") == 150
    for bad in ("", "0", "ten minutes", "10x", "m"):
        with pytest.raises(CardlabError, match="--budget"):
            parse_budget(bad)


def test_a_bad_budget_is_one_error_line() -> None:
    from typer.testing import CliRunner

    from cardlab.cli import app

    result = CliRunner().invoke(app, ["gate", "runway", "--budget", "soon"])
    assert result.exit_code == 2
    assert "--budget 'soon'" in result.output and "Traceback" not in result.output


def test_lab_bench_times_the_skill_cells_as_the_report_plays_them(toy: str) -> None:
    from cardlab.lab.bench import skill_cost

    cost = skill_cost(toy, 2, MIN_ITERATIONS, workers=1)
    # 2 games asked: one block (a deal in every seat rotation) per cell
    assert set(cost["games_per_cell"].values()) == {cost["players"]}
    assert cost["wall_s_per_game_per_cell"] > 0
    low, high = cost["standard_wall_s"]  # the section's own range for 200 games per cell
    assert 0 <= low <= high


def test_a_cell_stops_at_the_first_look_where_its_intervals_separate() -> None:
    # RUNWAY at two players: random against greedy is not close, so that cell stops at its
    # first look (26 games) and plays no more, and concludes at any ISMCTS strength; the
    # error rate over every look of every cell is stated
    out = skill(_ctx("runway"), games=60, iterations=10)
    first, second = out["cells"]
    assert out["sequential"]["looks_games_per_cell"] == [26, 50, 60]
    assert "at most 5%" in out["sequential"]["text"]
    assert first["stopped_at_look"] and first["games"] == 26 and first["concludes"]
    assert first["reading"] == "stronger_clearly_ahead"
    weak, strong = first["rows"]
    assert strong["look_interval"][0] > weak["look_interval"][1]
    # the look's intervals are wider than 95% ones (Bonferroni over 6 looks x 2 cells)
    assert strong["look_interval"][0] < strong["wilson95"][0]
    assert out["games_played"] == out["games_counted"] == 26 + second["games"]
    # ISMCTS at 10 iterations: its cell cannot conclude below the standard's strength
    assert not second["concludes"] and not out["concludes"]


def test_looks_are_in_whole_blocks_and_the_error_rate_is_bonferroni() -> None:
    from statistics import NormalDist

    assert skill_module.look_deals(100, 2) == [13, 25, 50, 75, 100]
    assert skill_module.look_deals(10, 3) == [9, 10]
    z = skill_module.look_z(2)
    assert NormalDist().cdf(z) == pytest.approx(1 - 0.05 / (2 * 6 * 2))


def test_a_section_out_of_time_keeps_the_games_it_played(
    toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with its budget spent, a section that had played games returned a fresh
    # "skipped" section, throwing them (and their seconds) away
    from cardlab.lab.report import add_skill
    from cardlab.lab.skill import Played

    played = Played()
    report = {"settings": {}, "games_played": 0, "elapsed_s": 0.0, "main": None}
    first = skill(_ctx(toy), games=24, iterations=30, budget_s=12, clock=_Clock(), played=played)
    report["skill"] = first
    report["games_played"] = first["games_played"]
    import cardlab.lab.report as report_module

    monkeypatch.setattr(report_module, "headline", lambda r: {})  # a stand-in report
    add_skill(report, _ctx(toy), 24, 30, budget_s=-5.0, played=played)
    section = report["skill"]
    assert "cells" in section and "skipped" not in section
    assert section["games_played"] == first["games_played"] > 0
    assert report["games_played"] == first["games_played"]
    assert section["wall_s"] >= first["wall_s"]


def test_the_gate_line_accounts_for_every_second() -> None:
    from cardlab.lab import gate

    rows = [
        {
            "game": "a",
            "kind": "skill",
            "id": "a.skill",
            "verdict": "concludes",
            "why": "x",
            "skill_s": 30.0,
            "before_skill_s": 100.0,
            "budget_s": 600.0,
        },
        {
            "game": "b",
            "kind": "skill",
            "id": "b.skill",
            "verdict": "concludes",
            "why": "y",
            "skill_s": 20.0,
            "before_skill_s": 100.0,
            "budget_s": 600.0,
        },
    ]
    line = gate.table(rows, 160.0).splitlines()[-1]
    assert "other sections 100 s, skill sections 50 s [a 30 s, b 20 s]" in line
    assert "the rest (reports, pages) 10 s" in line
