"""Scenario tests: one or more per RUNWAY rule and ruling (R1-R11), cited by id.

Positions are built with the documented `scenarios.from_setup` builder."""

import json

import pytest
from runway_kit import BENCH, HANDS3, act, build, last_deal

from cardlab import IllegalActionError, load_game
from cardlab.games.runway.actions import BLIND0, BLIND_TAKE, CARD_IDS, PASS, SKIP, SWAP0, TAKE0
from cardlab.games.runway.scenarios import card
from cardlab.games.runway.scoring import closing_winner


def c(state, label):
    return card(state.cards, label)


def obs_json(state):
    return json.dumps([state.observation(p) for p in range(state.num_players)], sort_keys=True)


# -- R1 matching, R4 what may be pitched --------------------------------------------------
@pytest.mark.parametrize(
    ("deal", "match"),
    [
        ("Seed Round", "Cash"),
        ("Board Seat", "Network"),
        ("Chip Fab", "Tech"),
        ("Storefront", "Talent"),
    ],
)
def test_r1_each_sector_is_matched_by_its_kind(deal, match):
    """R1: Cash-FinTech, Network-Social, Tech-DeepTech, Talent-Marketplace."""
    s = build(deals=(deal,), last_seat=2)
    labels = [s.action_to_string(a) for a in s.legal_actions()]
    assert f"pitch {match} 1 (match)" in labels


def test_r4_tech_or_talent_off_sector_is_illegal_and_changes_nothing():
    """R4: Tech or Talent off their Sector cannot be pitched; refused without change."""
    s = build(deals=("Conference Badge",), last_seat=2)
    before = obs_json(s)
    for label in ("Tech 1", "Talent 1"):
        with pytest.raises(IllegalActionError, match="not legal for seat 0"):
            s.apply_action(c(s, label))
    assert obs_json(s) == before and s.history() == []


def test_r4_cash_pitches_anywhere_and_network_rides_off_social():
    """R4: Cash competes on any Deal; Network on a non-Social Deal is a Ride."""
    s = build(deals=("Chip Fab",), last_seat=2)
    labels = [s.action_to_string(a) for a in s.legal_actions()]
    assert "pitch Cash 1 (cash)" in labels
    assert "pitch Network 1 (ride)" in labels and "pitch Network 8 (ride)" in labels
    social = build(deals=("Board Seat",), last_seat=2)
    assert "pitch Network 1 (match)" in [social.action_to_string(a) for a in social.legal_actions()]


def test_r4_ride_cannot_win_but_pays_one_when_the_deal_has_a_winner():
    """R4: a Ride cannot win (even Network 8 over Tech 2) and pays +1 if the Deal is won."""
    s = build(deals=("Chip Fab",), last_seat=2)
    act(s, "pitch Network 8")  # seat 0 rides
    act(s, "pitch Tech 2")  # seat 1 matches
    act(s, "pass")
    act(s, "skip")
    assert s.deals_won[1] and s.reputation[1] == 5 and s.reputation[0] == 1 and s.rides_paid[0] == 1


def test_r4_ride_pays_nothing_when_the_deal_is_dumped():
    """R4/R6: a Ride on a Dumped Deal earns nothing."""
    s = build(deals=("Chip Fab",), last_seat=2)
    act(s, "pitch Network 8")
    act(s, "pass")
    act(s, "skip")
    act(s, "pass")
    act(s, "skip")
    assert s.dumped and s.reputation == [0, 0, 0]


# -- R3 pitch order --------------------------------------------------------------------------
def test_r3_pitching_in_seat_order_ending_with_the_last_seat():
    """R3: one pitch each, in seat order, ending with the last-pitch seat."""
    s = build(last_seat=1)
    seen = []
    for _ in range(3):
        seen.append(s.current_player())
        act(s, "pass")
        act(s, "skip")
    assert seen == [2, 0, 1]
    assert s.deals_closed == 1


