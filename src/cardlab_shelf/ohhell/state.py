"""OH HELL forward model: a bid and a deal of tricks, hand after hand.

Each deal: the dealer (seat `deal mod players`) deals `size` cards each and turns
the next card up: its suit is trump (O2). Starting left of the dealer each seat
bids how many tricks it will take; the dealer, last, may not bring the bids' total
to `size` (O3). The seat left of the dealer leads; follow suit if you can, the
highest trump or else the highest card of the suit led takes the trick (O4, O5).
Exact bids score (O7). The hand sizes run down from `start` to 1 (O1).

A seat that did not follow a suit has shown a void: a `public_constraints` every
redeal keeps (resample.py)."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from cardlab.core import GameState, IllegalActionError, action_index, illegal_action_message
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.moves import Move
from cardlab.core.rng import shuffle
from cardlab_shelf.ohhell import actions, scoring, view
from cardlab_shelf.ohhell.cards import DeckFile

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.rules import OhHellGame

ALL_DEALS = "all deals played"
_SIDE_CHANCE = {14: 0.75, 13: 0.4, 12: 0.15}

Event = tuple[Any, ...]
"""("deal", number, dealer, size, trump card) | ("bid", seat, tricks) | ("play", seat, card)
| ("trick", winner) | ("scored", bids, tricks, points) | ("end", reason)."""


class OhHellState(GameState):
    game: OhHellGame

    def __init__(self, game: OhHellGame, seed: int) -> None:
        self.game = game
        self.cards: DeckFile = game.cards
        self.rng = random.Random(seed)
        n = game.num_players
        self.points = [0] * n
        self.made = [0] * n
        """Deals in which each seat took exactly its bid (the tie-break, O8)."""
        self.deal = 0
        self.end_reason: str | None = None
        self.log: list[Event] = []
        self.actions: list[int] = []
        self._start_deal()

    @property
    def size(self) -> int:
        return self.game.sizes[min(self.deal, len(self.game.sizes) - 1)]

    # -- the rules ---------------------------------------------------------------
    def _start_deal(self) -> None:  # O1, O2
        n = self.game.num_players
        size = self.size
        deck = list(range(len(self.cards.cards)))
        shuffle(self.rng, deck)
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        self.trump_card = deck[n * size]
        self.trump_suit = self.game.suit[self.trump_card]
        self.stock = sorted(deck[n * size + 1 :])
        self.dealer = self.deal % n
        self.bids: list[int | None] = [None] * n
        self.tricks = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.won: list[int] = []
        """Cards of this deal's finished tricks (face down in front of their takers)."""
        self.voids: list[list[str]] = [[] for _ in range(n)]
        self.phase = actions.BID
        self.to_act = (self.dealer + 1) % n
        self.deal_start = len(self.log)
        """Where this deal's events begin in the log: earlier deals' cards are dealt
        again, so the views name them only for the deal under way."""
        self.log.append(("deal", self.deal + 1, self.dealer, size, self.trump_card))

    def legal_bids(self) -> list[int]:  # O3
        size = self.size
        bids = list(range(size + 1))
        if self.to_act == self.dealer:
            so_far = sum(b for b in self.bids if b is not None)
            bids = [b for b in bids if so_far + b != size]
        return bids

    def legal_plays(self, seat: int) -> list[int]:  # O4
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        suit = self.game.suit
        led = suit[self.trick[0][1]]
        follow = [c for c in hand if suit[c] == led]
        return follow or list(hand)

    def _bid(self, tricks: int) -> None:
        seat = self.to_act
        self.bids[seat] = tricks
        self.log.append(("bid", seat, tricks))
        n = self.game.num_players
        if seat == self.dealer:
            self.phase = actions.PLAY
        self.to_act = (seat + 1) % n

    def _play(self, card: int) -> None:  # O4, O5
        seat = self.to_act
        suit = self.game.suit
        if self.trick and suit[card] != suit[self.trick[0][1]]:
            led = suit[self.trick[0][1]]
            if led not in self.voids[seat]:
                self.voids[seat].append(led)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.log.append(("play", seat, card))
        n = self.game.num_players
        if len(self.trick) < n:
            self.to_act = (seat + 1) % n
            return
        winner = scoring.trick_winner(self, self.trick)
        self.tricks[winner] += 1
        self.won.extend(c for _, c in self.trick)
        self.log.append(("trick", winner))
        self.trick = []
        self.to_act = winner
        if not any(self.hands):
            self._end_deal()

    def _end_deal(self) -> None:  # O7
        bids = [b if b is not None else 0 for b in self.bids]
        scored = scoring.deal_points(bids, self.tricks)
        for seat, got in enumerate(scored):
            self.points[seat] += got
            self.made[seat] += 1 if bids[seat] == self.tricks[seat] else 0
        self.log.append(("scored", tuple(bids), tuple(self.tricks), tuple(scored)))
        self.deal += 1
        if self.deal >= len(self.game.sizes):
            self.end_reason = ALL_DEALS
            self.log.append(("end", ALL_DEALS))
            self.won = sorted(self.won + [c for h in self.hands for c in h])
            self.bids = [None] * self.game.num_players
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
        if self.phase == actions.BID:
            return [actions.bid(b) for b in self.legal_bids()]
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
        if self.phase == actions.BID:
            self._bid(action - actions.BID_BASE)
        else:
            self._play(action)

    def returns(self) -> list[float]:
        return [float(p) for p in self.points]

    def progress_values(self) -> list[float]:
        """Points plus the deal under way, for the bots: a seat that has bid counts the
        bonus it would score, weighed by how near the tricks it still needs are to the
        tricks its hand looks good for (`trick_chances`); a bid already overshot, or
        out of reach, counts nothing."""
        out = []
        left = len(self.hands[0]) if self.hands else 0
        for seat, total in enumerate(self.points):
            bid = self.bids[seat]
            value = float(total)
            if bid is not None and self.end_reason is None:
                need = bid - self.tricks[seat]
                if 0 <= need <= left:
                    gap = abs(need - self.trick_chances(seat))
                    value += (scoring.BONUS + bid) * math.exp(-gap)
            out.append(value)
        return out

    def trick_chances(self, seat: int) -> float:
        """A rough count of the tricks `seat`'s hand will take: a trump by its rank, an
        ace 0.75, a king 0.4, a queen 0.15, anything lower almost never."""
        suit, rank, trump = self.game.suit, self.game.rank, self.trump_suit
        total = 0.0
        for c in self.hands[seat]:
            r = rank[c]
            if suit[c] == trump:
                total += 0.2 + 0.8 * (r - 2) / 12
            else:
                total += _SIDE_CHANCE.get(r, 0.03)
        return total

    def winners(self) -> list[int]:
        return scoring.result(self).winners if self.is_terminal() else []

    def observation(self, player: int) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.observation(self, None)

    def zones(self) -> dict[str, list[str]]:
        ids = self.game.ids
        zones = {
            "public:trick": [ids[c] for _, c in self.trick],
            "public:won": [ids[c] for c in self.won],
            "public:trump": [ids[self.trump_card]] if self.end_reason is None else [],
            "hidden:stock": [ids[c] for c in self.stock],
        }
        if self.end_reason is not None:
            zones["public:won"] = [ids[c] for c in self.won] + [ids[self.trump_card]]
        for seat in range(self.game.num_players):
            zones[f"private:{seat}:hand"] = [ids[c] for c in self.hands[seat]]
        return zones

    def public_constraints(self, player: int) -> dict[str, dict[str, list[str]]]:
        """A shown void: the seat lacks every card of that suit."""
        out: dict[str, dict[str, list[str]]] = {}
        for seat, voids in enumerate(self.voids):
            if voids and seat != player:
                lacks = [c.id for c in self.cards.cards if c.suit in voids]
                out[f"private:{seat}:hand"] = {"lacks": lacks}
        return out

    def resample_from_infostate(self, player: int, seed: int) -> OhHellState:
        from cardlab_shelf.ohhell.resample import resample

        return resample(self, player, seed)

    def clone(self) -> OhHellState:
        copy = object.__new__(OhHellState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        for name in ("points", "made", "log", "actions", "trick", "tricks", "bids", "won",
                     "stock"):  # fmt: skip
            setattr(copy, name, list(getattr(self, name)))
        copy.hands = [list(h) for h in self.hands]
        copy.voids = [list(v) for v in self.voids]
        return copy

    def history(self) -> list[int]:
        return list(self.actions)

    def info(self) -> dict[str, Any]:
        over = self.is_terminal()
        return {
            "end_reason": self.end_reason,
            "tiebreak": scoring.result(self).level if over else None,
            "rounds": self.deal,
            "turns": len(self.actions),
            "acquired": [[] for _ in range(self.game.num_players)],
            "bids_made": list(self.made),
        }
