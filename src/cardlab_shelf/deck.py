"""The standard 52-card deck as a card file: the model every shelf game's cards.toml
is validated with, and its loader.

A card's id is its suit letter (c, d, h, s) and its rank in two digits, the ace high
at 14: ``s12`` is the queen of spades. Every id is a fixed-width token that no
ordinary text contains, so the leak checks can search any output for it. A game's
card file gives each card its own `points` (Hearts' penalty points, Crazy Eights'
count); the deck itself must be the 52 cards, each once."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError

SUITS = ("c", "d", "h", "s")
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def card_name(suit: str, rank: int) -> str:
    """What a person calls a card: ``Q♠``, ``10♥``."""
    return f"{RANK_NAMES.get(rank, str(rank))}{SUIT_SYMBOLS[suit]}"


class Card(BaseModel):
    """One card: its id (suit letter, two-digit rank), printed name, suit, rank and
    the points this game gives it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[cdhs](0[2-9]|1[0-4])$")
    name: str = Field(min_length=1, max_length=12)
    suit: Literal["c", "d", "h", "s"]
    rank: int = Field(ge=2, le=14)
    points: int = Field(default=0, ge=0, le=100)


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cards: list[Card] = Field(min_length=52, max_length=52)


def load_deck(path: Path) -> DeckFile:
    """Load a deck file and check it is the standard deck: every id its suit and rank,
    each of the 52 cards once (errors name the file, the card and the field)."""
    deck = load_card_file(path, DeckFile)
    seen: set[str] = set()
    for card in deck.cards:
        expected = f"{card.suit}{card.rank:02d}"
        if card.id != expected:
            raise CardDataError(
                f"{path}: card {card.id!r}: field 'id': a {card.rank} of {SUIT_WORDS[card.suit]} "
                f"is {expected!r}"
            )
        if card.id in seen:
            raise CardDataError(f"{path}: card {card.id!r}: field 'id': used by two cards")
        seen.add(card.id)
    return deck


def deck_names(deck: DeckFile) -> list[str]:
    """Every physical card's name, once per copy (what a printed deck shows)."""
    return [card.name for card in deck.cards]
