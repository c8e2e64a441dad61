"""The one toy the lab tests keep besides the template: a game where the bots'
skill shows ("Take Cards").

The `cardlab new-game` template (lab_toy.py) is a game of luck: random and
greedy win alike there (measured with `run_ladder(..., ["random", "greedy"],
games=120, seed=1)`: win rates 49% and 53% at two players with `may_pass`, 35%
and 34% at three players with `sabotage`), so it cannot show the skill section
concluding that one agent is clearly ahead. Here each seat in turn
takes 1 or 2 cards (worth their value) from a shuffled deck of 12, or passes;
the game ends when the deck is empty or a whole round passed. Taking two is
always worth more at once, so greedy's one-step lookahead beats random clearly.
Ties go to the lowest seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.plugin import GameInfo

TAKE1, TAKE2, PASS = 0, 1, 2


class TakeCards(Game):
    name = "skilltoy"
    title = "Take Cards (lab skill toy)"
    min_players = 2
    max_players = 4

    def load_cards(self, path: Path | None) -> Any:
        return [f"c{v:02d}" for v in range(12)]

    @property
    def num_distinct_actions(self) -> int:
        return 3

    def new_initial_state(self, seed: int = 0) -> GameState:
        deck = list(self.cards)
        random.Random(seed).shuffle(deck)
        return TakeState(self, deck)


class TakeState(GameState):
    def __init__(self, game: TakeCards, deck: list[str]) -> None:
        self.game = game
        self.deck = deck
        self.seat = 0
        self.taken: list[list[str]] = [[] for _ in range(game.num_players)]
        self.passes = 0
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.is_terminal() else self.seat

    def is_terminal(self) -> bool:
        return not self.deck or self.passes >= self.game.num_players

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [a for a, need in ((TAKE1, 1), (TAKE2, 2)) if len(self.deck) >= need] + [PASS]

    def action_to_string(self, action: int) -> str:
        return ["take 1", "take 2", "pass"][action]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        self._history.append(action)
        take = {TAKE1: 1, TAKE2: 2}.get(action, 0)
        self.taken[self.seat] += [self.deck.pop() for _ in range(take)]
        self.passes = 0 if take else self.passes + 1
        self.seat = (self.seat + 1) % self.game.num_players

    def returns(self) -> list[float]:
        return [float(sum(int(c[1:]) for c in hand)) for hand in self.taken]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        points = self.returns()
        return [points.index(max(points))]

    def observation(self, player: int) -> dict[str, Any]:
        return {"taken": self.taken, "deck": len(self.deck), "seat": self.seat}

    def resample_from_infostate(self, player: int, seed: int) -> GameState:
        copy = self.clone()
        random.Random(seed).shuffle(copy.deck)  # type: ignore[attr-defined]
        return copy

    def clone(self) -> GameState:
        new = TakeState.__new__(TakeState)
        new.__dict__ = dict(self.__dict__)
        new.deck = list(self.deck)
        new.taken = [list(h) for h in self.taken]
        new._history = list(self._history)
        return new

    def history(self) -> list[int]:
        return list(self._history)

    def decision_kind(self) -> str:
        return "turn"

    def info(self) -> dict[str, Any]:
        return {"end_reason": "deck_empty" if not self.deck else "all_passed"}

    def zones(self) -> dict[str, list[str]]:
        zones = {"hidden:deck": sorted(self.deck)}
        for seat, hand in enumerate(self.taken):
            zones[f"public:taken{seat}"] = list(hand)
        return zones


GAME_INFO = GameInfo(
    name="skilltoy",
    title="Take Cards",
    pitch="A tiny game where the bots' skill shows, for the lab's skill tests.",
    game="lab_skill_toy:TakeCards",
    package="lab_skill_toy",
    min_players=2,
    max_players=4,
    default_players=2,
)
