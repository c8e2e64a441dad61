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

One addition: while another seat is in the middle of paying a Component, the
copy must stay playable for it: it needs each material it still owes, or a
Patch for it. Everyone saw it start paying with its Patches in view, so everyone
knows it holds at least (owed - Patches) of the owed materials; the redeal gives
it that many, the owed kinds in order, the first of each kind in the sorted pool:
from what everyone knows, never from its true hand (the hidden-information check
redeals for every seat, not only the one deciding, and found that it once did).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.rng import seeded
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import MATERIAL, TWIST
from cardlab.games.uptime.cards import MATERIAL_KINDS as M

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState


def resample(state: UptimeState, player: int, seed: int) -> UptimeState:
    s = state.clone()
    rng = seeded(seed)  # the copy's own generator: random.Random(seed), made cheaper
    s.rng, s._rng_shared = rng, False
    # The decks are not reordered here: the copy draws each hidden deck card uniformly at
    # random when it is drawn (`lazy`), which is the same distribution as shuffling now and
    # spares two shuffles per determinization (ISMCTS resamples every iteration).
    s.lazy_decks = True
    # Canonical order (by id) first, so the copy depends only on what `player` knows and the
    # seed, never on how the hidden cards happen to lie in `state` (bots must not peek).
    k = s.build_bottom_known
    if len(s.build_deck) > k + 1:
        s.build_deck[k:] = sorted(s.build_deck[k:])
    t = s.table
    kind, sub = t.kind, t.sub
    rand = rng.random
    # Other seats' materials that nobody saw them take go back into one pool with the
    # Supply Deck's materials; each seat then gets as many back, at random.
    pool: list[int] = [c for c in s.supply if kind[c] == MATERIAL]
    twists = sorted(c for c in s.supply if kind[c] == TWIST)
    kept: dict[int, list[int]] = {}
    slots: dict[int, int] = {}
    pay_q = s.decider if s.decision == A.D_PAY and s.pay_need == A.NEED_SPECIFIC else -1
    for q in range(s.num_players):
        if q == player:
            continue
        keep = s.known_materials[q * M : q * M + M]
        mine: list[int] = []
        released = 0
        for c in s.hand[q]:
            if kind[c] == MATERIAL and not keep[sub[c]]:
                pool.append(c)
                released += 1
            else:
                if kind[c] == MATERIAL:
                    keep[sub[c]] = keep[sub[c]] - 1
                mine.append(c)
        kept[q], slots[q] = mine, released
    pool.sort()
    if pay_q >= 0 and pay_q != player:
        _give_owed(s, pay_q, kept[pay_q], slots, pool)
    gone = s.supply_kinds_gone
    if gone:
        # Kinds publicly seen to be gone from the Supply Deck (U5: a free-material choice found
        # none there) can only be in hands: they fill hand slots first, at random seats.
        forced = [c for c in pool if gone >> sub[c] & 1]
        if forced:
            pool = [c for c in pool if not gone >> sub[c] & 1]
            owners = [q for q in kept for _ in range(slots[q])]
            for i, c in enumerate(forced):
                if i < len(owners):
                    j = i + int(rand() * (len(owners) - i))
                    owners[i], owners[j] = owners[j], owners[i]
                    q = owners[i]
                    kept[q].append(c)
                    slots[q] = slots[q] - 1
                else:  # pragma: no cover - only an inconsistent position gets here
                    pool.append(c)
    # A partial Fisher-Yates: the first `need` cards of the pool are a uniform random draw.
    need = sum(slots.values())
    size = len(pool)
    for i in range(need):
        j = i + int(rand() * (size - i))
        pool[i], pool[j] = pool[j], pool[i]
    i = 0
    mats = s.materials
    for q, mine in kept.items():
        take = slots[q]
        mine.extend(pool[i : i + take])
        i += take
        s.hand[q] = mine
        counts = [0] * M
        for c in mine:
            if kind[c] == MATERIAL:
                counts[sub[c]] = counts[sub[c]] + 1
        mats[q * M : q * M + M] = counts
    s.supply = pool[i:] + twists  # drawn at random (lazy)
    if s.decider != player:
        s._legal = None
    return s


def _give_owed(
    s: UptimeState, q: int, mine: list[int], slots: dict[int, int], pool: list[int]
) -> None:
    """Seat q is paying a Component and still owes `s.pay_materials`: it holds at least
    (owed - its Patches) of them, which everyone can tell. Count the owed kinds it keeps
    publicly (`mine`), and give it the rest from the sorted pool, owed kinds in order:
    the same cards whatever its true hand was."""
    sub = s.table.sub
    held = [0] * M
    for c in mine:
        if s.table.kind[c] == MATERIAL:
            held[sub[c]] = held[sub[c]] + 1
    need = len(s.pay_materials) - s.patches[q]
    for m in s.pay_materials:
        if need <= 0 or not slots[q]:
            break
        if held[m]:
            held[m] = held[m] - 1
        else:
            c = next((c for c in pool if sub[c] == m), -1)
            if c < 0:  # pragma: no cover - only an inconsistent position gets here
                continue
            pool.remove(c)
            mine.append(c)
            slots[q] = slots[q] - 1
        need -= 1