# -- R5 pass and trade ---------------------------------------------------------------------
def test_r5_pass_then_swap_with_a_bench_card_keeps_the_bench_at_three():
    """R5: the swap puts the hand card on the Bench in the taken card's place."""
    s = build(last_seat=2)
    act(s, "pass")
    assert s.decision_kind() == "trade" and s.current_player() == 0
    act(s, "trade Tech 1 for Bench Cash 7")
    assert c(s, "Cash 7") in s.hands[0] and c(s, "Tech 1") in s.bench
    assert len(s.bench) == 3 and len(s.hands[0]) == 6
    # everyone saw seat 0 take Cash 7: it is not hidden from the others
    assert CARD_IDS[c(s, "Cash 7")] not in s.hidden_card_ids(1)
    assert "Cash 7" in json.dumps(s.observation(1)["known_in_hands"])


def test_r5_blind_draw_discards_face_up_then_draws_the_top_card():
    """R5: discard one card and draw blind off the pile."""
    s = build(last_seat=2, pile_top=["Talent 6"])
    act(s, "pass")
    act(s, "discard Tech 1 and draw blind")
    assert c(s, "Talent 6") in s.hands[0] and s.discard == [c(s, "Tech 1")]
    assert CARD_IDS[c(s, "Talent 6")] in s.hidden_card_ids(
        1
    )  # the blind card stays hidden from the others


def test_r5_skip_and_the_trade_is_optional():
    """R5: skipping the trade leaves hand and Bench as they were."""
    s = build(last_seat=2)
    hand, bench = list(s.hands[0]), list(s.bench)
    act(s, "pass")
    s.apply_action(SKIP)
    assert s.hands[0] == hand and s.bench == bench


def test_r5_empty_hand_takes_one_card_without_giving_one():
    """R5: with an empty hand the passer may take a Bench card (Bench refills) or draw blind."""
    hands = [[], ["Cash 2"], ["Cash 3"]]
    s = build(hands=hands, last_seat=2, pile_top=["Talent 6"])
    assert s.legal_actions() == [PASS]
    act(s, "pass")
    assert set(s.legal_actions()) == {SKIP, TAKE0, TAKE0 + 1, TAKE0 + 2, BLIND_TAKE}
    act(s, "take Bench Cash 7")
    assert s.hands[0] == [c(s, "Cash 7")] and len(s.bench) == 3 and c(s, "Talent 6") in s.bench
    t = build(hands=hands, last_seat=2, pile_top=["Talent 6"])
    act(t, "pass")
    act(t, "draw a blind card")
    assert t.hands[0] == [c(t, "Talent 6")]


def test_r5_trade_actions_are_only_offered_after_a_pass():
    """R5: a trade is the passer's; while pitching, trade actions are illegal."""
    s = build(last_seat=2)
    for a in (SWAP0, BLIND0 + c(s, "Tech 1"), SKIP):
        with pytest.raises(IllegalActionError):
            s.apply_action(a)


# -- R6 closing ------------------------------------------------------------------------------
def test_r6_highest_matching_number_wins():
    """R6: the biggest competing number wins."""
    s = build(last_seat=2)
    act(s, "pitch Network 8")
    act(s, "pitch Network 2")
    act(s, "pitch Network 5")
    assert s.deals_won[0] and s.reputation == [3, 0, 0]


def test_r6_a_match_beats_cash_on_an_equal_number_whatever_the_order():
    """R6: a match beats Cash on a tie, even when Cash is pitched later."""
    hands = [["Network 5"], ["Cash 5"], ["Talent 1"]]
    s = build(hands=hands, last_seat=2)
    act(s, "pitch Network 5")
    act(s, "pitch Cash 5")
    act(s, "pass")
    act(s, "skip")
    assert s.deals_won[0] and not s.deals_won[1]


def test_r6_later_beats_earlier_on_a_true_tie():
    """R6: a true tie (same number, both match or both Cash) goes to the later pitch.

    The packaged deck has every kind-number once, so a true tie cannot arise in
    play; the closing rule is pinned on hand-made pitches instead."""
    net5, cash5 = 13, 4
    assert closing_winner([(0, net5), (1, net5)], 1) == (1, net5)
    assert closing_winner([(2, cash5), (0, cash5)], 2) == (0, cash5)
    assert closing_winner([(0, net5), (1, cash5)], 1) == (0, net5)


