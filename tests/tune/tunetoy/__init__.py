"""Countdown, a toy whose best rules are known: two players take turns taking
one card from a deck of `deck.size` cards; the game lasts exactly that many
decisions, 6 seconds each, and everyone shares the win. The box says 1.8 to
2.4 minutes, so the decks of 18 to 24 cards (step 2) are the ones that fit,
and the packaged 10 does not.

Its rule lever `overtime` (as written 0) has the players take that many more
cards after the deck runs out, so 8 to 14 of overtime fix the packaged deck
too: the tuner must find a rule change as well as a card number.

`tunenoise` is the same game with a deck that fits the box and a stall that
strikes 15% of games at random; its lever `salt` only reshuffles which games
stall, so whatever it seems to do in a small search is noise."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.carddata import load_card_file
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.options import OptionSpec, lever
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
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        lever(
            "overtime",
            (0, 4, 12),
            "cards taken after the deck runs out",
            passage="End: the game ends when the deck is empty",
            purpose="make a short game last longer without printing more cards",
            low=0,
            high=20,
            says="When the deck is empty, keep taking turns {value} more times.",
        ),
    )

    def load_cards(self, path: Path | None) -> CardFile:
        return load_card_file(path or HERE / "cards.toml", CardFile)

    def new_initial_state(self, seed: int = 0) -> CountdownState:
        return CountdownState(self, self.cards.deck.size + int(self.options["overtime"]), seed)

    @property
    def num_distinct_actions(self) -> int:
        return 1


class CountdownState(GameState):
    def __init__(self, game: Countdown, left: int, seed: int = 0) -> None:
        self.game = game
        self.left = left
        self.seed = seed
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
        c = CountdownState(self.game, self.left, self.seed)
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


class Noisy(Countdown):
    """Countdown whose games stall at random; `salt` only changes which ones."""

    name = "tunenoise"
    title = "Noisy Countdown"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        lever(
            "salt",
            (0, 1, 2, 3),
            "a number that reshuffles which games stall (and changes nothing else)",
            passage="Setup: shuffle",
            purpose="nothing: a lever whose effect is pure noise",
            low=0,
            high=40,
        ),
    )

    def load_cards(self, path: Path | None) -> CardFile:
        return CardFile(deck=Deck(size=20))

    def new_initial_state(self, seed: int = 0) -> CountdownState:
        return NoisyState(self, self.cards.deck.size, seed)


class NoisyState(CountdownState):
    STALL = 0.15

    def clone(self) -> NoisyState:
        c = NoisyState(self.game, self.left, self.seed)
        c.moves = list(self.moves)
        return c

    def info(self) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:{self.game.options['salt']}")
        calm = int(self.game.options.get("calm", 0))
        stalled = rng.random() < self.STALL * (1 - calm / 100)
        return {"end_reason": "stall" if stalled else "deck empty", "tiebreak": None}


class Calm(Noisy):
    """Noisy Countdown with a real fix too: `calm` percent fewer stalls."""

    title = "Calm Countdown"

    name = "tunecalm"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        *Noisy.option_specs,
        lever(
            "calm",
            (0, 100),
            "percent fewer stalls",
            passage="End",
            purpose="a real fix beside a noise-only lever",
            low=0,
            high=100,
        ),
    )


def _info(cls: type[Countdown], pitch: str, **more: Any) -> GameInfo:
    """The toys' declaration: name, title and players come from the class; all three
    take 6 s a decision and have the same box time."""
    return GameInfo(
        game=f"tunetoy:{cls.__name__}",
        pitch=pitch,
        decision_kinds=(DecisionKind("take", (6.0, 6.0)),),
        box_minutes={2: (1.8, 2.4)},
        **more,
    )


GAME_INFO = _info(
    Countdown,
    "A toy whose best deck size is known.",
    tunables=(Tunable("cards:deck.size", 4, 40, 2, "cards in the deck"),),
)
NOISE_INFO = _info(Noisy, "A toy whose only lever is noise.")
CALM_INFO = _info(Calm, "A toy with a noise-only lever and a real one.")
