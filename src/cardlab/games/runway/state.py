"""The RUNWAY forward model: plain-data state, legal actions and `apply_action`.

Kept lean because search bots clone and step it millions of times: every field
is an int or a list of ints, `clone` copies lists, legal actions are cached
until the next action. The numbering of cards and actions is in `actions.py`;
what a close is worth in `scoring.py`; what a seat may see (observation, labels,
the story, zones) in `view.py`; redealing what a seat cannot see in
`resample.py`; hand-made positions in `scenarios.py`.

Every event that changes the table is pushed onto `log` (a persistent trail) as a small tuple
(kind first); `view.py` turns them into the public story. Event kinds and
their fields are listed in `view.EVENT_FIELDS`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Final

from cardlab.core.columns import CardColumns
from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER, GameState
from cardlab.core.moves import Move
from cardlab.core.rng import seeded, shuffle
from cardlab.core.trail import EMPTY_TRAIL, Trail
from cardlab.games.runway import resample, scoring, view
from cardlab.games.runway.actions import (
    BENCH_SIZE,
    BLIND0,
    BLIND_TAKE,
    DEAL0,
    FOOTHOLDS,
    HAND_SIZE,
    HYPE_MAX,
    KIND_SHIFT,
    LOCK_POINTS,
    NETWORK,
    NUM_CAPITAL,
    NUM_SECTORS,
    ORDERS,
    OVER,
    PASS,
    PHASE_NAMES,
    PITCH,
    PITCH_ROLE,
    PITCHABLE,
    RIDE_POINTS,
    SHOCK0,
    SHOCK_EFFECTS,
    SHOCK_HYPE_DOWN,
    SKIP,
    SOCIAL,
    SWAP0,
    SWAPS,
    TAKE0,
    TRADE,
)

if TYPE_CHECKING:
    from cardlab.games.runway.cards import RunwayCards
    from cardlab.games.runway.rules import RunwayGame


# why a seat pitches last (the "last" event)
YOUNGEST: Final = "youngest"
FEWEST: Final = "fewest"
FEWEST_TIED: Final = "fewest_tied"
ALTERNATE: Final = "alternate"
ROTATE: Final = "rotate"


class RunwayColumns(CardColumns):
    """The card numbers the forward model and the bots' progress read on every close:
    the same tuples as `RunwayCards` (not copies), each with its type. `RunwayCards` is a
    plain Python class (its module holds the pydantic card models), so compiled code
    (make compiled) reads its attributes by a name lookup each; a compiled class's fields
    are read directly. One per game start, shared by every clone."""

    __slots__ = (
        "capital_number", "deal_sector", "deal_score", "deal_hype", "cash_penalty", "breadth_bonus",
    )  # fmt: skip

    def __init__(
        self, cards: RunwayCards | None = None, cash_penalty: int = 1, breadth_bonus: int = 1
    ) -> None:
        if cards is None:  # bare, for unpickling (mypyc's __new__ calls __init__ without
            return  # arguments; its __setstate__ then fills the slots)
        self.capital_number: tuple[int, ...] = cards.capital_number
        self.deal_sector: tuple[int, ...] = cards.deal_sector
        self.deal_score: tuple[int, ...] = cards.deal_score
        self.deal_hype: tuple[int, ...] = cards.deal_hype
        self.cash_penalty: int = cash_penalty
        """What Cash winning outside FinTech loses (lever `cash_penalty`; R7: 1)."""
        self.breadth_bonus: int = breadth_bonus
        """End points per Sector holding a Foothold (lever `breadth_bonus`; R11: 1)."""


class RunwayState(GameState):
    """One moment of a RUNWAY game (see actions.py for card numbers and actions).

    Read API for bots (instead of reaching into the fields): `hand_of`,
    `sector_in_play`, `score_in_play`, `leading_pitch`, `pitches_last`,
    `footholds_of`, `bench`, `decision_kind`."""

    clone_shares: ClassVar[frozenset[str]] = frozenset({"pitch_order"})
    """Shared by clones (the pitch order is replaced whole when a Deal comes into play)."""

    __slots__ = (
        "game",
        "cards",
        "columns",
        "num_players",
        "shock_effect",
        "last_seat_rotates",
        "reshuffle_seed",
        "hands",
        "publicly_known",
        "drawn_in_generation",
        "draw_pile",
        "reshuffles",
        "bench",
        "discard",
        "pitched",
        "deal_deck",
        "deal_in_play",
        "sector_in_play",
        "shocks_in_play",
        "next_deal",
        "next_shocks",
        "deals_to_flip",
        "deals_won",
        "dumped",
        "spent_shocks",
        "hype",
        "reputation",
        "footholds",
        "footholds_left",
        "sectors_locked",
        "rides_paid",
        "lock_points",
        "deal_rewards",
        "sector_bonus",
        "last_seat",
        "pitch_order",
        "pitch_turn",
        "phase",
        "deals_closed",
        "turns",
        "moves",
        "log",
        "_legal",
        "tiebreak_level",
        "points_before",
    )
    # Card numbers are ints (actions.py); per-seat lists are indexed by seat.
    game: RunwayGame
    cards: RunwayCards
    columns: RunwayColumns
    num_players: int
    shock_effect: int
    """Index into actions.SHOCK_EFFECTS (option shock_effect, R9)."""
    last_seat_rotates: bool
    """R10: the last seat moves one seat clockwise each Deal (2 players by default,
    or option last_seat=rotate) instead of going to the catch-up seat."""
    reshuffle_seed: int
    hands: list[list[int]]
    publicly_known: list[bool]
    """Per Capital card: everyone saw it taken from the Bench into the hand it is in."""
    drawn_in_generation: list[int]
    """Per Capital card: how many reshuffles had happened when it was drawn (resample)."""
    draw_pile: list[int]
    """The top of the pile is the end of the list."""
    reshuffles: int
    bench: list[int]
    discard: list[int]
    pitched: list[tuple[int, int]]
    """(seat, card) of this Deal's pitches, in pitch order."""
    deal_deck: list[int]
    deal_in_play: int
    """-1 once the game is over."""
    sector_in_play: int
    shocks_in_play: list[int]
    next_deal: int
    """-1 when no Deal is left to flip."""
    next_shocks: list[int]
    deals_to_flip: int
    deals_won: list[list[int]]
    dumped: list[int]
    spent_shocks: list[int]
    hype: int
    reputation: list[int]
    footholds: list[list[int]]
    """Per seat, Footholds per Sector (Sector order)."""
    footholds_left: list[int]
    sectors_locked: list[int]
    rides_paid: list[int]
    lock_points: list[int]
    deal_rewards: list[int]
    """Per Deal (card-file order): the reward paid to its winner, -1 if not won."""
    sector_bonus: list[int]
    last_seat: int
    pitch_order: list[int]
    pitch_turn: int
    """Index into pitch_order of the seat deciding now."""
    phase: int
    deals_closed: int
    turns: int
    moves: Trail
    """The decisions so far (a persistent trail, cardlab.core.trail: clones share it)."""
    log: Trail
    """The events so far, tuples (kind first; view.EVENT_FIELDS), shared by clones."""
    _legal: list[int] | None
    """The legal actions, cached until the next action; shared by clones, never mutated:
    legal_actions() hands out copies."""
    tiebreak_level: str | None
    points_before: tuple[int, ...]
    """Per seat, Reputation a hand-built position started with (scenarios.from_setup);
    zeros in a dealt game. Never changes, so clones share it."""

    # -- setup -------------------------------------------------------------------
    @classmethod
    def new(cls, game: RunwayGame, seed: int) -> RunwayState:
        """The rulebook's set-up, every random draw from the state's own generator."""
        rng = random.Random(seed)
        s = cls.blank(game, rng.getrandbits(64))
        pile = list(range(NUM_CAPITAL))
        shuffle(rng, pile)
        s.draw_pile = pile
        hands = s.hands
        for _ in range(HAND_SIZE):
            for hand in hands:
                hand.append(pile.pop())
        for hand in hands:
            hand.sort()
        s.bench = [pile.pop() for _ in range(BENCH_SIZE)]
        deck = [*range(DEAL0, SHOCK0), *game.cards.shock_cards]  # Deals, then Shocks
        shuffle(rng, deck)
        s.deal_deck = deck
        s.last_seat = rng.randrange(s.num_players)  # R10: the youngest, chosen by the seed
        s.start_first_deal()
        return s

    @classmethod
    def blank(cls, game: RunwayGame, reshuffle_seed: int) -> RunwayState:
        """An empty table (no cards placed) for `new` and the scenario builder.

        `reshuffle_seed` (drawn from the game seed) seeds every later reshuffle of
        the discard (R8): reshuffle number g uses `random.Random(seed + (g << 64))`,
        so the state carries one int instead of a generator and clones cheaply.
        """
        s = RunwayState()
        n = game.num_players
        s.game, s.cards, s.num_players, s.reshuffle_seed = game, game.cards, n, reshuffle_seed
        s.columns = RunwayColumns(
            game.cards, int(game.options["cash_penalty"]), int(game.options["breadth_bonus"])
        )
        s.shock_effect = SHOCK_EFFECTS.index(str(game.options["shock_effect"]))
        # R10: with 2 players the last seat alternates (option two_player_last_seat,
        # default); option last_seat=rotate passes it one seat clockwise at any count
        # (at 2 players that is the same thing); otherwise the catch-up seat.
        s.last_seat_rotates = game.options["last_seat"] == "rotate" or (
            n == 2 and game.options["two_player_last_seat"] == "alternate"
        )
        s.hands = [[] for _ in range(n)]
        s.publicly_known = [False] * NUM_CAPITAL
        s.drawn_in_generation = [0] * NUM_CAPITAL
        s.draw_pile, s.reshuffles, s.bench, s.discard, s.pitched = [], 0, [], [], []
        s.deal_deck, s.deal_in_play, s.sector_in_play, s.shocks_in_play = [], -1, -1, []
        s.next_deal, s.next_shocks = -1, []
        s.deals_to_flip = len(game.cards.deals)
        s.deals_won = [[] for _ in range(n)]
        s.dumped, s.spent_shocks = [], []
        s.hype = 0
        s.reputation = [0] * n
        s.footholds = [[0] * NUM_SECTORS for _ in range(n)]
        s.footholds_left = [FOOTHOLDS] * n
        s.sectors_locked, s.rides_paid, s.lock_points = [0] * n, [0] * n, [0] * n
        s.deal_rewards = [-1] * len(game.cards.deals)
        s.sector_bonus = [0] * n
        s.last_seat, s.pitch_order, s.pitch_turn, s.phase = 0, [], 0, PITCH
        s.deals_closed, s.turns = 0, 0
        s.moves, s.log, s._legal, s.tiebreak_level = EMPTY_TRAIL, EMPTY_TRAIL, None, None
        s.points_before = (0,) * n
        return s

    def start_first_deal(self) -> None:
        """Flip the Deal in play and the next Deal, then seat the first pitch order."""
        self._set_deal_in_play(*self._flip())
        self.log = self.log.push(("in_play", self.deal_in_play, len(self.shocks_in_play)))
        self.next_deal, self.next_shocks = self._flip()
        self.log = self.log.push(("flip", self.next_deal, len(self.next_shocks)))
        self._seat_order(YOUNGEST, 0)

    def clone(self) -> RunwayState:
        c = RunwayState()  # bare (no __init__ of its own); compiled, a C call
        c.game, c.cards, c.num_players = self.game, self.cards, self.num_players
        c.columns = self.columns
        c.shock_effect, c.last_seat_rotates = self.shock_effect, self.last_seat_rotates
        c.reshuffle_seed = self.reshuffle_seed
        c.hands = [h[:] for h in self.hands]
        c.publicly_known = self.publicly_known[:]
        c.drawn_in_generation = self.drawn_in_generation[:]
        c.draw_pile, c.reshuffles, c.bench = self.draw_pile[:], self.reshuffles, self.bench[:]
        c.discard, c.pitched = self.discard[:], self.pitched[:]
        c.deal_deck, c.deal_in_play = self.deal_deck[:], self.deal_in_play
        c.sector_in_play, c.shocks_in_play = self.sector_in_play, self.shocks_in_play[:]
        c.next_deal, c.next_shocks = self.next_deal, self.next_shocks[:]
        c.deals_to_flip = self.deals_to_flip
        c.deals_won = [w[:] for w in self.deals_won]
        c.dumped, c.spent_shocks = self.dumped[:], self.spent_shocks[:]
        c.hype, c.reputation = self.hype, self.reputation[:]
        c.footholds = [f[:] for f in self.footholds]
        c.footholds_left, c.sectors_locked = self.footholds_left[:], self.sectors_locked[:]
        c.rides_paid, c.lock_points = self.rides_paid[:], self.lock_points[:]
        c.deal_rewards, c.sector_bonus = self.deal_rewards[:], self.sector_bonus[:]
        c.last_seat, c.pitch_order = self.last_seat, self.pitch_order
        c.pitch_turn, c.phase = self.pitch_turn, self.phase
        c.deals_closed, c.turns = self.deals_closed, self.turns
        c.moves, c.log = self.moves, self.log
        c._legal, c.tiebreak_level = self._legal, self.tiebreak_level
        c.points_before = self.points_before
        return c

    # -- the API core --------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.phase == OVER else self.pitch_order[self.pitch_turn]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def history(self) -> list[int]:
        return self.moves.items()

    def decision_kind(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[int]:
        if self.phase == OVER:
            return []
        hand = self.hands[self.pitch_order[self.pitch_turn]]
        out: list[int] = []
        if self.phase == PITCH:
            # R4: a match, Cash anywhere, Network Riding a non-Social Deal; else a pass.
            pitchable = PITCHABLE[self.sector_in_play]
            for card in hand:
                if pitchable[card]:
                    out.append(card)
            out.append(PASS)
            return out
        if hand:  # R5: swap with a Bench card, discard and draw blind, or skip
            slots = len(self.bench)
            if slots == BENCH_SIZE:
                for card in hand:
                    out += SWAPS[card]
            else:  # the pile ran dry after an empty-handed take
                out = [SWAP0 + BENCH_SIZE * c + s for c in hand for s in range(slots)]
            out += [BLIND0 + c for c in hand]
            out.append(SKIP)
            return out
        # R5: with an empty hand, take one card without giving one
        out = [SKIP]
        out.extend([TAKE0 + s for s in range(len(self.bench))])
        if self.draw_pile or self.discard:
            out.append(BLIND_TAKE)
        return out

    def apply_action(self, action: Any) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is not int:
            action = action_index(self, action)
        act: int = action  # an int from here on (compiled: native int operations)
        for x in legal:  # `act in legal`, written out (compiled: int compares)
            if x == act:
                break
        else:
            raise IllegalActionError(illegal_action_message(self, action))
        self._legal = None
        self.moves = self.moves.push(act)
        turn = self.pitch_turn
        seat = self.pitch_order[turn]
        if self.phase == PITCH:
            if act == PASS:
                self.log = self.log.push(("pass", seat))
                self.phase = TRADE
                return
            self.hands[seat].remove(act)
            self.publicly_known[act] = False
            self.pitched.append((seat, act))
            self.log = self.log.push(("pitch", seat, act, PITCH_ROLE[self.sector_in_play][act]))
        else:
            self._trade(seat, act)
            self.phase = PITCH
        self.turns += 1
        turn += 1
        self.pitch_turn = turn
        if turn == self.num_players:
            self._close()

    # -- pass and trade (R5) ---------------------------------------------------------
    def _trade(self, seat: int, action: int) -> None:
        hand = self.hands[seat]
        if action == SKIP:
            self.log = self.log.push(("skip", seat))
        elif action < BLIND0:
            offset = action - SWAP0  # divmod written out (compiled: native int operations)
            card, slot = offset // BENCH_SIZE, offset % BENCH_SIZE
            bench = self.bench
            took = bench[slot]
            bench[slot] = card
            hand.remove(card)
            hand.append(took)
            hand.sort()
            known = self.publicly_known
            known[card] = False
            known[took] = True  # everyone saw which card it was
            self.drawn_in_generation[took] = self.reshuffles
            self.log = self.log.push(("swap", seat, card, took))
        elif action < SKIP:
            card = action - BLIND0
            hand.remove(card)
            self.publicly_known[card] = False
            self.discard.append(card)
            self.log = self.log.push(("blind", seat, card))
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
            self.log = self.log.push(("take", seat, took, refill))
        else:
            self.log = self.log.push(("blind_take", seat))
            self._into_hand(hand, self._draw(), False)

    def _into_hand(self, hand: list[int], card: int, public: bool) -> None:
        """Add a card to a hand; `public` when everyone saw which card it was."""
        self.publicly_known[card] = public
        self.drawn_in_generation[card] = self.reshuffles
        hand.append(card)
        hand.sort()

    def _draw(self) -> int:
        """Top of the draw pile, shuffling the discard into it when empty (R8); -1 if none."""
        if not self.draw_pile:
            if not self.discard:
                return -1
            self.draw_pile, self.discard = self.discard, []
            self.reshuffles += 1
            seed = self.reshuffle_seed + (self.reshuffles << 64)
            shuffle(seeded(seed), self.draw_pile)
            self.log = self.log.push(("reshuffle", len(self.draw_pile)))
        return self.draw_pile.pop()

    # -- closing and rewards (R6, R7, R9) ----------------------------------------------
    def _close(self) -> None:
        deal_card = self.deal_in_play
        deal = deal_card - DEAL0
        cards = self.columns
        sector = self.sector_in_play
        pitched = self.pitched
        winner, winning_card = scoring.closing_winner(pitched, sector, cards.capital_number)
        shocks = self.shocks_in_play
        if winner < 0:
            self.dumped.append(deal_card)
            self.log = self.log.push(("dump", deal_card, len(shocks), self.hype))
        else:
            paid = scoring.reward(
                cards.deal_score[deal],
                self.hype,
                winning_card,
                sector,
                bool(shocks),
                self.shock_effect,
                cards.cash_penalty,
            )
            total = paid[-1]
            reputation = self.reputation
            reputation[winner] = reputation[winner] + total
            self.deal_rewards[deal] = total
            self.deals_won[winner].append(deal_card)
            self.log = self.log.push(("win", winner, deal_card, winning_card, *paid))
            if sector != SOCIAL:
                for seat, card in pitched:
                    if card >> KIND_SHIFT == NETWORK:
                        reputation[seat] = reputation[seat] + RIDE_POINTS
                        self.rides_paid[seat] = self.rides_paid[seat] + RIDE_POINTS
                        self.log = self.log.push(("ride", seat, deal_card))
            self._draw_up(winner)
            self._foothold(winner, sector)
            cost = cards.deal_hype[deal]
            before = self.hype
            if shocks and self.shock_effect == SHOCK_HYPE_DOWN:
                cost = -cost
                self.hype = before + cost if before + cost > 0 else 0
            else:
                self.hype = before + cost if before + cost < HYPE_MAX else HYPE_MAX
            self.log = self.log.push(("hype", before, self.hype, cost, deal_card))
        self.discard += [card for _, card in pitched]
        self.pitched = []
        if shocks:
            self.spent_shocks += shocks
        self.deals_closed += 1
        if self.next_deal < 0:
            self._end()
            return
        self._set_deal_in_play(self.next_deal, self.next_shocks)
        self.log = self.log.push(("in_play", self.deal_in_play, len(self.shocks_in_play)))
        self.next_deal, self.next_shocks = self._flip()
        self.log = self.log.push(("flip", self.next_deal, len(self.next_shocks)))
        self._choose_last_seat()

    def _set_deal_in_play(self, deal: int, shocks: list[int]) -> None:
        self.deal_in_play, self.shocks_in_play = deal, shocks
        self.sector_in_play = self.columns.deal_sector[deal - DEAL0]

    def _draw_up(self, seat: int) -> None:
        """R7/R8: the winner draws back up to 6 (the hand is sorted, so taking the top
        cards at once equals drawing them one by one)."""
        hand = self.hands[seat]
        need = HAND_SIZE - len(hand)
        pile = self.draw_pile
        if 0 < need <= len(pile):
            drawn = pile[-need:]
            del pile[-need:]
            generation = self.reshuffles
            for card in drawn:
                self.publicly_known[card] = False
                self.drawn_in_generation[card] = generation
            hand += drawn
            hand.sort()
            self.log = self.log.push(("draw", seat, need))
            return
        count = 0
        while len(hand) < HAND_SIZE:
            card = self._draw()
            if card < 0:
                break
            self.publicly_known[card] = False
            self.drawn_in_generation[card] = self.reshuffles
            hand.append(card)
            count += 1
        hand.sort()
        self.log = self.log.push(("draw", seat, count))

    def _foothold(self, seat: int, sector: int) -> None:
        """R7: place a Foothold; the second in a Sector locks it for +2, once."""
        if self.footholds_left[seat] == 0:
            self.log = self.log.push(("foothold", seat, sector, 0, 0))
            return
        self.footholds_left[seat] = self.footholds_left[seat] - 1
        feet = self.footholds[seat]
        feet[sector] = feet[sector] + 1
        lock = LOCK_POINTS if feet[sector] == 2 else 0
        if lock:
            self.reputation[seat] = self.reputation[seat] + lock
            self.sectors_locked[seat] = self.sectors_locked[seat] + 1
            self.lock_points[seat] = self.lock_points[seat] + lock
        self.log = self.log.push(("foothold", seat, sector, feet[sector], lock))

    def _flip(self) -> tuple[int, list[int]]:
        """Flip to the next Deal; Shocks revealed on the way are tucked under it (R9)."""
        if self.deals_to_flip == 0:
            return -1, []
        shocks: list[int] = []
        deck = self.deal_deck
        card = deck.pop()
        while card >= SHOCK0:
            shocks.append(card)
            card = deck.pop()
        self.deals_to_flip -= 1
        return card, shocks

    # -- seating (R3, R10) --------------------------------------------------------------
    def _choose_last_seat(self) -> None:
        n, prev = self.num_players, self.last_seat
        if self.last_seat_rotates:  # one seat clockwise, won or Dumped
            self.last_seat = (prev + 1) % n
            self._seat_order(ALTERNATE if n == 2 else ROTATE, 0)
            return
        rep = self.reputation
        low = rep[0]  # min(rep), written out (compiled: no call into the builtins)
        for r in rep:
            if r < low:
                low = r
        if rep.count(low) == 1:
            self.last_seat = rep.index(low)
            self._seat_order(FEWEST, low)
            return
        # ties: the tied seat furthest clockwise from the previous last seat (the first
        # such seat, as max(tied, key=...) picks it)
        best, best_turns = -1, -1
        for p in range(n):
            if rep[p] == low and (p - prev) % n > best_turns:
                best, best_turns = p, (p - prev) % n
        self.last_seat = best
        self._seat_order(FEWEST_TIED, low)

    def _seat_order(self, reason: str, low: int) -> None:
        last = self.last_seat
        self.pitch_order = ORDERS[self.num_players][last]
        self.pitch_turn = 0
        self.phase = PITCH
        self.log = self.log.push(("last", last, reason, low))

    # -- the end (R11) ----------------------------------------------------------------------
    def _end(self) -> None:
        for p in range(self.num_players):
            bonus = scoring.sector_bonus(self.footholds[p], self.columns.breadth_bonus)
            self.sector_bonus[p] = bonus
            self.reputation[p] = self.reputation[p] + bonus
            self.log = self.log.push(("sector_bonus", p, tuple(self.footholds[p]), bonus))
        self.deal_in_play, self.sector_in_play, self.shocks_in_play = -1, -1, []
        self.phase = OVER
        winners, self.tiebreak_level = scoring.tiebreak(self)
        self.log = self.log.push(("end", tuple(winners), self.tiebreak_level))

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return scoring.tiebreak(self)[0]

    def returns(self) -> list[float]:
        return [float(r) for r in self.reputation]

    def scores(self) -> list[float]:
        return [float(r) for r in self.reputation]

    # -- read API for bots and tools ------------------------------------------------------
    def hand_of(self, seat: int) -> list[int]:
        """The Capital cards (numbers) in `seat`'s hand, sorted, as a fresh list (in a
        bot's resampled view, other seats' hands are guesses)."""
        return list(self.hands[seat])

    def score_in_play(self) -> int:
        """The printed score of the Deal in play."""
        return int(self.columns.deal_score[self.deal_in_play - DEAL0])

    def leading_pitch(self) -> tuple[int, int]:
        """(seat, card) of the pitch that would win if the Deal closed now (R6), or
        (-1, -1) if nothing competes yet."""
        return scoring.closing_winner(
            self.pitched, self.sector_in_play, self.columns.capital_number
        )

    def pitches_last(self, seat: int) -> bool:
        """Whether `seat` pitches last on the Deal in play (R3, R10)."""
        return bool(self.pitch_order) and self.pitch_order[-1] == seat

    def footholds_of(self, seat: int) -> list[int]:
        """`seat`'s Footholds per Sector (Sector order), a fresh list."""
        return list(self.footholds[seat])

    # -- views (view.py), resampling (resample.py), the lab (scoring.py) -----------------
    def action_to_string(self, action: Any) -> str:
        return view.action_label(self, action)

    def describe_action(self, action: Any) -> Move:
        return view.describe_action(self, action)

    def observation(self, player: Any) -> dict[str, Any]:
        """What `player` may know: the public view plus its own hand."""
        return view.observation(self, view.seat_of(self, player))

    def public_observation(self) -> dict[str, Any]:
        """What everyone may know (see `view.observation`), "seat": None."""
        return view.observation(self, None)

    def zones(self) -> dict[str, list[str]]:
        return view.zones(self)

    def hidden_card_ids(self, player: Any) -> set[str]:
        return view.hidden_card_ids(self, view.seat_of(self, player))

    def public_hidden_card_ids(self) -> set[str]:
        return view.hidden_card_ids(self, None)

    def resample_from_infostate(self, player: Any, seed: Any) -> RunwayState:
        return resample.redeal(self, view.seat_of(self, player), seed)

    def info(self) -> dict[str, Any]:
        return scoring.summary(self)

    def progress_values(self) -> list[float]:
        """Each seat's progress (the core rates a seat against the best rival)."""
        return scoring.progress_all(self)
