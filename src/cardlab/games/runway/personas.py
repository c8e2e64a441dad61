"""RUNWAY personas, after the rulebook's closing line: "Cam was richer. Ana specialized."

Both read only the state they are handed (a resample from their own seat's
view, so other hands in it are guesses) and draw ties from their own rng.
"""

from __future__ import annotations

from collections.abc import Callable

from cardlab.agents.base import Agent, register_agent
from cardlab.core import GameState
from cardlab.games.runway.actions import (
    CASH,
    NETWORK,
    NUM_CAPITAL,
    NUM_SECTORS,
    PASS,
    SKIP,
    SOCIAL,
    TAKE0,
    blind_action,
    is_take,
    kind_of,
    swap_action,
)
from cardlab.games.runway.state import RunwayState


def _runway(state: GameState, kind: str) -> RunwayState:
    if not isinstance(state, RunwayState):
        name = getattr(getattr(state, "game", None), "name", None)
        raise ValueError(f"the {kind} persona plays RUNWAY only, not {name!r}")
    return state


def _numbers(s: RunwayState) -> Callable[[int], int]:
    """A card's printed number as the card file prints it (the box: 1-8)."""
    return s.cards.capital_number.__getitem__


def _pitch_key(s: RunwayState, card: int, sector: int) -> tuple[int, int] | None:
    """R6 order of a competing pitch: (number, 1 for a match / 0 for Cash); None for a
    card that does not compete (a Ride)."""
    kind = kind_of(card)
    if kind == sector:
        return (s.cards.capital_number[card], 1)
    if kind == CASH:
        return (s.cards.capital_number[card], 0)
    return None


def _winning(s: RunwayState, legal: list[int]) -> list[int]:
    """Legal competing cards that would beat every pitch so far (R6 order)."""
    sector = s.sector_in_play
    seat, card = s.leading_pitch()
    best = (-1, -1) if seat < 0 else _pitch_key(s, card, sector)
    assert best is not None
    out = []
    for a in legal:
        if a >= NUM_CAPITAL:
            continue
        key = _pitch_key(s, a, sector)
        if key is not None and key >= best:  # a later pitch wins a true tie
            out.append(a)
    return out


def _ride(s: RunwayState, legal: list[int]) -> int | None:
    """The lowest Network card that can Ride this Deal, if any (R4)."""
    if s.sector_in_play == SOCIAL:
        return None
    rides = [a for a in legal if a < NUM_CAPITAL and kind_of(a) == NETWORK]
    return min(rides, key=_numbers(s)) if rides else None


def _trade(s: RunwayState, legal: list[int], wanted: Callable[[int], int]) -> int:
    """Swap the least wanted hand card for the most wanted Bench card when that
    is an upgrade; otherwise discard a poor card blind; otherwise skip."""
    hand = s.hand_of(s.current_player())
    bench = s.bench
    if not hand:
        takes = [a for a in legal if is_take(a)]
        if takes:
            return max(takes, key=lambda a: wanted(bench[a - TAKE0]))
        return max(legal)  # a blind draw if possible, else skip
    worst = min(hand, key=wanted)
    if bench:
        slot = max(range(len(bench)), key=lambda i: wanted(bench[i]))
        if wanted(bench[slot]) > wanted(worst) + 1:
            return swap_action(worst, slot)
    if wanted(worst) <= 2:
        return blind_action(worst)
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
        number_of = _numbers(s)
        if s.decision_kind() == "trade":
            return _trade(s, legal, lambda c: number_of(c) + (4 if kind_of(c) == CASH else 0))
        last = s.pitches_last(s.current_player())
        wins = _winning(s, legal)
        sector = s.sector_in_play
        if wins:
            # prefer a match of equal strength over spending Cash
            if last:
                return min(wins, key=lambda a: (number_of(a), kind_of(a) == CASH))
            strong = [a for a in wins if number_of(a) >= 6]
            if strong and s.score_in_play() >= 3:
                return max(strong, key=lambda a: (number_of(a), kind_of(a) == sector))
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

    def target(self, s: RunwayState) -> int:
        me = s.current_player()
        hand = s.hand_of(me)
        feet = s.footholds_of(me)
        number_of = _numbers(s)

        def pull(sector: int) -> float:
            cards = sum(number_of(c) for c in hand if kind_of(c) == sector)
            return cards + (12 if feet[sector] == 1 else 0) + 0.01 * sector

        return max(range(NUM_SECTORS), key=pull)

    def step(self, state: GameState) -> int:
        s = _runway(state, self.kind)
        legal = s.legal_actions()
        target = self.target(s)
        number_of = _numbers(s)
        if s.decision_kind() == "trade":
            return _trade(s, legal, lambda c: number_of(c) + (8 if kind_of(c) == target else 0))
        last = s.pitches_last(s.current_player())
        sector = s.sector_in_play
        wins = _winning(s, legal)
        if sector == target:
            matches = [a for a in wins if kind_of(a) == sector] or wins
            if matches:
                return (min if last else max)(matches, key=number_of)
        else:
            spare = [a for a in wins if kind_of(a) != target]  # never spend target cards
            if spare and (last or number_of(max(spare, key=number_of)) >= 6):
                return (min if last else max)(spare, key=number_of)
        ride = _ride(s, legal)
        if ride is not None and target != NETWORK:
            return ride
        return PASS
