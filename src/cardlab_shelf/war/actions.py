"""WAR action encoding: one action, the only move there is.

| action | means | when |
|---|---|---|
| 0 | turn over the top card of your pile | every turn |
"""

from __future__ import annotations

from cardlab.core.moves import Move

TURN = "turn"
"""Turn over your top card: forced, the only legal action."""
NUM_ACTIONS = 1


def describe(action: int) -> Move:
    """The one move: the top card of your face-down pile, which you have not seen."""
    return Move("turn_over")


def label(action: int) -> str:
    return "turn over your top card"
