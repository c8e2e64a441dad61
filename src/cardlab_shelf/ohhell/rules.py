"""OH HELL: the Game (its parameters, options and bounds) and its `GAME_INFO`.

Three to five players each bid, before the play, exactly how many tricks they will
take; only an exact bid scores. The hand shrinks by one card each deal, from
`start` cards down to one. Rules in our words: rules.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardlab.core import Game, OptionSpec
from cardlab.core.errors import OptionError
from cardlab.core.plugin import DecisionKind, GameInfo, Tunable
from cardlab_shelf.ohhell import actions, scoring
from cardlab_shelf.ohhell.cards import DeckFile, load_cards
from cardlab_shelf.ohhell.state import OhHellState


class OhHellGame(Game):
    name = "ohhell"
    title = "OH HELL"
    min_players = 3
    max_players = 5
    default_players = 4
    eval_scale = 6.0
    """A made bid scores 10 or more: a wider soft-max scale than the default."""
    option_specs = (
        OptionSpec(
            "start",
            (7, 5, 10),
            "cards dealt in the first deal; each deal one fewer, down to one",
            low=1,
            high=actions.MAX_HAND,
        ),
    )

    cards: DeckFile

    def load_cards(self, path: Path | None) -> Any:
        deck = load_cards(path)
        self.ids = tuple(c.id for c in deck.cards)
        self.suit = tuple(c.suit for c in deck.cards)
        self.rank = tuple(c.rank for c in deck.cards)
        start = int(self.options["start"])
        if start * self.num_players >= len(deck.cards):
            raise OptionError(
                f"ohhell: option 'start' {start} deals {start * self.num_players} cards to "
                f"{self.num_players} players and leaves none to turn up for trump"
            )
        self.sizes = tuple(range(start, 0, -1))
        return deck

    @property
    def num_distinct_actions(self) -> int:
        return actions.NUM_ACTIONS

    def new_initial_state(self, seed: int = 0) -> OhHellState:
        return OhHellState(self, seed)

    def max_game_length(self) -> int:
        """rules.md, "Length": each deal one bid a seat and one play a card dealt."""
        n = self.num_players
        return sum(n + n * size for size in self.sizes)

    def utility_bounds(self) -> tuple[float, float]:
        """0 (no bid made) to every bid made at the whole hand: 10 + size a deal."""
        return 0.0, float(sum(scoring.BONUS + size for size in self.sizes))


GAME_INFO = GameInfo(
    game="cardlab_shelf.ohhell.rules:OhHellGame",
    pitch="Bid exactly the tricks you will take: one too many or too few scores nothing.",
    decision_kinds=(
        DecisionKind(actions.BID, (4.0, 15.0), per_option=(0.3, 1.0), about="bid tricks"),
        DecisionKind(actions.PLAY, (2.0, 8.0), per_option=(0.2, 0.8), about="play to a trick"),
    ),
    box_minutes={3: (20.0, 35.0), 4: (25.0, 40.0), 5: (30.0, 45.0)},
    round_overhead_seconds=(30.0, 60.0),
    tunables=(Tunable("option:start", 3, 10, about="cards in the first deal"),),
    view_script="",
)
"""How cardlab finds OH HELL: the entry point `ohhell` in pyproject.toml."""
