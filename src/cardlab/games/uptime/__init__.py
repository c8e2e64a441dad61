"""UPTIME: turn raw silicon into servers, wire them into a network, win contracts.

Rules: docs/rules/uptime.md (the rulebook passage, our reading, rulings U1-U17).
"""

from cardlab.games.uptime.rules import UptimeGame

GAME = UptimeGame

__all__ = ["GAME", "UptimeGame"]
