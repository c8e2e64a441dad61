"""Shared randomness helpers for engines (every draw from the state's own generator)."""

from __future__ import annotations

import _random
import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Exactly `rng.shuffle(items)`: the same Fisher-Yates draws from the same
    generator (CPython's `_randbelow_with_getrandbits`), so the same seed deals the
    same game, written out to spare random.shuffle's two method calls per card
    (deals and reshuffles run in every simulated game and every search redeal).
    Pinned against `random.shuffle` by tests/test_core.py. Generic in the item type:
    compiled (make compiled), the swapped items stay objects instead of being unboxed to
    ints and boxed again (a fresh int object each for card numbers above 256)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def seeded(seed: int) -> random.Random:
    """Exactly `random.Random(seed)` for an int seed (the same Mersenne Twister state, so
    the same draws), made without the two Python-level calls behind it: `Random.__init__`
    and `Random.seed`, which for an int only pass it on to the C `seed` and reset
    `gauss_next`. Searches make one per redeal (issue 17: about 15% less time creating it).
    Pinned against `random.Random` by tests/test_core.py."""
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # set by Random.__init__, read by gauss
    return rng
