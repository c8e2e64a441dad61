"""RUNWAY seating and length claims: the evidence is computed from games played for it
(it changes with the bots and the options, and matches an independent recount)."""

from __future__ import annotations

from cardlab.lab.claims import evaluate
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import finished
from cardlab.lab.timemodel import TimeModel


def _ctx(agents: tuple[str, ...], games: int = 40, **options: str) -> LabContext:
    return LabContext(
        game="runway",
        players=3,
        agents=agents,
        options=options,
        games=games,
        workers=1,
        progress=False,
        probe_games=games,
        time_model=TimeModel.for_game("runway"),
    )


def test_catch_up_seat_evidence_is_measured_per_player_count_and_follows_the_rule() -> None:
    """R10 vs option last_seat=rotate at 2, 3, 4 players: the catch-up arm always seats
    a lowest seat last, the rotation arm does not; the verdict follows the stated rule
    from the intervals; and the spreads match a recount from plain simulate records."""
    ctx = _ctx(("greedy",), games=60)
    (c,) = evaluate(ctx, ["runway.catch_up_seat"])
    ev = c["evidence"]
    assert set(ev["by_players"]) == {"2", "3", "4"}
    for n, v in ev["by_players"].items():
        assert v["paired_games"] == 60
        lowest = v["share_of_deals_pitched_last_by_a_lowest_seat"]
        assert lowest["catch_up"] == 1.0 and lowest["rotation"] < 1.0, n
        assert v["mean_spread"]["catch_up"] != v["mean_spread"]["rotation"], n
        lo, hi = v["difference_ci95"]
        assert lo <= v["spread_difference_catch_up_minus_rotation"] <= hi
        assert v["reading"] == (
            "narrows" if hi < 0 else "widens" if lo > 0 else "no clear difference"
        )
        assert "-o last_seat=rotate" in v["replay"]["rotation"]
        assert v["replay"]["rotation"].startswith("cardlab replay runway ")
        assert len(v["seeds_most_narrowed_by_catch_up"]) == 3
        # recount the rotation arm's spread from ordinary simulate records (same seeds)
        plain = ctx.run(players=int(n), games=60, options={"last_seat": "rotate"})
        spreads = [max(r.scores) - min(r.scores) for r in finished(plain.records)]
        assert round(sum(spreads) / len(spreads), 3) == v["mean_spread"]["rotation"]
    all_narrow = all(v["reading"] == "narrows" for v in ev["by_players"].values())
    assert c["verdict"] == ("holds" if all_narrow else "fails")


def test_catch_up_seat_evidence_changes_with_the_bots() -> None:
    """Random bots ignore the pitch order, greedy bots read it: the measured spreads and
    verdicts differ (same seeds, same rules)."""
    (greedy,) = evaluate(_ctx(("greedy",), games=60), ["runway.catch_up_seat"])
    (rand,) = evaluate(_ctx(("random",), games=60), ["runway.catch_up_seat"])
    g2, r2 = greedy["evidence"]["by_players"]["2"], rand["evidence"]["by_players"]["2"]
    assert g2["mean_spread"] != r2["mean_spread"]
    assert g2["difference_ci95"] != r2["difference_ci95"]
    assert greedy["verdict"] == "holds" and rand["verdict"] == "fails"


def test_two_players_same_measures_both_readings() -> None:
    """R10 revised: the 2-player last seat alternates (an invariant: it holds, no repeats);
    the first reading, two_player_last_seat=catch_up, is measured beside it and repeats."""
    (c,) = evaluate(_ctx(("greedy",)), ["runway.two_players_same"])
    ev = c["evidence"]
    assert c["kind"] == "invariant" and c["verdict"] == "holds"
    assert ev["deal_to_deal_last_seat_repeats"] == 0
    assert ev["deal_to_deal_last_seat_changes"] == 40 * 11
    old = ev["with_two_player_last_seat_catch_up"]
    assert old["options"]["two_player_last_seat"] == "catch_up"
    assert old["deal_to_deal_last_seat_repeats"] > 0 and old["claim_holds"] is False
    assert old["catch_up_repeats"] == old["deal_to_deal_last_seat_repeats"]
    (a,) = evaluate(_ctx(("greedy",), two_player_last_seat="catch_up"), ["runway.two_players_same"])
    assert a["verdict"] == "fails"


def test_length_30_is_a_range_with_a_three_way_verdict() -> None:
    """Estimated quick and slow minutes per player count; the verdict follows judge_length."""
    from cardlab.lab.timemodel import judge_length

    (c,) = evaluate(_ctx(("greedy",)), ["runway.length_30"])
    ev = c["evidence"]
    assert ev["time_model_source"] == "guessed"
    readings = []
    for n, v in ev["by_players"].items():
        lo, hi = v["range"]
        assert lo <= v["quick_mean"] <= v["slow_mean"] <= hi, n
        assert v["accepted_band"] == [22.5, 37.5]
        readings.append(judge_length(v["range"], v["accepted_band"]))
    expected = "fails" if False in readings else "needs_data" if None in readings else "holds"
    assert c["verdict"] == expected


def test_small_match_denies_is_an_experiment() -> None:
    """The same state played on twice (pitch vs pass): denials are counted from outcomes."""
    (c,) = evaluate(_ctx(("greedy",), games=60), ["runway.small_match_denies"])
    ev = c["evidence"]
    assert ev["experiments"] >= 20
    assert 0 <= ev["deals_denied"] <= ev["experiments"]
    lo, hi = ev["denial_share_ci95"]
    assert lo <= ev["denial_share"] <= hi
    assert c["verdict"] == ("holds" if lo > 0.05 else "fails")
