"""OH HELL rules (src/cardlab_shelf/ohhell/rules.md), each test citing its rule."""

from __future__ import annotations

import random

import pytest
from shelf_support import card, cards, names_no_id, random_game

import cardlab
from cardlab.core import IllegalActionError, OptionError
from cardlab_shelf.ohhell import actions, scoring


@pytest.fixture
def game():
    return cardlab.load_game("ohhell", players=4)


def test_hands_shrink_from_start_to_one_and_trump_is_turned_up(game):  # O1, O2
    state = game.new_initial_state(1)
    sizes = []
    rng = random.Random(1)
    while not state.is_terminal():
        if state.phase == actions.BID and all(b is None for b in state.bids):
            sizes.append(len(state.hands[0]))
            assert all(len(h) == sizes[-1] for h in state.hands)
            assert state.trump_card not in {c for h in state.hands for c in h}
            assert state.trump_suit == game.suit[state.trump_card]
            assert state.dealer == state.deal % 4
            assert state.current_player() == (state.dealer + 1) % 4
        state.apply_action(rng.choice(state.legal_actions()))
    assert sizes == [7, 6, 5, 4, 3, 2, 1]
    assert len(state.history()) == game.max_game_length()


def test_bids_are_ordinary_decisions_from_zero_to_the_hand(game):  # O3, O6
    state = game.new_initial_state(2)
    assert state.decision_kind() == "bid"
    assert state.legal_actions() == [actions.bid(b) for b in range(8)]
    assert state.action_to_string(actions.bid(1)) == "bid 1 trick"
    assert state.action_to_string(actions.bid(3)) == "bid 3 tricks"


def test_the_dealer_may_not_make_the_bids_add_up(game):  # O3
    state = game.new_initial_state(2)
    for b in (2, 1, 3):
        state.apply_action(actions.bid(b))
    assert state.current_player() == state.dealer
    assert actions.bid(1) not in state.legal_actions()  # 2 + 1 + 3 + 1 = 7 tricks
    assert len(state.legal_actions()) == 7
    with pytest.raises(IllegalActionError):
        state.apply_action(actions.bid(1))
    state.apply_action(actions.bid(0))
    assert state.decision_kind() == "play"
    assert sum(state.bids) != 7


def test_follow_suit_if_you_can(game):  # O4
    state = game.new_initial_state(3)
    for b in (1, 1, 1, 1):
        state.apply_action(actions.bid(b))
    leader = state.current_player()
    state.hands[leader] = cards(game, "d05", "c07", "c08", "c09", "c10", "c11", "c12")
    state.apply_action(card(game, "d05"))
    follower = state.current_player()
    state.hands[follower] = cards(game, "d09", "s14", "h02", "h03", "h04", "h05", "h06")
    assert state.legal_actions() == [card(game, "d09")]
    state.hands[follower] = cards(game, "s14", "h02", "h03", "h04", "h05", "h06", "h07")
    assert len(state.legal_actions()) == 7


def test_a_trump_beats_the_suit_led(game):  # O5
    state = game.new_initial_state(3)
    state.trump_suit = "s"
    trick = [
        (0, card(game, "d14")),
        (1, card(game, "s02")),
        (2, card(game, "d13")),
        (3, card(game, "h14")),
    ]
    assert scoring.trick_winner(state, trick) == 1
    state.trump_suit = "c"
    assert scoring.trick_winner(state, trick) == 0


def test_only_an_exact_bid_scores_ten_plus_the_bid():  # O7
    assert scoring.deal_points([0, 2, 3, 1], [0, 3, 3, 1]) == [10, 0, 13, 11]
    for seed in range(3):
        state = random_game("ohhell", 3, seed)
        totals = [0, 0, 0]
        scored = [e for e in state.log if e[0] == "scored"]
        for size, e in zip(state.game.sizes, scored, strict=True):
            bids, tricks, points = e[1:]
            assert sum(tricks) == size and sum(bids) != size  # O3: somebody fails
            for s in range(3):
                made = (10 + bids[s]) if bids[s] == tricks[s] else 0
                assert points[s] == made
                totals[s] += made
        assert state.returns() == [float(t) for t in totals]


def test_most_points_win_then_most_bids_made(game):  # O8
    state = random_game("ohhell", 4, 5)
    assert state.info()["bids_made"] == state.made
    top = max(state.points)
    tied = [s for s in range(4) if state.points[s] == top]
    best = max(state.made[s] for s in tied)
    assert state.winners() == [s for s in tied if state.made[s] == best]


def test_the_start_option_is_checked():  # O1
    assert len(cardlab.load_game("ohhell", players=5, start=10).sizes) == 10
    with pytest.raises(OptionError, match="start"):
        cardlab.load_game("ohhell", players=5, start=11)


def test_another_seats_hand_is_never_named(game):
    state = game.new_initial_state(8)
    ids = {game.cards.cards[c].id for c in state.hands[1]}
    assert names_no_id(state, 0, ids) and names_no_id(state, None, ids)
    assert not names_no_id(state, 1, ids)


def test_a_redeal_keeps_a_shown_void(game):  # O4
    rng = random.Random(4)
    state = game.new_initial_state(4)
    while not any(state.voids):
        state.apply_action(rng.choice(state.legal_actions()))
    void_seat = next(s for s, v in enumerate(state.voids) if v)
    me = (void_seat + 1) % 4
    for seed in range(20):
        redealt = state.resample_from_infostate(me, seed)
        assert not any(game.suit[c] in state.voids[void_seat] for c in redealt.hands[void_seat])
        assert redealt.trump_card == state.trump_card
