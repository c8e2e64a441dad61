"""Redealing unseen cards to seats while keeping what the table has seen.

A trick game shows voids (a seat that did not follow hearts holds none), and a seat
that passed cards knows where they went. A redeal that ignored this would let a bot
plan for worlds the table has already ruled out. `redeal` hands each seat a number
of cards from a pool such that every card goes to a seat allowed to hold it.

It depends only on its arguments (the caller sorts the pool, built from what the seat
knows), so two worlds a seat cannot tell apart redeal alike."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cardlab.core.rng import shuffle

Allowed = Callable[[int, int], bool]
"""allowed(card, seat): may `seat` hold `card`?"""


def redeal(
    pool: Sequence[int],
    sizes: dict[int, int],
    rng: random.Random,
    allowed: Allowed | None = None,
) -> dict[int, list[int]]:
    """Deal `pool` to the seats of `sizes` (seat -> how many), each card to a seat that
    `allowed` lets hold it. Without constraints, a plain shuffle and deal. With them,
    a few randomised most-constrained-first deals, then a matching (augmenting paths)
    that always finds a deal when one exists (the true one does)."""
    cards = list(pool)
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"redeal: {len(cards)} cards for {sum(sizes.values())} places")
    shuffle(rng, cards)
    seats = sorted(sizes)
    if allowed is None:
        out, at = {}, 0
        for seat in seats:
            out[seat] = sorted(cards[at : at + sizes[seat]])
            at += sizes[seat]
        return out
    options = {c: [s for s in seats if sizes[s] and allowed(c, s)] for c in cards}
    for _ in range(4):
        dealt = _greedy(cards, options, sizes, rng)
        if dealt is not None:
            return dealt
    return _matching(cards, options, sizes, rng)


def _greedy(
    cards: list[int], options: dict[int, list[int]], sizes: dict[int, int], rng: random.Random
) -> dict[int, list[int]] | None:
    room = dict(sizes)
    out: dict[int, list[int]] = {s: [] for s in sizes}
    for card in sorted(cards, key=lambda c: len(options[c])):  # stable: the shuffle breaks ties
        open_ = [s for s in options[card] if room[s]]
        if not open_:
            return None
        pick = rng.random() * sum(room[s] for s in open_)
        for seat in open_:
            pick -= room[seat]
            if pick < 0:
                break
        room[seat] -= 1
        out[seat].append(card)
    return {s: sorted(h) for s, h in out.items()}


def _matching(
    cards: list[int], options: dict[int, list[int]], sizes: dict[int, int], rng: random.Random
) -> dict[int, list[int]]:
    held: dict[int, list[int]] = {s: [] for s in sizes}

    def place(card: int, seen: set[int]) -> bool:
        order = list(options[card])
        shuffle(rng, order)
        for seat in order:
            if seat in seen:
                continue
            seen.add(seat)
            if len(held[seat]) < sizes[seat]:
                held[seat].append(card)
                return True
            for other in list(held[seat]):
                held[seat].remove(other)
                held[seat].append(card)
                if place(other, seen):
                    return True
                held[seat].remove(card)
                held[seat].append(other)
        return False

    for card in cards:
        if not place(card, set()):
            raise ValueError("redeal: no deal keeps what the table has seen")
    return {s: sorted(h) for s, h in held.items()}
