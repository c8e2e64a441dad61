"""HEARTS action encoding: the one table that says what each action number means.

| action | means | when |
|---|---|---|
| 0 .. 51 | play that card (its position in cards.toml) to the trick | the play |
| 52 .. 103 | choose card `action - 52` as one of the three to pass | the pass |
"""

from __future__ import annotations

from cardlab.core.moves import Move
from cardlab_shelf.deck import DeckFile

PLAY = "play"
"""Lead or follow to a trick."""
PASS = "pass"
"""Choose one of the three cards passed before the play (three such decisions a seat)."""

PASS_BASE = 52
NUM_ACTIONS = 104


def play(card: int) -> int:
    return card


def pass_card(card: int) -> int:
    return PASS_BASE + card


def describe(cards: DeckFile, action: int) -> Move:
    """What an action does, for programs: the hand card it passes or plays, by id."""
    if action >= PASS_BASE:
        return Move("pass_card", cards=(cards.cards[action - PASS_BASE].id,))
    return Move("play", cards=(cards.cards[action].id,))


def label(cards: DeckFile, action: int) -> str:
    if action >= PASS_BASE:
        return f"pass {cards.cards[action - PASS_BASE].name}"
    return f"play {cards.cards[action].name}"
