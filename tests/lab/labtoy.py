"""A tiny game for testing the lab without the real engines ("Take Cards").

Each turn the current seat takes 1 or 2 cards (worth their value) from a
shuffled deck of 12, or passes. Ends when the deck is empty, or (option
`stall_end`, default on) after a round in which everybody passed; with it
off, a turn cap ends the game as "stalled". Ties go to the lowest seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError, OptionSpec
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.plugin import GameInfo

TAKE1, TAKE2, PASS = 0, 1, 2
TURN_CAP = 60


class TakeCards(Game):
    name = "labtoy"
    title = "Take Cards (lab test toy)"
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (OptionSpec("stall_end", (True, False), "end after a round of passes"),)

    def load_cards(self, path: Path | None) -> Any:
        return [f"c{v:02d}" for v in range(12)]

    @property
    def num_distinct_actions(self) -> int:
        return 3

    def new_initial_state(self, seed: int = 0) -> GameState:
        rng = random.Random(seed)
        deck = list(self.cards)
        rng.shuffle(deck)
        return TakeState(self, deck, rng.randrange(self.num_players))


class TakeState(GameState):
    def __init__(self, game: TakeCards, deck: list[str], first: int) -> None:
        self.game = game
        self.deck = deck
        self.seat = first
        self.taken: list[list[str]] = [[] for _ in range(game.num_players)]
        self.turns = 0
        self.passes_in_row = 0
        self.end_reason: str | None = None
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.end_reason else self.seat

    def legal_actions(self) -> list[int]:
        if self.end_reason:
            return []
        return [a for a, need in ((TAKE1, 1), (TAKE2, 2)) if len(self.deck) >= need] + [PASS]

    def action_to_string(self, action: int) -> str:
        return ["take 1", "take 2", "pass"][action]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        self._history.append(action)
        n = self.game.num_players
        take = {TAKE1: 1, TAKE2: 2}.get(action, 0)
        for _ in range(take):
            self.taken[self.seat].append(self.deck.pop())
        self.passes_in_row = 0 if take else self.passes_in_row + 1
        self.turns += 1
        self.seat = (self.seat + 1) % n
        if not self.deck:
            self.end_reason = "deck_empty"
        elif self.game.options["stall_end"] and self.passes_in_row >= n:
            self.end_reason = "all_passed"
        elif self.turns >= TURN_CAP:
            self.end_reason = "stalled"

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def scores(self) -> list[float]:
        return [float(sum(int(c[1:]) for c in hand)) for hand in self.taken]

    def returns(self) -> list[float]:
        return self.scores()

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        s = self.scores()
        return [s.index(max(s))]

    def info(self) -> dict[str, Any]:
        s = self.scores()
        top = [i for i, v in enumerate(s) if v == max(s)]
        return {
            "end_reason": self.end_reason,
            "tiebreak": "seat order" if len(top) > 1 else None,
            "rounds": self.turns // self.game.num_players,
            "turns": self.turns,
            "decisions": len(self._history),
            "acquired": [list(h) for h in self.taken],
            "card_points": [{c: float(int(c[1:])) for c in h} for h in self.taken],
        }

    def decision_kind(self) -> str:
        return "turn"

    def observation(self, player: int) -> dict[str, Any]:
        return {"taken": self.taken, "deck": len(self.deck), "seat": self.seat}

    def resample_from_infostate(self, player: int, seed: int) -> GameState:
        copy = self.clone()
        random.Random(seed).shuffle(copy.deck)  # type: ignore[attr-defined]
        return copy

    def clone(self) -> GameState:
        new = TakeState.__new__(TakeState)
        new.__dict__ = {k: v for k, v in self.__dict__.items()}
        new.deck = list(self.deck)
        new.taken = [list(h) for h in self.taken]
        new._history = list(self._history)
        return new

    def history(self) -> list[int]:
        return list(self._history)

    def zones(self) -> dict[str, list[str]]:
        z = {"hidden:deck": list(self.deck)}
        for i, h in enumerate(self.taken):
            z[f"public:taken{i}"] = list(h)
        return z


GAME = TakeCards

GAME_INFO = GameInfo(
    name="labtoy",
    title="Take Cards",
    pitch="A tiny game for testing the lab.",
    game="labtoy:TakeCards",
    package="labtoy",
    min_players=TakeCards.min_players,
    max_players=TakeCards.max_players,
    default_players=TakeCards.min_players,
)
