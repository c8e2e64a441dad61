"""OH HELL card data: the standard deck (cards.toml)."""

from __future__ import annotations

from pathlib import Path

from cardlab_shelf.deck import DeckFile, deck_names, load_deck

PACKAGED = Path(__file__).with_name("cards.toml")

__all__ = ["PACKAGED", "DeckFile", "deck_names", "load_cards"]


def load_cards(path: Path | None = None) -> DeckFile:
    """The packaged deck, or a designer's file checked to be the standard deck."""
    return load_deck(path or PACKAGED)
