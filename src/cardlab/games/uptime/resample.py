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

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardlab.core.rng import seeded
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import MATERIAL, TWIST
from cardlab.games.uptime.cards import MATERIAL_KINDS as M

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState

ATTEMPTS = 200
"""Decks dealt at most, after a reshuffle, for one whose lost cards the other seats' draws can
explain (the first usually does; one that finds none keeps the last, which the consistency
test then catches: measured rate in docs/rules/uptime.md, "Hidden information")."""
SHARES = 4
"""Random shares of the lost cards among the other seats tried per deck."""


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
    # The Supply Deck first, from what `player` knows can be in it: the
    # deck's kinds since its last shuffle (all materials at the start; after a reshuffle the
    # face-up discard it was made of), less the free choices taken from it (public), less what
    # `player` itself drew from it; never a kind publicly found gone (U5). Other seats' draws
    # since came out of the rest, so the materials not dealt to the deck go to their hands.
    # A feasible deck always exists (the true one); the pass below over the pool in random
    # order takes every card its kind still allows, which reaches the deck's size.
    gone = s.supply_kinds_gone
    room = [
        0 if gone >> m & 1 else s.epoch_kinds[m] - s.epoch_drawn[player * M + m] for m in range(M)
    ]
    deck_size = sum(1 for c in s.supply if kind[c] == MATERIAL)
    size = len(pool)
    since = _since_shuffle(s) if s.epoch_log is not None else None
    for _ in range(ATTEMPTS):
        deck: list[int] = []
        rest: list[int] = []
        left = room[:]
        for i in range(size):
            j = i + int(rand() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
            c = pool[i]
            m = sub[c]
            if len(deck) < deck_size and left[m] > 0:
                left[m] -= 1
                deck.append(c)
            else:
                rest.append(c)
        if len(deck) < deck_size:  # pragma: no cover - only an inconsistent position gets here
            short = deck_size - len(deck)
            deck.extend(rest[:short])
            del rest[:short]
        if since is None:
            break
        # after a reshuffle: each other seat drew some of the deck's lost cards
        fitted = _by_seat_draws(s, player, deck, rest, kept, slots, rand, since)
        if fitted is not None:
            rest = fitted
            break
    i = 0
    mats = s.materials
    for q, mine in kept.items():
        take = slots[q]
        mine.extend(rest[i : i + take])
        i += take
        s.hand[q] = mine
        counts = [0] * M
        for c in mine:
            if kind[c] == MATERIAL:
                counts[sub[c]] = counts[sub[c]] + 1
        mats[q * M : q * M + M] = counts
    s.supply = deck + twists  # drawn at random (lazy)
    if s.decider != player:
        s._legal = None
    return s


def _give_owed(
    s: UptimeState, q: int, mine: list[int], slots: dict[int, int], pool: list[int]
) -> None:
    """Seat q is paying a Component and still owes `s.pay_materials`: it holds at least
    (owed - its Patches) of them, which everyone can tell. Count the owed kinds it keeps
    publicly (`mine`), and give it only what they leave short from the sorted pool, owed
    kinds in order: the same cards whatever its true hand was. (Giving an owed kind it did
    not need took a card the Supply Deck's known kinds needed.)"""
    sub = s.table.sub
    held = [0] * M
    for c in mine:
        if s.table.kind[c] == MATERIAL:
            held[sub[c]] = held[sub[c]] + 1
    need = len(s.pay_materials) - s.patches[q]
    missing = []
    for m in s.pay_materials:  # what it keeps publicly counts first, whatever the order
        if held[m]:
            held[m] = held[m] - 1
            need -= 1
        else:
            missing.append(m)
    for m in missing:
        if need <= 0 or not slots[q]:
            break
        c = next((c for c in pool if sub[c] == m), -1)
        if c < 0:  # pragma: no cover - only an inconsistent position gets here
            continue
        pool.remove(c)
        mine.append(c)
        slots[q] = slots[q] - 1
        need -= 1


def _since_shuffle(s: UptimeState) -> tuple[list[int], list[int]]:
    """Per seat and kind, the materials it put on the Supply discard since the last reshuffle
    (payments, and the levers' discards and trade-ins) and the free materials it took (U5):
    all public, read from the log back to the reshuffle."""
    kind, sub = s.table.kind, s.table.sub
    n = s.num_players
    paid = [0] * (n * M)
    taken = [0] * (n * M)
    epoch = s.epoch_log  # walked back to by hand: no list built (one per redeal)
    cell = s.log
    while cell is not epoch and cell.rest is not None:
        e = cell.last
        cell = cell.rest
        k = e[0]
        cards: tuple[int, ...] = ()
        if k == "claim":
            cards = e[3]
        elif k == "win":
            cards = e[4]
        elif k == "discard" or k == "trade_give":
            cards = (e[2],)
        elif k == "take":
            taken[e[1] * M + e[2]] += 1
        for c in cards:
            if kind[c] == MATERIAL:
                paid[e[1] * M + sub[c]] += 1
    if s.decision == A.D_PAY:  # a payment under way: logged when complete, already paid
        for c in s.pay_paid:
            if kind[c] == MATERIAL:
                paid[s.decider * M + sub[c]] += 1
    return paid, taken


def _by_seat_draws(
    s: UptimeState,
    player: int,
    deck: list[int],
    rest: list[int],
    kept: dict[int, list[int]],
    slots: dict[int, int],
    rand: Callable[[], float],
    since: tuple[list[int], list[int]],
) -> list[int] | None:
    """After a reshuffle the deck's known kinds, less `player`'s draws, less the new deck, are
    the cards the other seats drew since (`lost`), each seat as many as it drew (public
    counts). A seat still holds each of those it has not paid since, so `rest` (the materials
    for the other seats' hidden slots, in random order) is reordered so that the slots of
    each seat (in `kept` order) begin with what its share of `lost` requires: the share is
    drawn at random. Returns the reordered `rest`, or None when no share tried fits (the
    caller then deals another deck)."""
    t = s.table
    kind, sub = t.kind, t.sub
    paid, taken = since
    lost: list[int] = []
    for m in range(M):
        left = s.epoch_kinds[m] - s.epoch_drawn[player * M + m]
        left -= sum(1 for c in deck if sub[c] == m)
        lost.extend([m] * left)
    seats = list(kept)
    have = [0] * M
    for c in rest:
        have[sub[c]] += 1
    for _ in range(SHARES):
        for i in range(len(lost)):
            j = i + int(rand() * (len(lost) - i))
            lost[i], lost[j] = lost[j], lost[i]
        needs: dict[int, list[int]] = {}
        left_kinds = have[:]
        at = 0
        fits = True
        for q in seats:
            drew = sum(s.epoch_drawn[q * M : q * M + M])
            share = [0] * M
            for m in lost[at : at + drew]:
                share[m] += 1
            at += drew
            held = [0] * M
            for c in kept[q]:
                if kind[c] == MATERIAL:
                    held[sub[c]] += 1
            need = [
                max(0, share[m] - paid[q * M + m] + taken[q * M + m] - held[m]) for m in range(M)
            ]
            if sum(need) > slots[q] or any(need[m] > left_kinds[m] for m in range(M)):
                fits = False
                break
            for m in range(M):
                left_kinds[m] -= need[m]
            needs[q] = need
        if fits:
            break
    else:
        return None
    queue: list[list[int]] = [[] for _ in range(M)]
    for c in rest:
        queue[sub[c]].append(c)
    used: set[int] = set()
    firsts: dict[int, list[int]] = {}
    for q in seats:
        mine: list[int] = []
        for m in range(M):
            for _ in range(needs[q][m]):
                c = queue[m].pop(0)
                mine.append(c)
                used.add(c)
        firsts[q] = mine
    free = [c for c in rest if c not in used]
    out: list[int] = []
    for q in seats:
        mine = firsts[q]
        fill = slots[q] - len(mine)
        out.extend(mine)
        out.extend(free[:fill])
        del free[:fill]
    return out
