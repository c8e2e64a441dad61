"""The shared observation vectors: fixed size, in bounds, and carrying no
hidden information (identical after `resample_from_infostate`, which redeals
everything the seat cannot see)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import cardlab.adapters
from cardlab.adapters.encoding import (
    HIGH,
    LOW,
    encode_state,
    encoding_for,
    feature_names,
    layout,
)
from cardlab.games import list_games

from .conftest import CASES, IDS, TOY_INFO, make


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


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_layout_names_every_slot_once_in_vector_order(name, players):
    game = _game(name, players)
    size = encoding_for(game).size(game)
    names = feature_names(game)
    assert len(names) == size and len(set(names)) == size
    spans = list(layout(game).values())
    assert spans[0].start == 0 and spans[-1].stop == size
    assert all(a.stop == b.start for a, b in zip(spans, spans[1:], strict=False))


def _card_label(game: str, card: dict) -> str:
    """UPTIME's slots are named by card id, RUNWAY's by kind and number, SUPER COMPUTER's by name."""
    if game == "uptime":
        return card["id"]
    if game == "runway":
        return f"{card['kind']} {card['number']}"
    return card["name"]


@pytest.mark.parametrize("name", sorted({g for g, _ in CASES if g != "toy"}))
def test_layout_says_what_a_slot_means(name):
    # the seat's own hand, read back through the names: each card in hand is the
    # one slot set in the "hand" block, named after the card
    game = _game(name, 3)
    state = game.new_initial_state(2)
    vec = encode_state(state, 1)
    hand = layout(game)["hand"]
    names = feature_names(game)[hand]
    held = [n for n, v in zip(names, vec[hand], strict=True) if v]
    obs = state.observation(1)
    cards = obs["hand"] if "hand" in obs else obs["you"]["hand"]
    expected = [f"hand[{_card_label(name, c)}]" for c in cards]
    assert sorted(set(held)) == sorted(set(expected)) and held


def test_adapters_list_no_game_by_name():
    # a game's encoding, render, decision kinds are found through its GameInfo,
    # so adding a game touches nothing in adapters/
    root = Path(cardlab.adapters.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text()
        for game in list_games():
            if game == TOY_INFO.name:
                continue
            assert f'"{game}"' not in text and f"'{game}'" not in text, f"{path} names {game}"


def _policies(game):
    """Random play, greedy play (high scores) and always-the-first-action play
    (long, stalling games): the states where counts reach their maxima."""
    from cardlab.agents import make_agent

    greedy = make_agent("greedy", seed=3)
    yield "random", (lambda s, legal, rng: rng.choice(legal))
    yield "first", (lambda s, legal, rng: legal[0])
    yield "greedy", (lambda s, legal, rng: greedy.step(s.clone()))


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_every_slot_stays_inside_the_declared_bounds(name, players):
    # the Box spaces say [LOW, HIGH]; every slot of every seat's vector at every
    # state of whole games keeps to it (PettingZoo's api_test failed on UPTIME
    # deals where a payment held 5 Silicon: payment.paid/4 read 1.25)
    game = _game(name, players)
    names = feature_names(game)
    rng = random.Random(players)
    lo = np.full(len(names), np.inf, np.float32)
    hi = np.full(len(names), -np.inf, np.float32)
    for _policy, choose in _policies(game):
        for seed in range(2):
            state = game.new_initial_state(seed)
            for _ in range(game.max_game_length() + 1):
                for p in range(players):
                    vec = encode_state(state, p)
                    np.minimum(lo, vec, out=lo)
                    np.maximum(hi, vec, out=hi)
                if state.is_terminal():
                    break
                state.apply_action(choose(state, state.legal_actions(), rng))
    out = [(n, float(a), float(b)) for n, a, b in zip(names, lo, hi, strict=True)]
    bad = [x for x in out if x[1] < LOW or x[2] > HIGH]
    assert not bad, f"slots out of [{LOW}, {HIGH}]: {bad[:10]}"


def test_uptime_payment_of_five_of_a_kind_stays_in_bounds():
    # the extreme that broke the bound: find a payment holding 5 of one material
    from collections import Counter

    from cardlab.games import load_game

    game = load_game("uptime", players=2)
    slots = layout(game)
    block = next(k for k in slots if k.startswith("payment.paid/"))
    copies = int(block.rsplit("/", 1)[1])
    assert copies == max(Counter(game.cards.name).values())  # from the card data
    for seed in range(1000):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            pay = state.observation(0)["payment"]
            if pay and pay["paid"] and max(Counter(pay["paid"]).values()) >= 5:
                vec = encode_state(state, 0)
                assert vec.min() >= LOW and vec.max() <= HIGH
                most = max(Counter(pay["paid"]).values())
                assert vec[slots[block]].max() == pytest.approx(most / copies)
                return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no payment of 5 of one material in 1,000 random games")


def _has_fast_path(name: str) -> bool:
    from cardlab.games import game_info

    return name != "toy" and hasattr(game_info(name).module("encoding"), "encode_state")


FAST_CASES = [c for c in CASES if _has_fast_path(c[0])]


@pytest.mark.parametrize(("name", "players"), FAST_CASES, ids=[f"{g}-{n}p" for g, n in FAST_CASES])
def test_fast_path_gives_the_reference_vector(name, players):
    # a game's encode_state (read off the state) against write (from the observation
    # only): identical float32 vectors at every state of random, greedy and
    # first-action games, every seat; so the fast path shows nothing the observation
    # does not, and the adapters may use it
    game = _game(name, players)
    enc = encoding_for(game)
    names = feature_names(game)
    rng = random.Random(11 * players)
    checked = 0
    for _policy, choose in _policies(game):
        for seed in range(3):
            state = game.new_initial_state(seed)
            for _ in range(game.max_game_length() + 1):
                for p in range(players):
                    fast, ref = enc.encode_state(state, p), enc.encode_reference(state, p)
                    assert fast.dtype == ref.dtype and fast.shape == ref.shape
                    diff = np.flatnonzero(fast != ref)
                    assert not diff.size, [(names[i], fast[i], ref[i]) for i in diff[:8]]
                    checked += 1
                if state.is_terminal():
                    break
                state.apply_action(choose(state, state.legal_actions(), rng))
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4])
def test_uptime_fast_path_knows_every_block(players):
    # UPTIME's fast path falls back to `write` for a layout with blocks it does not
    # know (a lever's new slots); the packaged game must not need the fallback
    from cardlab.games import game_info, load_game

    module = game_info("uptime").module("encoding")
    assert module._fast(load_game("uptime", players=players)).ok


LEVER_CASES = {
    "uptime": {"hand_limit": 6, "trade_in": 2, "row_conveyor": 1, "row_size": 3},
    "runway": {"shock_effect": "reward_minus_one", "last_seat": "rotate", "cash_penalty": 2},
    "supercomputer": {"builds": "keep_both", "case_width": 4, "case_height": 4},
}


@pytest.mark.parametrize("name", sorted(LEVER_CASES))
def test_fast_path_equals_the_reference_with_rule_levers_set(name):
    # levers add decisions (UPTIME's discard and trade-in) and change rows, decks and
    # cases: the fast path still gives the reference's vector, every state and seat
    from cardlab.games import load_game

    game = load_game(name, players=3, **LEVER_CASES[name])
    enc = encoding_for(game)
    rng = random.Random(5)
    for seed in range(4):
        state = game.new_initial_state(seed)
        while True:
            for p in range(3):
                assert np.array_equal(enc.encode_state(state, p), enc.encode_reference(state, p))
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
