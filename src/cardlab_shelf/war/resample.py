"""WAR resampling: both piles are face down to both seats, so a redeal shuffles all
their cards together and refills each pile to its size (the sizes are public). The
pool is sorted before the seeded shuffle: the redeal depends only on what the seat
sees and the seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab.core.rng import shuffle

if TYPE_CHECKING:
    from cardlab_shelf.war.state import WarState


def resample(state: WarState, player: int, seed: int) -> WarState:
    copy = state.clone()
    rng = random.Random(seed)
    pool = sorted(state.piles[0] + state.piles[1])
    shuffle(rng, pool)
    size = len(state.piles[0])
    copy.piles = [pool[:size], pool[size:]]
    copy.rng = random.Random(rng.getrandbits(64))  # the game's orders the spoils to come
    return copy
