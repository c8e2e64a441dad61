"""OpenSpiel's own consistency test (random_sim_test, 50 games with
serialisation at every state) on every registered game and player count,
OpenSpiel's ISMCTS playing whole games, serialisation of redealt states, and
the hidden-information contract at the OpenSpiel level."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from cardlab.adapters import openspiel  # noqa: E402
from cardlab.games import game_class  # noqa: E402

SPIEL_CASES = [
    (name, n)
    for name in (s.removeprefix("python_cardlab_") for s in openspiel.REGISTERED)
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]
SPIEL_IDS = [f"{g}-{n}p" for g, n in SPIEL_CASES]


@pytest.mark.parametrize(("name", "players"), SPIEL_CASES, ids=SPIEL_IDS)
def test_random_sim_test_50_games_with_serialisation(name, players):
    # OpenSpiel's own check, as its games run it: legal actions, unique action
    # labels, observation and information-state strings and tensors, returns within
    # the bounds, and at every state serialize -> deserialize gives the same state
    game = pyspiel.load_game(openspiel.short_name(name), {"players": players, "deals": 1000})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=50, serialize=True, verbose=False)


def test_rule_options_are_parameters():
    game = pyspiel.load_game(
        "python_cardlab_supercomputer(players=3,builds=keep_both,passing=right)"
    )
    assert game.cardlab.options["builds"] == "keep_both" and game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "players"), SPIEL_CASES, ids=SPIEL_IDS)
def test_infostate_is_unchanged_by_resampling(name, players):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": players})
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply_action(rng.randrange(game.max_chance_outcomes()))
    for _ in range(25):
        if state.is_terminal():
            break
        for p in range(players):
            redealt = state.resample_from_infostate(p, rng.random)
            assert redealt.information_state_string(p) == state.information_state_string(p)
            assert redealt.observation_string(p) == state.observation_string(p)
            assert np.array_equal(
                redealt.information_state_tensor(p), state.information_state_tensor(p)
            )
        state.apply_action(rng.choice(state.legal_actions()))
    # the deal seed and the replay: serialisation gives back the same game
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.history() == state.history()
    assert again.information_state_string(0) == state.information_state_string(0)


@pytest.mark.parametrize("name", sorted({g for g, _ in SPIEL_CASES}))
def test_openspiel_ismcts_plays_a_whole_game(name):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": 2})
    rs = np.random.RandomState(0)
    rng = random.Random(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 10.0, 4, random_state=rs)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
    state = game.new_initial_state()
    state.apply_action(7)
    while not state.is_terminal():
        state.apply_action(int(bot.step(state)))
    assert state.returns() == [float(x) for x in state.inner.returns()]


@pytest.mark.parametrize(("name", "players"), SPIEL_CASES, ids=SPIEL_IDS)
def test_bounds_are_the_engines_own(name, players):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": players})
    inner = game.cardlab
    assert (game.min_utility(), game.max_utility()) == inner.utility_bounds()
    assert game.max_game_length() == inner.max_game_length() + 1  # + the deal


@pytest.mark.parametrize("name", sorted({g for g, _ in SPIEL_CASES}))
def test_information_state_tensor_is_the_observation_plus_own_actions(name):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": 3})
    size = game.observation_tensor_size()
    slots = game.cardlab.max_game_length()
    assert game.information_state_tensor_size() == size + slots
    scale = game.num_distinct_actions()
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(11)
    for _ in range(40):
        if state.is_terminal():
            break
        for p in range(3):
            tensor = np.asarray(state.information_state_tensor(p))
            assert np.array_equal(tensor[:size], state.observation_tensor(p))
            own = [a for seat, a in state.moves if seat == p]
            expected = np.zeros(slots, np.float32)
            expected[: len(own)] = (np.asarray(own, np.float32) + 1) / scale
            assert np.allclose(tensor[size:], expected)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", sorted({g for g, _ in SPIEL_CASES}))
def test_a_redealt_state_serialises_as_the_redealt_world(name):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": 3})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(5)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    redealt = state.resample_from_infostate(1, rng.random)
    for _ in range(3):  # and play on in the redealt world, then redeal again
        if not redealt.is_terminal():
            redealt.apply_action(rng.choice(redealt.legal_actions()))
    redealt = redealt.resample_from_infostate(2, rng.random)
    assert redealt.play.redeals and redealt.inner.zones() != state.inner.zones()
    text = pyspiel.serialize_game_and_state(game, redealt)
    again = pyspiel.deserialize_game_and_state(text)[1]
    assert again.inner.zones() == redealt.inner.zones(), "the redeal is replayed"
    for p in range(3):
        assert again.information_state_string(p) == redealt.information_state_string(p)
    assert again.history() == redealt.history()
    assert str(again) == str(redealt)


def test_serialisation_is_seed_moves_and_redeals_not_engine_internals():
    import base64
    import pickle
    import pickletools

    game = pyspiel.load_game("python_cardlab_runway", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(state.legal_actions()[0])
    state = state.resample_from_infostate(0, random.Random(1).random)
    blob = pyspiel.serialize_game_and_state(game, state).split("__dict__=", 1)[1].strip()
    raw = base64.b64decode(blob)
    globals_used = {
        arg for op, arg, _ in pickletools.genops(raw) if op.name in ("STACK_GLOBAL", "GLOBAL")
    }
    strings = {arg for op, arg, _ in pickletools.genops(raw) if isinstance(arg, str)}
    assert "_replay" in strings and not any("State" in s for s in strings), strings
    assert globals_used <= {None}  # protocol 4+: module and name come as strings
    play = pickle.loads(raw)["play"]
    assert play.seed == 3 and play.moves == state.play.moves and play.redeals == state.play.redeals


def test_the_python_observer_names_every_tensor_slot():
    game = pyspiel.load_game("python_cardlab_runway", {"players": 3})
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    plain = game.make_py_observer()
    names = info.feature_names()
    assert len(names) == game.information_state_tensor_size() == len(set(names))
    assert plain.feature_names() == names[: game.observation_tensor_size()]
    assert names[-1] == f"own_actions[{game.cardlab.max_game_length() - 1}]"


def _worker_plays(game, seed):
    """Runs in a worker process: the game arrived pickled."""
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return str(game), state.history(), state.returns()


@pytest.mark.parametrize(("name", "players"), SPIEL_CASES, ids=SPIEL_IDS)
def test_games_sim_test_with_pickling(name, players):
    # OpenSpiel's own games_sim_test body: pickles the game, its type and states
    # along a simulated game (it failed while the classes made with type() were
    # not bound in their module)
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    game = pyspiel.load_game(openspiel.short_name(name), {"players": players, "deals": 100})
    GamesSimTest().sim_game(game, check_pickle_serialization=True)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.cardlab.num_players == players


def test_a_game_goes_to_a_multiprocessing_worker():
    import multiprocessing

    game = pyspiel.load_game("python_cardlab_runway", {"players": 3})
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        text, history, returns = pool.apply(_worker_plays, (game, 4))
    local = _worker_plays(game, 4)
    assert text == str(game) and (history, returns) == local[1:]


@pytest.mark.parametrize("name", ["uptime", "runway", "supercomputer"])
def test_an_illegal_action_is_refused_and_changes_nothing(name):
    """The engine refuses it; the state's player, history, moves and serialisation are
    the same afterwards (the kept current player and the move record included)."""
    game = pyspiel.load_game(openspiel.short_name(name), {"players": 3})
    state = game.new_initial_state()
    state.apply_action(7)
    rng = random.Random(name)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = (state.current_player(), state.history(), list(state.moves), state.serialize())
    with pytest.raises(Exception, match="(?i)illegal|not legal"):
        state.apply_action(illegal)
    after = (state.current_player(), state.history(), list(state.moves), state.serialize())
    assert after == before
    state.apply_action(state.legal_actions()[0])  # and play goes on from there
    assert len(state.moves) == 6


def test_an_observation_string_leaves_the_log_to_the_information_state():
    """The observation is what the seat sees now (as its tensor is); the public log, the
    history, is in the information state string alone."""
    game = pyspiel.load_game(openspiel.short_name("supercomputer"), {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(5)
    state.apply_action(rng.randrange(game.max_chance_outcomes()))
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    observed = json.loads(state.observation_string(0))
    informed = json.loads(state.information_state_string(0).split("\nown actions:")[0])
    assert "log" not in observed and informed["log"]
    assert {k: v for k, v in informed.items() if k != "log"} == observed
