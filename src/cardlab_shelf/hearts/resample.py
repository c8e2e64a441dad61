"""HEARTS resampling: redeal what a seat cannot see, keeping what the table has seen.

Unseen are the other seats' hands (and, during the pass, the cards they have chosen
so far, how many being public). The redeal keeps every shown void (a seat that did
not follow a suit gets none of it) and leaves the cards `player` passed with the
seat that received them while it holds them. The pool is sorted before the seeded
shuffle, so the redeal depends only on the seat's infostate and the seed.

A bot is handed the whole copy, so everything in it is what the seat saw: the
generator is a fresh one from the seed, the other seats' passed cards are redealt
with their hands, and the history's pass choices that the seat did not see name
the copy's redealt cards (this deal) or, for earlier deals, the placeholder
`HIDDEN_PASS` (a record only: no redealt state replays from its history)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab_shelf.deal import redeal
from cardlab_shelf.hearts import actions

if TYPE_CHECKING:
    from cardlab_shelf.hearts.state import HeartsState

HIDDEN_PASS = actions.PASS_BASE
"""What the copy's history says for a pass choice of an earlier deal the seat never saw."""


def resample(state: HeartsState, player: int, seed: int) -> HeartsState:
    copy = state.clone()
    n = state.game.num_players
    others = [s for s in range(n) if s != player]
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
    any_void = any(voids[s] for s in others)
    dealt = redeal(sorted(pool), sizes, rng, allowed if any_void else None)
    for seat in others:
        cards = dealt[seat]
        rng.shuffle(cards)  # which of its cards a seat has chosen to pass: any of them
        chosen = len(state.choosing[seat])
        copy.choosing[seat] = cards[:chosen]
        copy.hands[seat] = sorted(cards[chosen:] + list(fixed.get(seat, ())))
    _redeal_passed(state, copy, player, rng)
    copy.rng = random.Random(rng.getrandbits(64))
    copy.actions = _seen_history(state, copy, player)
    return copy


def _receiver(state: HeartsState, giver: int) -> int:
    return (giver + state.direction) % state.game.num_players


def _redeal_passed(state: HeartsState, copy: HeartsState, player: int, rng: random.Random) -> None:
    """After the exchange: which cards another seat passed is known only to that seat
    and its receiver. For a seat whose receiver is not `player`, three of the cards the
    receiver holds in the copy, or has played this deal, stand for them."""
    if not state.direction or state.phase == actions.PASS:
        return
    played_by: dict[int, list[int]] = {s: [] for s in range(state.game.num_players)}
    for event in state.log[state.deal_start :]:
        if event[0] == "play":
            played_by[event[1]].append(event[2])
    for giver in range(state.game.num_players):
        receiver = _receiver(state, giver)
        if giver == player or receiver == player:
            continue
        held = list(copy.hands[receiver])
        rng.shuffle(held)
        played = sorted(played_by[receiver])
        rng.shuffle(played)
        copy.passed[giver] = sorted((held + played)[:3])


def _seen_history(state: HeartsState, copy: HeartsState, player: int) -> list[int]:
    """The actions as `player` saw them. A deal that passes starts with 12 choices,
    three a seat in seat order; a seat's choices are its own (kept), its giver's seen
    as the set it received (in order of the cards), any other seat's the copy's
    redealt cards for the deal under way and `HIDDEN_PASS` for earlier ones."""
    out = list(state.actions)
    n = state.game.num_players
    at, deal = 0, 0
    while at < len(out):
        direction = (1, 3, 2, 0)[deal % 4]
        if direction:
            current = deal == state.deal
            for i in range(at, min(at + 3 * n, len(out))):
                seat = (i - at) // 3
                k = (i - at) % 3
                receiver = (seat + direction) % n
                if seat == player:
                    continue
                if current and state.phase == actions.PASS:
                    out[i] = actions.pass_card(copy.choosing[seat][k])
                elif current and receiver == player:
                    out[i] = actions.pass_card(state.passed[seat][k])
                elif current:
                    out[i] = actions.pass_card(copy.passed[seat][k])
                else:
                    out[i] = HIDDEN_PASS
            at += 3 * n
        at += 52
        deal += 1
    return out
