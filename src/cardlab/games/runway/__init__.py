"""RUNWAY: pitch Capital cards to win Deals, place Footholds, ride the Hype.

Exposes `GAME`, the Game subclass the registry loads."""

from cardlab.games.runway.rules import RunwayGame

GAME = RunwayGame

__all__ = ["GAME", "RunwayGame"]
