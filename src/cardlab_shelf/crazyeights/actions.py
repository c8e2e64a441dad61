"""CRAZY EIGHTS action encoding: the one table that says what each action number means.

| action | means | when |
|---|---|---|
| 0 .. 51 | play that card (its position in cards.toml) on the discard pile | your turn |
| 52 .. 55 | name the suit to follow (clubs, diamonds, hearts, spades) | after playing an eight |
| 56 | draw the top card of the stock | your turn, the stock not empty |
| 57 | pass | your turn, the stock empty and no card to play |
"""

from __future__ import annotations

from cardlab.core.moves import Move
from cardlab_shelf.deck import SUIT_WORDS, SUITS, DeckFile

PLAY = "play"
"""Play a card, draw, or (stock empty, nothing to play) pass."""
SUIT = "suit"
"""Name the suit the next seat must follow after your eight."""

SUIT_BASE = 52
DRAW = 56
PASS = 57
NUM_ACTIONS = 58


def name_suit(suit: str) -> int:
    return SUIT_BASE + SUITS.index(suit)


def suit_of(action: int) -> str:
    return SUITS[action - SUIT_BASE]


def describe(cards: DeckFile, action: int) -> Move:
    """What an action does, for programs: the hand card played by id, the suit named."""
    if action == DRAW:
        return Move("draw")
    if action == PASS:
        return Move("pass")
    if action >= SUIT_BASE:
        return Move("name_suit", extra={"suit": SUIT_WORDS[suit_of(action)]})
    return Move("play", cards=(cards.cards[action].id,))


def label(cards: DeckFile, action: int) -> str:
    if action == DRAW:
        return "draw from the stock"
    if action == PASS:
        return "pass"
    if action >= SUIT_BASE:
        return f"name {SUIT_WORDS[suit_of(action)]}"
    return f"play {cards.cards[action].name}"
