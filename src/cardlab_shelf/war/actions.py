"""WAR action encoding: one action, the only move there is.

| action | means | when |
|---|---|---|
| 0 | turn over the top card of your pile | every turn |
"""

from __future__ import annotations

TURN = "turn"
"""Turn over your top card: forced, the only legal action."""
NUM_ACTIONS = 1


def label(action: int) -> str:
    return "turn over your top card"
