"""Seeds for a run's games and agents.

Each game's seed depends only on the run seed and the game's index, never on
which worker plays it or in which order, so any worker count and either
backend give identical games. A hash (not `seed + index`) keeps the games of
neighbouring run seeds from overlapping."""

from __future__ import annotations

import hashlib


def _hash63(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `run_seed`."""
    return _hash63(f"cardlab-lab-game:{run_seed}:{index}")


def agent_seed(game_seed_: int, seat: int) -> int:
    """The seed of the agent in `seat` for the game seeded `game_seed_`."""
    return _hash63(f"cardlab-lab-agent:{game_seed_}:{seat}")
