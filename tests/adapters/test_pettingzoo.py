"""PettingZoo's own test suites on every game and player count, plus the
properties they do not check: masks match the engine, seeds reach the engine,
rewards sum to the final points, the parallel env plays simultaneous rounds
in one step."""

from __future__ import annotations

import functools
import types
import warnings

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.test.seed_test import parallel_seed_test

from cardlab.adapters.pettingzoo import env, parallel_env, raw_env
from cardlab.core import IllegalActionError

from .conftest import CASES, IDS, make, toy_actions


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    # PettingZoo's checkers report many problems only as warnings; fail on them.
    # Two are exempt: api_test excuses dict observations ({"observation",
    # "action_mask"}, the masked-action convention) only for its own classic games
    # by name, and warns for everyone else.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        yield


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("mode", ["turn", "lockstep"])
def test_pettingzoo_api_and_seed_tests(name, players, mode):
    api_test(env(**make(name, players), mode=mode, render_mode="ansi"), num_cycles=40)
    seed_test(functools.partial(env, **make(name, players), mode=mode), num_cycles=40)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_parallel_and_max_cycles_tests(name, players):
    parallel_api_test(parallel_env(**make(name, players)), num_cycles=40)
    parallel_seed_test(functools.partial(parallel_env, **make(name, players)), num_cycles=40)
    mod = types.SimpleNamespace(
        env=functools.partial(env, **make(name, players), mode="lockstep"),
        parallel_env=functools.partial(parallel_env, **make(name, players)),
    )
    max_cycles_test(mod)


def _play_turn_env(name, players, seed):
    e = raw_env(**make(name, players))
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    actions = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = e.game_state.legal_actions()
        assert e.possible_agents[e.game_state.current_player()] == agent
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        action = int(rng.choice(legal))
        actions.append(action)
        e.step(action)
    return e, totals, actions


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_turn_env_follows_the_engine_and_rewards_sum_to_points(name, players):
    e, totals, actions = _play_turn_env(name, players, seed=5)
    final = e.game_state
    assert final.is_terminal() and final.history() == actions
    assert [totals[a] for a in e.possible_agents] == pytest.approx(final.returns())
    # the same seed reaches the engine: replaying the actions on new_initial_state(5)
    replay = e.game.new_initial_state(5)
    for a in actions:
        replay.apply_action(a)
    assert replay.returns() == final.returns()


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_parallel_env_plays_whole_games(name, players):
    p = parallel_env(**make(name, players))
    obs, _ = p.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(p.possible_agents, 0.0)
    while p.agents:
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in p.agents}
        obs, rew, term, trunc, info = p.step(acts)
        for a, r in rew.items():
            totals[a] += r
    assert all(term.values()) and not any(trunc.values())
    assert [totals[a] for a in p.possible_agents] == pytest.approx(p.table.state.returns())
    assert info["player_0"]["winners"] == p.table.state.winners()


@pytest.mark.parametrize(("name", "players", "rounds"), [("toy", 3, 1), ("supercomputer", 4, 3)])
def test_simultaneous_round_is_one_parallel_step(name, players, rounds):
    # toy: one pick; SUPER COMPUTER: keep a build, pick a part, place it
    p = parallel_env(**make(name, players))
    obs, _ = p.reset(seed=1)
    noop = p.game.num_distinct_actions
    for _ in range(rounds):
        masks = {a: np.flatnonzero(o["action_mask"]).tolist() for a, o in obs.items()}
        assert all(m and m != [noop] for m in masks.values()), "every seat decides at once"
        before = len(p.table.state.history())
        obs, *_ = p.step({a: m[-1] for a, m in masks.items()})
        assert len(p.table.state.history()) == before + players


