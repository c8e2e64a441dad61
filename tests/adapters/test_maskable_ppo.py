"""sb3-contrib's MaskablePPO trains on a cardlab Gymnasium env through the
env's `action_masks()` and never takes a masked action.

Runs only where sb3-contrib (and torch) is installed: they are not in cardlab's
lock files (a CPU torch is about 200 MB). benchmarks/maskable_ppo.py is the
script these tests drive; docs/adapters.md gives its command and figures."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from cardlab.adapters.encoding import has_encoding
from cardlab.games import list_games

from .conftest import TOY_INFO

pytest.importorskip("sb3_contrib")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "maskable_ppo.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def _games() -> list[str]:
    real = [g for g in list_games() if g != TOY_INFO.name and has_encoding(g)]
    return [TOY_INFO.name, *real[:1]]


@pytest.mark.parametrize("game", _games())
def test_maskable_ppo_learns_through_action_masks_and_stays_legal(game: str) -> None:
    bench = _script()
    model = bench.train(game, 2, steps=512, seed=0)
    assert model.num_timesteps >= 512  # two rollouts of 256 steps, two updates
    env = bench.make_env(game, 2, 0, "points")
    for seed in range(5):  # the mask reaches the policy: only legal actions, sampled too
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            legal = np.flatnonzero(mask).tolist()
            assert legal == env.unwrapped.state.legal_actions()
            action, _ = model.predict(obs, action_masks=mask, deterministic=seed % 2 == 0)
            assert int(action) in legal
            obs, _, done, _, info = env.step(int(action))
            assert "illegal_action" not in info
    ppo_wins, random_wins, illegal = bench.evaluate(model, game, 2, games=10)
    assert illegal == 0 and 0 <= ppo_wins <= 10 and 0 <= random_wins <= 10
