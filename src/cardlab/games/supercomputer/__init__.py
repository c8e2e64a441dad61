"""SUPER COMPUTER: draft parts in secret, wire them into a computer on a grid,
meet your build card; three rounds (rulebook: shared/seeds/002_*.txt, rulings S1-S10)."""

from cardlab.games.supercomputer.rules import SuperComputerGame

GAME = SuperComputerGame

__all__ = ["GAME", "SuperComputerGame"]
