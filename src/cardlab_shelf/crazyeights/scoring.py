"""CRAZY EIGHTS scoring: what a deal pays, and the winners.

The seat that goes out collects what the cards left in the other hands are worth
(cards.toml: an eight 50, a picture card 10, an ace 1, the rest their number, C6).
A blocked deal pays the seat with the lowest hand the difference to each other
hand; equal lowest hands score nothing (C7). Most points win; a tie goes to the seat
that won more deals, then is shared (C8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core import TieBreak, break_ties

if TYPE_CHECKING:
    from cardlab_shelf.crazyeights.state import CrazyEightsState

TIEBREAK_LEVELS = ("most_deals_won",)


def hand_value(state: CrazyEightsState, seat: int) -> int:
    points = state.game.points
    return sum(points[c] for c in state.hands[seat])


def deal_points(state: CrazyEightsState, out: int | None) -> tuple[list[int], int | None]:
    """Each seat's points for the deal, and the seat that won it (None: nobody)."""
    n = state.game.num_players
    values = [hand_value(state, s) for s in range(n)]
    if out is None:
        low = min(values)
        lowest = [s for s in range(n) if values[s] == low]
        if len(lowest) > 1:
            return [0] * n, None
        out = lowest[0]
    scored = [0] * n
    scored[out] = sum(v - values[out] for v in values)
    return scored, out


def result(state: CrazyEightsState) -> TieBreak:
    keys = [(state.points[p], state.deals_won[p]) for p in range(state.game.num_players)]
    return break_ties(keys, TIEBREAK_LEVELS)
