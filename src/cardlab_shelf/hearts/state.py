"""HEARTS forward model: the pass, the play of thirteen tricks, a set of deals.

Each deal: deal 13 cards each; each seat chooses three cards to pass (left, right,
across, then a deal without passing, in turn, H2), one card a decision; the holder
of the two of clubs leads it (H3); thirteen tricks follow suit (H4, H5); penalty
points are counted with the moon (H6). After `deals` deals the fewest points win.

The three cards a seat chooses are its own secret until the exchange; after it the
passer knows where they are (its `hidden_card_ids` leave them out while the
receiver holds them), and a seat that did not follow a suit has shown a void: both
are `public_constraints` every redeal keeps (resample.py)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardlab.core import GameState, IllegalActionError, action_index, illegal_action_message
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.moves import Move
from cardlab.core.rng import shuffle
from cardlab_shelf.hearts import actions, scoring, view
from cardlab_shelf.hearts.cards import DeckFile

if TYPE_CHECKING:
    from cardlab_shelf.hearts.rules import HeartsGame

DIRECTIONS = (1, 3, 2, 0)
"""Where each deal's passes go, by deal number mod 4: to the left (seat + 1), to the
right (seat + 3), across (seat + 2), none."""
DIRECTION_WORDS = {1: "left", 3: "right", 2: "across", 0: "hold"}

ALL_DEALS = "all deals played"
"""The end reason (`info()["end_reason"]`)."""

Event = tuple[Any, ...]
"""("deal", number, direction) | ("chose", seat) | ("exchange", direction) |
("play", seat, card) | ("trick", winner, points in it) |
("scored", points by seat, moon seat or None) | ("end", reason)."""


class HeartsState(GameState):
    game: HeartsGame

    def __init__(self, game: HeartsGame, seed: int) -> None:
        self.game = game
        self.cards: DeckFile = game.cards
        self.rng = random.Random(seed)
        n = game.num_players
        self.points = [0] * n
        """Penalty points of the deals finished so far."""
        self.deal_scores: list[list[int]] = []
        self.moons = [0] * n
        self.penalty_taken: list[list[int]] = [[] for _ in range(n)]
        """Every penalty card each seat took, over the whole game (`info()["acquired"]`)."""
        self.deal = 0
        self.end_reason: str | None = None
        self.log: list[Event] = []
        self.actions: list[int] = []
        self._start_deal()

    # -- the rules ---------------------------------------------------------------
    def _start_deal(self) -> None:  # H1, H2
        n = self.game.num_players
        deck = list(range(len(self.cards.cards)))
        shuffle(self.rng, deck)
        size = len(deck) // n
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        self.choosing: list[list[int]] = [[] for _ in range(n)]
        self.passed: list[list[int]] = [[] for _ in range(n)]
        """The cards each seat passed this deal (it knows where they went)."""
        self.taken: list[list[int]] = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.tricks_played = 0
        self.broken = False
        self.voids: list[list[str]] = [[] for _ in range(n)]
        self.direction = DIRECTIONS[self.deal % 4]
        self.deal_start = len(self.log)
        """Where this deal's events begin in the log: the cards of earlier deals are
        dealt again, so the views name them only for the deal under way."""
        self.log.append(("deal", self.deal + 1, self.direction))
        if self.direction:
            self.phase = actions.PASS
            self.to_act = 0
        else:
            self._start_play()

    def _start_play(self) -> None:  # H3
        self.phase = actions.PLAY
        two = self.game.two_of_clubs
        self.to_act = next(s for s, hand in enumerate(self.hands) if two in hand)

    def _choose(self, card: int) -> None:  # H2
        seat = self.to_act
        self.hands[seat].remove(card)
        self.choosing[seat].append(card)
        self.log.append(("chose", seat))
        if len(self.choosing[seat]) < 3:
            return
        if seat < self.game.num_players - 1:
            self.to_act = seat + 1
            return
        n = self.game.num_players
        for giver, chosen in enumerate(self.choosing):
            receiver = (giver + self.direction) % n
            self.hands[receiver] = sorted(self.hands[receiver] + chosen)
            self.passed[giver] = sorted(chosen)
        self.choosing = [[] for _ in range(n)]
        self.log.append(("exchange", self.direction))
        self._start_play()

    def legal_plays(self, seat: int) -> list[int]:  # H3, H4, H5
        hand = self.hands[seat]
        suit = self.game.suit
        first = self.tricks_played == 0
        if not self.trick:
            if first:
                return [self.game.two_of_clubs]
            if not self.broken:
                plain = [c for c in hand if suit[c] != "h"]
                return plain or list(hand)
            return list(hand)
        led = suit[self.trick[0][1]]
        follow = [c for c in hand if suit[c] == led]
        if follow:
            return follow
        if first:
            clean = [c for c in hand if not self.game.points[c]]
            return clean or list(hand)
        return list(hand)

    def _play(self, card: int) -> None:
        seat = self.to_act
        game = self.game
        if self.trick and game.suit[card] != game.suit[self.trick[0][1]]:
            led = game.suit[self.trick[0][1]]
            if led not in self.voids[seat]:
                self.voids[seat].append(led)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if game.suit[card] == "h":
            self.broken = True
        self.log.append(("play", seat, card))
        n = game.num_players
        if len(self.trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = scoring.trick_winner(self, self.trick)
        won = [c for _, c in self.trick]
        self.taken[winner].extend(won)
        self.tricks_won[winner] += 1
        self.log.append(("trick", winner, sum(game.points[c] for c in won)))
        self.trick = []
        self.tricks_played += 1
        self.to_act = winner
        if not any(self.hands):
            self._end_deal()

    def _end_deal(self) -> None:  # H6, H7
        scored, moon = scoring.deal_points(self)
        for seat, got in enumerate(scored):
            self.points[seat] += got
            self.penalty_taken[seat].extend(self.taken_penalty(seat))
        if moon is not None:
            self.moons[moon] += 1
        self.deal_scores.append(scored)
        self.log.append(("scored", tuple(scored), moon))
        self.deal += 1
        self.taken = [[] for _ in range(self.game.num_players)]
        if self.deal >= int(self.game.options["deals"]):
            self.end_reason = ALL_DEALS
            self.log.append(("end", ALL_DEALS))
        else:
            self._start_deal()

    def taken_penalty(self, seat: int) -> list[int]:
        return [c for c in self.taken[seat] if self.game.points[c]]

    # -- the API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.end_reason is not None else self.to_act

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def legal_actions(self) -> list[int]:
        if self.end_reason is not None:
            return []
        if self.phase == actions.PASS:
            return [actions.pass_card(c) for c in self.hands[self.to_act]]
        return self.legal_plays(self.to_act)

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
        if self.phase == actions.PASS:
            self._choose(action - actions.PASS_BASE)
        else:
            self._play(action)

    def returns(self) -> list[float]:
        """Penalty points as printed: the finished deals, plus what each seat has
        taken in the deal under way (the moon is settled when the deal ends)."""
        points = self.game.points
        return [
            float(total + sum(points[c] for c in taken))
            for total, taken in zip(self.points, self.taken, strict=True)
        ]

    def progress_values(self) -> list[float]:
        """Higher is better for the bots: the penalty points negated."""
        return [-p for p in self.returns()]

    def winners(self) -> list[int]:
        return scoring.result(self).winners if self.is_terminal() else []

    def observation(self, player: int) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.observation(self, None)

    def zones(self) -> dict[str, list[str]]:
        ids = self.game.ids
        zones = {"public:trick": [ids[c] for _, c in self.trick]}
        for seat in range(self.game.num_players):
            zones[f"private:{seat}:hand"] = [ids[c] for c in self.hands[seat]]
            zones[f"private:{seat}:passing"] = [ids[c] for c in self.choosing[seat]]
            zones[f"public:{seat}:taken"] = [ids[c] for c in self.taken[seat]]
        placed = {c for _, c in self.trick}
        for seat in range(self.game.num_players):
            placed.update(self.hands[seat], self.choosing[seat], self.taken[seat])
        zones["public:played"] = [ids[c] for c in range(len(ids)) if c not in placed]
        return zones

    def known_elsewhere(self, player: int) -> dict[int, list[int]]:
        """The cards `player` passed this deal that the receiver still holds."""
        if not self.direction or self.phase == actions.PASS and self.choosing[player]:
            return {}
        receiver = (player + self.direction) % self.game.num_players
        still = [c for c in self.passed[player] if c in self.hands[receiver]]
        return {receiver: still} if still else {}

    def hidden_card_ids(self, player: int) -> set[str]:
        hidden = super().hidden_card_ids(player)
        ids = self.cards.cards
        for cards in self.known_elsewhere(player).values():
            hidden.difference_update(ids[c].id for c in cards)
        return hidden

    def public_constraints(self, player: int) -> dict[str, dict[str, list[str]]]:
        """A shown void (the seat lacks every card of that suit) and, for the passer,
        the passed cards the receiver still holds."""
        out: dict[str, dict[str, list[str]]] = {}
        cards = self.cards.cards
        for seat, voids in enumerate(self.voids):
            if voids and seat != player:
                lacks = [c.id for c in cards if c.suit in voids]
                out[f"private:{seat}:hand"] = {"lacks": lacks}
        for seat, held in self.known_elsewhere(player).items():
            out.setdefault(f"private:{seat}:hand", {})["has"] = [cards[c].id for c in held]
        return out

    def resample_from_infostate(self, player: int, seed: int) -> HeartsState:
        from cardlab_shelf.hearts.resample import resample

        return resample(self, player, seed)

    def clone(self) -> HeartsState:
        copy = object.__new__(HeartsState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        for name in ("points", "moons", "log", "actions", "trick", "tricks_won"):
            setattr(copy, name, list(getattr(self, name)))
        for name in ("hands", "choosing", "passed", "taken", "voids", "penalty_taken",
                     "deal_scores"):  # fmt: skip
            setattr(copy, name, [list(x) for x in getattr(self, name)])
        return copy

    def history(self) -> list[int]:
        return list(self.actions)

    def info(self) -> dict[str, Any]:
        over = self.is_terminal()
        ids = self.game.ids
        return {
            "end_reason": self.end_reason,
            "tiebreak": scoring.result(self).level if over else None,
            "rounds": self.deal,
            "turns": len(self.actions),
            "acquired": [[ids[c] for c in got] for got in self.penalty_taken],
            "moons": list(self.moons),
        }
