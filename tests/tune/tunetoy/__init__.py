"""Countdown, a toy whose best rules are known: two players take turns taking
one card from a deck of `deck.size` cards; the game lasts exactly that many
decisions, 6 seconds each, and everyone shares the win. The box says 1.8 to
2.4 minutes, so the decks of 18 to 24 cards (step 2) are the ones that fit,
and the packaged 10 does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.carddata import load_card_file
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.plugin import DecisionKind, GameInfo, Tunable

HERE = Path(__file__).parent


class Deck(BaseModel):
    size: int = Field(ge=2, le=60)


class CardFile(BaseModel):
    deck: Deck


class Countdown(Game):
    name = "tunetoy"
    title = "Countdown"
    min_players = 2
    max_players = 2

    def load_cards(self, path: Path | None) -> CardFile:
        return load_card_file(path or HERE / "cards.toml", CardFile)

    def new_initial_state(self, seed: int = 0) -> CountdownState:
        return CountdownState(self, self.cards.deck.size)

    @property
    def num_distinct_actions(self) -> int:
        return 1


class CountdownState(GameState):
    def __init__(self, game: Countdown, left: int) -> None:
        self.game = game
        self.left = left
        self.moves: list[int] = []

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.left == 0 else len(self.moves) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.left == 0 else [0]

    def action_to_string(self, action: int) -> str:
        return "take a card"

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"illegal action {action!r}")
        self.left -= 1
        self.moves.append(action)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def winners(self) -> list[int]:
        return [0, 1] if self.is_terminal() else []

    def observation(self, player: int) -> dict[str, Any]:
        return {"left": self.left}

    def resample_from_infostate(self, player: int, seed: int) -> CountdownState:
        return self.clone()

    def clone(self) -> CountdownState:
        c = CountdownState(self.game, self.left)
        c.moves = list(self.moves)
        return c

    def history(self) -> list[int]:
        return list(self.moves)

    def zones(self) -> dict[str, list[str]]:
        return {}

    def decision_kind(self) -> str:
        return "take"

    def info(self) -> dict[str, Any]:
        return {"end_reason": "deck empty", "tiebreak": None}


GAME_INFO = GameInfo(
    name="tunetoy",
    title="Countdown",
    pitch="A toy whose best deck size is known.",
    game="tunetoy:Countdown",
    package="tunetoy",
    min_players=2,
    max_players=2,
    default_players=2,
    decision_kinds=(DecisionKind("take", (6.0, 6.0)),),
    box_minutes={2: (1.8, 2.4)},
    tunables=(Tunable("cards:deck.size", 4, 40, 2, "cards in the deck"),),
)
