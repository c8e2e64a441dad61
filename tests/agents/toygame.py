"""A small imperfect-information game for testing the agents without the real engines.

"Sealed Bids", 2-5 players. Each seat holds 4 secret bid cards drawn from a
deck of values 1..4n+4; the rest of the deck stays hidden. Each of 4 rounds a
prize (value 1..8, from a hidden shuffled prize deck) is turned up, every seat
in turn (starting with a rotating leader) lays one bid card face down (a
simultaneous pick taken in sequence), then the bids are revealed: the single
highest bid scores the prize, equal highest bids score nothing. The round's
winner then decides out of turn which other seat loses 1 point ("sabotage").
Highest score wins; ties go to the lowest seat.

It exercises everything the agents rely on: hidden hands, hidden face-down
bids, out-of-turn decisions, a hidden deck, `resample_from_infostate`, and it
has positions whose best move is known (see `position`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER

HAND = 4
ROUNDS = 4
PRIZES = tuple(range(1, 9))


def bid_id(value: int) -> str:
    return f"b{value:02d}"


def prize_id(value: int) -> str:
    return f"p{value:02d}"


class SealedBids(Game):
    name = "sealedbids"
    title = "Sealed Bids (test toy)"
    min_players = 2
    max_players = 5

    def load_cards(self, path: Path | None) -> Any:
        return None

    @property
    def top_bid(self) -> int:
        return 4 * self.num_players + 4

    @property
    def num_distinct_actions(self) -> int:
        # actions 1..top_bid bid that value; top_bid + 1 + seat sabotages seat
        return self.top_bid + 1 + self.max_players

    def sabotage_action(self, seat: int) -> int:
        return self.top_bid + 1 + seat

    def new_initial_state(self, seed: int = 0) -> SealedBidsState:
        rng = random.Random(seed)
        n = self.num_players
        deck = list(range(1, self.top_bid + 1))
        rng.shuffle(deck)
        prizes = list(PRIZES)
        rng.shuffle(prizes)
        hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(n)]
        state = SealedBidsState(self, rng, hands, deck[n * HAND :], prizes)
        state.turn_up_prize()
        return state


class SealedBidsState(GameState):
    def __init__(
        self,
        game: SealedBids,
        rng: random.Random,
        hands: list[list[int]],
        deck: list[int],
        prizes: list[int],
    ) -> None:
        n = game.num_players
        self.game = game
        self.rng = rng
        self.hands = hands
        self.deck = deck
        self.prize_deck = prizes
        self.prize: int | None = None
        self.bids: list[int | None] = [None] * n
        self.revealed: list[int] = []  # bid cards already shown
        self.used_prizes: list[int] = []
        self.points = [0.0] * n
        self.round = 0
        self.order: list[int] = []
        self.to_act = 0
        self.saboteur: int | None = None
        self.log: list[str] = []
        self._history: list[int] = []

    # -- flow ----------------------------------------------------------------
    def turn_up_prize(self) -> None:
        n = self.game.num_players
        self.prize = self.prize_deck.pop()
        self.order = [(self.round + i) % n for i in range(n)]
        self.to_act = 0
        self.log.append(f"round {self.round + 1}: prize {prize_id(self.prize)}")

    def current_player(self) -> int:
        if self.round >= ROUNDS:
            return TERMINAL_PLAYER
        if self.saboteur is not None:
            return self.saboteur
        return self.order[self.to_act]

    def legal_actions(self) -> list[int]:
        if self.round >= ROUNDS:
            return []
        game: SealedBids = self.game  # type: ignore[assignment]
        if self.saboteur is not None:
            return [game.sabotage_action(s) for s in range(game.num_players) if s != self.saboteur]
        return list(self.hands[self.order[self.to_act]])

    def action_to_string(self, action: int) -> str:
        game: SealedBids = self.game  # type: ignore[assignment]
        if action > game.top_bid:
            return f"sabotage seat {action - game.top_bid - 1}"
        return f"bid {action}"

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal now")
        self._history.append(action)
        if self.saboteur is not None:
            target = action - self.game.top_bid - 1  # type: ignore[attr-defined]
            self.points[target] -= 1
            self.log.append(f"seat {self.saboteur} sabotages seat {target}")
            self.saboteur = None
            self.end_round()
            return
        seat = self.order[self.to_act]
        self.hands[seat].remove(action)
        self.bids[seat] = action
        self.to_act += 1
        if self.to_act == len(self.order):
            self.reveal()

    def reveal(self) -> None:
        bids = [b for b in self.bids if b is not None]
        top = max(bids)
        self.revealed.extend(bids)
        self.log.append("bids " + " ".join(bid_id(b) for b in self.bids if b is not None))
        assert self.prize is not None
        self.used_prizes.append(self.prize)
        prize, self.prize = self.prize, None
        if bids.count(top) == 1:
            winner = self.bids.index(top)
            self.points[winner] += prize
            self.saboteur = winner
            self.log.append(f"seat {winner} scores {prize}")
        else:
            self.end_round()
        self.bids = [None] * self.game.num_players

    def end_round(self) -> None:
        self.prize = None
        self.round += 1
        if self.round < ROUNDS:
            self.turn_up_prize()

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def returns(self) -> list[float]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        best = max(self.points)
        return [self.points.index(best)]

    # -- information ---------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return {
            "seat": player,
            "hand": [bid_id(v) for v in self.hands[player]],
            "my_bid": bid_id(self.bids[player]) if self.bids[player] is not None else None,
            "has_bid": [b is not None for b in self.bids],
            "hand_sizes": [len(h) for h in self.hands],
            "prize": prize_id(self.prize) if self.prize is not None else None,
            "points": self.points,
            "round": self.round,
            "log": list(self.log),
        }

    def zones(self) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {
            "hidden:deck": [bid_id(v) for v in self.deck],
            "hidden:prizes": [prize_id(v) for v in self.prize_deck],
            "public:revealed": [bid_id(v) for v in self.revealed],
            "public:used_prizes": [prize_id(v) for v in self.used_prizes],
            "public:prize": [prize_id(self.prize)] if self.prize is not None else [],
        }
        for seat, hand in enumerate(self.hands):
            zones[f"private:{seat}:hand"] = [bid_id(v) for v in hand]
            bid = self.bids[seat]
            zones[f"private:{seat}:bid"] = [bid_id(bid)] if bid is not None else []
        return zones

    def resample_from_infostate(self, player: int, seed: int) -> SealedBidsState:
        """Redeal other seats' hands, face-down bids and the deck; reshuffle the prizes.

        The pool is sorted before shuffling so the result depends only on what
        `player` knows and on `seed`, never on where the hidden cards really are."""
        rng = random.Random(seed)
        copy = self.clone()
        others = [s for s in range(self.game.num_players) if s != player]
        pool = list(self.deck)
        for s in others:
            pool.extend(self.hands[s])
            if self.bids[s] is not None:
                pool.append(self.bids[s])  # type: ignore[arg-type]
        pool.sort()
        rng.shuffle(pool)
        for s in others:
            size = len(self.hands[s])
            copy.hands[s] = sorted(pool[:size])
            del pool[:size]
            if self.bids[s] is not None:
                copy.bids[s] = pool.pop()
        copy.deck = pool
        copy.prize_deck = sorted(self.prize_deck)
        rng.shuffle(copy.prize_deck)
        copy.rng = rng
        return copy

    def clone(self) -> SealedBidsState:
        copy = object.__new__(SealedBidsState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.hands = [list(h) for h in self.hands]
        copy.deck = list(self.deck)
        copy.prize_deck = list(self.prize_deck)
        copy.bids = list(self.bids)
        copy.revealed = list(self.revealed)
        copy.used_prizes = list(self.used_prizes)
        copy.points = list(self.points)
        copy.order = list(self.order)
        copy.log = list(self.log)
        copy._history = list(self._history)
        return copy

    def history(self) -> list[int]:
        return list(self._history)

    def decision_kind(self) -> str:
        return "sabotage" if self.saboteur is not None else "bid"

    def info(self) -> dict[str, Any]:
        return {"rounds": self.round, "end_reason": "prizes done" if self.is_terminal() else ""}


def position(
    players: int,
    hands: list[list[int]],
    points: list[float],
    prize: int,
    round_: int = ROUNDS - 1,
    leader_bids: dict[int, int] | None = None,
) -> SealedBidsState:
    """A hand-made position: given hands, points and prize in round `round_`.

    Cards not in a hand form the hidden deck; `leader_bids` lays face-down bids
    for seats that act before the one to move."""
    game = SealedBids(players)
    used = {v for h in hands for v in h} | set((leader_bids or {}).values())
    deck = [v for v in range(1, game.top_bid + 1) if v not in used]
    prizes = [v for v in PRIZES if v != prize]
    state = SealedBidsState(game, random.Random(0), [sorted(h) for h in hands], deck, prizes)
    state.points = [float(p) for p in points]
    state.round = round_
    state.prize_deck.append(prize)
    state.turn_up_prize()
    for seat, value in (leader_bids or {}).items():
        assert state.order[state.to_act] == seat, "leader_bids must follow the turn order"
        state.hands[seat].append(value)
        state.apply_action(value)
    return state
