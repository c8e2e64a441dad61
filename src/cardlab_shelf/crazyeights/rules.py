"""CRAZY EIGHTS: the Game (its parameters, options and bounds) and its `GAME_INFO`.

Two to five players shed their hands onto a discard pile by matching its top card's
suit or rank; eights are wild and name the next suit. The first seat out collects
what the others still hold. A game is a few deals (three by default). Rules in our
words: rules.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.core import Game, OptionSpec
from cardlab.core.plugin import DecisionKind, GameInfo, Tunable
from cardlab_shelf.crazyeights import actions
from cardlab_shelf.crazyeights.cards import DeckFile, load_cards
from cardlab_shelf.crazyeights.state import CrazyEightsState


class CrazyEightsGame(Game):
    name = "crazyeights"
    title = "CRAZY EIGHTS"
    min_players = 2
    max_players = 5
    default_players = 4
    eval_scale = 20.0
    """A deal pays tens of points (an eight left in a hand is 50)."""
    option_specs = (OptionSpec("deals", (3, 1, 5), "deals in a game", low=1, high=20),)

    cards: DeckFile

    def load_cards(self, path: Path | None) -> Any:
        deck = load_cards(path)
        self.ids = tuple(c.id for c in deck.cards)
        self.suit = tuple(c.suit for c in deck.cards)
        self.rank = tuple(c.rank for c in deck.cards)
        self.points = tuple(c.points for c in deck.cards)
        return deck

    @property
    def num_distinct_actions(self) -> int:
        return actions.NUM_ACTIONS

    def new_initial_state(self, seed: int = 0) -> CrazyEightsState:
        return CrazyEightsState(self, seed)

    def max_game_length(self) -> int:
        """rules.md, "Length": a deal has at most 51 plays, one draw per card of the
        stock, 4 suits named, and fewer than `players` passes in a row between plays."""
        n = self.num_players
        size = 7 if n == 2 else 5
        stock = len(self.cards.cards) - n * size - 1
        plays = len(self.cards.cards) - 1
        per_deal = plays + stock + 4 + n * (plays + 1)
        return per_deal * int(self.options["deals"])

    def utility_bounds(self) -> tuple[float, float]:
        """A deal pays one seat at most what every card is worth."""
        return 0.0, float(sum(self.points) * int(self.options["deals"]))


GAME_INFO = GameInfo(
    game="cardlab_shelf.crazyeights.rules:CrazyEightsGame",
    pitch="Match the top card's suit or rank, eights are wild: the first seat out scores the rest.",
    decision_kinds=(
        DecisionKind(actions.PLAY, (2.0, 8.0), per_option=(0.2, 0.6), about="play, draw or pass"),
        DecisionKind(actions.SUIT, (1.0, 4.0), about="name a suit after an eight"),
    ),
    box_minutes={2: (10.0, 20.0), 3: (10.0, 25.0), 4: (15.0, 25.0), 5: (15.0, 30.0)},
    round_overhead_seconds=(30.0, 60.0),
    tunables=(Tunable("option:deals", 1, 6, about="deals in a game"),),
    view_script="",
)
"""How cardlab finds CRAZY EIGHTS: the entry point `crazyeights` in pyproject.toml."""
