"""A tiny hidden-information game so the server is tested without the real engines.

"High Card", 2-4 players, 3 rounds: every seat lays one card from a secret hand
face down (a simultaneous pick taken in turn), then all picks are revealed and
the highest card scores its value. Card ids `tc00`..`tc15` like the real games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError, OptionSpec
from cardlab.core.game import TERMINAL_PLAYER

ROUNDS = 3
DECK = 16


def card(value: int) -> dict[str, Any]:
    return {"id": f"tc{value:02d}", "name": f"Card {value}", "value": value, "colour": "blue"}


class HighCard(Game):
    name = "highcard"
    title = "High Card (test toy)"
    min_players = 2
    max_players = 4
    option_specs = (OptionSpec("double_last", (False, True), "last round scores double"),)

    def load_cards(self, path: Path | None) -> Any:
        return None

    @property
    def num_distinct_actions(self) -> int:
        return DECK

    def new_initial_state(self, seed: int = 0) -> HighCardState:
        rng = random.Random(seed)
        deck = list(range(DECK))
        rng.shuffle(deck)
        n = self.num_players
        hands = [sorted(deck[i * ROUNDS : (i + 1) * ROUNDS]) for i in range(n)]
        return HighCardState(self, rng, hands, deck[n * ROUNDS :])


class HighCardState(GameState):
    def __init__(self, game: HighCard, rng: random.Random, hands: list[list[int]], deck: list[int]):
        self.game = game
        self.rng = rng
        self.hands = hands
        self.deck = deck
        self.picks: list[int | None] = [None] * game.num_players
        self.shown: list[int] = []
        self.points = [0.0] * game.num_players
        self.round = 0
        self.to_act = 0
        self.log: list[str] = ["round 1 begins"]
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.round >= ROUNDS else self.to_act

    def legal_actions(self) -> list[int]:
        return [] if self.round >= ROUNDS else list(self.hands[self.to_act])

    def action_to_string(self, action: int) -> str:
        return f"lay Card {action} face down"

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        self._history.append(action)
        seat = self.to_act
        self.hands[seat].remove(action)
        self.picks[seat] = action
        self.log.append(f"seat {seat} lays a card face down")
        self.to_act += 1
        if self.to_act == self.game.num_players:
            self._reveal()

    def _reveal(self) -> None:
        picks = [p for p in self.picks if p is not None]
        best = max(picks)
        winner = self.picks.index(best)
        factor = 2 if self.game.options["double_last"] and self.round == ROUNDS - 1 else 1
        self.points[winner] += best * factor
        self.shown.extend(picks)
        self.log.append(
            "revealed: "
            + ", ".join(f"seat {s} tc{p:02d}" for s, p in enumerate(self.picks))
            + f"; seat {winner} scores {best * factor}"
        )
        self.picks = [None] * self.game.num_players
        self.to_act = 0
        self.round += 1
        if self.round < ROUNDS:
            self.log.append(f"round {self.round + 1} begins")

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def returns(self) -> list[float]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return [self.points.index(max(self.points))]

    def observation(self, player: int) -> dict[str, Any]:
        obs = self.public_observation()
        obs["seat"] = player
        obs["hand"] = [card(v) for v in self.hands[player]]
        obs["my_pick"] = card(self.picks[player]) if self.picks[player] is not None else None
        return obs

    def public_observation(self) -> dict[str, Any]:
        return {
            "game": "highcard",
            "seat": None,
            "num_players": self.game.num_players,
            "current_player": self.current_player(),
            "decision": "" if self.is_terminal() else f"seat {self.to_act}: lay a card face down",
            "phase": "pick",
            "scores": list(self.points),
            "log": list(self.log),
            "picked": [p is not None for p in self.picks],
            "shown": [card(v) for v in self.shown],
            "round": self.round + 1,
        }

    def zones(self) -> dict[str, list[str]]:
        zones = {
            "hidden:deck": [f"tc{v:02d}" for v in self.deck],
            "public:shown": [f"tc{v:02d}" for v in self.shown],
        }
        for seat, hand in enumerate(self.hands):
            zones[f"private:{seat}:hand"] = [f"tc{v:02d}" for v in hand]
            pick = self.picks[seat]
            zones[f"private:{seat}:pick"] = [f"tc{pick:02d}"] if pick is not None else []
        return zones

    def resample_from_infostate(self, player: int, seed: int) -> HighCardState:
        rng = random.Random(seed)
        copy = self.clone()
        others = [s for s in range(self.game.num_players) if s != player]
        pool = sorted(
            self.deck
            + [v for s in others for v in self.hands[s]]
            + [self.picks[s] for s in others if self.picks[s] is not None]
        )
        rng.shuffle(pool)
        for s in others:
            n = len(self.hands[s])
            copy.hands[s], pool = sorted(pool[:n]), pool[n:]
            if self.picks[s] is not None:
                copy.picks[s] = pool.pop()
        copy.deck = pool
        return copy

    def clone(self) -> HighCardState:
        copy = object.__new__(HighCardState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.hands = [list(h) for h in self.hands]
        copy.deck = list(self.deck)
        copy.picks = list(self.picks)
        copy.shown = list(self.shown)
        copy.points = list(self.points)
        copy.log = list(self.log)
        copy._history = list(self._history)
        return copy

    def history(self) -> list[int]:
        return list(self._history)

    def info(self) -> dict[str, Any]:
        return {"end_reason": "three rounds played", "tiebreak_level": 0}
