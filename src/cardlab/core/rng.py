"""Shared randomness helpers for engines (every draw from the state's own generator)."""

from __future__ import annotations

import random


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Exactly `rng.shuffle(items)`: the same Fisher-Yates draws from the same
    generator (CPython's `_randbelow_with_getrandbits`), so the same seed deals the
    same game, written out to spare random.shuffle's two method calls per card
    (deals and reshuffles run in every simulated game and every search redeal).
    Pinned against `random.shuffle` by tests/test_core.py."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
