"""RUNWAY's public view (what a spectator gets): no hand; the cards everyone saw a
seat take from the Bench stay public, for every seat."""

import json
import random
import re

import pytest

from cardlab import load_game
from cardlab.games.runway.actions import CARD_IDS


def ids_in(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)}


def states(players: int, seed: int):
    """Every state of one random game (the same object, moved on)."""
    state = load_game("runway", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_public_view_is_a_seats_view_without_the_hand(players):
    checked = 0
    for state in states(players, seed=players):
        public = state.public_observation()
        assert public["seat"] is None and "hand" not in public
        assert set(public["known_in_hands"]) == {str(q) for q in range(players)}
        for p in range(players):
            obs = state.observation(p)
            assert "hand" in obs
            # a seat knows its own hand whole; everything else is the public view
            assert public["known_in_hands"][str(p)] == [
                c for c in obs["hand"] if c["id"] in _seen_taken(state, p)
            ]
            ignore = ("seat", "hand", "known_in_hands")
            rest = [(k, v) for k, v in obs.items() if k not in ignore]
            assert rest == [(k, v) for k, v in public.items() if k not in ignore]
            others = {q: v for q, v in public["known_in_hands"].items() if q != str(p)}
            assert obs["known_in_hands"] == others
        checked += 1
    assert checked > 30


def _seen_taken(state, seat: int) -> set[str]:
    return {CARD_IDS[x] for x in state.hands[seat] if state.publicly_known[x]}


def test_public_view_hides_hands_and_decks_but_shows_cards_taken_from_the_bench():
    found = None
    for seed in range(40):
        for state in states(3, seed):
            if any(_seen_taken(state, q) for q in range(3)):
                found = state
                break
        if found:
            break
    assert found is not None, "no random game took a card from the Bench"
    state = found
    text = json.dumps(state.public_observation())
    taken = set().union(*(_seen_taken(state, q) for q in range(3)))
    assert ids_in(text, taken) == taken
    hidden = state.public_hidden_card_ids()
    hands = {cid for q in range(3) for cid in state.zones()[f"private:{q}:hand"]}
    assert hidden == (hands - taken) | set(state.zones()["hidden:draw_pile"]) | set(
        state.zones()["hidden:deal_deck"]
    )
    assert hands - taken and ids_in(json.dumps(state.observation(0)), hands - taken)
    assert ids_in(text, hidden) == set()
