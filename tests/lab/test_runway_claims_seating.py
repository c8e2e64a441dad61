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
        assert "--option last_seat=rotate" in v["replay"]["rotation"]
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
    """R10 default: the 2-player last seat repeats (every repeat is a catch-up repeat),
    so the claim fails; with two_player_last_seat=alternate it holds (both measured)."""
    (c,) = evaluate(_ctx(("greedy",)), ["runway.two_players_same"])
    ev = c["evidence"]
    assert c["verdict"] == "fails"
    assert ev["deal_to_deal_last_seat_repeats"] > 0
    assert ev["catch_up_repeats"] == ev["deal_to_deal_last_seat_repeats"]
    assert ev["repeat_seeds"]
    alt = ev["with_two_player_last_seat_alternate"]
    assert alt["options"]["two_player_last_seat"] == "alternate"
    assert alt["deal_to_deal_last_seat_repeats"] == 0 and alt["claim_holds"] is True
    assert alt["deal_to_deal_last_seat_changes"] == 40 * 11
    (a,) = evaluate(
        _ctx(("greedy",), two_player_last_seat="alternate"), ["runway.two_players_same"]
    )
    assert a["verdict"] == "holds"


def test_length_30_prices_every_runway_kind_and_states_the_assumption() -> None:
    """Time model: pitch and trade are priced by the RUNWAY model (no fallback), the
    evidence states the assumption, and the per-kind counts add up (a pitch per seat per
    Deal); an empty model is flagged."""
    (c,) = evaluate(_ctx(("greedy",)), ["runway.length_30"])
    ev = c["evidence"]
    assert set(ev["decision_kinds"]) == {"pitch", "trade"}
    assert all(k["priced_by"] == "time model" for k in ev["decision_kinds"].values())
    assert "warning" not in ev and "not priced" in ev["assumption"]
    for n, v in ev["by_players_kinds"].items():
        assert v["mean_decisions_by_kind"]["pitch"] == 12 * int(n)
        minutes = ev["by_players"][n]["mean_minutes"]
        assert abs(v["mean_modelled_seconds_per_deal"] * 12 / 60 - minutes) < 0.05
    bare = _ctx(("greedy",))
    bare.time_model = TimeModel()
    (b,) = evaluate(bare, ["runway.length_30"])
    assert "pitch" in b["evidence"]["warning"]
