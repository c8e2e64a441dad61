"""Build hand-made UPTIME positions for scenario tests (and for designers'
what-if questions), instead of poking private fields from many tests.

`arrange` lays out every one of the 54 cards explicitly or by a stated default,
recomputes all the per-seat counters from the cards, and hands the turn to
`seat`. Cards are named ("Silicon", "CPU", "Mainframe"); each name takes the
next free copy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import (
    COMPONENT,
    COMPUTER,
    CONTRACT,
    MATERIAL,
    PATCH,
    TWIST,
)
from cardlab.games.uptime.rules import UptimeGame
from cardlab.games.uptime.state import MAINFRAME, UptimeState


def arrange(
    game: UptimeGame,
    *,
    seat: int = 0,
    first: int = 0,
    hands: dict[int, Sequence[str]] | None = None,
    tableaus: dict[int, Sequence[str]] | None = None,
    row: Sequence[str | None] = (),
    supply_deck: Sequence[str] | None = None,
    build_deck: Sequence[str] | None = None,
    supply_discard: Sequence[str] = (),
    draw_pass: Sequence[int] | None = None,
    seed: int = 0,
) -> UptimeState:
    """A state where it is `seat`'s turn with the cards laid out as given.

    - `row`: up to 4 names (None = empty slot); `supply_deck`/`build_deck`: top first.
    - Supply cards not placed: with `supply_deck=None` the materials form the deck
      (shuffled by `seed`) and unplaced Twists are out of the game; with an explicit
      deck, unplaced materials lie in the supply discard and Twists are out.
    - Build cards not placed: with `build_deck=None` they form the deck (shuffled);
      otherwise they lie in the build discard.
    """
    s = game.new_initial_state(seed)
    t = s.t
    free = list(range(t.count))

    def take(name: str) -> int:
        for c in free:
            if t.name[c] == name:
                free.remove(c)
                return c
        raise ValueError(f"no free card named {name!r} left to place")

    n = s.n
    s.hand = [[take(x) for x in (hands or {}).get(p, ())] for p in range(n)]
    s.tab = [[take(x) for x in (tableaus or {}).get(p, ())] for p in range(n)]
    s.row = [take(x) if x else -1 for x in list(row) + [None] * (4 - len(row))]
    s.sdisc = [take(x) for x in supply_discard]
    rng = random.Random(seed)
    rest_supply = [c for c in free if c < t.num_supply]
    rest_build = [c for c in free if c >= t.num_supply]
    s.removed = [c for c in rest_supply if t.kind[c] == TWIST]
    mats_left = [c for c in rest_supply if t.kind[c] == MATERIAL]
    if supply_deck is None:
        rng.shuffle(mats_left)
        s.supply = mats_left
    else:
        top = [take(x) for x in supply_deck]
        s.removed = [c for c in free if c < t.num_supply and t.kind[c] == TWIST]
        s.sdisc += [c for c in free if c < t.num_supply and t.kind[c] == MATERIAL]
        s.supply = top[::-1]
    if build_deck is None:
        rng.shuffle(rest_build)
        s.bdeck, s.bdisc = rest_build, []
    else:
        top = [take(x) for x in build_deck]
        s.bdisc = [c for c in free if c >= t.num_supply]
        s.bdeck = top[::-1]
    s.bknown = 0
    s.resv, s.rpatch = [-1] * 4, [-1] * 4
    s.mats, s.known, s.npatch = [0] * (4 * n), [0] * (4 * n), [0] * n
    s.ctype, s.ncomp, s.mainframe = [0] * (6 * n), [0] * n, [0] * n
    s.tower, s.ncontract = [0] * n, [0] * n
    for p in range(n):
        for c in s.hand[p]:
            if t.kind[c] == MATERIAL:
                s.mats[p * 4 + t.sub[c]] += 1
            elif t.kind[c] == PATCH:
                s.npatch[p] += 1
        for c in s.tab[p]:
            k = t.kind[c]
            if k == COMPONENT:
                s.ctype[p * 6 + t.sub[c]] += 1
            elif k == COMPUTER:
                s.ncomp[p] += 1
                s.mainframe[p] |= t.sub[c] == MAINFRAME
            elif k == CONTRACT:
                s.ncontract[p] += 1
    s.draw_pass = list(draw_pass) if draw_pass is not None else [0] * n
    s.turns = [0] * n
    s.first, s.round, s.total_turns = first, 1, 0
    s.shortage = s.end_pending = s.row_moved = False
    s.supply_empty_round = not s.supply
    s.sgone = 0
    s.end_reason = None
    s.steps = []
    s._clear_payment()
    s.a_slot = s.a_opener = s.a_high = s.a_seat = -1
    s.a_queue = ()
    s.hist, s.nhist, s.log, s.acq = None, 0, None, None
    s._legal = None
    s._start_turn(seat)
    assert s.dk == A.D_TURN
    assert sorted(c for z in _all_zones(s) for c in z) == list(range(t.count)), "cards lost"
    return s


def _all_zones(s: UptimeState) -> list[list[int]]:
    return [
        s.supply,
        s.sdisc,
        s.removed,
        s.bdeck,
        s.bdisc,
        [c for c in s.row if c >= 0],
        [c for c in s.rpatch if c >= 0],
        *s.hand,
        *s.tab,
    ]


def act(state: UptimeState, *labels: str) -> None:
    """Apply actions by (the start of) their labels, e.g. act(s, "Requisition CPU")."""
    for label in labels:
        legal = state.legal_actions()
        match = [a for a in legal if state.action_to_string(a).startswith(label)]
        if len(match) != 1:
            shown = [state.action_to_string(a) for a in legal]
            raise AssertionError(f"{label!r} matches {len(match)} of the legal actions {shown}")
        state.apply_action(match[0])
