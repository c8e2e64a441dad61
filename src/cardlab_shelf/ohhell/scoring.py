"""OH HELL scoring: who takes a trick, a deal's points, the winners.

A seat that takes exactly the tricks it bid scores 10 plus its bid; any other seat
scores nothing for the deal (O7). Most points win; a tie goes to the seat that made
its bid in more deals, then is shared (O8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core import TieBreak, break_ties

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.state import OhHellState

TIEBREAK_LEVELS = ("most_bids_made",)
BONUS = 10


def trick_winner(state: OhHellState, trick: list[tuple[int, int]]) -> int:
    """The highest trump played, else the highest card of the suit led (O5)."""
    suit, rank = state.game.suit, state.game.rank
    trump = state.trump_suit
    led = suit[trick[0][1]]
    best = trump if any(suit[c] == trump for _, c in trick) else led
    return max((s for s in trick if suit[s[1]] == best), key=lambda s: rank[s[1]])[0]


def deal_points(bids: list[int], tricks: list[int]) -> list[int]:
    """10 plus the bid for a bid made exactly, else 0 (O7)."""
    return [BONUS + b if b == t else 0 for b, t in zip(bids, tricks, strict=True)]


def result(state: OhHellState) -> TieBreak:
    keys = [(state.points[p], state.made[p]) for p in range(state.game.num_players)]
    return break_ties(keys, TIEBREAK_LEVELS)
