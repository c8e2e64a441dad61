"""The one rule for a design claim measured by intervals: it holds only
when its interval lies inside the target, fails only when it lies wholly outside, else needs
data, and says how many more games would decide it (games scale with 1/width^2)."""

from __future__ import annotations

import pytest

from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext
from cardlab.lab.verdicts import (
    FAILS,
    HOLDS,
    NEEDS_DATA,
    by_interval,
    games_to_decide,
    part,
    place,
)


def test_place_inside_outside_straddles():
    assert place((0.30, 0.40), (0.25, None)) == "inside"
    assert place((0.10, 0.20), (0.25, None)) == "outside"
    assert place((0.24, 0.31), (0.25, None)) == "straddles"
    assert place((0.30, 0.40), (0.2, 0.5)) == "inside"
    with pytest.raises(ValueError, match="low end is above its high end"):
        place((0.1, 0.2), (0.5, 0.2))


def test_runway_generalist_at_27_percent_needs_data_not_holds():
    # the case: the generalist wins 27% [24, 31] against a viability floor of 25%
    p = part(0.27, (0.24, 0.31), (0.25, None), games=600)
    v = by_interval({"generalist": p})
    assert v.verdict == NEEDS_DATA
    # half-width 3.5 points, estimate 2 points from the edge: (3.5/2)^2 = 3.06x the games
    assert p["games_to_decide"] == 1838
    assert v.evidence["more_games_to_decide"] == 1838 - 600
    assert "1,238 more games" in v.evidence["decides_it"]


def test_overlapping_wide_intervals_need_data_not_holds():
    # uptime.computers_differ as the issue found it: intervals 2-24% at 52-67 seats each,
    # against a +-10-point band round the pooled rate: too wide to lie inside it
    target = (0.10 - 0.10, 0.10 + 0.10)
    parts = {
        "Workstation": part(0.08, (0.02, 0.24), target, 100),
        "Blade": part(0.12, (0.05, 0.24), target, 100),
    }
    v = by_interval(parts)
    assert v.verdict == NEEDS_DATA
    assert v.evidence["more_games_to_decide"] > 0


def test_holds_only_inside_and_fails_when_one_lies_outside():
    inside = part(0.5, (0.45, 0.55), (0.4, 0.6), 400)
    outside = part(0.1, (0.05, 0.15), (0.4, 0.6), 400)
    assert by_interval({"a": inside}).verdict == HOLDS
    assert by_interval({"a": inside}).evidence["more_games_to_decide"] == 0
    assert by_interval({"a": inside, "b": outside}).verdict == FAILS


def test_more_games_follow_one_over_width_squared():
    # halving the distance to the edge quadruples the games
    far = games_to_decide(100, 0.30, (0.20, 0.40), (0.22, None))
    near = games_to_decide(100, 0.30, (0.20, 0.40), (0.26, None))
    assert far == 157 and near == 625
    # an estimate on the edge: no number of games decides it
    assert games_to_decide(100, 0.25, (0.20, 0.30), (0.25, None)) is None
    assert (
        by_interval({"a": part(0.25, (0.2, 0.3), (0.25, None), 100)}).evidence[
            "more_games_to_decide"
        ]
        is None
    )


def test_richer_vs_specialist_is_judged_by_the_rule():
    ctx = LabContext(
        game="runway",
        players=3,
        agents=("greedy",),
        options={},
        games=20,
        workers=1,
        progress=False,
        probe_games=20,
    )
    (c,) = evaluate(ctx, ["runway.richer_vs_specialist"])
    ev = c["evidence"]
    for style, judged in ev["judged"].items():
        row = ev["styles"][style]
        assert judged["interval"] == row["wilson95"]
        assert judged["target"] == [ev["threshold"], None]
    expected = by_interval(ev["judged"]).verdict
    assert c["verdict"] == expected
    assert "more_games_to_decide" in ev and f"{ev['games']} games" in ev["headline"]
