"""WAR resampling: both piles (and a war's face-down cards waiting on the table) are
face down to both seats, so a redeal shuffles all those cards together and refills
each to its size (the sizes are public). The pool is sorted before the seeded
shuffle: the redeal depends only on what the seat sees and the seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab.core.rng import shuffle

if TYPE_CHECKING:
    from cardlab_shelf.war.state import WarState


def resample(state: WarState, player: int, seed: int) -> WarState:
    copy = state.clone()
    rng = random.Random(seed)
    pool = sorted(state.piles[0] + state.piles[1] + state.down)
    shuffle(rng, pool)
    one, two = len(state.piles[0]), len(state.piles[1])
    copy.piles = [pool[:one], pool[one : one + two]]
    copy.down = pool[one + two :]
    down = iter(copy.down)  # the table's order, the redealt face-down cards in their places
    shown = set(state.shown)
    copy.spoils = [c if c in shown else next(down) for c in state.spoils]
    copy.rng = random.Random(rng.getrandbits(64))  # the game's orders the spoils to come
    return copy
