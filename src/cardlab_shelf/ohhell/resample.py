"""OH HELL resampling: redeal what a seat cannot see, keeping shown voids.

Unseen are the other seats' hands and the undealt stock (the turned-up trump card is
public). A seat that did not follow a suit gets none of it; the stock takes anything.
The pool is sorted before the seeded shuffle, so the redeal depends only on the
seat's infostate and the seed. Bids and plays are public, so the history is kept;
the generator is a fresh one from the seed (the game's would tell the next deals)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab_shelf.deal import redeal

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.state import OhHellState


def resample(state: OhHellState, player: int, seed: int) -> OhHellState:
    copy = state.clone()
    n = state.game.num_players
    others = [s for s in range(n) if s != player]
    pool = list(state.stock) + [c for s in others for c in state.hands[s]]
    sizes = {s: len(state.hands[s]) for s in others} | {n: len(state.stock)}
    suit, voids = state.game.suit, state.voids

    def allowed(card: int, seat: int) -> bool:
        return seat == n or suit[card] not in voids[seat]

    rng = random.Random(seed)
    any_void = any(voids[s] for s in others)
    dealt = redeal(sorted(pool), sizes, rng, allowed if any_void else None)
    for seat in others:
        copy.hands[seat] = dealt[seat]
    copy.stock = dealt[n]
    copy.rng = random.Random(rng.getrandbits(64))  # the game's would tell the next deals
    return copy
