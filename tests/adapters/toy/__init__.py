"""A tiny imperfect-information game on the cardlab API, so the adapters can be
tested before (and independently of) the real engines.

It has what the real games have that an adapter can get wrong: hidden hands
and a hidden deck, a simultaneous face-down pick (engine-sequentialised,
``decision_kind() == "pick"``), an extra decision by one seat (the round winner
may draw), uneven decision counts per seat and points that move mid-game.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.options import OptionSpec

CARDS = [f"t{i:02d}" for i in range(12)]
PASS, DRAW = 12, 13


def value(cid: str) -> int:
    return int(cid[1:]) % 6 + 1


class ToyGame(Game):
    name = "adaptertoy"
    title = "Toy"
    min_players = 2
    max_players = 4
    option_specs = (OptionSpec("rounds", (2, 1, 3), "rounds played"),)

    def load_cards(self, path: Path | None) -> Any:
        return CARDS

    def new_initial_state(self, seed: int = 0) -> ToyState:
        return ToyState(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        return 14


class ToyState(GameState):
    def __init__(self, game: ToyGame, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        deck = list(CARDS)
        self.rng.shuffle(deck)
        n = game.num_players
        self.hands = [sorted(deck[3 * i : 3 * i + 3]) for i in range(n)]
        self.deck = deck[3 * n :]
        self.picked: list[str | None] = [None] * n
        self.played: list[str] = []
        self.points = [0.0] * n
        self.round = 0
        self.chooser: int | None = None  # round winner deciding draw/pass
        self.log: list[str] = []
        self._history: list[int] = []

    def current_player(self) -> int:
        if self.round >= self.game.options["rounds"]:
            return TERMINAL_PLAYER
        if self.chooser is not None:
            return self.chooser
        return self.picked.index(None)

    def decision_kind(self) -> str:
        return "draw" if self.chooser is not None else "pick"

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.chooser is not None:
            return [PASS, DRAW] if self.deck else [PASS]
        return sorted(CARDS.index(c) for c in self.hands[self.current_player()])

    def action_to_string(self, action: int) -> str:
        return {PASS: "pass", DRAW: "draw"}.get(action, f"pick {CARDS[action]}")

    def apply_action(self, action: int) -> None:
        if self.is_terminal() or action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        seat = self.current_player()
        self._history.append(action)
        if self.chooser is not None:
            if action == DRAW:
                self.hands[seat] = sorted([*self.hands[seat], self.deck.pop()])
            self.log.append(f"{seat} {'draws' if action == DRAW else 'passes'}")
            self.chooser = None
            self.round += 1
            return
        card = CARDS[action]
        self.hands[seat].remove(card)
        self.picked[seat] = card
        self.log.append(f"{seat} picks")
        if None not in self.picked:
            picks = [c for c in self.picked if c is not None]
            best = max(range(len(picks)), key=lambda s: (value(picks[s]), -s))
            self.points[best] += value(picks[best])
            self.played.extend(picks)
            self.log.append("reveal " + " ".join(picks))
            self.picked = [None] * self.game.num_players
            self.chooser = best

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL_PLAYER

    def returns(self) -> list[float]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        top = max(self.points)
        return [s for s, p in enumerate(self.points) if p == top]

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "seat": player,
            "hand": list(self.hands[player]),
            "my_pick": self.picked[player],
            "picked": [c is not None for c in self.picked],
            "played": list(self.played),
            "points": list(self.points),
            "round": self.round,
            "deck_size": len(self.deck),
            "hand_sizes": [len(h) for h in self.hands],
            "chooser": self.chooser,
            "log": list(self.log),
        }

    def resample_from_infostate(self, player: int, seed: int) -> ToyState:
        rng = random.Random(seed)
        out = self.clone()
        others = [s for s in range(self.game.num_players) if s != player]
        pool = list(self.deck)
        for s in others:
            pool += self.hands[s] + ([self.picked[s]] if self.picked[s] else [])
        rng.shuffle(pool)
        for s in others:
            k = len(self.hands[s])
            out.hands[s], pool = sorted(pool[:k]), pool[k:]
            if self.picked[s] is not None:
                out.picked[s], pool = pool[0], pool[1:]
        out.deck = pool
        out.rng = random.Random(rng.random())
        return out

    def clone(self) -> ToyState:
        out = object.__new__(ToyState)
        out.__dict__.update(self.__dict__)
        out.rng = random.Random()
        out.rng.setstate(self.rng.getstate())
        out.hands = [list(h) for h in self.hands]
        for name in ("deck", "picked", "played", "points", "log", "_history"):
            setattr(out, name, list(getattr(self, name)))
        return out

    def history(self) -> list[int]:
        return list(self._history)

    def zones(self) -> dict[str, list[str]]:
        z = {"hidden:deck": list(self.deck), "public:played": list(self.played)}
        for s, hand in enumerate(self.hands):
            z[f"private:{s}:hand"] = list(hand)
            z[f"private:{s}:picked"] = [self.picked[s]] if self.picked[s] else []
        return z
