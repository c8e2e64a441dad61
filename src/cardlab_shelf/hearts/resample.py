"""HEARTS resampling: redeal what a seat cannot see, keeping what the table has seen.

Unseen are the other seats' hands (and, during the pass, the cards they have chosen
so far, how many being public). The redeal keeps every shown void (a seat that did
not follow a suit gets none of it) and leaves the cards `player` passed with the
seat that received them while it holds them. The pool is sorted before the seeded
shuffle, so the redeal depends only on the seat's infostate and the seed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab_shelf.deal import redeal

if TYPE_CHECKING:
    from cardlab_shelf.hearts.state import HeartsState


def resample(state: HeartsState, player: int, seed: int) -> HeartsState:
    copy = state.clone()
    others = [s for s in range(state.game.num_players) if s != player]
    fixed = state.known_elsewhere(player)
    pool: list[int] = []
    sizes: dict[int, int] = {}
    for seat in others:
        keep = set(fixed.get(seat, ()))
        pool += [c for c in state.hands[seat] if c not in keep] + state.choosing[seat]
        sizes[seat] = len(state.hands[seat]) - len(keep) + len(state.choosing[seat])
    suit = state.game.suit
    voids = state.voids

    def allowed(card: int, seat: int) -> bool:
        return suit[card] not in voids[seat]

    rng = random.Random(seed)
    dealt = redeal(sorted(pool), sizes, rng, allowed)
    for seat in others:
        cards = dealt[seat]
        rng.shuffle(cards)  # which of its cards a seat has chosen to pass: any of them
        chosen = len(state.choosing[seat])
        copy.choosing[seat] = cards[:chosen]
        copy.hands[seat] = sorted(cards[chosen:] + list(fixed.get(seat, ())))
    return copy
