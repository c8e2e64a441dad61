"""CRAZY EIGHTS forward model: shed your hand onto the discard pile, deal after deal.

Each deal: the dealer (seat `deal mod players`) deals 7 cards each to two players,
5 to more; the next card starts the discard pile (C1). From the dealer's left, a
seat plays a card of the top card's suit or rank, or any eight, and then names the
suit to follow (C2, C3). Instead it may draw from the stock, and goes on deciding
(C4). With the stock empty and nothing to play it passes; when every seat passes in
a row the deal is blocked (C5). The first seat out of cards wins the deal (C6).

A seat that passed has shown that it holds no card it could have played; with the
stock empty no card can reach its hand again, so every redeal keeps it
(`public_constraints`, resample.py)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardlab.core import GameState, IllegalActionError, action_index, illegal_action_message
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.moves import Move
from cardlab.core.rng import shuffle
from cardlab_shelf.crazyeights import actions, scoring, view
from cardlab_shelf.crazyeights.cards import DeckFile

if TYPE_CHECKING:
    from cardlab_shelf.crazyeights.rules import CrazyEightsGame

ALL_DEALS = "all deals played"

Event = tuple[Any, ...]
"""("deal", number, dealer, starter) | ("play", seat, card) | ("suit", seat, suit) |
("draw", seat) | ("pass", seat) | ("scored", points by seat, winner, blocked) | ("end", reason)."""


class CrazyEightsState(GameState):
    game: CrazyEightsGame

    def __init__(self, game: CrazyEightsGame, seed: int) -> None:
        self.game = game
        self.cards: DeckFile = game.cards
        self.rng = random.Random(seed)
        n = game.num_players
        self.points = [0] * n
        self.deals_won = [0] * n
        self.deal = 0
        self.end_reason: str | None = None
        self.log: list[Event] = []
        self.actions: list[int] = []
        self._start_deal()

    # -- the rules ---------------------------------------------------------------
    def _start_deal(self) -> None:  # C1
        n = self.game.num_players
        size = 7 if n == 2 else 5
        deck = list(range(len(self.cards.cards)))
        shuffle(self.rng, deck)
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        self.discard = [deck[n * size]]
        self.stock = deck[n * size + 1 :]
        """The top of the stock is its last card."""
        self.called: str | None = None
        """The suit named after an eight (None: follow the top card's suit)."""
        self.wild_start = self.game.rank[self.discard[0]] == 8
        """C1: an eight turned up as the starter lets the first seat play any card."""
        self.dealer = self.deal % n
        self.to_act = (self.dealer + 1) % n
        self.phase = actions.PLAY
        self.passes = 0
        self.lacks: list[list[int]] = [[] for _ in range(n)]
        self.deal_start = len(self.log)
        """Where this deal's events begin in the log: earlier deals' cards are dealt
        again, so the views name them only for the deal under way."""
        self.log.append(("deal", self.deal + 1, self.dealer, self.discard[0]))

    def suit_to_follow(self) -> str:
        return self.called or self.game.suit[self.discard[-1]]

    def playable(self, seat: int) -> list[int]:  # C2
        game = self.game
        if self.wild_start:
            return list(self.hands[seat])
        suit, rank = self.suit_to_follow(), game.rank[self.discard[-1]]
        return [
            c
            for c in self.hands[seat]
            if game.rank[c] == 8 or game.suit[c] == suit or game.rank[c] == rank
        ]

    def _play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.called = None
        self.wild_start = False
        self.passes = 0
        self.log.append(("play", seat, card))
        if not self.hands[seat]:
            self._end_deal(seat)
        elif self.game.rank[card] == 8:
            self.phase = actions.SUIT  # C3
        else:
            self._next()

    def _name(self, suit: str) -> None:  # C3
        self.called = suit
        self.log.append(("suit", self.to_act, suit))
        self.phase = actions.PLAY
        self._next()

    def _draw(self) -> None:  # C4
        card = self.stock.pop()
        self.hands[self.to_act] = sorted([*self.hands[self.to_act], card])
        self.log.append(("draw", self.to_act))

    def _pass(self) -> None:  # C5
        seat = self.to_act
        game = self.game
        suit = self.suit_to_follow()
        rank = game.rank[self.discard[-1]]
        could = [
            c
            for c in range(len(self.cards.cards))
            if game.rank[c] == 8 or game.suit[c] == suit or game.rank[c] == rank
        ]
        self.lacks[seat] = sorted(set(self.lacks[seat]) | set(could))
        self.passes += 1
        self.log.append(("pass", seat))
        if self.passes >= game.num_players:
            self._end_deal(None)
        else:
            self._next()

    def _next(self) -> None:
        self.to_act = (self.to_act + 1) % self.game.num_players

    def _end_deal(self, out: int | None) -> None:  # C6, C7
        scored, winner = scoring.deal_points(self, out)
        for seat, got in enumerate(scored):
            self.points[seat] += got
        if winner is not None:
            self.deals_won[winner] += 1
        self.log.append(("scored", tuple(scored), winner, out is None))
        self.deal += 1
        if self.deal >= int(self.game.options["deals"]):
            self.end_reason = ALL_DEALS
            self.log.append(("end", ALL_DEALS))
        else:
            self._start_deal()

    # -- the API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.end_reason is not None else self.to_act

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def legal_actions(self) -> list[int]:
        if self.end_reason is not None:
            return []
        if self.phase == actions.SUIT:
            return list(range(actions.SUIT_BASE, actions.SUIT_BASE + 4))
        legal = self.playable(self.to_act)
        if self.stock:
            legal.append(actions.DRAW)
        elif not legal:
            legal.append(actions.PASS)
        return legal

    def action_to_string(self, action: int) -> str:
        return actions.label(self.cards, action)

    def describe_action(self, action: int) -> Move:
        return actions.describe(self.cards, action)

    def decision_kind(self) -> str:
        return self.phase

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        if action not in self.legal_actions():
            raise IllegalActionError(illegal_action_message(self, action))
        self.actions.append(action)
        if action == actions.DRAW:
            self._draw()
        elif action == actions.PASS:
            self._pass()
        elif action >= actions.SUIT_BASE:
            self._name(actions.suit_of(action))
        else:
            self._play(action)

    def returns(self) -> list[float]:
        return [float(p) for p in self.points]

    def progress_values(self) -> list[float]:
        """Points plus the deal under way, for the bots: the seat that goes out takes
        what the other hands are worth, so each seat counts that pot weighed by its
        chance to go out first, taken as falling with the square of its hand's size."""
        if self.end_reason is not None:
            return [float(p) for p in self.points]
        points = self.game.points
        worth = [sum(points[c] for c in h) for h in self.hands]
        pot = sum(worth)
        odds = [1.0 / (len(h) * len(h)) if h else 1.0 for h in self.hands]
        total = sum(odds)
        return [float(p) + odds[s] / total * (pot - worth[s]) for s, p in enumerate(self.points)]

    def winners(self) -> list[int]:
        return scoring.result(self).winners if self.is_terminal() else []

    def observation(self, player: int) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.observation(self, None)

    def zones(self) -> dict[str, list[str]]:
        ids = self.game.ids
        zones = {
            "hidden:stock": [ids[c] for c in self.stock],
            "public:discard": [ids[c] for c in self.discard],
        }
        for seat in range(self.game.num_players):
            zones[f"private:{seat}:hand"] = [ids[c] for c in self.hands[seat]]
        return zones

    def public_constraints(self, player: int) -> dict[str, dict[str, list[str]]]:
        """A seat that passed holds none of the cards it could have played then."""
        ids = self.game.ids
        return {
            f"private:{seat}:hand": {"lacks": [ids[c] for c in lacks]}
            for seat, lacks in enumerate(self.lacks)
            if lacks and seat != player
        }

    def resample_from_infostate(self, player: int, seed: int) -> CrazyEightsState:
        from cardlab_shelf.crazyeights.resample import resample

        return resample(self, player, seed)

    def clone(self) -> CrazyEightsState:
        copy = object.__new__(CrazyEightsState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        for name in ("points", "deals_won", "log", "actions", "discard", "stock"):
            setattr(copy, name, list(getattr(self, name)))
        copy.hands = [list(h) for h in self.hands]
        copy.lacks = [list(x) for x in self.lacks]
        return copy

    def history(self) -> list[int]:
        return list(self.actions)

    def info(self) -> dict[str, Any]:
        over = self.is_terminal()
        blocked = sum(1 for e in self.log if e[0] == "scored" and e[3])
        return {
            "end_reason": self.end_reason,
            "tiebreak": scoring.result(self).level if over else None,
            "rounds": self.deal,
            "turns": len(self.actions),
            "acquired": [[] for _ in range(self.game.num_players)],
            "deals_won": list(self.deals_won),
            "blocked_deals": blocked,
        }
