"""WAR rules (src/cardlab_shelf/war/rules.md): no decisions, bounded, wars settle."""

from __future__ import annotations

import pytest
from shelf_support import card, random_game

import cardlab
from cardlab_shelf.war import state as war_state


@pytest.fixture
def game():
    return cardlab.load_game("war")


def test_there_is_no_decision_only_the_forced_turn(game):  # W1
    state = game.new_initial_state(0)
    seats = []
    while not state.is_terminal():
        assert state.legal_actions() == [0] and state.decision_kind() == "turn"
        seats.append(state.current_player())
        state.apply_action(0)
    assert seats[:4] == [0, 1, 0, 1]


@pytest.mark.parametrize("battles", [1, 10, 100])
def test_every_game_ends_within_its_cap(battles):  # W5
    for seed in range(5):
        state = random_game("war", 2, seed, battles=battles)
        assert len(state.history()) <= 2 * battles == state.game.max_game_length()
        assert sum(state.returns()) == 52
        if state.end_reason == war_state.CAP:
            assert state.battles == battles


def test_the_higher_card_takes_both(game):  # W2
    state = game.new_initial_state(0)
    state.piles = [[card(game, "s14"), card(game, "c02")], [card(game, "h13"), card(game, "d03")]]
    state.apply_action(0)
    state.apply_action(0)
    assert state.log[-1][4] == 0 and state.returns() == [3.0, 1.0]
    # the two cards lie face up until the next battle, then go under the taker's pile
    assert {c["name"] for c in state.observation(1)["table"]} == {"A\u2660", "K\u2665"}
    state.apply_action(0)
    assert len(state.piles[0]) == 2 and state.observation(1)["table"][0]["name"] == "2\u2663"


def test_a_tie_is_a_war_three_down_one_up(game):  # W3, W4
    state = game.new_initial_state(0)
    first = [card(game, i) for i in ("s09", "c02", "c03", "c04", "h14", "c05")]
    second = [card(game, i) for i in ("h09", "d02", "d03", "d04", "d13", "d05")]
    state.piles = [first, second]
    state.apply_action(0)
    state.apply_action(0)
    assert state.log[-1][4] == 0 and state.log[-1][5] == 10  # 2 + 3 + 3 + 1 + 1
    assert state.returns() == [11.0, 1.0] and state.piles[1] == [card(game, "d05")]
    assert len(state.observation(0)["table"]) == 4 and len(state.down) == 6  # 3 down each
    assert state.wars == 1


def test_a_seat_that_cannot_turn_in_a_war_loses_the_table(game):  # W3, W5
    state = game.new_initial_state(0)
    state.piles = [[card(game, "s09")], [card(game, "h09"), card(game, "d02")]]
    state.apply_action(0)
    state.apply_action(0)
    assert state.is_terminal() and state.end_reason == war_state.OUT_OF_CARDS
    assert state.returns() == [0.0, 3.0] and state.winners() == [1]


def test_the_same_seed_plays_the_same_game():
    a, b = random_game("war", 2, 11), random_game("war", 2, 11)
    assert a.history() == b.history() and a.returns() == b.returns() and a.log == b.log


def test_no_pile_card_is_ever_named_by_id(game):
    state = game.new_initial_state(3)
    for _ in range(41):
        state.apply_action(0)
    hidden = state.public_hidden_card_ids()
    face_up = len(state.up) + len(state.shown)  # seat 0's card and the last battle's
    assert len(state.up) == 1 and len(hidden) == 52 - face_up
    import json

    text = json.dumps(state.observation(0))
    assert not any(f'"{i}"' in text for i in hidden)
