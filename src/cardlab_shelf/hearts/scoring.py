"""HEARTS scoring: who takes a trick, a deal's penalty points (the moon), the winners.

Lowest total wins (`GAME_INFO.score_direction = "lowest"`); `returns()` gives the
penalty points as printed. Equal lowest totals share the win (H9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core import TieBreak, break_ties

if TYPE_CHECKING:
    from cardlab_shelf.hearts.state import HeartsState

TIEBREAK_LEVELS: tuple[str, ...] = ()


def trick_winner(state: HeartsState, trick: list[tuple[int, int]]) -> int:
    """The seat whose card is the highest of the suit led (H4)."""
    suit, rank = state.game.suit, state.game.rank
    led = suit[trick[0][1]]
    return max((s for s in trick if suit[s[1]] == led), key=lambda s: rank[s[1]])[0]


def deal_points(state: HeartsState) -> tuple[list[int], int | None]:
    """Each seat's penalty points for the deal just played, and the seat that shot the
    moon (took every penalty card: it scores 0 and every other seat the deck's total,
    H6), None when nobody did."""
    points = state.game.points
    raw = [sum(points[c] for c in taken) for taken in state.taken]
    total = state.game.penalty_total
    for seat, got in enumerate(raw):
        if total and got == total and len(state.taken_penalty(seat)) == state.game.penalty_cards:
            return [0 if s == seat else total for s in range(len(raw))], seat
    return raw, None


def result(state: HeartsState) -> TieBreak:
    """The winners (fewest points: the key is the points negated, higher is better)."""
    return break_ties([(-p,) for p in state.points], TIEBREAK_LEVELS)
