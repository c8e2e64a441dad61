"""HEARTS: the Game (its parameters, options and bounds) and its `GAME_INFO`.

Four players avoid taking hearts (1 point each) and the queen of spades (13) in
tricks; taking all of them shoots the moon. A game is a set of deals (four by
default: pass left, right, across, then hold), and the fewest points win, which is
why `GAME_INFO` says `score_direction="lowest"`. Rules in our words: rules.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.core import Game, OptionSpec
from cardlab.core.errors import CardDataError
from cardlab.core.plugin import DecisionKind, GameInfo, Tunable
from cardlab_shelf.hearts import actions
from cardlab_shelf.hearts.cards import DeckFile, load_cards
from cardlab_shelf.hearts.state import HeartsState


class HeartsGame(Game):
    name = "hearts"
    title = "HEARTS"
    min_players = 4
    max_players = 4
    default_players = 4
    eval_scale = 6.0
    """A deal moves up to 26 points: the bots' soft-max scale is wider than the default."""
    option_specs = (
        OptionSpec(
            "deals", (4, 1, 8), "deals in a game (4: one of each pass direction)", low=1, high=20
        ),
    )

    cards: DeckFile

    def load_cards(self, path: Path | None) -> Any:
        deck = load_cards(path)
        self.ids = tuple(c.id for c in deck.cards)
        self.suit = tuple(c.suit for c in deck.cards)
        self.rank = tuple(c.rank for c in deck.cards)
        self.points = tuple(c.points for c in deck.cards)
        self.penalty_total = sum(self.points)
        self.penalty_cards = sum(1 for p in self.points if p)
        self.two_of_clubs = next(i for i, c in enumerate(deck.cards) if c.id == "c02")
        if self.points[self.two_of_clubs]:
            raise CardDataError(f"{path or 'cards.toml'}: card 'c02': field 'points': it leads")
        return deck

    @property
    def num_distinct_actions(self) -> int:
        return actions.NUM_ACTIONS

    def new_initial_state(self, seed: int = 0) -> HeartsState:
        return HeartsState(self, seed)

    def max_game_length(self) -> int:
        """rules.md, "Length": per deal 52 plays, plus 12 choices in a deal that passes."""
        deals = int(self.options["deals"])
        passing = sum(1 for d in range(deals) if d % 4 != 3)
        return 52 * deals + 12 * passing

    def utility_bounds(self) -> tuple[float, float]:
        """A deal gives a seat between 0 and all the penalty points (26 as printed:
        taking them all is the moon, 0, and another's moon gives 26)."""
        return 0.0, float(self.penalty_total * int(self.options["deals"]))


GAME_INFO = GameInfo(
    game="cardlab_shelf.hearts.rules:HeartsGame",
    pitch="Four players dodge hearts and the queen of spades; take them all to shoot the moon.",
    decision_kinds=(
        DecisionKind(
            actions.PASS,
            (3.0, 12.0),
            per_option=(0.2, 0.6),
            simultaneous=True,  # at a table everyone chooses at once; the engine asks in turn
            about="choose a card to pass",
        ),
        DecisionKind(actions.PLAY, (2.0, 8.0), per_option=(0.2, 0.8), about="play to a trick"),
    ),
    box_minutes={4: (20.0, 35.0)},
    round_overhead_seconds=(45.0, 90.0),
    tunables=(Tunable("option:deals", 1, 8, about="deals in a game"),),
    score_direction="lowest",
    view_script="",
)
"""How cardlab finds HEARTS: the entry point `hearts` in pyproject.toml."""
