"""Redeal what one seat cannot see, consistently with what it knows (for search bots).

Unseen Capital cards are exchangeable only within a "generation": the cards
dealt or drawn before the first reshuffle come from one pool, and each
reshuffle of the (public) discard starts a new pool whose contents everyone
knows. So hidden hand cards and draw-pile cards are permuted within their
generation; cards seen taken from the Bench stay put. The Deal deck (Deals and
Shocks not yet flipped) is reshuffled whole, and future reshuffles get a fresh
seed (nobody knows how the discard will fall).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.rng import seeded

if TYPE_CHECKING:
    from cardlab.games.runway.state import RunwayState


def redeal(state: RunwayState, seat: int, seed: int) -> RunwayState:
    """A copy of `state` with everything `seat` cannot see redealt.

    The redeal depends only on what `seat` knows and on `seed`, never on where
    the hidden cards really lie (each pool is sorted before it is shuffled), so a
    bot given two worlds it cannot tell apart sees the same resamples.
    """
    s = state.clone()
    rng = seeded(seed)  # random.Random(seed), made cheaper
    rnd = rng.random
    known, generation = s.publicly_known, s.drawn_in_generation
    # pools of unseen cards by generation; the draw pile is the current one
    pools: dict[int, list[int]] = {s.reshuffles: s.draw_pile}
    wants: list[tuple[list[int], list[int]]] = []  # (hand, generation of each hidden card)
    for q, hand in enumerate(s.hands):
        if q == seat:
            continue
        generations = [generation[x] for x in hand if not known[x]]
        if not generations:
            continue
        for x in hand:
            if not known[x]:
                pools.setdefault(generation[x], []).append(x)
        hand[:] = [x for x in hand if known[x]]
        wants.append((hand, generations))
    for gen in sorted(pools):
        pool = pools[gen]
        pool.sort()
        if len(pool) > 1:
            pool.sort(key=lambda _: rnd())  # a uniform shuffle: iid random keys
    for hand, generations in wants:
        for gen in generations:
            x = pools[gen].pop()
            generation[x] = gen
            hand.append(x)
        hand.sort()
    # what is left of the current pool is the (shuffled) draw pile: s.draw_pile itself.
    # Its cards belong to the current generation; the true state keeps whatever each last
    # held, which would tell the bot where a card lay before this redeal.
    current = s.reshuffles
    for x in s.draw_pile:
        generation[x] = current
    s.deal_deck.sort()
    s.deal_deck.sort(key=lambda _: rnd())
    s.reshuffle_seed = rng.getrandbits(64)
    if seat != s.current_player():
        s._legal = None  # the deciding seat's own hand may have been redealt
    return s
