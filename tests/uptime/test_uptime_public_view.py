"""UPTIME's public view (what a spectator gets): a seat's observation minus its hand."""

import json
import random
import re

import pytest

from cardlab import load_game


def ids_in(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)}


def states(players: int, seed: int, steps: int = 400):
    """Every state of one random game."""
    state = load_game("uptime", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 4])
def test_public_view_is_a_seats_view_without_the_hand(players):
    checked = 0
    for state in (s for seed in range(6) for s in states(players, seed)):
        public = state.public_observation()
        assert public["seat"] is None and "hand" not in public
        for p in range(players):
            obs = state.observation(p)
            assert obs["hand"] is not None
            rest = {k: v for k, v in obs.items() if k not in ("seat", "hand")}
            assert rest == {k: v for k, v in public.items() if k != "seat"}
            assert list(rest) == [k for k in public if k != "seat"]  # same shape, same order
        checked += 1
    assert checked > 60


def test_public_view_names_no_card_in_any_hand_or_deck():
    state = next(s for s in states(3, seed=3) if s.zones()["private:1:hand"])
    hand = set(state.zones()["private:1:hand"])
    seat_text = json.dumps(state.observation(1))
    assert ids_in(seat_text, hand) == hand  # the search finds a hand when it is there
    public_text = json.dumps(state.public_observation())
    hidden = state.public_hidden_card_ids()
    assert hand <= hidden and state.zones()["hidden:supply_deck"]
    assert ids_in(public_text, hidden) == set()
    # what is face up is still shown
    row = set(state.zones()["public:build_row"])
    assert row and ids_in(public_text, row) == row
