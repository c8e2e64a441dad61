"""MaskablePPO (sb3-contrib) on a cardlab game through the Gymnasium adapter and
its `action_masks()`: a short training run, then the trained policy against
random opponents, beside a masked-random policy in the same seat on the same
deals (the baseline).

    python benchmarks/maskable_ppo.py [--game runway] [--players 2] [--seat 0]
        [--steps 4096] [--eval-games 200] [--seed 0] [--reward points|win]

Needs torch and sb3-contrib, which cardlab's lock files leave out (a CPU build of
torch is about 200 MB): install them in a venv of their own, e.g.

    python3.11 -m venv /tmp/ppo && /tmp/ppo/bin/pip install torch sb3-contrib
    /tmp/ppo/bin/pip install -e . && /tmp/ppo/bin/python benchmarks/maskable_ppo.py

The learner plays seat `--seat` (default 0) of every game; every other seat is
cardlab's random bot. The policy sees the observation vector only; the mask
reaches MaskablePPO through `action_masks()` (sb3-contrib's convention), so it
never samples an illegal action. Evaluation plays `--eval-games` deals (seeds
10_000 + i) with the greedy (deterministic) policy, and the baseline plays the
same deals with a uniformly random legal action. Win rates carry a Wilson 95%
interval; a shared win counts as a win.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from cardlab.adapters.gymnasium import CardlabEnv
from cardlab.ladder import wilson_interval

EVAL_SEED = 10_000


class VectorOnly(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The adapter's observation vector without the mask (the mask goes to
    MaskablePPO through `action_masks()`, not into the network)."""

    def __init__(self, env: CardlabEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def make_env(game: str, players: int, seat: int, reward: str) -> VectorOnly:
    return VectorOnly(CardlabEnv(game, players, seat=seat, opponents="random", reward=reward))


@dataclass
class Result:
    game: str
    players: int
    steps: int
    train_seconds: float
    games: int
    ppo_wins: int
    random_wins: int
    illegal_actions: int

    def line(self) -> str:
        lo, hi = wilson_interval(self.ppo_wins, self.games)
        rlo, rhi = wilson_interval(self.random_wins, self.games)
        return (
            f"{self.game} {self.players}p: MaskablePPO trained {self.steps} steps in "
            f"{self.train_seconds:.0f} s; vs random over {self.games} deals: "
            f"PPO wins {self.ppo_wins / self.games:.1%} [{lo:.1%}, {hi:.1%}], "
            f"masked random wins {self.random_wins / self.games:.1%} [{rlo:.1%}, {rhi:.1%}]; "
            f"illegal actions {self.illegal_actions}"
        )


def train(  # noqa: ANN201 (a MaskablePPO: sb3-contrib is imported only here)
    game: str, players: int, steps: int, seed: int, seat: int = 0, reward: str = "points"
):
    """A MaskablePPO model trained for `steps` environment steps (sb3's defaults,
    smaller rollouts so a short budget still makes several updates)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a tiny network: one thread is as fast and spares the machine
    env = make_env(game, players, seat, reward)
    env.reset(seed=seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=64, seed=seed, verbose=0, device="cpu"
    )
    model.learn(total_timesteps=steps)
    return model


def play(env: VectorOnly, seed: int, choose: Any) -> tuple[bool, int]:
    """One episode from deal `seed`: (the learner's seat is among the winners,
    illegal actions taken)."""
    obs, _ = env.reset(seed=seed)
    illegal = 0
    while True:
        obs, _, terminated, truncated, info = env.step(choose(obs, env.action_masks()))
        illegal += bool(info.get("illegal_action"))
        if terminated or truncated:
            seat = env.unwrapped.seat  # type: ignore[attr-defined]
            return seat in info["winners"], illegal


def evaluate(
    model: Any, game: str, players: int, games: int, seat: int = 0
) -> tuple[int, int, int]:
    """(PPO wins, masked-random wins, PPO illegal actions) over the same `games` deals."""
    env = make_env(game, players, seat, "points")
    rng = random.Random(0)

    def ppo(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> int:
        return rng.choice(np.flatnonzero(mask).tolist())

    ppo_wins = random_wins = illegal = 0
    for i in range(games):
        won, bad = play(env, EVAL_SEED + i, ppo)
        ppo_wins += won
        illegal += bad
        random_wins += play(env, EVAL_SEED + i, uniform)[0]
    return ppo_wins, random_wins, illegal


def run(
    game: str, players: int, steps: int, games: int, seed: int, reward: str, seat: int = 0
) -> Result:
    start = time.perf_counter()
    model = train(game, players, steps, seed, seat=seat, reward=reward)
    seconds = time.perf_counter() - start
    ppo_wins, random_wins, illegal = evaluate(model, game, players, games, seat=seat)
    return Result(game, players, steps, seconds, games, ppo_wins, random_wins, illegal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="runway")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--steps", type=int, default=4096)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", choices=("points", "win"), default="points")
    args = parser.parse_args()
    result = run(
        args.game, args.players, args.steps, args.eval_games, args.seed, args.reward, args.seat
    )
    print(result.line())


if __name__ == "__main__":
    main()
