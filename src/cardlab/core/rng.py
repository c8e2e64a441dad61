"""Shared randomness helpers: for engines (every draw from the state's own generator), and
the seeds of a game nobody may predict (`fresh_seed`, `derived_seed`)."""

from __future__ import annotations

import _random
import hashlib
import random
import secrets
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
    `gauss_next`. Searches make one per redeal (about 15% less time creating it).
    Pinned against `random.Random` by tests/test_core.py."""
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # set by Random.__init__, read by gauss
    return rng


SEED_BITS = 64
"""A seed the user did not give has this many bits: too many to pin by searching the
seeds against a first screen (a million seeds took about 3 CPU-minutes)."""


def fresh_seed() -> int:
    """A new game seed in range(2**64) from `secrets`: unpredictable, so a game whose seed
    is not shown cannot be dealt again by anyone who watches it."""
    return secrets.randbits(SEED_BITS)


def derived_seed(seed: int, purpose: str) -> int:
    """A 64-bit seed for one purpose of a game (a bot's generator, a view's redeals), the
    first 8 bytes of sha256 over the game seed and the purpose string.

    Why a hash: `seed * 10 + i` let anyone who knew (or pinned) one generator predict every
    other; through sha256 nothing a player sees of one stream says anything about another,
    and games one seed apart get unrelated streams, while the same seed and purpose always
    give the same value (a replay reproduces the bots exactly)."""
    if type(seed) is not int:
        raise TypeError(f"derived_seed: the game seed must be an int, got {seed!r}")
    digest = hashlib.sha256(f"cardlab:{seed}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