def test_illegal_action_is_penalized_without_change_or_raises():
    e = raw_env(**make("toy", 2))
    e.reset(seed=0)
    before = e.game_state.history()
    agent = e.agent_selection
    sabotage = toy_actions.sabotage_action(e.game.cards, 1)  # never legal in a pick
    e.step(sabotage)
    assert e.game_state.history() == before and e.agent_selection == agent
    assert e.rewards[agent] == -1.0 and e.infos[agent]["illegal_action"] is True
    strict = raw_env(**make("toy", 2), illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(sabotage)


def test_render_shows_the_selected_seat():
    e = env(**make("toy", 2), render_mode="ansi")
    e.reset(seed=0)
    e.step(e.unwrapped.game_state.legal_actions()[0])  # seat 0 lays: seat 1 is selected
    seat = int(e.agent_selection.rsplit("_", 1)[1])
    text = e.render()
    hand = e.unwrapped.game_state.observation(seat)["hand"]
    assert seat == 1 and "you are seat 1" in text  # the game's own render_text
    assert f"your hand: {', '.join(card['name'] for card in hand)}" in text


@pytest.mark.parametrize("name", ["toy", "runway"])
def test_parallel_env_flags_an_action_from_a_seat_not_to_move(name):
    p = parallel_env(**make(name, 3))
    obs, _ = p.reset(seed=2)
    noop = p.game.num_distinct_actions
    if name == "toy":  # the pick is simultaneous; the winner's sabotage is not
        obs, *_ = p.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    movers = [a for a, o in obs.items() if np.flatnonzero(o["action_mask"]).tolist() != [noop]]
    idle = [a for a in p.agents if a not in movers]
    assert len(movers) == 1 and idle
    mover, bystander = movers[0], idle[0]
    legal = np.flatnonzero(obs[mover]["action_mask"]).tolist()
    actions = {a: noop for a in p.agents} | {mover: legal[0], bystander: legal[0]}
    before = len(p.table.state.history())
    _, rewards, _, _, infos = p.step(actions)
    assert infos[bystander] == {"illegal_action": True} and rewards[bystander] <= -1.0
    assert "illegal_action" not in infos[mover], "the seat to move still moved"
    assert len(p.table.state.history()) == before + 1

    strict = parallel_env(**make(name, 3), illegal="raise")
    obs, _ = strict.reset(seed=2)
    if name == "toy":
        obs, *_ = strict.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    history = strict.table.state.history()
    with pytest.raises(IllegalActionError, match="not to move"):
        strict.step({a: noop for a in strict.agents} | {mover: legal[0], bystander: legal[0]})
    assert strict.table.state.history() == history, "nothing changed"


def test_lockstep_aec_env_flags_an_action_out_of_turn_too():
    e = raw_env(**make("runway", 3), mode="lockstep")
    e.reset(seed=2)
    noop = e.game.num_distinct_actions
    seat = e.game_state.current_player()
    legal = e.game_state.legal_actions()
    bystander = next(a for a in e.agents if a != f"player_{seat}")
    for agent in list(e.agents):
        e.step(legal[0] if agent in (f"player_{seat}", bystander) else noop)
    assert e.infos[bystander]["illegal_action"] is True


@pytest.mark.parametrize("name", sorted({g for g, _ in CASES}))
@pytest.mark.parametrize("mode", ["turn", "lockstep"])
def test_pettingzoo_render_test(name, mode, capsys):
    # PettingZoo's render_test makes the env in every mode of its metadata, "human"
    # first (it failed on every game while only "ansi" existed)
    render_test(functools.partial(env, **make(name, 3), mode=mode))
    assert capsys.readouterr().out.strip(), "human printed nothing"


def test_human_render_prints_what_ansi_returns(capsys):
    shown = {}
    for mode in ("ansi", "human"):
        e = env(**make("runway", 3), render_mode=mode)
        e.reset(seed=4)
        shown[mode] = e.render()
    assert shown["human"] is None and capsys.readouterr().out == shown["ansi"]
    with pytest.raises(ValueError, match="render_mode"):
        env(**make("runway", 3), render_mode="rgb_array")


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@pytest.mark.parametrize("mode", ["turn", "lockstep"])
def test_the_selected_agents_info_carries_its_mask(name, players, mode):
    # the fast path: last(observe=False) gives the mask in info, the same as the
    # observation's, and only the selected agent's info has one
    e = env(**make(name, players), mode=mode)
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    for agent in e.agent_iter(400):
        obs, _, term, trunc, info = e.last()
        others = [a for a in e.agents if a != agent and "action_mask" in e.infos[a]]
        assert not others, f"stale masks in {others}"
        if term or trunc:
            assert "action_mask" not in info
            e.step(None)
            continue
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert e.last(observe=False)[0] is None
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_turn_mode_max_cycles_counts_illegal_retries_of_the_same_agent():
    # docs/adapters.md: in turn mode an illegal action changes nothing, so the same agent
    # stays selected, and it counts as that agent's step: max_cycles illegal tries truncate
    e = raw_env(**make("runway", 3), max_cycles=3)
    e.reset(seed=1)
    agent = e.agent_selection
    illegal = next(a for a in range(e.n_actions) if a not in e.game_state.legal_actions())
    for tries in range(1, 4):
        e.step(illegal)
        assert e.agent_selection == agent and e.infos[agent]["illegal_action"] is True
        assert e.steps[agent] == tries and e.game_state.history() == []
    assert all(e.truncations.values()), "three illegal tries of one agent used its max_cycles"
    assert all(e.steps[a] == 0 for a in e.agents if a != agent)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_each_turn_steps_rewards_and_infos_are_this_steps_own(name, players):
    """The turn step updates `rewards` and `infos` in place (only what moved): after every
    step each agent's reward is its change of points this step (plus the penalty when it
    just acted illegally, gone the step after), and only the selected agent's info holds
    anything: its mask, and the illegal flag right after its illegal action."""
    e = raw_env(**make(name, players))
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    before = [0.0] * players
    for step in range(10_000):
        state = e.game_state
        if state.is_terminal():
            break
        agent = e.agent_selection
        legal = state.legal_actions()
        illegal = step % 7 == 3 and len(legal) < e.n_actions
        action = next(a for a in range(e.n_actions) if a not in legal) if illegal else None
        e.step(int(rng.choice(legal)) if action is None else action)
        after = list(e.game_state.returns())
        for seat, a in enumerate(e.possible_agents):
            penalty = e.illegal_penalty if illegal and a == agent else 0.0
            assert e.rewards[a] == pytest.approx(after[seat] - before[seat] + penalty), step
        before = after
        if e.game_state.is_terminal():
            break
        selected = e.agent_selection
        assert all(e.infos[a] == {} for a in e.possible_agents if a != selected), step
        info = e.infos[selected]
        assert np.flatnonzero(info["action_mask"]).tolist() == e.game_state.legal_actions()
        assert info.get("illegal_action", False) is illegal and (selected == agent or not illegal)
    assert e.game_state.is_terminal()
