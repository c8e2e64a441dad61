"""WAR: the Game (its parameters, options and bounds) and its `GAME_INFO`.

Two players turn over cards; the higher takes both. There is no decision in it: the
only legal action is the forced turn. The shelf keeps it as the floor the gate must
fail on agency and skill. Capped at `battles` battles so every game ends (a game of
WAR to the last card can run for hundreds of battles). Rules in our words: rules.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.core import Game, OptionSpec
from cardlab.core.plugin import DecisionKind, GameInfo, Tunable
from cardlab_shelf.war import actions
from cardlab_shelf.war.cards import DeckFile, load_cards
from cardlab_shelf.war.state import WarState


class WarGame(Game):
    name = "war"
    title = "WAR"
    min_players = 2
    max_players = 2
    default_players = 2
    option_specs = (
        OptionSpec(
            "battles",
            (100, 50, 200),
            "battles before the game stops (most cards win)",
            low=1,
            high=1000,
        ),  # fmt: skip
    )

    cards: DeckFile

    def load_cards(self, path: Path | None) -> Any:
        deck = load_cards(path)
        self.ids = tuple(c.id for c in deck.cards)
        self.rank = tuple(c.rank for c in deck.cards)
        return deck

    @property
    def num_distinct_actions(self) -> int:
        return actions.NUM_ACTIONS

    def new_initial_state(self, seed: int = 0) -> WarState:
        return WarState(self, seed)

    def max_game_length(self) -> int:
        """rules.md, "Length": two turns a battle (a war is settled within it)."""
        return 2 * int(self.options["battles"])

    def utility_bounds(self) -> tuple[float, float]:
        """A seat holds between none and all 52 cards."""
        return 0.0, float(len(self.cards.cards))


GAME_INFO = GameInfo(
    game="cardlab_shelf.war.rules:WarGame",
    pitch="Turn over your top card; the higher card takes both. Nothing to decide.",
    decision_kinds=(DecisionKind(actions.TURN, (1.0, 3.0), about="turn over the top card"),),
    box_minutes={2: (10.0, 30.0)},
    tunables=(Tunable("option:battles", 20, 300, step=10, about="the battle cap"),),
    view_script="",
)
"""How cardlab finds WAR: the entry point `war` in pyproject.toml."""
