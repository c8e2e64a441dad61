"""WAR scoring: the cards each seat holds are its points; more cards win (W5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core import TieBreak, break_ties

if TYPE_CHECKING:
    from cardlab_shelf.war.state import WarState

TIEBREAK_LEVELS: tuple[str, ...] = ()


def result(state: WarState) -> TieBreak:
    return break_ties([(len(p),) for p in state.piles], TIEBREAK_LEVELS)
