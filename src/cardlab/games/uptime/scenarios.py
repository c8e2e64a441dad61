"""The scenario kit: hand-made UPTIME positions for scenario tests (and for designers'
what-if questions), instead of poking private fields from many tests.

`arrange` lays out every card of the deck (54 packaged) explicitly or by a stated default,
recomputes all the per-seat counters from the cards, and hands the turn to
`seat`. Cards are named ("Silicon", "CPU", "Mainframe"); each name takes the
next free copy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardlab.core.trail import EMPTY_TRAIL
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import (
    COMPONENT,
    COMPONENT_TYPES,
    COMPUTER,
    CONTRACT,
    MATERIAL,
    MATERIAL_KINDS,
    PATCH,
    TWIST,
)
from cardlab.games.uptime.rules import UptimeGame
from cardlab.games.uptime.state import MAINFRAME, ROW, UptimeState


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
    t = s.table
    free = list(range(t.count))

    def take(name: str) -> int:
        for c in free:
            if t.name[c] == name:
                free.remove(c)
                return c
        raise ValueError(f"no free card named {name!r} left to place")

    n = s.num_players
    s.hand = [[take(x) for x in (hands or {}).get(p, ())] for p in range(n)]
    s.tableau = [[take(x) for x in (tableaus or {}).get(p, ())] for p in range(n)]
    s.build_row = [take(x) if x else -1 for x in list(row) + [None] * (ROW - len(row))]
    s.supply_discard = [take(x) for x in supply_discard]
    rng = random.Random(seed)
    rest_supply = [c for c in free if c < t.num_supply]
    rest_build = [c for c in free if c >= t.num_supply]
    s.removed_twists = [c for c in rest_supply if t.kind[c] == TWIST]
    mats_left = [c for c in rest_supply if t.kind[c] == MATERIAL]
    if supply_deck is None:
        rng.shuffle(mats_left)
        s.supply = mats_left
    else:
        top = [take(x) for x in supply_deck]
        s.removed_twists = [c for c in free if c < t.num_supply and t.kind[c] == TWIST]
        s.supply_discard += [c for c in free if c < t.num_supply and t.kind[c] == MATERIAL]
        s.supply = top[::-1]
    if build_deck is None:
        rng.shuffle(rest_build)
        s.build_deck, s.build_discard = rest_build, []
    else:
        top = [take(x) for x in build_deck]
        s.build_discard = [c for c in free if c >= t.num_supply]
        s.build_deck = top[::-1]
    s.build_bottom_known = 0
    s.reserved_by, s.reserve_patch = [-1] * ROW, [-1] * ROW
    s.materials, s.known_materials, s.patches = [0] * (4 * n), [0] * (4 * n), [0] * n
    s.component_types, s.computers, s.has_mainframe = [0] * (6 * n), [0] * n, [0] * n
    s.tower_discount, s.contracts = [0] * n, [0] * n
    for p in range(n):
        for c in s.hand[p]:
            if t.kind[c] == MATERIAL:
                s.materials[p * MATERIAL_KINDS + t.sub[c]] += 1
            elif t.kind[c] == PATCH:
                s.patches[p] += 1
        for c in s.tableau[p]:
            k = t.kind[c]
            if k == COMPONENT:
                s.component_types[p * COMPONENT_TYPES + t.sub[c]] += 1
            elif k == COMPUTER:
                s.computers[p] += 1
                s.has_mainframe[p] |= t.sub[c] == MAINFRAME
            elif k == CONTRACT:
                s.contracts[p] += 1
    s.draw_pass = list(draw_pass) if draw_pass is not None else [0] * n
    s.turns = [0] * n
    # What a redeal keeps of the Supply Deck (resample.py): an arranged position reads as if
    # its deck and the hands were dealt from one unseen shuffle, each seat knowing its own hand
    s.epoch_kinds = [0] * MATERIAL_KINDS
    s.epoch_drawn = [0] * (MATERIAL_KINDS * n)
    s.epoch_log = None
    for c in s.supply:
        if t.kind[c] == MATERIAL:
            s.epoch_kinds[t.sub[c]] += 1
    for p in range(n):
        for c in s.hand[p]:
            if t.kind[c] == MATERIAL:
                s.epoch_kinds[t.sub[c]] += 1
                s.epoch_drawn[p * MATERIAL_KINDS + t.sub[c]] += 1
    s.first_player, s.round, s.total_turns = first, 1, 0
    s.shortage_pending = s.end_pending = s.row_moved = False
    s.supply_empty_round = not s.supply
    s.supply_drawn, s.supply_ran_dry = 0, not s.supply  # the round as it begins (U13)
    s.supply_kinds_gone = 0
    s.end_reason = None
    s.steps = []
    s._clear_payment()
    s.auction_slot = s.auction_opener = s.auction_high_bid = s.auction_high_bidder = -1
    s.auction_to_answer = ()
    s.moves, s.num_decisions, s.log, s.acquired = EMPTY_TRAIL, 0, EMPTY_TRAIL, EMPTY_TRAIL
    s._legal = None
    s._start_turn(seat)
    assert s.decision == A.D_TURN
    assert sorted(c for z in _all_zones(s) for c in z) == list(range(t.count)), "cards lost"
    return s


def _all_zones(s: UptimeState) -> list[list[int]]:
    return [
        s.supply,
        s.supply_discard,
        s.removed_twists,
        s.build_deck,
        s.build_discard,
        [c for c in s.build_row if c >= 0],
        [c for c in s.reserve_patch if c >= 0],
        *s.hand,
        *s.tableau,
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
