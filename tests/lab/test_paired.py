"""Paired A/B: `--compare` arms play the same seeds and seats, so each
figure is a paired difference game by game, Holm-controlled, and the summary opens with
the controlled figure that changed most, with a power line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.lab.paired import (
    TARGET_FIGURES,
    compare_pair,
    confidence_sequence,
    games_for_change,
    games_to_clear,
    holm,
    paired_diff,
    target_figures,
)
from cardlab.lab.reporting import save_report, start_report


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
        if obs is None
        and spec.games == 30
        and spec.players == ctx.players
        and tuple(spec.agents) == tuple(ctx.agents)
        and spec.seed == ctx.seed
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
    again = compare_pair(a, b, "false", "true", primary=report["compare"]["primary_figures"])
    assert again["rows"] == pair["rows"]
    # an option's primary test: its target figures, first, Holm among themselves only
    primary = [r for r in pair["rows"] if r["test"] == "primary"]
    want = target_figures(toy)
    assert want[:3] == list(TARGET_FIGURES[:3])  # the shared targets file: stalls, ties, seat
    assert [r["figure"] for r in primary] == [f for f in want if f in rows]
    assert [r["p_holm"] for r in primary] == pytest.approx(
        holm([r["p"] for r in primary]), abs=1e-5
    )
    rest = [r for r in pair["rows"] if r["test"] == "exploratory"]
    assert [r["p_holm"] for r in rest] == pytest.approx(holm([r["p"] for r in rest]), abs=1e-5)
    if pair["controlled"]:
        top = next(r for r in rest if r["controlled"])
        assert top["figure"] in pair["exploratory_line"] and top["p_holm"] < 0.05
        assert all(top["effect_size"] >= r["effect_size"] for r in rest if r["controlled"])
    summary = (tmp_path / "summary.md").read_text()
    assert pair["primary"]["sentence"] in summary
    assert summary.index("Primary test") < summary.index("## Claims")
    assert "Which run:" in summary
    assert json.loads((tmp_path / "report.json").read_text())["compare"]["paired"]
    page = (tmp_path / "report.html").read_text()
    assert "Paired: " in page and "The question asked (primary test)" in page
    # the compared arms are the report's runs: counted in its games
    assert report["games_played"] >= 60


def test_a_bank_charter_change_is_named_at_the_default_compare_games(tmp_path: Path) -> None:
    # RUNWAY's Bank Charter scoring 3 instead of 5, 200 games (the default
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
    from cardlab.lab.paired import changed_cards, holders_figure, points_figure

    assert changed_cards("runway", None, str(b)) == ["Bank Charter"]
    assert changed_cards("runway", str(a), None) == []
    primary = [holders_figure("Bank Charter"), points_figure("Bank Charter")]
    records = ctx.run(cards=str(a)).records, ctx.run(cards=str(b)).records
    pair = compare_pair(*records, "A", "B", primary=primary, primary_what="Bank Charter")
    # the designer's question opens, whether or not it clears, in its units
    assert pair["opening"].startswith("B against A, 200 paired games; the change's own effect")
    assert "holders' win share" in pair["opening"] and "percentage points" in pair["opening"]
    assert "points -1.8" in pair["opening"]
    lead = pair["rows"][0]
    assert lead["figure"] == primary[0] and lead["test"] == "primary"
    assert pair["power"]["figure"] == primary[0]
    assert pair["power"]["games"] == games_to_clear(lead["mean"], lead["sd"], 2)


def test_power_and_the_always_valid_interval():
    # (z_{1 - 0.05/4} + z_0.8)^2 (sd / mean)^2 with sd 0.5 and mean 0.05
    assert games_to_clear(0.05, 0.5, 2) == 951
    assert games_to_clear(0.05, 0.5, 1) == games_for_change(0.5)
    assert games_to_clear(0.0, 0.5) is None
    lo, hi = confidence_sequence(0.1, 1.0, 400)
    fixed = 1.96 / 20
    assert hi - 0.1 > fixed and lo < 0.1 - fixed  # always valid: wider than one look's
    narrower = confidence_sequence(0.1, 1.0, 1600)
    assert narrower[1] - narrower[0] < hi - lo


def test_a_sequential_compare_stops_when_it_knows_or_at_its_budget(
    toy: str, tmp_path: Path
) -> None:
    settings = dict(
        games=10, side_games=20, ladder_games=0, probe_games=4, ablation_games=0, workers=1
    )
    _, report, _ = start_report(
        toy,
        tmp_path / "a",
        compare=("may_pass", ["false", "false"]),
        sequential=60,
        progress=False,
        **settings,
    )
    seq = report["compare"]["sequential"]
    assert seq["stopped"] == "budget" and [look["games"] for look in seq["looks"]] == [20, 40, 60]
    assert "budget spent" in seq["sentence"] and report["compare"]["games"] == 60
    assert report["compare"]["paired"][0]["paired_games"] == 60


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
    # per-persona point sources, paired game by game
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


def test_a_look_resolves_when_the_always_valid_interval_excludes_zero() -> None:
    from cardlab.lab.paired import _look, _sequential

    def pair(mean: float, games: int) -> dict:
        row = {"figure": "f", "unit": "percentage points", "mean": mean, "sd": 0.5, "games": games}
        return {"arms": ["a", "b"], "rows": [row], "primary": {"figures": ["f", "g"]}}

    early = _look([pair(-0.05, 200)], 200, 200)
    late = _look([pair(-0.05, 2000)], 2000, 200)
    assert not early["resolved"] and late["resolved"]
    assert late["pairs"][0]["cs95"][1] < 0
    seq = _sequential([early, late], "resolved", 3000, 200)
    assert seq["sentence"].startswith("Played until it knows: resolved after 2,000 paired games")


def test_an_options_primary_figures_come_from_the_targets_files() -> None:
    from cardlab.lab.paired import NO_LEAD_CHANGE, ZERO_SEATS

    # UPTIME's own targets.toml adds its seats at 0 points to the shared targets
    assert target_figures("uptime")[-2:] == [ZERO_SEATS, NO_LEAD_CHANGE]
    assert ZERO_SEATS not in target_figures("runway")
