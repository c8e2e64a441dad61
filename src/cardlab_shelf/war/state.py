"""WAR forward model: battles until one seat holds every card or the cap is reached.

Each battle seat 0, then seat 1, turns over its top card (a forced move: WAR has no
choice in it). The higher rank takes both; equal ranks are a war: each lays up to
three cards face down and turns one more, and the higher of those takes everything
on the table (again on another tie) (W2, W3). The spoils go to the bottom of the
taker's pile in no fixed order (shuffled by the state's generator, W4); they lie
on the table, face up, until the next battle starts, as at a real table. The game
ends when a seat has no card to turn or after `battles` battles (W5).

Both piles are face down: nobody knows their order, so every pile card is hidden
(`hidden:*`). Cards seen in a battle are named in the log by name only, never by id:
they are back in a pile whose order nobody knows."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardlab.core import GameState, IllegalActionError, action_index, illegal_action_message
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.moves import Move
from cardlab.core.rng import shuffle
from cardlab_shelf.war import actions, scoring, view
from cardlab_shelf.war.cards import DeckFile

if TYPE_CHECKING:
    from cardlab_shelf.war.rules import WarGame

OUT_OF_CARDS = "a seat ran out of cards"
CAP = "battle cap reached"
WAR_DOWN = 3

Event = tuple[Any, ...]
"""("battle", number, faces turned by seat 0, by seat 1, taker, cards taken) | ("end", reason)."""


class WarState(GameState):
    game: WarGame

    def __init__(self, game: WarGame, seed: int) -> None:
        self.game = game
        self.cards: DeckFile = game.cards
        self.rng = random.Random(seed)
        deck = list(range(len(self.cards.cards)))
        shuffle(self.rng, deck)
        half = len(deck) // 2
        self.piles = [deck[:half], deck[half:]]
        """Top of a pile is index 0."""
        self.up: list[int] = []
        """Seat 0's card turned up, waiting for seat 1's."""
        self.shown: list[int] = []
        """The last battle's face-up cards, on the table until its taker gathers them."""
        self.down: list[int] = []
        """The last war's face-down cards, waiting likewise."""
        self.spoils: list[int] = []
        """`shown` and `down` together, in the order they were laid on the table."""
        self.taker: int | None = None
        """Who gathers `shown` and `down` when the next battle starts."""
        self.battles = 0
        self.wars = 0
        self.to_act = 0
        self.end_reason: str | None = None
        self.log: list[Event] = []
        self.actions: list[int] = []

    # -- the rules ---------------------------------------------------------------
    def _turn(self) -> None:  # W1
        if self.to_act == 0:
            self._gather()
            self.up = [self.piles[0].pop(0)]
            self.to_act = 1
            return
        self._battle(self.up[0], self.piles[1].pop(0))
        self.up = []
        self.to_act = 0

    def _battle(self, first: int, second: int) -> None:  # W2, W3, W4
        rank = self.game.rank
        table = [first, second]
        faces: list[list[int]] = [[first], [second]]
        taker: int | None = None
        while taker is None:
            a, b = faces[0][-1], faces[1][-1]
            if rank[a] != rank[b]:
                taker = 0 if rank[a] > rank[b] else 1
                break
            self.wars += 1
            for seat in (0, 1):  # a war: up to three down, one up, keeping one to turn
                pile = self.piles[seat]
                down = min(WAR_DOWN, len(pile) - 1)
                for _ in range(max(down, 0)):
                    table.append(pile.pop(0))
            short = [s for s in (0, 1) if not self.piles[s]]
            if short:  # W5: a seat with no card to turn loses the table
                taker = 1 - short[0] if len(short) == 1 else None
                if taker is None:  # both out at once: the table is split back
                    half = len(table) // 2
                    self.piles[0].extend(table[:half])
                    self.piles[1].extend(table[half:])
                    self._finish_battle(faces, None, 0)
                    return
                break
            for seat in (0, 1):
                card = self.piles[seat].pop(0)
                table.append(card)
                faces[seat].append(card)
        shown = {c for f in faces for c in f}
        self.spoils = table
        self.shown = [c for c in table if c in shown]
        self.down = [c for c in table if c not in shown]
        self.taker = taker
        self._finish_battle(faces, taker, len(table))

    def _gather(self) -> None:  # W4
        """The taker picks up the last battle's cards, which lay face up (the war's
        face-down ones face down) until the next battle, and puts them under its pile."""
        if self.taker is None:
            return
        spoils = self.spoils  # in the order they were laid, so one seed gives one game
        shuffle(self.rng, spoils)
        self.piles[self.taker].extend(spoils)
        self.spoils, self.shown, self.down, self.taker = [], [], [], None

    def _finish_battle(self, faces: list[list[int]], taker: int | None, taken: int) -> None:
        self.battles += 1
        self.log.append(("battle", self.battles, tuple(faces[0]), tuple(faces[1]), taker, taken))
        if taker is not None:
            out = not self.piles[1 - taker]  # the taker's own pile refills from the spoils
        else:
            out = not self.piles[0] or not self.piles[1]
        if out:
            self._gather()
            self._end(OUT_OF_CARDS)
        elif self.battles >= int(self.game.options["battles"]):
            self._gather()
            self._end(CAP)

    def _end(self, reason: str) -> None:
        self.end_reason = reason
        self.log.append(("end", reason))

    # -- the API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.end_reason is not None else self.to_act

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def legal_actions(self) -> list[int]:
        return [] if self.end_reason is not None else [0]

    def action_to_string(self, action: int) -> str:
        return actions.label(action)

    def describe_action(self, action: int) -> Move:
        return actions.describe(action)

    def decision_kind(self) -> str:
        return actions.TURN

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        if action not in self.legal_actions():
            raise IllegalActionError(illegal_action_message(self, action))
        self.actions.append(action)
        self._turn()

    def returns(self) -> list[float]:
        """Cards held: each pile, seat 0's card waiting on the table, and the last
        battle's cards for the seat that took them."""
        held = [len(self.piles[0]) + len(self.up), len(self.piles[1])]
        if self.taker is not None:
            held[self.taker] += len(self.shown) + len(self.down)
        return [float(h) for h in held]

    def winners(self) -> list[int]:
        return scoring.result(self).winners if self.is_terminal() else []

    def observation(self, player: int) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.observation(self, None)

    def zones(self) -> dict[str, list[str]]:
        ids = self.game.ids
        return {
            "hidden:pile0": [ids[c] for c in self.piles[0]],
            "hidden:pile1": [ids[c] for c in self.piles[1]],
            "public:table": [ids[c] for c in self.up + self.shown],
            "hidden:spoils": [ids[c] for c in self.down],
        }

    def resample_from_infostate(self, player: int, seed: int) -> WarState:
        from cardlab_shelf.war.resample import resample

        return resample(self, player, seed)

    def clone(self) -> WarState:
        copy = object.__new__(WarState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.piles = [list(p) for p in self.piles]
        for name in ("up", "shown", "down", "spoils", "log", "actions"):
            setattr(copy, name, list(getattr(self, name)))
        return copy

    def history(self) -> list[int]:
        return list(self.actions)

    def info(self) -> dict[str, Any]:
        over = self.is_terminal()
        return {
            "end_reason": self.end_reason,
            "tiebreak": scoring.result(self).level if over else None,
            "rounds": self.battles,
            "turns": len(self.actions),
            "acquired": [[], []],
            "wars": self.wars,
        }
