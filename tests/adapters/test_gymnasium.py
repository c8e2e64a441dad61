"""Gymnasium's own env checker on every game and player count, and what it
does not check: bots really play the other seats, seeds reach the engine."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardlab.adapters.gymnasium import CardlabEnv

from .conftest import CASES, IDS, make


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_gymnasium_check_env(name, players):
    # through gymnasium.make, so the checker can also re-make it per render mode
    env_id = f"cardlab/{name}-v0"
    if env_id not in gymnasium.registry:
        gymnasium.register(env_id, entry_point=CardlabEnv, disable_env_checker=True)
    kwargs = {**make(name, players), "opponents": "random", "render_mode": "ansi", "max_steps": 30}
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_episode_against_bots_sums_rewards_to_points(name, players):
    seat = players - 1
    env = CardlabEnv(**make(name, players), seat=seat, opponents="greedy")
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    total, done, mine = 0.0, False, []
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == env.state.legal_actions()
        assert env.state.current_player() == seat
        mine.append(int(rng.choice(legal)))
        obs, reward, done, truncated, info = env.step(mine[-1])
        total += reward
        assert not truncated
    assert total == pytest.approx(info["returns"][seat])
    assert info["winners"] == env.state.winners()
    assert len(env.state.history()) > len(mine), "the bots played their seats"
    # same seed, same actions: the same game, bots included
    again = CardlabEnv(**make(name, players), seat=seat, opponents="greedy")
    again.reset(seed=11)
    for action in mine:
        again.step(action)
    assert again.state.history() == env.state.history()
