"""HEARTS rules (src/cardlab_shelf/hearts/rules.md), each test citing its rule."""

from __future__ import annotations

import random

import pytest
from shelf_support import card, cards, names_no_id, random_game

import cardlab
from cardlab.core import IllegalActionError
from cardlab.games import game_info
from cardlab_shelf.hearts import actions, scoring


@pytest.fixture
def game():
    return cardlab.load_game("hearts")


def to_play(game, seed=1):
    """A state after the pass, the first trick about to be led."""
    state = game.new_initial_state(seed)
    while state.phase == actions.PASS:
        state.apply_action(state.legal_actions()[0])
    return state


def test_hearts_is_declared_lowest_wins_and_the_fewest_points_win():  # H8
    assert game_info("hearts").score_direction == "lowest"
    for seed in range(5):
        state = random_game("hearts", 4, seed)
        low = min(state.returns())
        assert state.winners() == [s for s, p in enumerate(state.returns()) if p == low]  # H9


def test_each_deal_gives_every_seat_13_cards(game):  # H1
    state = game.new_initial_state(6)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len({c for h in state.hands for c in h}) == 52


def test_the_pass_goes_left_right_across_then_holds():  # H2
    state = random_game("hearts", 4, 3, deals=5)
    assert [e[2] for e in state.log if e[0] == "deal"] == [1, 3, 2, 0, 1]


def test_three_passed_cards_reach_the_receiver_and_only_the_passer_knows(game):  # H2
    state = game.new_initial_state(4)
    chosen = {s: state.hands[s][:3] for s in range(4)}
    for seat in range(4):
        assert state.current_player() == seat and state.decision_kind() == "pass"
        for c in chosen[seat]:
            state.apply_action(actions.pass_card(c))
    assert state.phase == actions.PLAY
    ids = [c.id for c in game.cards.cards]
    for giver in range(4):
        receiver = (giver + 1) % 4  # left in deal 1
        assert set(chosen[giver]) <= set(state.hands[receiver])
        passed = {ids[c] for c in chosen[giver]}
        assert not passed & state.hidden_card_ids(giver)  # the passer knows where they are
        third = (giver + 2) % 4
        assert passed <= state.hidden_card_ids(third)
        assert names_no_id(state, third, passed) and names_no_id(state, None, passed)
        assert state.observation(giver)["you"]["passed to"] == receiver


def test_the_choice_is_secret_until_the_exchange(game):  # H2
    state = game.new_initial_state(5)
    c = state.hands[0][0]
    state.apply_action(actions.pass_card(c))
    cid = game.cards.cards[c].id
    assert not names_no_id(state, 0, {cid})
    assert all(names_no_id(state, s, {cid}) for s in (1, 2, 3, None))


def test_the_two_of_clubs_leads_the_first_trick(game):  # H3
    state = to_play(game)
    two = card(game, "c02")
    assert two in state.hands[state.current_player()]
    assert state.legal_actions() == [two]


def test_no_points_on_the_first_trick_unless_nothing_else(game):  # H3
    state = to_play(game)
    state.apply_action(card(game, "c02"))
    seat = state.current_player()
    state.hands[seat] = cards(game, "h05", "s12", "d09")  # void in clubs
    assert state.legal_actions() == [card(game, "d09")]
    state.hands[seat] = cards(game, "h05", "s12")
    assert sorted(state.legal_actions()) == cards(game, "h05", "s12")


def test_follow_suit_and_the_highest_of_the_suit_led_takes(game):  # H4
    state = to_play(game)
    state.apply_action(card(game, "c02"))
    seat = state.current_player()
    state.hands[seat] = cards(game, "c09", "d14")
    assert state.legal_actions() == [card(game, "c09")]
    with pytest.raises(IllegalActionError):
        state.apply_action(card(game, "d14"))
    trick = [
        (0, card(game, "c05")),
        (1, card(game, "d14")),
        (2, card(game, "c13")),
        (3, card(game, "s12")),
    ]
    assert scoring.trick_winner(state, trick) == 2


def test_hearts_cannot_be_led_until_broken(game):  # H5
    state = to_play(game)
    state.tricks_played, state.trick = 1, []
    seat = state.current_player()
    state.hands[seat] = cards(game, "h02", "h10", "c07")
    assert not state.broken
    assert state.legal_actions() == [card(game, "c07")]
    state.hands[seat] = cards(game, "h02", "h10")
    assert state.legal_actions() == cards(game, "h02", "h10")  # only hearts: may lead one
    state.hands[seat] = cards(game, "h02", "h10", "c07")
    state.broken = True
    assert state.legal_actions() == cards(game, "h02", "h10", "c07")


def test_a_heart_played_to_a_trick_breaks_hearts(game):  # H5
    state = to_play(game)
    state.apply_action(card(game, "c02"))
    state.tricks_played = 1  # past the first trick, a void may throw a heart
    seat = state.current_player()
    state.hands[seat] = cards(game, "h07", "d03")
    state.apply_action(card(game, "h07"))
    assert state.broken


def test_the_queen_of_spades_is_13_and_each_heart_1(game):  # H6
    state = game.new_initial_state(0)
    state.taken = [cards(game, "s12", "h02", "c05"), cards(game, "h03", "h04"), [], []]
    scored, moon = scoring.deal_points(state)
    assert scored[:2] == [14, 2] and moon is None
    for seed in range(4):  # every deal gives out 26, or 78 after a moon
        done = random_game("hearts", 4, seed)
        assert all(sum(d) in (26, 78) for d in done.deal_scores)


def test_shooting_the_moon_scores_zero_and_26_to_every_other(game):  # H6
    state = game.new_initial_state(0)
    penalty = [i for i, c in enumerate(game.cards.cards) if c.points]
    state.taken = [[], penalty + cards(game, "c03"), [], []]
    assert scoring.deal_points(state) == ([26, 0, 26, 26], 1)


def test_a_game_is_the_set_of_deals_within_its_bounds(game):  # H7
    state = random_game("hearts", 4, 9, deals=2)
    assert state.deal == 2 and len(state.history()) == state.game.max_game_length()
    low, high = state.game.utility_bounds()
    assert all(low <= p <= high for p in state.returns())


def test_a_redeal_keeps_a_shown_void_and_the_passed_cards(game):  # H4, H2
    rng = random.Random(0)
    state = game.new_initial_state(2)
    while not any(state.voids) or state.phase != actions.PLAY:
        state.apply_action(rng.choice(state.legal_actions()))
    void_seat = next(s for s, v in enumerate(state.voids) if v)
    me = (void_seat + 1) % 4
    known = state.known_elsewhere(me)
    for seed in range(20):
        redealt = state.resample_from_infostate(me, seed)
        assert not any(game.suit[c] in state.voids[void_seat] for c in redealt.hands[void_seat])
        for seat, held in known.items():
            assert set(held) <= set(redealt.hands[seat])
