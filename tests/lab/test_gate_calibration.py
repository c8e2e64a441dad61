"""The world-class gate's calibration: against the bands shipped with cardlab
(measured on the reference shelf by `cardlab shelf calibrate`), the luck-only game fails
on agency and skill, and the loved games pass."""

from __future__ import annotations

import pytest

from cardlab.lab import bands as reference
from cardlab.lab.experience import BY_NAME


def _measure(game: str, players: int, games: int, choice: int, skill: int) -> object:
    from cardlab.lab.bands_commands import measure_game

    return measure_game(game, [players], games, 0, 1, choice, skill, 20)[0]


def test_the_shipped_bands_hold_their_own_measurements() -> None:
    """By the gate's rule on the calibration's own measurements: no loved game's interval
    lies wholly outside its band (they pass), and the control's intervals lie wholly
    outside on agency and on skill (it fails there)."""
    bands = reference.load_bands()
    assert bands.about["controls"] == ["war"] and "hearts" in bands.about["loved"]
    for b in bands.bands.values():
        assert set(b.loved_ci) == set(b.loved), b.metric
        for where, (lo, hi) in b.loved_ci.items():
            assert reference.place((lo, hi), b.target) != reference.OUTSIDE, (b.metric, where)
    outside = {
        b.metric
        for b in bands.bands.values()
        for lo, hi in b.controls_ci.values()
        if reference.place((lo, hi), b.target) == reference.OUTSIDE
    }
    assert {BY_NAME[m].group for m in outside} >= {"agency", "skill"}
    assert {"meaningful_share", "skill_gap_random"} <= outside


def test_war_is_not_world_class_and_fails_on_agency_and_skill() -> None:
    """Measured now, small: WAR has no decision, so every move is forced, none is
    meaningful, and the strong bot plays every deal exactly as the weak one does."""
    profile = _measure("war", 2, 30, 15, 4)
    judged = reference.judge(profile)  # type: ignore[arg-type]
    assert judged["verdict"] == reference.NOT_WORLD_CLASS
    assert {"agency", "skill"} <= set(judged["fails_on"])
    for name in ("forced_share", "meaningful_share", "skill_gap_random", "skill_gap_greedy"):
        assert name in judged["outside"], name
    assert profile["skill_gap_random"].interval == [0.0, 0.0]  # type: ignore[index]
    row = next(r for r in judged["metrics"] if r["metric"] == "meaningful_share")
    assert row["example"]["replay"].startswith("cardlab replay war")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "skill"), [("hearts", 4, 0), ("ohhell", 4, 8), ("crazyeights", 3, 6)]
)
def test_a_loved_game_has_no_metric_outside_its_band(game: str, players: int, skill: int) -> None:
    """Re-measured on another seed at a small size: nothing outside (straddling is allowed:
    small intervals cannot place every figure; HEARTS without its skill probe, the costliest)."""
    from cardlab.lab.bands_commands import measure_game

    profile = measure_game(game, [players], 60, 1, 2, 10, skill, 100)[0]
    judged = reference.judge(profile)
    assert judged["outside"] == [], judged["outside"]
