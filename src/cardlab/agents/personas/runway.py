"""RUNWAY personas, after the rulebook's closing line: "Cam was richer. Ana specialized."

Both read only the state they are handed (a resample from their own seat's
view, so other hands in it are guesses) and draw ties from their own rng.
"""

from __future__ import annotations

from typing import Any

from cardlab.agents.base import Agent, register_agent
from cardlab.core import GameState
from cardlab.games.runway.layout import (
    BLIND0,
    CASH,
    DEAL0,
    NETWORK,
    PASS,
    SKIP,
    SOCIAL,
    SWAP0,
    TAKE0,
)
from cardlab.games.runway.state import closing_winner


def _runway(state: GameState, kind: str) -> Any:
    if getattr(state.game, "name", None) != "runway":
        raise ValueError(f"the {kind} persona plays RUNWAY only, not {state.game.name!r}")
    return state


def _num(card: int) -> int:
    return (card & 7) + 1


def _best_key(s: Any) -> tuple[int, int]:
    """Key of the pitch winning so far: (number, 1 for a match / 0 for Cash)."""
    sector = s.cards.deal_sector[s.deal - DEAL0]
    seat, card = closing_winner(s.pitched, sector)
    if seat < 0:
        return (0, -1)
    return (_num(card), 1 if card >> 3 == sector else 0)


def _winning(s: Any, legal: list[int]) -> list[int]:
    """Legal competing cards that would beat every pitch so far (R6 order)."""
    sector = s.cards.deal_sector[s.deal - DEAL0]
    best = _best_key(s)
    out = []
    for a in legal:
        if a >= PASS:
            continue
        kind = a >> 3
        if kind == sector:
            key = (_num(a), 1)
        elif kind == CASH:
            key = (_num(a), 0)
        else:
            continue
        if key >= best:  # a later pitch wins a true tie
            out.append(a)
    return out


def _ride(s: Any, legal: list[int]) -> int | None:
    """The lowest Network card that can Ride this Deal, if any (R4)."""
    sector = s.cards.deal_sector[s.deal - DEAL0]
    rides = [a for a in legal if a < PASS and a >> 3 == NETWORK and sector != SOCIAL]
    return min(rides, key=_num) if rides else None


def _trade(s: Any, legal: list[int], wanted: Any) -> int:
    """Swap the least wanted hand card for the most wanted Bench card when that
    is an upgrade; otherwise discard a poor card blind; otherwise skip."""
    hand = s.hands[s.current_player()]
    if not hand:
        takes = [a for a in legal if TAKE0 <= a < TAKE0 + 3]
        if takes:
            return max(takes, key=lambda a: wanted(s.bench[a - TAKE0]))
        return max(legal)  # a blind draw if possible, else skip
    worst = min(hand, key=wanted)
    if s.bench:
        slot = max(range(len(s.bench)), key=lambda i: wanted(s.bench[i]))
        if wanted(s.bench[slot]) > wanted(worst) + 1:
            return SWAP0 + 3 * worst + slot
    if wanted(worst) <= 2:
        return BLIND0 + worst
    return SKIP


@register_agent("generalist")
class GeneralistAgent(Agent):
    """ "Cam was richer": a Cash-heavy generalist.

    Hoards Cash (it competes on every Deal) and trades toward it, taking Cash
    off the Bench for its weakest card. Pitching, it plays the cheapest card
    that beats the pitches so far when it pitches last; earlier in the order it
    commits only a strong winning card (6+) on a Deal worth 3 or more, since a
    later seat may still outbid. Otherwise it Rides with its lowest Network on
    a non-Social Deal for the +1, or passes and trades.
    """

    kind = "generalist"

    def step(self, state: GameState) -> int:
        s = _runway(state, self.kind)
        legal = s.legal_actions()
        if s.phase == 1:
            return _trade(s, legal, lambda c: _num(c) + (4 if c >> 3 == CASH else 0))
        me = s.current_player()
        last = s.order[-1] == me
        wins = _winning(s, legal)
        sector = s.cards.deal_sector[s.deal - DEAL0]
        if wins:
            # prefer a match of equal strength over spending Cash
            if last:
                return min(wins, key=lambda a: (_num(a), a >> 3 == CASH))
            strong = [a for a in wins if _num(a) >= 6]
            if strong and s.cards.deal_score[s.deal - DEAL0] >= 3:
                return max(strong, key=lambda a: (_num(a), a >> 3 == sector))
        ride = _ride(s, legal)
        if ride is not None and self.rng.random() < 0.7:
            return ride
        return PASS


@register_agent("specialist")
class SpecialistAgent(Agent):
    """ "Ana specialized": concentrates on one Sector.

    Its target Sector is the one where a lock is one win away (a single
    Foothold) or else where its hand's matching cards add up highest. On a
    target Deal it pitches its lowest winning match when last, its highest
    match otherwise. Off target it never spends a target-kind card: it wins
    with its cheapest spare card when it pitches last, or a spare 6+ earlier,
    else Rides or passes. Passing, it trades off-target cards toward the
    target kind.
    """

    kind = "specialist"

    def target(self, s: Any) -> int:
        me = s.current_player()
        hand = s.hands[me]
        feet = s.footholds[me]

        def pull(sector: int) -> float:
            cards = sum(_num(c) for c in hand if c >> 3 == sector)
            return cards + (12 if feet[sector] == 1 else 0) + 0.01 * sector

        return max(range(4), key=pull)

    def step(self, state: GameState) -> int:
        s = _runway(state, self.kind)
        legal = s.legal_actions()
        target = self.target(s)
        if s.phase == 1:
            return _trade(s, legal, lambda c: _num(c) + (8 if c >> 3 == target else 0))
        me = s.current_player()
        last = s.order[-1] == me
        sector = s.cards.deal_sector[s.deal - DEAL0]
        wins = _winning(s, legal)
        if sector == target:
            matches = [a for a in wins if a >> 3 == sector] or wins
            if matches:
                return (min if last else max)(matches, key=_num)
        else:
            spare = [a for a in wins if a >> 3 != target]  # never spend target cards off target
            if spare and (last or _num(max(spare, key=_num)) >= 6):
                return (min if last else max)(spare, key=_num)
        ride = _ride(s, legal)
        if ride is not None and target != NETWORK:
            return ride
        return PASS
