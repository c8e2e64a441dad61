"""The RUNWAY forward model: plain-data state, legal actions and `apply_action`.

Kept lean because search bots clone and step it millions of times: every field
is an int or a list of ints, `clone` copies lists, legal actions are cached
until the next action. What a seat may see (observation, zones, resampling)
lives in `knowledge.py`; hand-made scenarios in `scenarios.py`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER, GameState
from cardlab.games.runway.knowledge import KnowledgeMixin
from cardlab.games.runway.layout import (
    BENCH_SIZE,
    BLIND0,
    BLIND_TAKE,
    CASH,
    CASH_BID,
    DEAL0,
    FINTECH,
    FOOTHOLDS,
    HAND_SIZE,
    HYPE_MAX,
    MATCH,
    NETWORK,
    NUM_CAPITAL,
    OVER,
    PASS,
    PHASE_NAMES,
    PITCH,
    RIDE,
    SHOCK0,
    SHOCK_HYPE_DOWN,
    SHOCK_REWARD_MINUS_ONE,
    SKIP,
    SOCIAL,
    SWAP0,
    TAKE0,
    TRADE,
    closing_winner,
)

if TYPE_CHECKING:
    from cardlab.games.runway.rules import RunwayGame


class RunwayState(KnowledgeMixin, GameState):
    """One moment of a RUNWAY game (see layout.py for card numbers and actions)."""

    __slots__ = (
        "game",
        "cards",
        "n",
        "shock_effect",
        "rotate",
        "reshuffle_seed",
        "hands",
        "public",
        "tag",
        "pile",
        "pile_gen",
        "bench",
        "discard",
        "pitched",
        "deal_deck",
        "deal",
        "deal_shocks",
        "next_deal",
        "next_shocks",
        "deals_left",
        "won",
        "dumped",
        "spent_shocks",
        "hype",
        "rep",
        "footholds",
        "footholds_left",
        "locked",
        "rides",
        "lock_points",
        "rewards",
        "end_bonus",
        "last_seat",
        "order",
        "turn",
        "phase",
        "deals_closed",
        "turns",
        "actions",
        "log",
        "_legal",
        "tiebreak",
    )

    # -- setup -------------------------------------------------------------------
    @classmethod
    def new(cls, game: RunwayGame, seed: int) -> RunwayState:
        """The rulebook's set-up, every random draw from the state's own generator."""
        rng = random.Random(seed)
        s = cls.blank(game, rng.getrandbits(64))
        pile = list(range(NUM_CAPITAL))
        rng.shuffle(pile)
        s.pile = pile
        for _ in range(HAND_SIZE):
            for p in range(s.n):
                s.hands[p].append(pile.pop())
        for h in s.hands:
            h.sort()
        s.bench = [pile.pop() for _ in range(BENCH_SIZE)]
        deck = list(range(DEAL0, SHOCK0 + len(game.cards.shock_names)))
        rng.shuffle(deck)
        s.deal_deck = deck
        s.last_seat = rng.randrange(s.n)  # R10: the youngest, chosen by the seed
        s.start_first_deal()
        return s

    @classmethod
    def blank(cls, game: RunwayGame, reshuffle_seed: int) -> RunwayState:
        """An empty table (no cards placed) for `new` and the scenario builder.

        `reshuffle_seed` (drawn from the game seed) seeds every later reshuffle of
        the discard (R8): reshuffle number g uses `random.Random(seed + (g << 64))`,
        so the state carries one int instead of a generator and clones cheaply.
        """
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.cards, s.n, s.reshuffle_seed = game, game.cards, n, reshuffle_seed
        s.shock_effect = ("hype_down", "none", "reward_minus_one").index(
            str(game.options["shock_effect"])
        )
        # R10 options: `last_seat=rotate` (any count) or, at 2 players,
        # `two_player_last_seat=alternate` pass the last seat one seat clockwise each Deal
        # (at 2 players that is alternation); otherwise the catch-up seat.
        s.rotate = game.options["last_seat"] == "rotate" or (
            n == 2 and game.options["two_player_last_seat"] == "alternate"
        )
        s.hands = [[] for _ in range(n)]
        s.public = [False] * NUM_CAPITAL
        s.tag = [0] * NUM_CAPITAL
        s.pile, s.pile_gen, s.bench, s.discard, s.pitched = [], 0, [], [], []
        s.deal_deck, s.deal, s.deal_shocks, s.next_deal, s.next_shocks = [], -1, [], -1, []
        s.deals_left = len(game.cards.deals)
        s.won = [[] for _ in range(n)]
        s.dumped, s.spent_shocks = [], []
        s.hype = 0
        s.rep = [0] * n
        s.footholds = [[0, 0, 0, 0] for _ in range(n)]
        s.footholds_left = [FOOTHOLDS] * n
        s.locked, s.rides, s.lock_points = [0] * n, [0] * n, [0] * n
        s.rewards = [-1] * len(game.cards.deals)
        s.end_bonus = [0] * n
        s.last_seat, s.order, s.turn, s.phase = 0, [], 0, PITCH
        s.deals_closed, s.turns = 0, 0
        s.actions, s.log, s._legal, s.tiebreak = [], [], None, None
        return s

    def start_first_deal(self) -> None:
        """Flip the Deal in play and the next Deal, then seat the first pitch order."""
        self.deal, self.deal_shocks = self._flip()
        self.next_deal, self.next_shocks = self._flip()
        self._seat_order()

    def clone(self) -> RunwayState:
        c = RunwayState.__new__(RunwayState)
        c.game, c.cards, c.n, c.shock_effect, c.rotate = (
            self.game,
            self.cards,
            self.n,
            self.shock_effect,
            self.rotate,
        )
        c.reshuffle_seed = self.reshuffle_seed
        c.hands = [h[:] for h in self.hands]
        c.public, c.tag = self.public[:], self.tag[:]
        c.pile, c.pile_gen, c.bench = self.pile[:], self.pile_gen, self.bench[:]
        c.discard, c.pitched = self.discard[:], self.pitched[:]
        c.deal_deck, c.deal, c.deal_shocks = self.deal_deck[:], self.deal, self.deal_shocks[:]
        c.next_deal, c.next_shocks, c.deals_left = (
            self.next_deal,
            self.next_shocks[:],
            self.deals_left,
        )
        c.won = [w[:] for w in self.won]
        c.dumped, c.spent_shocks = self.dumped[:], self.spent_shocks[:]
        c.hype, c.rep = self.hype, self.rep[:]
        c.footholds = [f[:] for f in self.footholds]
        c.footholds_left, c.locked = self.footholds_left[:], self.locked[:]
        c.rides, c.lock_points = self.rides[:], self.lock_points[:]
        c.rewards, c.end_bonus = self.rewards[:], self.end_bonus[:]
        c.last_seat, c.order, c.turn, c.phase = self.last_seat, self.order, self.turn, self.phase
        c.deals_closed, c.turns = self.deals_closed, self.turns
        c.actions, c.log = self.actions[:], self.log[:]
        c._legal, c.tiebreak = self._legal, self.tiebreak
        return c

    # -- the API core --------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.phase == OVER else self.order[self.turn]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def history(self) -> list[int]:
        return list(self.actions)

    def decision_kind(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        hand = self.hands[self.order[self.turn]]
        if self.phase == PITCH:
            # R4: a match, Cash anywhere, Network Riding a non-Social Deal; else a pass.
            sector = self.cards.deal_sector[self.deal - DEAL0]
            ride_ok = sector != SOCIAL
            out = [
                c
                for c in hand
                if (k := c >> 3) == sector or k == CASH or (k == NETWORK and ride_ok)
            ]
            out.append(PASS)
            return tuple(out)
        if hand:  # R5: swap with a Bench card, discard and draw blind, or skip
            slots = range(len(self.bench))
            out = [SWAP0 + 3 * c + s for c in hand for s in slots]
            out.extend(BLIND0 + c for c in hand)
            out.append(SKIP)
            return tuple(out)
        # R5: with an empty hand, take one card without giving one
        out = [SKIP]
        out.extend(TAKE0 + s for s in range(len(self.bench)))
        if self.pile or self.discard:
            out.append(BLIND_TAKE)
        return tuple(out)

    def apply_action(self, action: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is not int:
            action = action_index(self, action)
        if action not in legal:
            raise IllegalActionError(illegal_action_message(self, action))
        self._legal = None
        self.actions.append(action)
        seat = self.order[self.turn]
        if self.phase == PITCH:
            if action == PASS:
                self.log.append(("pass", seat))
                self.phase = TRADE
                return
            self.hands[seat].remove(action)
            self.public[action] = False
            self.pitched.append((seat, action))
            self.log.append(("pitch", seat, action, self._role(action)))
        else:
            self._trade(seat, action)
            self.phase = PITCH
        self.turns += 1
        self.turn += 1
        if self.turn == self.n:
            self._close()

    def _role(self, card: int) -> int:
        kind = card >> 3
        if kind == self.cards.deal_sector[self.deal - DEAL0]:
            return MATCH
        return CASH_BID if kind == CASH else RIDE

    # -- pass and trade (R5) ---------------------------------------------------------
    def _trade(self, seat: int, action: int) -> None:
        hand = self.hands[seat]
        if action == SKIP:
            self.log.append(("skip", seat))
        elif action < BLIND0:
            card, slot = divmod(action - SWAP0, 3)
            took = self.bench[slot]
            hand.remove(card)
            self.public[card] = False
            self.bench[slot] = card
            self._into_hand(hand, took, True)
            self.log.append(("swap", seat, card, took))
        elif action < SKIP:
            card = action - BLIND0
            hand.remove(card)
            self.public[card] = False
            self.discard.append(card)
            self.log.append(("blind", seat, card))
            self._into_hand(hand, self._draw(), False)
        elif action < BLIND_TAKE:
            slot = action - TAKE0
            took = self.bench[slot]
            self._into_hand(hand, took, True)
            refill = self._draw()
            if refill < 0:
                del self.bench[slot]
            else:
                self.bench[slot] = refill
            self.log.append(("take", seat, took, refill))
        else:
            self._into_hand(hand, self._draw(), False)
            self.log.append(("blind_take", seat))

    def _into_hand(self, hand: list[int], card: int, public: bool) -> None:
        """Add a card to a hand; `public` when everyone saw which card it was."""
        self.public[card] = public
        self.tag[card] = self.pile_gen
        hand.append(card)
        hand.sort()

    def _draw(self) -> int:
        """Top of the draw pile, shuffling the discard into it when empty (R8); -1 if none."""
        if not self.pile:
            if not self.discard:
                return -1
            self.pile, self.discard = self.discard, []
            self.pile_gen += 1
            random.Random(self.reshuffle_seed + (self.pile_gen << 64)).shuffle(self.pile)
            self.log.append(("reshuffle", len(self.pile)))
        return self.pile.pop()

    # -- closing and rewards (R6, R7, R9) ----------------------------------------------
    def _close(self) -> None:
        deal = self.deal - DEAL0
        cards = self.cards
        sector = cards.deal_sector[deal]
        winner, winning_card = closing_winner(self.pitched, sector)
        shocked = bool(self.deal_shocks)
        if winner < 0:
            self.dumped.append(self.deal)
            self.log.append(("dump", self.deal))
        else:
            bonus = 2 if self.hype >= HYPE_MAX else 1 if self.hype >= 5 else 0
            reward = cards.deal_score[deal] + bonus
            if winning_card >> 3 == CASH and sector != FINTECH:
                reward -= 1
            if shocked and self.shock_effect == SHOCK_REWARD_MINUS_ONE:
                reward -= 1
            reward = max(reward, 0)
            self.rep[winner] += reward
            self.rewards[deal] = reward
            self.won[winner].append(self.deal)
            self.log.append(("win", winner, self.deal, reward))
            for seat, card in self.pitched:
                if card >> 3 == NETWORK and sector != SOCIAL:
                    self.rep[seat] += 1
                    self.rides[seat] += 1
                    self.log.append(("ride", seat))
            self._draw_up(winner)
            self._foothold(winner, sector)
            cost = cards.deal_hype[deal]
            if shocked and self.shock_effect == SHOCK_HYPE_DOWN:
                self.hype = max(0, self.hype - cost)
            else:
                self.hype = min(HYPE_MAX, self.hype + cost)
            self.log.append(("hype", self.hype))
        for _, card in self.pitched:
            self.discard.append(card)
        self.pitched = []
        self.spent_shocks.extend(self.deal_shocks)
        self.deals_closed += 1
        if self.next_deal < 0:
            self._end()
            return
        self.deal, self.deal_shocks = self.next_deal, self.next_shocks
        self.next_deal, self.next_shocks = self._flip()
        self._choose_last_seat()
        self._seat_order()

    def _draw_up(self, seat: int) -> None:
        hand = self.hands[seat]
        drawn = 0
        while len(hand) < HAND_SIZE:
            card = self._draw()
            if card < 0:
                break
            self.public[card] = False
            self.tag[card] = self.pile_gen
            hand.append(card)
            drawn += 1
        hand.sort()
        self.log.append(("draw", seat, drawn))

    def _foothold(self, seat: int, sector: int) -> None:
        """R7: place a Foothold; the second in a Sector locks it for +2, once."""
        if self.footholds_left[seat] == 0:
            self.log.append(("foothold", seat, sector, -1))
            return
        self.footholds_left[seat] -= 1
        self.footholds[seat][sector] += 1
        lock = 2 if self.footholds[seat][sector] == 2 else 0
        if lock:
            self.rep[seat] += lock
            self.locked[seat] += 1
            self.lock_points[seat] += lock
        self.log.append(("foothold", seat, sector, lock))

    def _flip(self) -> tuple[int, list[int]]:
        """Flip to the next Deal; Shocks revealed on the way are tucked under it (R9)."""
        if self.deals_left == 0:
            return -1, []
        shocks: list[int] = []
        deck = self.deal_deck
        card = deck.pop()
        while card >= SHOCK0:
            shocks.append(card)
            card = deck.pop()
        self.deals_left -= 1
        self.log.append(("flip", card, len(shocks)))
        return card, shocks

    # -- seating (R3, R10) --------------------------------------------------------------
    def _choose_last_seat(self) -> None:
        if self.rotate:  # option: one seat clockwise, won or Dumped (2 players: alternate)
            self.last_seat = (self.last_seat + 1) % self.n
            return
        low = min(self.rep)
        n, prev = self.n, self.last_seat
        # ties: the tied seat furthest clockwise from the previous last seat
        self.last_seat = max(
            (p for p in range(n) if self.rep[p] == low), key=lambda p: (p - prev) % n
        )

    def _seat_order(self) -> None:
        n, last = self.n, self.last_seat
        self.order = [(last + 1 + i) % n for i in range(n)]
        self.turn = 0
        self.phase = PITCH
        self.log.append(("last", last))

    # -- the end (R11) ----------------------------------------------------------------------
    def _end(self) -> None:
        for p in range(self.n):
            bonus = sum(1 for f in self.footholds[p] if f)
            self.end_bonus[p] = bonus
            self.rep[p] += bonus
        self.deal, self.deal_shocks = -1, []
        self.phase = OVER
        self.tiebreak = self._tiebreak_level()
        self.log.append(("end", tuple(self.end_bonus)))

    def _tiebreak_level(self) -> str | None:
        top = max(self.rep)
        tied = [p for p in range(self.n) if self.rep[p] == top]
        if len(tied) == 1:
            return None
        for name, key in (
            ("most_sectors_locked", self.locked),
            ("most_deals_won", [len(w) for w in self.won]),
        ):
            best = max(key[p] for p in tied)
            tied = [p for p in tied if key[p] == best]
            if len(tied) == 1:
                return name
        return "shared"

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        top = max(self.rep)
        tied = [p for p in range(self.n) if self.rep[p] == top]
        for key in (self.locked, [len(w) for w in self.won]):
            best = max(key[p] for p in tied)
            tied = [p for p in tied if key[p] == best]
        return tied

    def returns(self) -> list[float]:
        return [float(r) for r in self.rep]

    def scores(self) -> list[float]:
        return [float(r) for r in self.rep]
