"""Paired A/B (issue 25, item 1): `--compare` arms play the same seeds and seats, so each
figure is a paired difference game by game, Holm-controlled, and the summary opens with
the controlled figure that changed most, with a power line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.lab.paired import compare_pair, games_for_change, holm, paired_diff
from cardlab.lab.report_commands import save_report, start_report


def test_holm_adjusts_in_step_down_order():
    # p sorted 0.01, 0.02, 0.04 with m = 3: 0.03, 0.04, 0.04 (monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_paired_difference_and_power():
    d = paired_diff([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 4.0, 6.0])
    assert d["mean"] == 1.25 and d["games"] == 4 and d["ci95"][0] < 1.25 < d["ci95"][1]
    assert paired_diff([1.0, 1.0], [1.0, 1.0])["p"] == 1.0
    # sd 0.5 per game: (2.80 x 0.5 / 0.05)^2 = 785 paired games for 5 points
    assert games_for_change(0.5) == 785
    assert games_for_change(0.0) is None


def test_a_compare_is_paired_game_by_game_and_opens_with_what_changed_most(
    toy: str, tmp_path: Path
) -> None:
    ctx, report, old = start_report(
        toy,
        tmp_path,
        games=30,
        side_games=30,
        ladder_games=0,
        probe_games=4,
        ablation_games=0,
        workers=1,
        progress=False,
        compare=("may_pass", ["false", "true"]),
    )
    save_report(tmp_path, report, old)
    runs = [
        r
        for (spec, obs), r in ctx._cache.items()
        if obs is None and spec.games == 30 and spec.players == ctx.players
    ]
    arms = {str(r.spec.options_dict["may_pass"]).lower(): r.records for r in runs}
    a, b = arms["false"], arms["true"]
    # same seeds and seating game by game: the pairing is real
    assert [(r.index, r.seed, r.agents) for r in a] == [(r.index, r.seed, r.agents) for r in b]
    (pair,) = report["compare"]["paired"]
    assert pair["paired_games"] == 30 and pair["correction"].startswith("Holm")
    rows = {row["figure"]: row for row in pair["rows"]}
    length = rows["length: decisions"]
    # the paired mean is the mean of per-game differences, arm B minus arm A
    diffs = [y.decisions - x.decisions for x, y in zip(a, b, strict=True)]
    assert length["mean"] == pytest.approx(sum(diffs) / len(diffs), abs=1e-4)
    again = compare_pair(a, b, "False", "True")
    assert again["rows"] == pair["rows"]
    if pair["controlled"]:
        top = next(r for r in pair["rows"] if r["controlled"])
        assert top["figure"] in pair["opening"] and top["p_holm"] < 0.05
        assert all(top["effect_size"] >= r["effect_size"] for r in pair["rows"] if r["controlled"])
    summary = (tmp_path / "summary.md").read_text()
    assert (
        pair["opening"] in summary
        and "paired games" in pair["power"]["text"]
        or ("no card" in pair["power"]["text"])
    )
    assert json.loads((tmp_path / "report.json").read_text())["compare"]["paired"]
    assert "Paired: " in (tmp_path / "report.html").read_text()


def test_a_bank_charter_change_is_named_at_the_default_compare_games(tmp_path: Path) -> None:
    # issue 25: RUNWAY's Bank Charter scoring 3 instead of 5, 200 games (the default
    # --compare games): the summary's opening names the card
    import cardlab.games.runway as runway
    from cardlab.lab.context import LabContext
    from cardlab.lab.report import default_agents

    source = (Path(runway.__file__).parent / "cards.toml").read_text()
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(source)
    old = 'name = "Bank Charter"\nsector = "FinTech"\nscore = 5'
    assert old in source
    b.write_text(source.replace(old, old[:-1] + "3", 1))
    agents = tuple(default_agents("runway").split(","))
    ctx = LabContext("runway", 3, agents, {}, 200, workers=2, progress=False)
    pair = compare_pair(ctx.run(cards=str(a)).records, ctx.run(cards=str(b)).records, "A", "B")
    assert "Bank Charter" in pair["opening"] and pair["controlled"] >= 1


def test_a_baseline_is_played_on_this_reports_seeds_and_paired(toy: str, tmp_path: Path) -> None:
    settings = dict(
        games=20, side_games=4, ladder_games=0, probe_games=4, ablation_games=0, workers=1
    )
    _, first, old = start_report(toy, tmp_path / "a", progress=False, **settings)
    save_report(tmp_path / "a", first, old)
    ctx, report, old = start_report(
        toy,
        tmp_path / "b",
        options={"may_pass": "true"},
        baseline=tmp_path / "a" / "report.json",
        progress=False,
        **settings,
    )
    save_report(tmp_path / "b", report, old)
    pair = report["baseline_paired"]
    assert pair["arms"] == ["baseline", "this report"] and pair["paired_games"] == 20
    assert pair["baseline_rules"]["options"]["may_pass"] is False
    decisions = next(r for r in pair["rows"] if r["figure"] == "length: decisions")
    assert decisions["baseline"] == first["main"]["length"]["decisions"]["mean"]
    assert pair["opening"] in (tmp_path / "b" / "summary.md").read_text()


def test_paired_rows_carry_each_personas_points_by_source(toy: str) -> None:
    # issue 25 item 1: per-persona point sources, paired game by game
    from cardlab.lab.simulate import make_spec, play_one

    arms = [make_spec(toy, 3, "greedy,random", 0, 12, {"may_pass": v}) for v in (False, True)]
    a, b = ([play_one(spec, i) for i in range(12)] for spec in arms)
    pair = compare_pair(a, b, "A", "B")
    sources = list(a[0].point_sources[0])
    rows = {r["figure"]: r for r in pair["rows"] if r["group"] == "persona points"}
    assert rows, "no persona point-source rows"
    assert {f.split(": ", 1)[1].removesuffix(" points") for f in rows} <= set(sources)
    name = next(iter(rows))
    persona, source = name.removeprefix("persona ").removesuffix(" points").split(": ")

    def mean_points(r: object) -> float:
        seats = [s for s, agent in enumerate(r.agents) if agent == persona]  # type: ignore[attr-defined]
        return sum(r.point_sources[s][source] for s in seats) / len(seats)  # type: ignore[attr-defined]

    diffs = [
        mean_points(y) - mean_points(x)
        for x, y in zip(a, b, strict=True)
        if x.winners and y.winners
    ]
    assert rows[name]["mean"] == pytest.approx(sum(diffs) / len(diffs), abs=1e-4)
