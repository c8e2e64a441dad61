"""Determinization for ISMCTS: redeal what one seat cannot see (UPTIME).

What a seat `p` cannot see: the order of the Build Deck (except the cards a
Blade put at its bottom, U7, which everyone saw), the Supply Deck, and the
raw materials in the other hands. What `p` does know, and the redeal keeps:
every hand size (materials and Patches counted separately, Patches are public
since they are claimed from the Build Row), that Twists are never in a hand
(they resolve when revealed, U6), and the kinds each seat was publicly seen to
take (a Workstation or Power Surge choice, U5) and has not paid out since
(the state's `known` lower bounds), and the kinds publicly found absent from
the Supply Deck by a free-material choice (U5 "gone"/"nothing"; the deck never
grows, so they stay absent): those go back only into hands.

One pragmatic addition: while another seat is in the middle of paying a
Component (after it chose a Patch for one half), the redeal keeps the material
it still owes, so the copy stays playable for that seat. Agents never see such
a copy (they are handed a resample only when they decide), so nothing leaks.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import MATERIAL, TWIST

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState


def resample(state: UptimeState, player: int, seed: int) -> UptimeState:
    s = state.clone()
    rng = random.Random(seed)  # the copy's own generator, seeded from `seed`
    s.rng, s._rng_shared = rng, False
    t = s.t
    kind, sub = t.kind, t.sub
    k = s.bknown
    unknown_build = s.bdeck[k:]
    rng.shuffle(unknown_build)
    s.bdeck[k:] = unknown_build

    pool: list[int] = [c for c in s.supply if kind[c] != TWIST]
    twists = [c for c in s.supply if kind[c] == TWIST]
    kept: dict[int, list[int]] = {}
    slots: dict[int, int] = {}
    for q in range(s.n):
        if q == player:
            continue
        keep = s.known[q * 4 : q * 4 + 4]
        if s.dk == A.D_PAY and s.dseat == q and s.pay_kind == A.NEED_SPECIFIC:
            for m in s.pay_spec:
                if s.mats[q * 4 + m]:
                    keep[m] = max(keep[m], 1)
        mine: list[int] = []
        released = 0
        for c in s.hand[q]:
            if kind[c] == MATERIAL and not keep[sub[c]]:
                pool.append(c)
                released += 1
            else:
                if kind[c] == MATERIAL:
                    keep[sub[c]] -= 1
                mine.append(c)
        kept[q], slots[q] = mine, released
    rng.shuffle(pool)
    if s.sgone:
        # Kinds publicly seen to be gone from the Supply Deck (U5: a free-material choice found
        # none there) can only be in hands: they fill hand slots first, at random seats.
        gone = s.sgone
        forced = [c for c in pool if kind[c] == MATERIAL and gone >> sub[c] & 1]
        if forced:
            rest = [c for c in pool if not (kind[c] == MATERIAL and gone >> sub[c] & 1)]
            owners = [q for q in kept for _ in range(slots[q])]
            rng.shuffle(owners)
            extra: dict[int, list[int]] = {q: [] for q in kept}
            for i, c in enumerate(forced):
                if i < len(owners):
                    q = owners[i]
                    extra[q].append(c)
                    slots[q] -= 1
                else:  # pragma: no cover - only an inconsistent position gets here
                    rest.append(c)
            for q, cards in extra.items():
                kept[q].extend(cards)
            pool = rest
    for q, mine in kept.items():
        take = slots[q]
        mine.extend(pool[:take])
        del pool[:take]
        s.hand[q] = mine
        counts = [0, 0, 0, 0]
        for c in mine:
            if kind[c] == MATERIAL:
                counts[sub[c]] += 1
        s.mats[q * 4 : q * 4 + 4] = counts
    deck = pool + twists
    rng.shuffle(deck)
    s.supply = deck
    if s.dseat != player:
        s._legal = None
    return s
