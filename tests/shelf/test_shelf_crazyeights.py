"""CRAZY EIGHTS rules (src/cardlab_shelf/crazyeights/rules.md), each test citing its rule."""

from __future__ import annotations

import random

import pytest
from shelf_support import card, cards, random_game

import cardlab
from cardlab_shelf.crazyeights import actions


def fresh(players=3, seed=0):
    state = cardlab.load_game("crazyeights", players=players).new_initial_state(seed)
    state.wild_start = False
    return state


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (5, 5)])
def test_the_deal(players, size):  # C1
    state = cardlab.load_game("crazyeights", players=players).new_initial_state(1)
    assert all(len(h) == size for h in state.hands) and len(state.discard) == 1
    assert len(state.stock) == 52 - players * size - 1
    assert state.current_player() == (state.dealer + 1) % players


def test_match_the_suit_or_rank_or_play_an_eight():  # C2
    state = fresh()
    game = state.game
    state.discard = [card(game, "h09")]
    seat = state.current_player()
    state.hands[seat] = cards(game, "h02", "s09", "c08", "d04", "c05")
    assert sorted(state.legal_actions()) == sorted(
        cards(game, "h02", "s09", "c08") + [actions.DRAW]
    )


def test_an_eight_names_the_suit_the_next_seat_follows():  # C3
    state = fresh()
    game = state.game
    state.discard = [card(game, "h09")]
    seat = state.current_player()
    state.hands[seat] = cards(game, "c08", "d04")
    state.apply_action(card(game, "c08"))
    assert state.decision_kind() == "suit" and state.current_player() == seat
    assert state.legal_actions() == [52, 53, 54, 55]
    state.apply_action(actions.name_suit("d"))
    nxt = state.current_player()
    assert nxt == (seat + 1) % 3
    state.hands[nxt] = cards(game, "c09", "d13", "s08", "h05")
    assert sorted(state.legal_actions()) == sorted(cards(game, "d13", "s08") + [actions.DRAW])


def test_a_draw_keeps_the_turn_and_a_pass_needs_an_empty_stock():  # C4, C5
    state = fresh()
    seat = state.current_player()
    before = len(state.hands[seat])
    state.apply_action(actions.DRAW)
    assert state.current_player() == seat and len(state.hands[seat]) == before + 1
    assert actions.PASS not in state.legal_actions()
    game = state.game
    state.stock = []
    state.discard = [card(game, "h09")]
    state.hands[seat] = cards(game, "c02", "d04")
    assert state.legal_actions() == [actions.PASS]


def test_every_seat_passing_blocks_the_deal_and_the_lowest_hand_takes_the_difference():  # C5, C7
    state = fresh()
    game = state.game
    state.stock = []
    state.discard = [card(game, "h09")]
    hands = [cards(game, "c02", "d04"), cards(game, "c13"), cards(game, "s03", "d05", "c06")]
    state.hands = [list(h) for h in hands]
    for _ in range(3):
        state.apply_action(actions.PASS)
    scored = [e for e in state.log if e[0] == "scored"][-1]
    assert scored[3] is True and scored[2] == 0
    assert list(scored[1]) == [(10 - 6) + (14 - 6), 0, 0]  # hands 6, 10, 14


def test_going_out_collects_the_other_hands():  # C6
    state = fresh()
    game = state.game
    state.discard = [card(game, "h09")]
    seat = state.current_player()
    others = [(seat + 1) % 3, (seat + 2) % 3]
    state.hands[seat] = cards(game, "h02")
    state.hands[others[0]] = cards(game, "s08", "c13")  # 50 + 10
    state.hands[others[1]] = cards(game, "d14", "c07")  # 1 + 7
    state.apply_action(card(game, "h02"))
    assert state.points[seat] == 68 and state.deals_won[seat] == 1


def test_a_redeal_keeps_what_a_pass_showed():  # C5
    rng = random.Random(2)
    state = cardlab.load_game("crazyeights", players=3).new_initial_state(2)
    while not any(state.lacks):
        state.apply_action(rng.choice(state.legal_actions()))
    passer = next(s for s, x in enumerate(state.lacks) if x)
    me = (passer + 1) % 3
    for seed in range(20):
        redealt = state.resample_from_infostate(me, seed)
        assert not set(state.lacks[passer]) & set(redealt.hands[passer])
        assert redealt.observation(me) == state.observation(me)


def test_most_points_win_within_the_bounds():  # C8
    for seed in range(4):
        state = random_game("crazyeights", 4, seed)
        low, high = state.game.utility_bounds()
        assert all(low <= p <= high for p in state.returns())
        assert len(state.history()) <= state.game.max_game_length()
        keys = [(state.points[s], state.deals_won[s]) for s in range(4)]
        assert state.winners() == [s for s in range(4) if keys[s] == max(keys)]
