"""The adapters expose the engine's move descriptions: PettingZoo's and Gymnasium's
`describe_action`, OpenSpiel's `action_description`, each the same `Move` the table
sends, for legal actions of the mover only (a description names the mover's cards)."""

from __future__ import annotations

import random

import pyspiel
import pytest

from cardlab.adapters import openspiel
from cardlab.adapters.gymnasium import CardlabEnv
from cardlab.adapters.pettingzoo import env as aec_env
from cardlab.games import all_infos

ENCODED = [i.name for i in all_infos() if i.module("encoding") is not None]
"""The games the RL adapters take (a game with an observation encoding)."""


@pytest.mark.parametrize("game", ENCODED)
def test_pettingzoo_describes_the_movers_legal_actions(game):
    env = aec_env(game)
    env.reset(seed=3)
    rng = random.Random(3)
    described = 0
    for _agent in env.agent_iter(max_iter=60):
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.unwrapped.game_state
        legal = state.legal_actions()
        for a in legal:
            assert env.unwrapped.describe_action(a) == state.describe_action(a).to_json()
            described += 1
        illegal = next(a for a in range(state.game.num_distinct_actions + 1) if a not in legal)
        with pytest.raises(ValueError, match="not a legal action"):
            env.unwrapped.describe_action(illegal)
        env.step(rng.choice(legal))
    assert described


def test_openspiel_and_gymnasium_describe_too():
    spiel = pyspiel.load_game(openspiel.short_name("runway"), {"players": 3})
    state = spiel.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()
    a = state.legal_actions()[0]
    assert state.action_description(p, a)["kind"] in ("pitch", "pass")
    with pytest.raises(ValueError):
        state.action_description((p + 1) % 3, a)
    env = CardlabEnv("uptime", players=3, seat=0)
    env.reset(seed=1)
    legal = [int(i) for i in env.action_masks().nonzero()[0]]
    assert env.describe_action(legal[0])["kind"]