def test_r6_only_cash_competing_cash_wins():
    """R6: with only Cash competing on a non-FinTech Deal, the Cash wins."""
    s = build(deals=("Chip Fab",), last_seat=2)
    act(s, "pitch Cash 1")
    act(s, "pass")
    act(s, "skip")
    act(s, "pitch Network 3")  # a Ride, not competing
    assert s.deals_won[0]


def test_r6_dumped_deal_no_score_no_foothold_hype_unchanged():
    """R6: nobody competing Dumps the Deal: no score, no Foothold, Hype stays."""
    s = build(deals=("Chip Fab",), last_seat=2, hype=4)
    for _ in range(3):
        act(s, "pass")
        act(s, "skip")
    assert s.dumped == [s.cards.deal_index("Chip Fab") + 32]
    assert s.reputation == [0, 0, 0] and s.hype == 4 and all(sum(f) == 0 for f in s.footholds)


# -- R7 rewards -------------------------------------------------------------------------------
@pytest.mark.parametrize(("hype", "bonus"), [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2)])
def test_r7_hype_bonus_read_before_the_advance(hype, bonus):
    """R7: +1 at Hype 5-9, +2 at 10, read before this Deal's own advance."""
    s = build(last_seat=2, hype=hype)
    act(s, "pitch Network 8")
    act(s, "pass")
    act(s, "skip")
    act(s, "pass")
    act(s, "skip")
    assert s.reputation[0] == 3 + bonus
    assert s.hype == min(10, hype + 1)  # Conference Badge costs 1 Hype; the track stops at 10


def test_r7_cash_outside_fintech_scores_one_less_but_not_in_fintech():
    """R7: Cash winning outside FinTech scores 1 less; in FinTech it is a match."""
    s = build(deals=("Chip Fab",), last_seat=2)
    act(s, "pitch Cash 1")
    act(s, "pass")
    act(s, "skip")
    act(s, "pass")
    act(s, "skip")
    assert s.reputation[0] == 5 - 1
    f = build(deals=("Bank Charter",), last_seat=2)
    act(f, "pitch Cash 1 (match)")
    act(f, "pass")
    act(f, "skip")
    act(f, "pass")
    act(f, "skip")
    assert f.reputation[0] == 5


def test_r7_reward_never_below_zero():
    """R7: with every penalty, a reward stops at 0 (Cash off FinTech and a Shock's -1 on 2)."""
    s = build(
        deals=("Patent Pool",),
        last_seat=2,
        shocks_under={"Patent Pool": 1},
        options={"shock_effect": "reward_minus_one"},
    )
    act(s, "pitch Cash 1")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    assert s.deal_rewards[s.cards.deal_index("Patent Pool")] == 0 and s.reputation[0] == 0


def test_r7_r8_only_the_winner_draws_back_up_to_six():
    """R7/R8: the winner draws back up to 6; the others do not draw."""
    s = build(last_seat=2)
    act(s, "pitch Network 8")
    act(s, "pitch Network 2")
    act(s, "pitch Network 3")
    assert [len(h) for h in s.hands] == [6, 5, 5]


