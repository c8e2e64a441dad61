"""SUPER COMPUTER's public view (what a spectator gets): no "you" (hand, pending
pick, builds), and no other seat's hand, which only the seats that held it know."""

import json
import random
import re

import pytest

from cardlab import load_game

KNOWN = ("known_hand", "known_hand_and_pick")


def ids_in(text: str, ids: set[str]) -> set[str]:
    return {i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)}


def states(players: int, seed: int):
    """Every state of one random game (the same object, moved on)."""
    state = load_game("supercomputer", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("players", [2, 3, 5])
def test_public_view_is_a_seats_view_without_its_private_parts(players):
    checked = knew = 0
    for state in states(players, seed=players):
        public = state.public_observation()
        assert public["seat"] is None and "you" not in public
        assert not any(k in entry for entry in public["players"] for k in KNOWN)
        for p in range(players):
            obs = state.observation(p)
            assert "hand" in obs["you"]
            knew += sum(k in entry for entry in obs["players"] for k in KNOWN)
            stripped = [{k: v for k, v in e.items() if k not in KNOWN} for e in obs["players"]]
            assert stripped == public["players"]
            rest = [(k, v) for k, v in obs.items() if k not in ("seat", "you", "players")]
            assert rest == [(k, v) for k, v in public.items() if k not in ("seat", "players")]
        checked += 1
    assert checked > 30 and knew > 0  # seats did know other hands, and the view hid them


def test_public_view_names_no_hand_pick_build_or_deck_card():
    state = next(
        s
        for s in states(3, seed=11)
        if s.decision_kind() == "pick" and s.pending_picks[0] >= 0 and s.zones()["private:1:hand"]
    )
    zones = state.zones()
    pick = set(zones["private:0:pick"])
    assert pick and ids_in(json.dumps(state.observation(0)), pick) == pick
    private = {cid for key, ids in zones.items() if key.startswith("private:") for cid in ids}
    hidden = state.public_hidden_card_ids()
    assert pick | private <= hidden and set(zones["hidden:deck"]) <= hidden
    text = json.dumps(state.public_observation())
    assert ids_in(text, hidden) == set()
    shown = set(zones["public:set_aside"]) | set(zones["public:race"])
    assert shown and ids_in(text, shown) == shown
