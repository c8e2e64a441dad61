"""The adapters reward a game the fewest points win (`GameInfo.score_direction`
"lowest") by its points negated, so more reward is always better: a learner that takes
fewer penalty points is rewarded, in PettingZoo (both APIs), Gymnasium and OpenSpiel.
The penalty-point game is the `cardlab new-game --lowest-wins` template."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cardlab.games import register_game, unregister_game
from cardlab.newgame import template_game

LOW = template_game("lowadapt", title="Low (adapter test toy)", score_direction="lowest")


@pytest.fixture(autouse=True)
def low_registered() -> Iterator[None]:
    register_game(LOW)
    yield
    unregister_game(LOW.name)


def _game(players: int = 3):
    return LOW.game_class()(players, sabotage=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pettingzoo_rewards_are_the_points_negated(seed: int) -> None:
    from cardlab.adapters.pettingzoo import env, parallel_env

    aec = env(_game())
    aec.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, term, trunc, info = aec.last()
        total[agent] += reward
        if term or trunc:
            aec.step(None)
            continue
        aec.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    returns = aec.unwrapped.game_state.returns()
    assert any(returns)  # points were taken, so the sign is tested
    assert [total[a] for a in aec.possible_agents] == [-x for x in returns]

    par = parallel_env(_game())
    obs, _ = par.reset(seed=seed)
    summed = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acts = {
            a: rng.choice([i for i, m in enumerate(obs[a]["action_mask"]) if m]) for a in par.agents
        }
        obs, rewards, _, _, infos = par.step(acts)
        for a, r in rewards.items():
            summed[a] += r
    final = next(iter(infos.values()))["returns"]
    assert [summed[a] for a in par.possible_agents] == [-x for x in final]


def test_gymnasium_rewards_fewer_points() -> None:
    from cardlab.adapters.gymnasium import CardlabEnv

    for seed in range(3):
        e = CardlabEnv(_game(), opponents="random")
        obs, _ = e.reset(seed=seed)
        rng = random.Random(seed)
        total, done, info = 0.0, False, {}
        while not done:
            legal = [i for i, m in enumerate(obs["action_mask"]) if m]
            obs, reward, done, _, info = e.step(rng.choice(legal))
            total += reward
        assert total == -info["returns"][0]


def test_openspiel_returns_and_bounds_are_turned() -> None:
    pytest.importorskip("pyspiel")
    from cardlab.adapters.openspiel import CardlabSpielGame

    cls = type("LowSpielGame", (CardlabSpielGame,), {"NAME": LOW.name})
    game = cls({"players": 3, "sabotage": True})
    low, high = _game().utility_bounds()
    assert (game.min_utility(), game.max_utility()) == (-high, -low)
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    printed = state.play.inner.returns()
    assert any(printed) and state.returns() == [-float(x) for x in printed]