def test_r7_second_foothold_locks_for_two_once_third_gives_nothing():
    """R7: a second Foothold in a Sector scores +2 at once; a third nothing more."""
    s = build(last_seat=2, footholds=[[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    act(s, "pitch Network 8")
    act(s, "pass")
    act(s, "skip")
    act(s, "pass")
    act(s, "skip")
    assert s.footholds[0][1] == 2 and s.reputation[0] == 3 + 2 and s.sectors_locked[0] == 1
    t = build(last_seat=2, footholds=[[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    act(t, "pitch Network 8")
    for _ in range(2):
        act(t, "pass")
        act(t, "skip")
    assert t.footholds[0][1] == 3 and t.reputation[0] == 3 and t.sectors_locked[0] == 1


def test_r7_no_foothold_left_places_none():
    """R7: with all 8 Footholds placed, the winner places none (and scores no lock)."""
    s = build(last_seat=2, footholds=[[2, 1, 3, 2], [0] * 4, [0] * 4], footholds_left=[0, 8, 8])
    act(s, "pitch Network 8")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    assert s.footholds[0] == [2, 1, 3, 2] and s.reputation[0] == 3


def test_r7_hype_advances_by_the_cost_and_stops_at_ten():
    """R7: Hype advances by the closing Deal's cost, max 10 (shared track 0-10)."""
    s = build(deals=("Chip Fab",), last_seat=2, hype=9)
    act(s, "pitch Tech 1")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    assert s.hype == 10


# -- R8 reshuffling -----------------------------------------------------------------------------
def test_r8_empty_pile_reshuffles_the_discard_with_the_state_rng():
    """R8: drawing from an empty pile shuffles the discard into it (the state's RNG)."""
    hands = [["Tech 1"], ["Network 2"], ["Network 3"]]
    names = [f"{k} {n}" for k in ("Cash", "Network", "Tech", "Talent") for n in range(1, 9)]
    rest = [x for x in names if x not in sum(hands, []) and x not in BENCH]
    results = []
    for seed in (1, 2):
        s = build(hands=hands, last_seat=2, pile_top=rest[:1], discard=rest[1:], seed=seed)
        act(s, "pass")
        act(s, "discard Tech 1 and draw blind")  # takes the last pile card
        assert s.hands[0] == [c(s, rest[0])] and not s.draw_pile
        act(s, "pitch Network 2")
        act(s, "pitch Network 3")  # seat 2 wins and draws 6 from the reshuffled discard
        assert len(s.hands[2]) == 6 and s.reshuffles == 1
        assert any(e["kind"] == "reshuffle" for e in s.observation(0)["log"])
        results.append(list(s.hands[2]))
    assert results[0] != results[1]


# -- R9 Shocks --------------------------------------------------------------------------------------
def test_r9_shocks_are_tucked_under_the_deal_they_arrive_with():
    """R9: Shocks revealed while flipping are tucked under the Deal that follows them."""
    s = build(deals=("Conference Badge", "Board Seat"), shocks_under={"Board Seat": 2}, last_seat=2)
    assert s.shocks_in_play == [] and len(s.next_shocks) == 2
    assert s.observation(0)["next_deal"]["shocks"] == 2


def _win_shocked(options, hype=6):
    s = build(
        deals=("Chip Fab",), shocks_under={"Chip Fab": 1}, last_seat=2, hype=hype, options=options
    )
    act(s, "pitch Tech 1")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    return s


def test_r9_default_shock_drops_hype_by_the_cost_instead_of_rising():
    """R9 (shock_effect=hype_down, default): Hype drops by the Deal's cost, floor 0."""
    s = _win_shocked({})
    assert s.hype == 3 and s.reputation[0] == 5 + 1
    assert _win_shocked({}, hype=2).hype == 0
    assert s.spent_shocks and not s.shocks_in_play


def test_r9_option_none_shock_does_nothing():
    """R9 option shock_effect=none: the Deal closes as if no Shock were there."""
    s = _win_shocked({"shock_effect": "none"})
    assert s.hype == 9 and s.reputation[0] == 6


def test_r9_option_reward_minus_one():
    """R9 option shock_effect=reward_minus_one: the winner scores 1 less; Hype rises."""
    s = _win_shocked({"shock_effect": "reward_minus_one"})
    assert s.hype == 9 and s.reputation[0] == 5 + 1 - 1


def test_r9_shock_on_a_dumped_deal_does_nothing():
    """R9: the Shock acts only when its Deal closes with a winner."""
    s = build(deals=("Chip Fab",), shocks_under={"Chip Fab": 1}, last_seat=2, hype=6)
    for _ in range(3):
        act(s, "pass")
        act(s, "skip")
    assert s.hype == 6


# -- R10 the catch-up seat ------------------------------------------------------------------------
def test_r10_fewest_reputation_pitches_last_next_deal():
    """R10: whoever has the fewest Reputation points pitches last next Deal."""
    s = build(last_seat=2, reputation=[0, 5, 7])
    act(s, "pitch Network 8")  # seat 0 wins 3 -> reputation 3, 5, 7
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    assert s.last_seat == 0 and s.pitch_order == [1, 2, 0]


def test_r10_tie_goes_to_the_seat_furthest_clockwise_from_the_previous_last_seat():
    """R10: among tied seats, the one furthest clockwise from the previous last seat."""
    s = build(players=4, hands=HANDS3 + [["Talent 4"]], last_seat=1)
    for _ in range(4):  # all pass: Dumped, all still tied at 0
        act(s, "pass")
        act(s, "skip")
    assert s.last_seat == 0  # clockwise from 1: 2, 3, 0 -> 0 is furthest


def test_r10_the_youngest_is_chosen_by_the_seed():
    """R10: the first last seat (the youngest) comes from the seed."""
    game = load_game("runway", players=4)
    firsts = {game.new_initial_state(seed).last_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert game.new_initial_state(7).last_seat == game.new_initial_state(7).last_seat


def test_r10_two_players_alternate_by_default_and_catch_up_as_option():
    """R10 (revised): with 2 players "Turn order just alternates" - the last seat
    alternates by default even when the same seat still has the fewest Reputation;
    option two_player_last_seat=catch_up keeps the catch-up seat at 2 players."""
    assert load_game("runway", players=2).options["two_player_last_seat"] == "alternate"
    hands = [["Network 8", "Network 7"], ["Tech 2", "Tech 3"]]
    for options, expected in (({}, 0), ({"two_player_last_seat": "catch_up"}, 1)):
        s = build(players=2, hands=hands, last_seat=1, options=options)
        act(s, "pitch Network 8")  # seat 0 wins: 3 - 0, seat 1 still has the fewest
        act(s, "pass")
        act(s, "skip")
        assert s.last_seat == expected, options


# -- R11 the end --------------------------------------------------------------------------------


def test_r11_the_12th_deal_ends_the_game_with_the_sector_bonus():
    """R11: when the 12th Deal closes, +1 per Sector holding a Foothold; then it is over."""
    s = last_deal([4, 4, 0], [[1, 0, 1, 0], [0, 2, 0, 0], [0] * 4])
    assert s.next_deal == -1
    for _ in range(3):
        act(s, "pass")
        act(s, "skip")
    assert s.is_terminal() and s.info()["rounds"] == 12
    assert s.returns() == [6.0, 5.0, 0.0] and s.sector_bonus == [2, 1, 0]
    assert s.winners() == [0] and s.info()["tiebreak"] is None


def _finish_all_pass(s):
    for _ in range(3):
        act(s, "pass")
        act(s, "skip")


def test_r11_tiebreak_most_sectors_locked():
    """R11: tied Reputation -> most Sectors locked wins."""
    s = last_deal([4, 5, 0], [[1, 0, 1, 0], [0, 2, 0, 0], [0] * 4])
    _finish_all_pass(s)
    assert s.returns()[:2] == [6.0, 6.0] and s.sectors_locked[:2] == [0, 1]
    assert s.winners() == [1] and s.info()["tiebreak"] == "most_sectors_locked"


def test_r11_tiebreak_most_deals_won():
    """R11: tied Reputation and locks -> most Deals won."""
    s = last_deal([0, 3, 0], [[0] * 4, [1, 0, 0, 0], [0] * 4])
    act(s, "pitch Network 8")  # seat 0 wins Conference Badge: 3 + 1 Sector = 4
    act(s, "pass")
    act(s, "skip")
    act(s, "pass")
    act(s, "skip")
    assert s.returns()[:2] == [4.0, 4.0] and s.sectors_locked[:2] == [0, 0]
    assert s.winners() == [0] and s.info()["tiebreak"] == "most_deals_won"


def test_r11_tiebreak_shared():
    """R11: tied on everything -> the win is shared."""
    u = last_deal([5, 5, 0], [[0] * 4, [0] * 4, [0] * 4])
    _finish_all_pass(u)
    assert u.winners() == [0, 1] and u.info()["tiebreak"] == "shared"
