"""The experience profile: what each seat lives through, as distributions, judged
against the reference bands (cardlab.lab.experience, cardlab.lab.bands)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.lab import bands as reference
from cardlab.lab import experience, world_class
from cardlab.lab.experience import ExperienceProfile, experience_profile
from cardlab.lab.simulate import GameRecord


def _record(seed: int, scores: list[float], winners: list[int], **kw: object) -> GameRecord:
    base: dict[str, object] = {
        "game": "toy",
        "players": len(scores),
        "options": "{}",
        "agents": ["greedy"] * len(scores),
        "index": seed,
        "seed": seed,
        "first_player": 0,
        "scores": scores,
        "winners": winners,
        "seat_turns": [10] * len(scores),
        "seat_noop": [0] * len(scores),
        "kind_decisions": {"turn": 10 * len(scores)},
        "kind_forced": {"turn": 0},
    }
    base.update(kw)
    return GameRecord(**base)  # type: ignore[arg-type]


def test_shutouts_are_counted_per_seat_and_position_never_as_a_mean() -> None:
    # Half the seats end at 0 while the mean score is a healthy 8: the profile says so.
    records = [_record(i, [16.0, 0.0, 16.0, 0.0], [0]) for i in range(10)]
    p = experience_profile(records, game="toy", players=4, score_direction="highest",
                           utility_bounds=(0.0, 40.0))  # fmt: skip
    m = p["shutout_share"]
    assert m.value == 0.5 and m.n == 40
    assert m.per_seat == [0.0, 1.0, 0.0, 1.0]
    assert m.quantiles["p50"] == 2.0  # seats shut out per game
    assert m.extra["every_seat_shut_out_share"] == 0.0
    assert m.example and m.example["seed"] == 0
    lo, hi = m.interval or (0, 0)
    assert lo < 0.5 < hi


def test_a_lowest_wins_game_is_read_with_its_direction() -> None:
    # Penalty points: the seat with 5 wins; nobody is at the worst bound (26).
    records = [_record(i, [5.0, 20.0, 10.0], [0]) for i in range(6)]
    p = experience_profile(records, game="toy", players=3, score_direction="lowest",
                           utility_bounds=(0.0, 26.0))  # fmt: skip
    assert p["shutout_share"].value == 0.0
    # margin: winner -5 against runner-up -10, as a fraction of the larger (10)
    assert p["margin"].value == pytest.approx(0.5)
    assert p["spread"].value == pytest.approx(0.75)  # -5 against -20
    taken = [_record(i, [5.0, 26.0, 10.0], [0]) for i in range(4)]
    q = experience_profile(taken, game="toy", players=3, score_direction="lowest",
                           utility_bounds=(0.0, 26.0))  # fmt: skip
    assert q["shutout_share"].per_seat == [0.0, 1.0, 0.0]


def test_dead_turns_forced_moves_and_first_seat_are_distributions() -> None:
    records = [
        _record(
            i,
            [3.0, 1.0],
            [i % 2],
            seat_turns=[10, 10],
            seat_noop=[i % 3, 0],
            kind_decisions={"turn": 20},
            kind_forced={"turn": 5},
            seat_decisions=[10, 10],
            seat_forced=[5, 0],
        )  # fmt: skip
        for i in range(12)
    ]
    p = experience_profile(records, game="toy", players=2, score_direction="highest",
                           utility_bounds=(0.0, 5.0))  # fmt: skip
    dead = p["dead_turn_share"]
    assert dead.value == pytest.approx(12 / 240)
    assert dead.per_seat[1] == 0.0 and dead.per_seat[0] > 0
    assert dead.histogram["counts"] and sum(dead.histogram["counts"]) == 24
    forced = p["forced_share"]
    assert forced.value == 0.25 and forced.per_seat == [0.5, 0.0]
    first = p["first_seat_advantage"]
    assert first.value == 0.0 and first.per_position == [0.5, 0.5]
    assert p["meaningful_share"].value is None  # no probe given: not measured, not 0
    assert p["skill_gap_random"].value is None


def test_the_profile_round_trips_through_json() -> None:
    records = [_record(i, [4.0, 2.0, 0.0], [0], decided_at=0.5) for i in range(5)]
    p = experience_profile(records, game="toy", players=3, score_direction="highest",
                           utility_bounds=(0.0, 9.0))  # fmt: skip
    data = json.loads(json.dumps(p.to_dict()))
    back = ExperienceProfile.from_dict(data)
    assert back.value("shutout_share") == p.value("shutout_share")
    assert data["metrics"]["decided_at"]["quantiles"]["p50"] == 0.5
    assert set(data["metrics"]) == {m.name for m in experience.METRICS}


def test_stored_rows_read_like_records() -> None:
    rows = [_record(i, [2.0, 0.0], [0]).to_row() for i in range(4)]
    p = experience_profile(rows, game="toy", players=2, score_direction="highest",
                           utility_bounds=(0.0, 2.0))  # fmt: skip
    assert p["shutout_share"].value == 0.5


class _Race:
    """A two-seat race to 10 with a random step each decision: option 0 steps by 1, option
    1 by `jump` (1: the options cannot differ). Only what `option_values` touches."""

    class game:  # noqa: N801 - the attribute a GameState has
        num_players = 2

    def __init__(self, jump: int, pos: list[int] | None = None, turn: int = 0) -> None:
        self.jump, self.pos, self.turn = jump, pos or [0, 0], turn

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def resample_from_infostate(self, seat: int, seed: int) -> _Race:
        return self.clone()

    def clone(self) -> _Race:
        return _Race(self.jump, list(self.pos), self.turn)

    def apply_action(self, action: int) -> None:
        self.pos[self.turn] += 1 if action == 0 else self.jump
        self.turn = 1 - self.turn

    def is_terminal(self) -> bool:
        return max(self.pos) >= 10

    def winners(self) -> list[int]:
        return [max((0, 1), key=lambda s: self.pos[s])]

    def heuristic_values(self) -> list[float]:
        return [float(p) for p in self.pos]


def test_options_that_cannot_differ_read_exactly_alike() -> None:
    """The choice probe's paired rollouts: the same redeal and the same generator for
    every option, so options with the same effect read the same value (a gap of exactly
    0, never noise), and options with different effects read a gap."""
    import random

    same = experience.option_values(_Race(1), 0, random.Random(1), rollouts=6, depth=4)
    assert same[0] == same[1]
    apart = experience.option_values(_Race(3), 0, random.Random(1), rollouts=6, depth=4)
    assert apart[1] - apart[0] >= experience.MEANINGFUL_GAP


def test_measure_plays_both_probes_on_the_toy(toy: str) -> None:
    from cardlab.lab.context import LabContext

    ctx = LabContext(toy, 2, ("greedy", "random"), {}, 20, seed=2, workers=1, progress=False)
    main = ctx.run()
    p = experience.measure(ctx, main.records, main.spec, 2, choice_games=6, skill_games=4,
                           skill_iterations=20)  # fmt: skip
    m = p["meaningful_share"]
    assert m.value is not None and m.n == 6 * experience.CHOICE_SAMPLES
    assert m.example and m.example["replay"].startswith("cardlab replay")
    g = p["skill_gap_random"]
    assert g.value is not None and g.n == 4 and g.extra["strong"].startswith("ismcts")
    assert p["shutout_share"].example is None or "replay" in p["shutout_share"].example
    assert p.probes["choices"]["games"] == 6


# --- bands and the verdict ---------------------------------------------------------


def test_bands_are_cut_from_the_loved_games_by_kind() -> None:
    assert reference.derive("shutout_share", [0.0, 0.02]) == (None, 0.07)
    assert reference.derive("meaningful_share", [0.4, 0.6]) == (0.3, None)
    assert reference.derive("first_seat_advantage", [0.02, -0.05]) == (-0.08, 0.08)
    assert reference.derive("margin", [0.2, 0.4]) == (0.15, 0.5)
    assert reference.derive("decided_at", [0.6, 0.9]) == (0.45, 1.0)  # clipped to 1
    assert reference.derive("minutes", [20.0, 30.0]) == (pytest.approx(13.3333), 45.0)


def _profile(**values: tuple[float, float, float]) -> ExperienceProfile:
    metrics = {
        name: experience.Metric(name, v, [lo, hi], 100) for name, (v, lo, hi) in values.items()
    }
    return ExperienceProfile("toy", 4, 100, metrics=metrics)


def test_the_verdict_is_world_class_only_inside_every_band(tmp_path: Path) -> None:
    loved = {"a": [_profile(shutout_share=(0.0, 0.0, 0.02), meaningful_share=(0.5, 0.45, 0.55))]}
    bands = reference.bands_from_profiles(
        loved, {"luck": [_profile(meaningful_share=(0, 0, 0.02))]}
    )
    path = tmp_path / "bands.toml"
    path.write_text(reference.dump_bands(bands))
    back = reference.load_bands(path)
    assert back["meaningful_share"].low == pytest.approx(0.375)
    assert back["meaningful_share"].controls == {"luck 4p": 0.0}
    assert back["shutout_share"].high == pytest.approx(0.05)
    only = reference.Bands({k: back[k] for k in ("shutout_share", "meaningful_share")})

    good = reference.judge(_profile(shutout_share=(0.01, 0.0, 0.03),
                                    meaningful_share=(0.6, 0.5, 0.7)), only)  # fmt: skip
    assert good["verdict"] == reference.WORLD_CLASS
    bad = reference.judge(_profile(shutout_share=(0.52, 0.47, 0.57),
                                   meaningful_share=(0.6, 0.5, 0.7)), only)  # fmt: skip
    assert bad["verdict"] == reference.NOT_WORLD_CLASS and bad["outside"] == ["shutout_share"]
    assert bad["fails_on"] == ["agency"]
    row = next(r for r in bad["metrics"] if r["metric"] == "shutout_share")
    assert "52%" in row["evidence"] and "at most 5%" in row["evidence"]
    unsure = reference.judge(_profile(shutout_share=(0.04, 0.01, 0.08),
                                      meaningful_share=(0.6, 0.5, 0.7)), only)  # fmt: skip
    assert unsure["verdict"] == reference.NEEDS_DATA and unsure["unsettled"] == ["shutout_share"]
    missing = reference.judge(_profile(shutout_share=(0.0, 0.0, 0.01)), only)
    assert missing["verdict"] == reference.NEEDS_DATA  # a metric not measured is no pass
    assert reference.overall([good, bad])["verdict"] == reference.NOT_WORLD_CLASS
    assert reference.overall([good, good])["verdict"] == reference.WORLD_CLASS


def test_the_shipped_bands_name_how_they_were_measured() -> None:
    bands = reference.load_bands()
    assert bands.about.get("command", "").startswith("cardlab shelf calibrate")
    assert set(bands.bands) == {m.name for m in experience.METRICS}
    assert reference.is_band_ready(bands)
    for b in bands.bands.values():
        assert b.loved, b.metric  # every band is measured on loved games


def test_the_gate_names_each_metric_outside_with_a_replayable_game() -> None:
    from cardlab.lab.gate import experience_row, table

    judged = reference.judge(
        _profile(shutout_share=(0.52, 0.47, 0.57)),
        reference.Bands({"shutout_share": reference.Band("shutout_share", "low", None, 0.05)}),
    )
    judged["metrics"][0]["example"] = {"seed": 7, "why": "2 seat(s) shut out",
                                       "replay": "cardlab replay toy --seed 7"}  # fmt: skip
    report = {"experience": {"judged": [judged], "overall": reference.overall([judged]),
                             "bands": {"source": "x"}}}  # fmt: skip
    row = experience_row("toy", report)
    assert row["verdict"] == "outside" and "shutout_share (4p)" in row["why"]
    text = table([row], 1.0)
    assert "NOT world-class" in text and "Seats shut out" in text
    assert "cardlab replay toy --seed 7" in text


@pytest.mark.slow
def test_the_report_shows_the_profile_beside_the_band(toy: str) -> None:
    """report.html's world-class section (its chart, one table per player count with the
    band and a replay command) and, for `--compare`, each arm's reading of the band."""
    import json

    from cardlab.lab.context import LabContext
    from cardlab.lab.html import render
    from cardlab.lab.reporting import start_report

    _, report, _ = start_report(toy, None, games=8, probe_games=3, side_games=2, ladder_games=2,
                                ladder_iterations=5, workers=1, progress=False, ablation_games=0,
                                kingmaking_games=2, compare=("may_pass", ["false", "true"]))  # fmt: skip
    ex = report["experience"]
    assert [p["players"] for p in ex["profiles"]] == [j["players"] for j in ex["judged"]]
    assert ex["overall"]["verdict"] in (reference.WORLD_CLASS, reference.NOT_WORLD_CLASS,
                                        reference.NEEDS_DATA)  # fmt: skip
    ctx = LabContext(toy, report["settings"]["players"], ("greedy",), {}, 6, workers=1,
                     progress=False)  # fmt: skip
    for row in report["compare"]["values"]:
        row.setdefault("experience", world_class.arm_summary(ctx.run(), ctx.time_model))
    page = render(json.loads(json.dumps(report)))
    assert 'id="experience"' in page and "World-class gate" in page
    assert 'alt="each experience metric against its reference band' in page
    assert f'id="experience-{ex["judged"][0]["players"]}p"' in page
    assert "Seats shut out" in page and "cardlab replay " in page
    assert 'id="compare-experience"' in page


