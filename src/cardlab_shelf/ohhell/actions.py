"""OH HELL action encoding: the one table that says what each action number means.

| action | means | when |
|---|---|---|
| 0 .. 51 | play that card (its position in cards.toml) to the trick | the play |
| 52 + b | bid b tricks (b = 0 .. MAX_HAND) | the bidding |
"""

from __future__ import annotations

from cardlab.core.moves import Move
from cardlab_shelf.deck import DeckFile

BID = "bid"
"""Say how many tricks you will take this deal."""
PLAY = "play"
"""Lead or follow to a trick."""

BID_BASE = 52
MAX_HAND = 10
NUM_ACTIONS = BID_BASE + MAX_HAND + 1


def bid(tricks: int) -> int:
    return BID_BASE + tricks


def describe(cards: DeckFile, action: int) -> Move:
    """What an action does, for programs: a bid's amount, or the hand card played, by id."""
    if action >= BID_BASE:
        return Move("bid", amount=action - BID_BASE)
    return Move("play", cards=(cards.cards[action].id,))


def label(cards: DeckFile, action: int) -> str:
    if action >= BID_BASE:
        b = action - BID_BASE
        return f"bid {b} trick" + ("" if b == 1 else "s")
    return f"play {cards.cards[action].name}"
