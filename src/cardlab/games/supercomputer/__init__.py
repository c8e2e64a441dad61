"""SUPER COMPUTER: draft parts in secret, wire them into a computer on a grid,
meet your build card; three rounds (rules and rulings S1-S10: docs/rules/supercomputer.md)."""

from cardlab.games.supercomputer.rules import SuperComputerGame

GAME = SuperComputerGame

__all__ = ["GAME", "SuperComputerGame"]