def test_a_claim_on_the_distribution_judges_the_shutout_share(toy: str) -> None:
    """claims.common.shutout_verdict: the share of seats shut out at each count, against
    the shelf's band by the one rule, with a seed that shows a shut-out seat."""
    from cardlab.lab.claims.common import shutout_verdict
    from cardlab.lab.context import LabContext

    ctx = LabContext(toy, 2, ("greedy", "random"), {}, 40, seed=4, workers=1, progress=False)
    v = shutout_verdict(ctx, [2, 3])
    ev = v.as_dict()["evidence"]
    assert set(ev["judged"]) == {"2p", "3p"} and ev["band"].startswith("at most")
    share = ev["by_players"]["2p"]["shut_out"]
    assert 0.0 <= share <= 1.0 and "seats shut out (0 points): 2p" in ev["headline"]
    band = reference.load_bands()["shutout_share"]
    readings = []
    for n in ("2p", "3p"):
        part = ev["judged"][n]
        assert part["interval"] == ev["by_players"][n]["ci95"]
        assert part["target"] == [band.low, band.high]
        readings.append(reference.place(tuple(part["interval"]), (band.low, band.high)))
    want = (
        "fails"
        if "outside" in readings
        else "holds"
        if set(readings) == {"inside"}
        else "needs_data"
    )
    assert v.verdict == want
