"""The shared observation vectors: fixed size, in bounds, and carrying no
hidden information (identical after `resample_from_infostate`, which redeals
everything the seat cannot see)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from cardlab.adapters.encoding import HIGH, LOW, encode_state, encoding_for

from .conftest import CASES, IDS, make


def _game(name, players):
    kw = make(name, players)
    if isinstance(kw["game"], str):
        from cardlab.games import load_game

        return load_game(kw["game"], players=kw["players"])
    return kw["game"]


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_vector_is_fixed_size_bounded_and_blind_to_hidden_cards(name, players):
    game = _game(name, players)
    enc = encoding_for(game)
    rng = random.Random(7)
    for seed in (1,):
        state = game.new_initial_state(seed)
        seen = set()
        while True:
            for p in range(players):
                vec = encode_state(state, p)
                assert vec.shape == (enc.size(game),) and vec.dtype == np.float32
                assert vec.min() >= LOW and vec.max() <= HIGH
                redealt = state.resample_from_infostate(p, rng.getrandbits(32))
                assert np.array_equal(encode_state(redealt, p), vec), f"seat {p} vector leaks"
                # a function of the JSON observation alone
                obs = json.loads(json.dumps(state.observation(p)))
                assert np.array_equal(enc.encode(obs, game), vec)
                seen.add(vec.tobytes())
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        assert len(seen) > 3, "the vector hardly changes over a whole game"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_seats_see_different_vectors(name, players):
    state = _game(name, players).new_initial_state(4)
    vecs = {encode_state(state, p).tobytes() for p in range(players)}
    assert len(vecs) == players
