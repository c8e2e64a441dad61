"""The design targets as SUPER COMPUTER claims of kind `design`, measured by
`metrics` in one placement study per report, and the report's placement section
(the report's set beside `first_set`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.games.supercomputer import claims as sc_claims
from cardlab.lab.claims import claims_for, evaluate
from cardlab.lab.context import LabContext

TARGETS = (
    "supercomputer.placement_is_a_decision",
    "supercomputer.scrap_is_a_managed_risk",
    "supercomputer.placement_skill_pays",
    "supercomputer.builds_matter",
)


def _ctx(variant: str | None = None, probe_games: int = 8) -> LabContext:
    return LabContext(
        game="supercomputer",
        players=4,
        agents=("random",),
        options={},
        games=8,
        variant=variant,
        workers=1,
        progress=False,
        probe_games=probe_games,
    )


def test_targets_are_design_claims_that_quote_the_rulebook() -> None:
    """Each target is a design claim (the gate's score), says it is our target for
    our card set and quotes the rulebook's intent."""
    by_id = {c.id: c for c in claims_for("supercomputer")}
    for cid in TARGETS:
        c = by_id[cid]
        assert c.kind == "design", cid
        assert "Our target for our card set" in c.text
        assert '"all adjacent connectors MUST be satisfied"' in c.text
        assert '"Unconnected parts are scrap."' in c.text


def test_first_set_fails_placement_and_the_revised_set_holds() -> None:
    """The verdict is measured: the old set (1.75 legal cells a placement, docs/rules/
    supercomputer.md's before/after table) fails the placement target; ours holds it."""
    (old,) = evaluate(_ctx("first_set"), ["supercomputer.placement_is_a_decision"])
    (new,) = evaluate(_ctx(), ["supercomputer.placement_is_a_decision"])
    assert old["verdict"] == "fails", old["evidence"]
    assert old["evidence"]["mean_cells"] < 2.0 and old["evidence"]["one_cell_share"] > 0.4
    assert new["verdict"] == "holds", new["evidence"]
    assert new["evidence"]["mean_cells"] >= 2.5
    assert new["evidence"]["placements"] > 0 and new["evidence"]["seeds"]


def test_one_study_serves_every_claim_and_the_section(monkeypatch: pytest.MonkeyPatch) -> None:
    """The claims and the section read one shared study (one per card set), never
    replaying it per claim."""
    calls: list[int] = []
    real = sc_claims.set_study

    def counted(game, sizes, seed):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(game, sizes, seed)

    monkeypatch.setattr(sc_claims, "set_study", counted)
    ctx = _ctx()
    rows = evaluate(ctx, list(TARGETS))
    assert [r["id"] for r in rows] == list(TARGETS)
    sections = sc_claims.report_sections(ctx)
    assert len(calls) == 2  # the report's set and first_set, once each
    assert sections[0]["id"] == "placement"
    assert set(sections[0]["data"]) == {"this report's set", "first_set (the old set)"}


def _fake_study(wins: dict[str, int], cost: float = 1.0) -> dict:
    plain = {"both": 10, "own_only": 5, "random_only": 5, "neither": 80}
    return {
        "sets": {
            "this report's set": {
                "ablation_deck": {
                    "cost_per_round": cost,
                    "low": cost - 0.5,
                    "high": cost + 0.5,
                    "games": sum(wins.values()),
                    "wins": wins,
                },
                # the default placer's figure is shown beside it, not judged
                "ablation": {
                    "cost_per_round": 9.0,
                    "low": 8.0,
                    "high": 10.0,
                    "games": 100,
                    "wins": plain,
                },
            }
        }
    }


@pytest.mark.parametrize(
    ("wins", "expected"),
    [
        # 400 pairs, the builder wins 40% placing well and 10% at random: [+25, +35]
        ({"both": 30, "own_only": 130, "random_only": 10, "neither": 230}, "holds"),
        # 400 pairs, no difference at all: wholly below +8
        ({"both": 60, "own_only": 20, "random_only": 20, "neither": 300}, "fails"),
        # 100 pairs, 40% against 27%: +13 points, too few pairs to tell from +8
        ({"both": 20, "own_only": 20, "random_only": 7, "neither": 53}, "needs_data"),
    ],
)
def test_skill_verdict_is_the_paired_win_rate_drop(wins: dict[str, int], expected: str) -> None:
    """Placement skill is judged on the result: the builder's win rate with
    its deck-aware placement minus placing at random, paired by seed, with Newcombe's
    paired interval: holds wholly at or above +8 points, fails wholly below, else needs
    data (with about how many pairs would decide). The points a round are reported, not
    judged (a huge points figure does not make a fail hold)."""
    ctx = _ctx()
    ctx.study(sc_claims.STUDY_KEY, lambda: _fake_study(wins, cost=9.0))
    (c,) = evaluate(ctx, ["supercomputer.placement_skill_pays"])
    e = c["evidence"]
    assert c["verdict"] == expected, e
    low, high = e["win_rate_drop_ci95"]
    assert low <= e["win_rate_drop"] <= high
    assert e["paired_outcomes"] == wins
    assert e["points_per_round_lost"] == 9.0
    assert e["default_placement"]["ci95"] == [8.0, 10.0]
    if expected == "needs_data":
        assert e["pairs_to_decide"] > sum(wins.values())
    else:
        assert e["pairs_to_decide"] is None


def test_paired_interval_matches_newcombe() -> None:
    """Newcombe (1998), paired data, method 10, his example (36, 12, 2, 0): a difference
    of 0.20 with the 95% interval 0.0569 to 0.3404; swapping the discordant pairs
    mirrors it."""
    w = sc_claims.paired_win_difference(
        {"both": 36, "own_only": 12, "random_only": 2, "neither": 0}
    )
    assert round(w["diff"], 4) == 0.2
    assert (round(w["low"], 4), round(w["high"], 4)) == (0.0569, 0.3404)
    m = sc_claims.paired_win_difference(
        {"both": 36, "own_only": 2, "random_only": 12, "neither": 0}
    )
    assert (round(m["low"], 4), round(m["high"], 4)) == (-0.3404, -0.0569)


def test_interval_helpers_are_three_way() -> None:
    assert sc_claims._within(0.09, 0.12, 0.08) is True
    assert sc_claims._within(0.01, 0.05, 0.08) is False
    assert sc_claims._within(0.07, 0.09, 0.08) is None
    assert sc_claims._within(0.10, 0.15, 0.20, at_least=False) is True
    assert sc_claims._within(0.21, 0.30, 0.20, at_least=False) is False
    assert sc_claims._all_or_any(True, None) is None
    assert sc_claims._all_or_any(True, None, False) is False
    assert sc_claims._all_or_any(True, True) is True


@pytest.fixture(scope="module")
def tiny_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardlab.lab.reporting import write_report

    out = tmp_path_factory.mktemp("screport")
    write_report(
        "supercomputer",
        out,
        games=8,
        side_games=4,
        ladder_games=0,
        ablation_games=0,
        workers=1,
        progress=False,
        probe_games=8,
    )
    return out


def test_report_shows_the_placement_section(tiny_report: Path) -> None:
    """report.json carries the section (tables and the raw figures) and report.html
    draws it: options per decision, scrap per seat kind and round, the ablation, the
    report's set beside first_set."""
    data = json.loads((tiny_report / "report.json").read_text())
    (sec,) = data["sections"]
    assert [t["title"] for t in sec["tables"]] == [
        "Placement options per decision",
        "Scrap rate per seat kind and per round",
        "Random placement (the ablation)",
    ]
    first = sec["tables"][0]["rows"][0]
    assert set(first) == {"figure", "this report's set", "first_set (the old set)"}
    assert float(first["first_set (the old set)"]) < 2.5 <= float(first["this report's set"])
    ids = {c["id"]: c for c in data["claims"]}
    assert all(ids[t]["kind"] == "design" for t in TARGETS)
    html = (tiny_report / "report.html").read_text()
    assert (
        html.index('id="gate"') < html.index('id="section-placement"') < html.index('id="outcome"')
    )
    assert "Scrap rate per seat kind and per round" in html
    assert "first set (the old set)" in html and "rounds 1 / 2 / 3" in html
    # the ablation table shows the win rates the claim judges, beside the points
    ablation = {r["figure"]: r for r in sec["tables"][2]["rows"]}
    (win_row,) = [r for f, r in ablation.items() if f.startswith("builder's win rate")]
    assert " -> " in win_row["this report's set"] and "points" in win_row["this report's set"]


@pytest.mark.parametrize("players", [2, 3])
def test_claims_are_measured_at_every_player_count(players: int) -> None:
    """With fewer seats than the study's four kinds, every kind still sits (the rotation
    runs over the kinds), so the claims give verdicts, never an error."""
    ctx = _ctx()
    ctx.players = players
    rows = evaluate(ctx, list(TARGETS))
    assert all(r["verdict"] != "untestable" for r in rows), [r["evidence"] for r in rows]
    (sec,) = sc_claims.report_sections(ctx)
    assert sec["data"]["this report's set"]["per_kind"].keys() >= {"builder", "random"}
