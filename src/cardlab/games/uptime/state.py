"""The UPTIME forward model: plain-data state, legal actions, and apply_action.

Design for speed (ISMCTS clones states millions of times):
- Cards are ints indexing the shared CardTable (0..53 for the packaged deck); every zone is a flat list.
- Per-seat counters (materials per kind, Component types, Computers...) are flat
  int lists, so legality checks never scan hands.
- The history and the public log are persistent trails (cardlab.core.trail) shared by
  clones.
- The RNG is copied lazily (copy-on-write): after setup it is used only when a
  free material is taken out of the Supply Deck (U5), so most clones never copy it.
- Follow-up work (draws, refills, end of turn) sits on a small stack of tuples;
  `_run` executes it until someone must decide. A sub-decision with a single
  legal action is taken automatically (it is not a choice).

Rule references (U1..U17) are the rulings written in docs/rules/uptime.md, every rule in
our words beside the rulebook passage.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final, cast

from cardlab.core.columns import CardColumns
from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER, GameState
from cardlab.core.moves import Move
from cardlab.core.rng import seeded, shuffle
from cardlab.core.trail import EMPTY_TRAIL, Trail
from cardlab.games.uptime import actions as A
from cardlab.games.uptime import resample, scoring, view
from cardlab.games.uptime.cards import (
    ABILITIES,
    COMPONENT,
    COMPONENT_TYPES,
    COMPUTER,
    CONTRACT,
    MATERIAL,
    MATERIAL_KINDS,
    NETWORK,
    PATCH,
    TWISTS,
    CardTable,
)

# Follow-up steps (first tuple item).
# Constants are Final so that the compiled build (make compiled) reads them as C constants
# rather than looking each up in the module's dict.
S_DRAW: Final = 0
S_CHOOSE: Final = 1
S_BLADE: Final = 2
S_REFILL: Final = 3
S_END_TURN: Final = 4
S_BEGIN: Final = 5
NONE: Final = -1  # no decision pending: run the steps
SURGE: Final = TWISTS.index("power_surge")  # CardTable.sub of the Power Surge twist
WORKSTATION: Final = ABILITIES.index("workstation")
BLADE: Final = ABILITIES.index("blade")
TOWER: Final = ABILITIES.index("tower")
MAINFRAME: Final = ABILITIES.index("mainframe")
ROW: Final = 4
"""Slots of the Build Row."""
ALL_KINDS: Final = (1 << MATERIAL_KINDS) - 1
"""A bit mask naming every material kind (for `supply_kinds_gone`, `choose_excluded`)."""
STALL_CAP_ROUNDS: Final = 100
"""With stall_end=false, the hard cap: the game stops after this many rounds, 'stalled' (U13)."""
IDLE_STALL_ROUNDS: Final = 3
"""U13 under the recycling levers (hand_limit, trade_in, pass_cards=0): the Supply need never run
dry, so the stall also comes after this many idle rounds in a row: full rounds in which no card
left the Row and no card came from the Supply Deck before it first ran out (the game is circling
recycled materials, or nobody takes a card at all)."""
DREW: Final = 1
"""`supply_drawn` bit: a card left the Supply Deck this round (U13: the round was not dry)."""
DREW_FRESH: Final = 2
"""`supply_drawn` bit: ... before the Supply Deck first ran out (the round was not idle)."""
M: Final = MATERIAL_KINDS  # per-seat stride of the flat counter lists
C: Final = COMPONENT_TYPES


class UptimeColumns(CardColumns):
    """The card columns and rule options the forward model reads on every move, typed:
    the same tuples as `CardTable` (not copies) and the game's options as plain values.
    `CardTable` (its module holds the pydantic card models) and the game are Python
    objects, so compiled code (make compiled) reads them by a name lookup each (and the
    options dict by key); a compiled class's fields are read directly. One per
    game start, shared by every clone; never changed (the pattern: cardlab.core.columns)."""

    __slots__ = (
        "kind", "sub", "value", "cost_pair", "component_cost", "network_cost", "router_max",
        "patch_cost",
        "row_sweep", "supply_reshuffle", "raise_requires_computer", "stall_end",
        "router_per_computer",
        # rule levers (rules.py; the rule as written at their defaults)
        "hand_limit", "trade_in", "trade_action", "leftover_rate", "computer_points",
        "draw_cards", "pass_cards", "row_size", "recycle", "conveyor",
    )  # fmt: skip

    def __init__(self, game: Any = None) -> None:
        if game is None:  # bare, for unpickling (mypyc's __new__ calls __init__ without
            return  # arguments; its __setstate__ then fills the slots)
        t: CardTable = game.table
        self.kind: tuple[int, ...] = t.kind
        self.sub: tuple[int, ...] = t.sub
        self.value: tuple[int, ...] = t.value
        self.cost_pair: tuple[tuple[int, ...], ...] = t.cost_pair
        self.component_cost: tuple[tuple[int, ...], ...] = t.component_cost
        self.network_cost: dict[int, int] = t.network_cost
        self.router_max: dict[int, int] = t.router_max
        options = game.options
        self.patch_cost: int = cast(int, options["patch_cost"])
        # the options below are only ever tested for truth: bool() decides alike
        self.row_sweep = bool(options["row_sweep"])
        self.supply_reshuffle = bool(options["supply_reshuffle"])
        self.raise_requires_computer = bool(options["raise_requires_computer"])
        self.stall_end = bool(options["stall_end"])
        # U14 (scoring.breakdown): every Router counts every Computer, or the option's
        # one Router per Computer
        self.router_per_computer = options["router_rule"] == "per_computer"
        self.hand_limit: int = cast(int, options["hand_limit"])
        self.trade_in: int = cast(int, options["trade_in"])
        # TRADE is the last action number, only with the lever on (actions.py)
        self.trade_action: int = game.num_distinct_actions - 1 if self.trade_in else -1
        self.leftover_rate: int = cast(int, options["leftover_rate"])
        self.computer_points: int = cast(int, options["computer_points"])
        self.draw_cards: int = cast(int, options["draw_cards"])
        self.pass_cards: int = cast(int, options["pass_cards"])
        self.row_size: int = cast(int, options["row_size"])
        self.conveyor: int = cast(int, options["row_conveyor"])
        # materials can cycle without a claim: the idle-round stall keeps games finite (U13)
        self.recycle = bool(self.hand_limit or self.trade_in or not self.pass_cards)


class UptimeState(GameState):
    """One moment of an UPTIME game. See the module docstring for the layout.

    Cards are numbers indexing `table` (the game's CardTable). Per-seat counters are flat
    lists: seat p's materials of kind m are `materials[p * MATERIAL_KINDS + m]`, its
    Components of type k `component_types[p * COMPONENT_TYPES + k]`; bots read them through
    `materials_of(p)`, `component_types_of(p)` and the other read methods below."""

    clone_shares: ClassVar[frozenset[str]] = frozenset({"_legal", "final_points"})
    """Shared by clones: the cached legal list (dropped and rebuilt, never changed in place)
    and the final points (set once, when the game ends)."""

    __slots__ = (
        "game", "table", "columns", "num_players", "rng", "_rng_shared",
        # zones (card numbers); build_row and reserve_patch hold -1 for an empty slot
        "supply", "supply_discard", "removed_twists", "build_deck", "build_bottom_known",
        "build_discard", "build_row", "reserved_by", "reserve_patch", "hand", "tableau",
        # per-seat counters
        "materials", "patches", "known_materials", "component_types", "computers",
        "has_mainframe", "tower_discount", "contracts", "draw_pass", "turns",
        # turn order and the end
        "first_player", "turn_seat", "round", "total_turns", "shortage_pending", "end_pending",
        "end_reason", "row_moved", "supply_empty_round", "supply_kinds_gone", "lazy_decks",
        "idle_rounds", "trade_left", "supply_drawn", "supply_ran_dry",
        # what the redeal keeps of the Supply Deck since its last shuffle (resample.py)
        "epoch_kinds", "epoch_drawn", "epoch_log",
        # the pending decision and its context
        "steps", "decision", "decider",
        "pay_need", "pay_materials", "pay_left", "pay_types_used", "pay_patch_allowed",
        "pay_for", "pay_slot", "pay_paid", "choose_excluded", "choose_reason",
        "auction_slot", "auction_opener", "auction_high_bid", "auction_high_bidder",
        "auction_to_answer",
        # records (persistent trails, cardlab.core.trail, shared by clones)
        "_legal", "moves", "num_decisions", "log", "acquired",
        # the final score, set once by `_finish` (search scores every finished copy)
        "final_points", "final_winner",
    )  # fmt: skip
    table: CardTable
    columns: UptimeColumns
    """Typed so the compiled build indexes the card tuples natively (`t.kind[c]`)."""
    num_players: int
    supply: list[int]
    build_deck: list[int]
    build_row: list[int]
    """Declared: built from `game.table` (typed Any in `__init__`) they were inferred as
    `list[Any]`, so the compiled build handled every card taken from them as a Python object
    (generic indexing and comparisons, e.g. `kind[c] == MATERIAL` in the redeal)."""

    def __init__(self, game: Any = None, seed: int = 0) -> None:
        if game is None:  # a bare instance for `clone` (see there)
            return
        t = game.table
        n: int = game.num_players  # typed: `game` is Any (compiled: native list sizes)
        self.game, self.table, self.num_players = game, t, n
        self.columns = UptimeColumns(game)
        self.rng = seeded(seed)  # random.Random(seed), made cheaper
        self._rng_shared = False
        self.supply = list(t.supply_cards)
        shuffle(self.rng, self.supply)
        self.build_deck = list(t.build_cards)
        shuffle(self.rng, self.build_deck)
        self.supply_discard: list[int] = []
        self.removed_twists: list[int] = []
        self.build_discard: list[int] = []
        self.build_bottom_known = 0
        size = self.columns.row_size  # lever row_size: slots past it stay empty
        self.build_row = [self.build_deck.pop() if s < size else -1 for s in range(ROW)]
        self.reserved_by, self.reserve_patch = [-1] * ROW, [-1] * ROW
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.materials, self.known_materials = [0] * (M * n), [0] * (M * n)
        # The Supply Deck's materials by kind since its last shuffle, less those taken from it
        # by a free choice (public: the deck's start and every take are), and per seat the
        # kinds it drew from it (each seat's own knowledge): the redeal deals the deck only
        # from what the seat knows can still be in it (resample.py).
        self.epoch_kinds = [0] * M
        for c in self.supply:
            if t.kind[c] == MATERIAL:
                self.epoch_kinds[t.sub[c]] += 1
        self.epoch_drawn = [0] * (M * n)
        self.epoch_log: Trail | None = None  # the log at the last reshuffle (None: never)
        self.patches = [0] * n
        self.tableau: list[list[int]] = [[] for _ in range(n)]
        self.component_types = [0] * (C * n)
        self.computers, self.has_mainframe, self.tower_discount = [0] * n, [0] * n, [0] * n
        self.contracts, self.draw_pass, self.turns = [0] * n, [0] * n, [0] * n
        # U17: the first player is chosen by the seed: rng.randrange(n) as random.py draws
        # it (getrandbits of n's bit length until below n), without its Python-level calls
        bits = n.bit_length()
        first = self.rng.getrandbits(bits)
        while first >= n:
            first = self.rng.getrandbits(bits)
        self.first_player = first
        self.turn_seat = self.first_player
        self.round, self.total_turns = 1, 0
        self.shortage_pending = self.end_pending = self.row_moved = self.supply_empty_round = False
        self.end_reason: str | None = None
        self.idle_rounds = self.trade_left = 0
        self.supply_drawn = 0
        """DREW | DREW_FRESH: what left the Supply Deck this round (U13's dry and idle rounds)."""
        self.supply_ran_dry = False
        """The Supply Deck has run out at least once (cards drawn since are recycled)."""
        self.supply_kinds_gone = (
            0  # kinds publicly known to be absent from the Supply Deck (U5 "gone")
        )
        self.lazy_decks = (
            False  # a determinization: hidden deck cards are drawn at random (resample)
        )
        self.decision, self.decider = NONE, -1
        self._clear_payment()
        self.choose_excluded, self.choose_reason = 0, ""
        self.auction_slot = self.auction_opener = self.auction_high_bid = (
            self.auction_high_bidder
        ) = -1
        self.auction_to_answer: tuple[int, ...] = ()
        self._legal: list[int] | None = None
        self.moves: Trail = EMPTY_TRAIL
        self.num_decisions = 0
        self.log: Trail = EMPTY_TRAIL
        self.acquired: Trail = EMPTY_TRAIL
        """(seat, card) for every card a seat took into its tableau, oldest first."""
        self.final_points: list[int] = []
        self.final_winner = -1
        self._log(("setup", self.first_player, tuple(self.build_row)))
        deal = game.starting_hand  # option starting_hand: 4, one more with two players (U16)
        self.steps: list[tuple[Any, ...]] = [(S_BEGIN,)]
        bonus: int = game.options["later_seat_bonus"]  # lever: i-th in turn order, i x more
        for i in reversed(range(n)):
            self.steps.append((S_DRAW, (self.first_player + i) % n, deal + i * bonus, "deal"))
        self._run()

    # ---- small helpers ---------------------------------------------------------
    def _log(self, entry: tuple[Any, ...]) -> None:
        self.log = self.log.push(entry)

    def _rand(self) -> random.Random:
        if self._rng_shared:  # copy-on-write: never draw from a generator a clone shares
            rng = random.Random.__new__(random.Random)  # no seeding: the state is set next
            rng.setstate(self.rng.getstate())
            self.rng, self._rng_shared = rng, False
        return self.rng

    def _clear_payment(self) -> None:
        self.pay_need = self.pay_left = self.pay_types_used = self.pay_for = self.pay_slot = 0
        self.pay_materials: tuple[int, ...] = ()
        self.pay_patch_allowed = False
        self.pay_paid: tuple[int, ...] = ()

    def network_cost(self, card: int, seat: int) -> int:
        """What Network `card` costs `seat` now: its printed cost, 1 less with a Tower
        discount waiting (U8), never below 1."""
        cost = self.columns.network_cost[card]
        return max(1, cost - 1) if self.tower_discount[seat] else cost  # U8

    def _take_build(self) -> int:
        deck = self.build_deck
        if (
            self.lazy_decks and len(deck) > self.build_bottom_known
        ):  # the unknown part is in no fixed order
            i = self.build_bottom_known + int(
                self._rand().random() * float(len(deck) - self.build_bottom_known)
            )  # float(): the double the mixed product converts to (compiled: a C multiply)
            deck[i], deck[-1] = deck[-1], deck[i]
        card = deck.pop()
        if self.build_bottom_known > len(deck):
            self.build_bottom_known = len(self.build_deck)
        return card

    def _trigger_end(self, reason: str, seat: int) -> None:
        if not self.end_pending:
            self.end_pending, self.end_reason = True, reason
            self._log(("trigger", seat, reason))

    def _check_milestone(self, seat: int) -> None:
        # U12/U9: 2 Computers (Mainframe counts 2 here only) and 1 Contract.
        if self.computers[seat] + self.has_mainframe[seat] >= 2 and self.contracts[seat] >= 1:
            self._trigger_end("milestone", seat)

    # ---- the API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.decision == A.D_OVER else self.decider

    def is_terminal(self) -> bool:
        return self.decision == A.D_OVER

    def legal_actions(self) -> list[int]:
        """Legal actions now (computed once per state; a fresh list each call)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def apply_action(self, action: Any) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        act: int = action  # an int from here on (compiled: native int operations)
        for x in legal:  # `act in legal`, written out (compiled: int compares)
            if x == act:
                break
        else:
            message = illegal_action_message(self, action, view.decision_text(self))
            raise IllegalActionError(message)
        self.moves = self.moves.push(act)
        self.num_decisions += 1
        self._legal = None
        self._do(act)
        self._run()

    def history(self) -> list[int]:
        return self.moves.items()

    def returns(self) -> list[float]:
        pts = self.final_points if self.decision == A.D_OVER else scoring.points(self)
        return [float(x) for x in pts]

    def scores(self) -> list[float]:
        return self.returns()

    def winners(self) -> list[int]:
        return [self.final_winner] if self.decision == A.D_OVER else []

    def decision_kind(self) -> str:
        return A.DECISION_NAMES[self.decision]

    def action_to_string(self, action: Any) -> str:
        return view.action_label(self, action)

    def describe_action(self, action: Any) -> Move:
        return view.describe_action(self, action)

    def observation(self, player: Any) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.public_observation(self)

    def info(self) -> dict[str, Any]:
        return view.game_info(self)

    # ---- the read API (what bots and views read instead of slicing the flat counters) ----
    def materials_of(self, seat: int) -> list[int]:
        """How many raw materials of each kind (card-file order) `seat` holds."""
        return self.materials[seat * M : seat * M + M]

    def material_count(self, seat: int) -> int:
        """How many raw materials `seat` holds in all (public: hand sizes are)."""
        return len(self.hand[seat]) - self.patches[seat]  # a hand holds materials and Patches

    def component_types_of(self, seat: int) -> list[int]:
        """How many Components of each type `seat` has in its tableau."""
        return self.component_types[seat * C : seat * C + C]

    def distinct_component_types(self, seat: int) -> int:
        """How many different Component types `seat` owns (a Computer needs 3)."""
        return sum(1 for x in self.component_types[seat * C : seat * C + C] if x)

    def tableau_of(self, seat: int) -> list[int]:
        """The cards in `seat`'s tableau, in the order claimed."""
        return list(self.tableau[seat])

    def hand_of(self, seat: int) -> list[int]:
        """The cards in `seat`'s hand (raw materials and Patches): private to that seat."""
        return list(self.hand[seat])

    def row_card(self, slot: int) -> int:
        """The card in Build Row `slot` (0-3), or -1 when the slot is empty."""
        return self.build_row[slot]

    def auction_contract(self) -> int:
        """The Contract being auctioned, or -1 when no auction is running."""
        return self.build_row[self.auction_slot] if self.auction_slot >= 0 else -1

    def can_draw(self) -> bool:
        """Whether a Draw or Pass would bring a card (the Supply Deck, or under the U3
        reshuffle the supply discard, holds one)."""
        return not self.supply_dry()

    def zones(self) -> dict[str, list[str]]:
        ids = self.table.ids
        z = {
            "hidden:supply_deck": [ids[c] for c in self.supply],
            "hidden:build_deck": [ids[c] for c in self.build_deck],
            "public:supply_discard": [ids[c] for c in self.supply_discard],
            "public:build_discard": [ids[c] for c in self.build_discard],
            "public:removed_twists": [ids[c] for c in self.removed_twists],
            "public:build_row": [ids[c] for c in self.build_row if c >= 0],
            "public:reserve_patches": [ids[c] for c in self.reserve_patch if c >= 0],
        }
        for p in range(self.num_players):
            z[f"private:{p}:hand"] = [ids[c] for c in self.hand[p]]
            z[f"public:tableau_{p}"] = [ids[c] for c in self.tableau[p]]
        return z

    def progress_values(self) -> list[float]:
        """Points plus progress toward points, per seat (the core rates a seat against
        the best rival's same measure).

        Progress: distinct Component types (a Computer is 3 of them, worth 5),
        materials (they buy Components and Networks and back bids), Patches (a
        wildcard), a pending Tower discount, and a Contract being auctioned
        (credited to the high bidder net of the bid). A pending payment or free
        choice is first completed with its first legal options, so a
        Requisition is valued for the card it brings, not the moment before."""
        s = self
        pending = (A.D_PAY, A.D_CHOOSE, A.D_BLADE, A.D_DISCARD, A.D_TRADE)
        if s.decision in pending:
            s = self.clone()
            while s.decision in pending:
                legal = s.legal_actions()
                if not legal:  # an inconsistent copy (never a real game): value it as it stands
                    break
                s.apply_action(s._completion(legal))
        pts = s.final_points if s.decision == A.D_OVER else scoring.points(s)
        bidder, bid, prize = -1, 0, 0
        if s.auction_slot >= 0 and s.decision in (A.D_OPEN_BID, A.D_RAISE):
            bidder = s.auction_high_bidder if s.decision == A.D_RAISE else s.decider
            bid = s.auction_high_bid if s.decision == A.D_RAISE else 1
            prize = s.table.value[s.build_row[s.auction_slot]]

        needs = s.columns.trade_in or s.columns.hand_limit
        # One loop with its lookups in locals (search rates every seat of every finished
        # copy); the arithmetic is term for term that of the plain formula, so the floats
        # are the same.
        out: list[float] = []
        ctypes, hands, patches = s.component_types, s.hand, s.patches
        computers, tower = s.computers, s.tower_discount
        for p in range(s.num_players):
            types = C - ctypes[p * C : p * C + C].count(0)
            mats = len(hands[p]) - patches[p]
            net_ready = 1.0 if computers[p] >= 2 else 0.0
            v = (
                pts[p]
                + 1.3 * (types if types < 3 else 3)
                + 0.25 * (types if types < 6 else 6)
                + (0.45 + 0.15 * net_ready) * (mats if mats < 9 else 9)
                + 0.1 * (mats - 9 if mats > 9 else 0)
                + 1.0 * patches[p]
                + 0.5 * tower[p]
            )
            if p == bidder:
                v += 0.8 * prize - 0.45 * bid
            if needs and s.affordable_new_type(p):
                # levers: a Component of a missing type ready to buy. Below a purchase's own
                # gain (1.55 - 2 x 0.45), so buying it still pays; enough that a trade-in
                # completing it beats waiting when a Draw brings little
                v += 0.6
            out.append(v)
        return out

    def _completion(self, legal: list[int]) -> int:
        """How `progress_values` completes a pending sub-decision: the first legal option,
        except under the trade-in and hand-limit levers, where a free material is the one
        that makes a Component of a missing type affordable and a given or discarded
        material is one the seat holds most of (so the lookahead values a sensible trade)."""
        dk, p = self.decision, self.decider
        if dk == A.D_CHOOSE and self.choose_reason == "Trade-in":
            want = self.wanted_material(p)
            if want >= 0 and A.CHOOSE_MAT + want in legal:
                return A.CHOOSE_MAT + want
        elif dk == A.D_TRADE or dk == A.D_DISCARD:
            mats = self.materials
            needed = 0  # a bit per kind a Row Component of a missing type asks for
            for x, y in self._row_needs(p):
                needed |= (1 << x) | (1 << y)
            best, best_key = legal[0], -1
            for a in legal:
                if a >= A.PAY_COMP:
                    continue  # a Patch (wild) goes last
                m = a - A.PAY_MAT
                key = (0 if needed >> m & 1 else 100) + mats[p * M + m]
                if key > best_key:
                    best, best_key = a, key
            return best
        return legal[0]

    def _row_needs(self, p: int) -> list[tuple[int, int]]:
        """The material pairs of the Row Components `p` may claim and lacks the type of."""
        t = self.columns
        out = []
        for s in range(ROW):
            c = self.build_row[s]
            if c < 0 or t.kind[c] != COMPONENT or self.component_types[p * C + t.sub[c]]:
                continue
            if self.reserved_by[s] >= 0 and self.reserved_by[s] != p:
                continue
            x, y = t.cost_pair[c]
            out.append((x, y))
        return out

    def affordable_new_type(self, p: int) -> bool:
        """Whether `p` can pay, in materials, a Row Component of a type it lacks."""
        mats, b = self.materials, p * M
        return any(mats[b + x] >= 1 + (x == y) and mats[b + y] >= 1 for x, y in self._row_needs(p))

    def wanted_material(self, p: int) -> int:
        """The material kind that would complete a Row Component of a type `p` lacks (it
        holds the other one), or -1."""
        mats, b = self.materials, p * M
        for x, y in self._row_needs(p):
            if mats[b + x] and not mats[b + y]:
                return y
            if mats[b + y] and not mats[b + x]:
                return x
        return -1

    def clone(self) -> UptimeState:
        # A bare instance: __init__ without a game returns at once. (Not object.__new__,
        # which a mypyc-compiled class refuses; compiled, the class call is a C call.)
        s = UptimeState()
        s.game, s.table, s.num_players = self.game, self.table, self.num_players
        s.columns = self.columns
        s.rng = self.rng
        s._rng_shared = self._rng_shared = True
        s.supply, s.supply_discard, s.removed_twists = (
            self.supply[:],
            self.supply_discard[:],
            self.removed_twists[:],
        )
        s.build_deck, s.build_bottom_known, s.build_discard = (
            self.build_deck[:],
            self.build_bottom_known,
            self.build_discard[:],
        )
        s.build_row, s.reserved_by, s.reserve_patch = (
            self.build_row[:],
            self.reserved_by[:],
            self.reserve_patch[:],
        )
        s.hand = [h[:] for h in self.hand]
        s.materials, s.patches, s.known_materials = (
            self.materials[:],
            self.patches[:],
            self.known_materials[:],
        )
        s.tableau = [x[:] for x in self.tableau]
        s.component_types, s.computers, s.has_mainframe = (
            self.component_types[:],
            self.computers[:],
            self.has_mainframe[:],
        )
        s.tower_discount, s.contracts = self.tower_discount[:], self.contracts[:]
        s.draw_pass, s.turns = self.draw_pass[:], self.turns[:]
        s.first_player, s.turn_seat, s.round = self.first_player, self.turn_seat, self.round
        s.total_turns, s.shortage_pending, s.end_pending = (
            self.total_turns,
            self.shortage_pending,
            self.end_pending,
        )
        s.end_reason, s.row_moved = self.end_reason, self.row_moved
        s.idle_rounds, s.trade_left = self.idle_rounds, self.trade_left
        s.supply_drawn, s.supply_ran_dry = self.supply_drawn, self.supply_ran_dry
        s.epoch_kinds, s.epoch_drawn = self.epoch_kinds[:], self.epoch_drawn[:]
        s.epoch_log = self.epoch_log
        s.supply_empty_round, s.supply_kinds_gone, s.lazy_decks = (
            self.supply_empty_round,
            self.supply_kinds_gone,
            self.lazy_decks,
        )
        s.steps, s.decision, s.decider = self.steps[:], self.decision, self.decider
        s.pay_need, s.pay_materials, s.pay_left = self.pay_need, self.pay_materials, self.pay_left
        s.pay_types_used, s.pay_patch_allowed, s.pay_for = (
            self.pay_types_used,
            self.pay_patch_allowed,
            self.pay_for,
        )
        s.pay_slot, s.pay_paid = self.pay_slot, self.pay_paid
        s.choose_excluded, s.choose_reason = self.choose_excluded, self.choose_reason
        s.auction_slot, s.auction_opener, s.auction_high_bid = (
            self.auction_slot,
            self.auction_opener,
            self.auction_high_bid,
        )
        s.auction_high_bidder, s.auction_to_answer = (
            self.auction_high_bidder,
            self.auction_to_answer,
        )
        s._legal, s.moves, s.num_decisions = self._legal, self.moves, self.num_decisions
        s.log, s.acquired = self.log, self.acquired
        s.final_points, s.final_winner = self.final_points, self.final_winner
        return s

    def resample_from_infostate(self, player: Any, seed: Any) -> UptimeState:
        return resample.resample(self, player, seed)

    # ---- legal actions -------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        dk = self.decision
        p = self.decider
        mats = self.materials
        b = p * M
        if dk == A.D_TURN:
            return self._turn_legal(p)
        if dk == A.D_PAY:
            patches = self.patches[p] if self.pay_patch_allowed else 0
            if self.pay_need == A.NEED_SPECIFIC:
                m = self.pay_materials[0]
                out = [A.PAY_MAT + m] if mats[b + m] else []
                if patches:
                    deficit = sum(1 for r in self.pay_materials[1:] if not mats[b + r])
                    if deficit <= patches - 1:
                        out.append(A.PAY_PATCH)
                return out
            if self.pay_need == A.NEED_ANY:
                out = [A.PAY_MAT + m for m in range(M) if mats[b + m]]
                have = len(self.hand[p]) - self.patches[p]
            else:
                used, c6 = self.pay_types_used, p * C
                ct = self.component_types
                out = [A.PAY_COMP + t for t in range(C) if ct[c6 + t] and not used >> t & 1]
                have = len(out)
            if patches:
                out.append(A.PAY_PATCH)
            if have + patches == self.pay_left:
                return out[:1]  # everything must go: the order is no choice
            return out
        if dk == A.D_CHOOSE:
            return [A.CHOOSE_MAT + m for m in range(M) if not self.choose_excluded >> m & 1]
        if dk == A.D_BLADE:
            c6 = p * C
            return [A.RETURN_COMP + t for t in range(C) if self.component_types[c6 + t]]
        if dk == A.D_DISCARD:  # lever hand_limit: any card of the hand
            out = [A.PAY_MAT + m for m in range(M) if mats[b + m]]
            if self.patches[p]:
                out.append(A.PAY_PATCH)
            return out
        if dk == A.D_TRADE:  # lever trade_in: any material held
            out = [A.PAY_MAT + m for m in range(M) if mats[b + m]]
            if len(self.hand[p]) - self.patches[p] == self.trade_left:
                return out[:1]  # everything must go: the order is no choice
            return out
        if dk == A.D_OPEN_BID:
            return A.bid_actions(1, len(self.hand[p]) - self.patches[p])
        if dk == A.D_RAISE:
            top = len(self.hand[p]) - self.patches[p]
            return [A.BID_PASS, *A.bid_actions(self.auction_high_bid + 1, top)]
        return []

    def _turn_legal(self, p: int) -> list[int]:
        t = self.columns
        kind = t.kind
        cost_pair = t.cost_pair
        b = p * M
        mats = self.materials
        patches = self.patches[p]
        total = len(self.hand[p]) - patches  # a hand holds raw materials and Patches only
        reqs: list[int] = []
        bids: list[int] = []
        reserves: list[int] = []
        row, reserved_by = self.build_row, self.reserved_by
        for s in range(ROW):
            c = row[s]
            if c < 0:
                continue
            r = reserved_by[s]
            if r >= 0 and r != p:
                continue  # U4: reserved for someone else
            k = kind[c]
            if k == COMPONENT:
                x, y = cost_pair[c]
                if (not mats[b + x]) + (not mats[b + y]) <= patches:
                    reqs.append(A.REQ + s)
            elif k == COMPUTER:
                c6 = p * C
                types = C - self.component_types[c6 : c6 + C].count(0)
                if types + patches >= 3:
                    reqs.append(A.REQ + s)
            elif k == NETWORK:
                if self.computers[p] >= 2 and total + patches >= self.network_cost(c, p):
                    reqs.append(A.REQ + s)
            elif k == PATCH:
                if total + patches >= self.columns.patch_cost:
                    reqs.append(A.REQ + s)
            elif k == CONTRACT and self.computers[p] >= 1 and total >= 1:
                bids.append(A.BID_SLOT + s)  # U10: the opener needs 1+ Computer
            if patches and r < 0:
                reserves.append(A.RESERVE + s)
        if (
            not reqs
            and not bids
            and len(self.build_deck) > self.build_bottom_known
            and self.columns.row_sweep
        ):
            # Designer option: nothing in the Row is claimable by you and the Build Deck still
            # holds unseen cards (each sweep reveals one or more, so sweeps are finite).
            if t.trade_in and total >= t.trade_in:
                return [A.DRAW, A.PASS, *reserves, A.SWEEP, t.trade_action]
            return [A.DRAW, A.PASS, *reserves, A.SWEEP]
        if t.trade_in and total >= t.trade_in:  # lever trade_in: the last action number
            return [A.DRAW, A.PASS, *reqs, *bids, *reserves, t.trade_action]
        return [A.DRAW, A.PASS, *reqs, *bids, *reserves]

    # ---- applying ------------------------------------------------------------------
    def _run(self) -> None:
        """Execute follow-up steps until a real decision (or the end) is reached."""
        steps = self.steps
        while True:
            dk = self.decision
            if dk == NONE:
                step = steps.pop()
                code: int = step[0]  # typed: compared natively below
                if code == S_END_TURN:  # the most frequent step first
                    self._step_end_turn(step[1])
                elif code == S_DRAW:
                    self._step_draw(step[1], step[2], step[3])
                elif code == S_REFILL:
                    self._step_refill(step[1])
                elif code == S_CHOOSE:
                    self._step_choose(step[1], step[2])
                elif code == S_BLADE:
                    self._step_blade(step[1])
                else:  # S_BEGIN
                    self._log(("round", 1))
                    self.supply_empty_round = self.supply_dry()
                    self.supply_drawn = 0  # the deal is not the round's
                    self._start_turn(self.first_player)
                continue
            if dk == A.D_TURN or dk == A.D_OVER:
                return
            legal = self._compute_legal()
            # a forced sub-decision is not a choice, unless others cannot tell it is forced
            if len(legal) == 1 and not self._choice_public(dk, self.decider):
                self._do(legal[0])
                continue
            self._legal = legal
            return

    def _choice_public(self, dk: int, p: int) -> bool:
        """Whether `p` might have a choice here, judged from public information only: then
        the sub-decision waits for `p` even when `p`'s hand leaves one legal way, since
        whether a seat must decide is public and may not depend on hidden cards.
        (Completing a one-way payment at once told everyone that the payer held one kind, or
        no owed material beside its Patch.) Hand sizes, Patch counts, tableaux and what is
        owed are public; the kinds of the materials in a hand are not.
        docs/rules/uptime.md, "Paying"."""
        have = len(self.hand[p]) - self.patches[p]
        if dk == A.D_PAY:
            need = self.pay_need
            if need == A.NEED_TYPES:
                return False  # Components and Patches are public: so is a one-way payment
            patches = self.patches[p] if self.pay_patch_allowed else 0
            if need == A.NEED_SPECIFIC:  # the owed material or a Patch
                return have > 0 and patches > 0
            return have > 0 and have + patches > self.pay_left  # some of several cards
        if dk == A.D_TRADE:  # lever trade_in: some of several materials
            return have > self.trade_left
        if dk == A.D_DISCARD:  # lever hand_limit: one card of a hand of several
            return have > 1 or (have > 0 and self.patches[p] > 0)
        return False

    def _do(self, a: int) -> None:
        dk, p = self.decision, self.decider
        self.decision = NONE
        if dk == A.D_TURN:
            self._do_turn(p, a)
        elif dk == A.D_PAY:
            self._do_pay(p, a)
        elif dk == A.D_CHOOSE:
            self._do_choose(p, a - A.CHOOSE_MAT)
        elif dk == A.D_BLADE:
            self._do_blade(p, a - A.RETURN_COMP)
        elif dk == A.D_DISCARD:
            self._do_discard(p, a)
        elif dk == A.D_TRADE:
            self._do_trade(p, a - A.PAY_MAT)
        elif dk == A.D_OPEN_BID:
            self.auction_high_bid, self.auction_high_bidder = A.bid_amount(a), p
            self.auction_to_answer = tuple(
                (p + i) % self.num_players for i in range(1, self.num_players)
            )
            self._log(
                (
                    "open",
                    p,
                    self.build_row[self.auction_slot],
                    self.auction_high_bid,
                    self.auction_slot,
                )
            )
            self._next_bidder()
        else:  # D_RAISE
            if a == A.BID_PASS:
                self._log(("decline", p))
            else:
                self.auction_high_bid, self.auction_high_bidder = A.bid_amount(a), p
                self._log(("raise", p, self.auction_high_bid))
            self._next_bidder()

    def _do_turn(self, p: int, a: int) -> None:
        """The turn's action, then its end: the S_END_TURN step goes below whatever the
        action left waiting (nothing here reads the steps before), or, when nothing waits
        and no one must decide, runs at once, as `_run` would pop it next: the same order
        of steps without a push and pop (compiled: the stack's list is reallocated as it
        grows and empties) on most turns."""
        steps = self.steps
        below = len(steps)
        if a <= A.PASS:
            self.draw_pass[p] = self.draw_pass[p] + 1  # U17 counts these for the tie-break
            self._log(("action", p, "draw" if a == A.DRAW else "pass"))
            # what the S_DRAW step would do first thing in _run, done now (levers
            # draw_cards, pass_cards: 2 and 1 as written)
            self._step_draw(
                p, self.columns.draw_cards if a == A.DRAW else self.columns.pass_cards, "draw"
            )
        elif a == self.columns.trade_action:  # lever trade_in (never matches with it off: -1)
            self._log(("action", p, "trade"))
            self.trade_left = self.columns.trade_in
            self.decision, self.decider = A.D_TRADE, p
        elif a == A.SWEEP:
            self.draw_pass[p] = (
                self.draw_pass[p] + 1
            )  # a non-claim turn: counted with Draw/Pass (U17)
            self._sweep(p)
        elif a < A.BID_SLOT:
            self._start_requisition(p, a - A.REQ)
        elif a < A.RESERVE:
            self.auction_slot, self.auction_opener = a - A.BID_SLOT, p
            self.decision, self.decider = A.D_OPEN_BID, p
        else:
            s = a - A.RESERVE
            patch = self._remove_from_hand(p, PATCH, 0)
            self.patches[p] = self.patches[p] - 1
            self.reserve_patch[s], self.reserved_by[s] = patch, p
            self._log(("reserve", p, self.build_row[s], s))
        if self.decision == NONE and len(steps) == below:
            self._step_end_turn(p)
        else:
            steps.insert(below, (S_END_TURN, p))

    def _sweep(self, p: int) -> None:
        """Designer option row_sweep: the unreserved Row cards go face-up (so their identity is
        public) to the bottom of the Build Deck in slot order, then every empty slot is refilled
        from the top. Cards left the Row, so the stall rule (U13) sees a moving Row; the game stays
        finite because a sweep is legal only while the deck holds unseen cards, and each sweep
        draws at least one of them into the Row (swept cards lie below them, seen)."""
        row, deck = self.build_row, self.build_deck
        swept = []
        for s in range(ROW):
            if row[s] >= 0 and self.reserved_by[s] < 0:
                swept.append(row[s])
                deck.insert(0, row[s])
                row[s] = -1
        self.build_bottom_known += len(swept)
        self.row_moved = True
        self._log(("sweep", p, tuple(swept)))
        added = []
        for s in range(self.columns.row_size):
            if row[s] < 0 and self.reserved_by[s] < 0 and deck:
                row[s] = self._take_build()
                added.append(row[s])
        self._log(("refill", tuple(added)))

    def supply_dry(self) -> bool:
        """No card can be drawn: the Supply Deck is empty (and, under the U3 reshuffle, so is
        the supply discard it would be rebuilt from)."""
        if self.supply:
            return False
        return not (self.supply_discard and self.columns.supply_reshuffle)

    def _reshuffle_supply(self) -> None:
        """U3 (option supply_reshuffle, default on): the supply discard becomes the Supply Deck,
        shuffled by the state's generator."""
        self.supply, self.supply_discard = self.supply_discard, []
        if not self.lazy_decks:  # a determinization draws its deck at random anyway
            shuffle(self._rand(), self.supply)
        sub = self.columns.sub
        present = 0
        for c in self.supply:
            present |= 1 << sub[c]
        kinds = [0] * M  # the new deck's kinds are public
        for c in self.supply:
            kinds[sub[c]] += 1
        self.epoch_kinds = kinds
        self.epoch_drawn = [0] * (M * self.num_players)
        self.supply_kinds_gone = (
            ALL_KINDS & ~present
        )  # the new deck's kinds were public (the discard is face-up)
        self._log(("reshuffle", len(self.supply)))
        self.epoch_log = self.log

    def _start_requisition(self, p: int, s: int) -> None:
        t = self.columns
        c = self.build_row[s]
        k = t.kind[c]
        self._clear_payment()
        self.pay_for, self.pay_slot, self.pay_patch_allowed = A.FOR_REQUISITION, s, True
        if k == COMPONENT:
            self.pay_need, self.pay_materials = A.NEED_SPECIFIC, t.component_cost[t.sub[c]]
            self.pay_left = 2
        elif k == COMPUTER:
            self.pay_need, self.pay_left = A.NEED_TYPES, 3
        elif k == NETWORK:
            self.pay_need, self.pay_left = A.NEED_ANY, self.network_cost(c, p)
            if self.tower_discount[p]:
                self.tower_discount[p] = 0  # U8: the discount is used by this Network
                self._log(("tower", p))
        else:  # PATCH (U4: claim cost option)
            self.pay_need, self.pay_left = A.NEED_ANY, self.columns.patch_cost
        if self.pay_left:
            self.decision, self.decider = A.D_PAY, p
        else:
            self._complete_payment(p)

    def _remove_from_hand(self, p: int, kind: int, sub: int) -> int:
        t = self.columns
        h = self.hand[p]
        for i in range(len(h) - 1, -1, -1):
            c = h[i]
            if t.kind[c] == kind and t.sub[c] == sub:
                del h[i]
                return c
        raise AssertionError("card not in hand")  # pragma: no cover

    def _remove_component(self, p: int, ctype: int) -> int:
        t = self.columns
        tab = self.tableau[p]
        for i in range(len(tab) - 1, -1, -1):
            c = tab[i]
            if t.kind[c] == COMPONENT and t.sub[c] == ctype:
                del tab[i]
                self.component_types[p * C + ctype] = self.component_types[p * C + ctype] - 1
                return c
        raise AssertionError("component not in tableau")  # pragma: no cover

    def _do_pay(self, p: int, a: int) -> None:
        if a < A.PAY_COMP:
            m = a - A.PAY_MAT
            c = self._remove_from_hand(p, MATERIAL, m)
            i = p * M + m
            self.materials[i] = self.materials[i] - 1
            if self.known_materials[i]:
                self.known_materials[i] = self.known_materials[i] - 1
            self.supply_discard.append(c)  # U3: paid materials go face-up to the supply
        elif a < A.PAY_PATCH:
            c = self._remove_component(p, a - A.PAY_COMP)
            self.pay_types_used |= 1 << (a - A.PAY_COMP)
            self.build_discard.append(c)
        else:
            c = self._remove_from_hand(p, PATCH, 0)
            self.patches[p] = self.patches[p] - 1
            self.build_discard.append(c)
        self.pay_paid = self.pay_paid + (c,)  # compiled: a tuple concatenation, no list
        if self.pay_need == A.NEED_SPECIFIC:
            self.pay_materials = self.pay_materials[1:]
        self.pay_left -= 1
        if self.pay_left:
            self.decision, self.decider = A.D_PAY, p
        else:
            self._complete_payment(p)

    def _complete_payment(self, p: int) -> None:
        t = self.columns
        steps = self.steps
        paid = self.pay_paid
        if self.pay_for == A.FOR_AUCTION:
            s = self.auction_slot
            c = self.build_row[s]
            self.build_row[s] = -1
            self.tableau[p].append(c)
            self.contracts[p] = self.contracts[p] + 1
            self._log(("win", p, c, self.auction_high_bid, paid))
            self.auction_slot = self.auction_opener = self.auction_high_bid = (
                self.auction_high_bidder
            ) = -1
        else:
            s = self.pay_slot
            c = self.build_row[s]
            self.build_row[s] = -1
            self._log(("claim", p, c, paid, s))
            k = t.kind[c]
            if k == PATCH:
                self.hand[p].append(c)  # U3: a Patch goes to hand
                self.patches[p] = self.patches[p] + 1
            else:
                self.tableau[p].append(c)
                if k == COMPONENT:
                    slot = p * C + t.sub[c]
                    self.component_types[slot] = self.component_types[slot] + 1
                elif k == COMPUTER:
                    self.computers[p] = self.computers[p] + 1
        self.row_moved = True
        self.acquired = self.acquired.push((p, c))
        self._clear_payment()
        self._check_milestone(p)
        # U6: a Supply Shortage skips the refill of the next claim after its reveal. One revealed
        # while this claim resolves (by the Blade's draw) waits for the following claim.
        # The refill step is run at once when no ability step goes above it (`_run` would
        # pop it next, the decider unchanged): the same order without a push and pop.
        skip = self.shortage_pending
        if t.kind[c] == COMPUTER:
            ability = t.sub[c]
            if ability == WORKSTATION:
                steps.append((S_REFILL, skip))
                steps.append((S_CHOOSE, p, "Workstation"))
                return
            if ability == BLADE:
                steps.append((S_REFILL, skip))
                steps.append((S_DRAW, p, 1, "blade"))  # U7: then draw the top Supply card
                steps.append((S_BLADE, p))
                return
            if ability == TOWER:
                self.tower_discount[p] = 1
            else:
                self.has_mainframe[p] = 1
                self._check_milestone(p)
        self._step_refill(skip)

    def _next_bidder(self) -> None:
        """U10: clockwise once around; a seat that cannot raise passes by itself."""
        need_computer = self.columns.raise_requires_computer
        while self.auction_to_answer:
            q, self.auction_to_answer = self.auction_to_answer[0], self.auction_to_answer[1:]
            can = len(self.hand[q]) - self.patches[q] > self.auction_high_bid
            if can and (not need_computer or self.computers[q] >= 1):
                self.decision, self.decider = A.D_RAISE, q
                return
            self._log(("cannot_raise", q))
        # Everyone answered: only the winner pays (U10), in materials, no Patch (U4).
        self._clear_payment()
        self.pay_for, self.pay_need, self.pay_left = (
            A.FOR_AUCTION,
            A.NEED_ANY,
            self.auction_high_bid,
        )
        self.decision, self.decider = A.D_PAY, self.auction_high_bidder

    def _do_choose(self, p: int, m: int) -> None:
        """U5: from the supply discard first, else the Supply Deck (then shuffled)."""
        t = self.columns
        src = ""
        for i in range(len(self.supply_discard) - 1, -1, -1):
            c = self.supply_discard[i]
            if t.kind[c] == MATERIAL and t.sub[c] == m:
                del self.supply_discard[i]
                src = "discard"
                break
        else:
            for i, c in enumerate(self.supply):
                if t.kind[c] == MATERIAL and t.sub[c] == m:
                    del self.supply[i]
                    self._drew_supply()
                    self.epoch_kinds[m] -= 1  # public: an m left the deck
                    if not self.lazy_decks:  # a lazy deck is drawn at random anyway
                        shuffle(self._rand(), self.supply)
                    src = "deck"
                    break
        if not src:
            self.choose_excluded |= 1 << m
            self.supply_kinds_gone |= (
                1 << m
            )  # public: none in the Supply Deck now, until a reshuffle (U3)
            self._log(("gone", p, m))
            if self._any_material_left(self.choose_excluded):
                self.decision, self.decider = A.D_CHOOSE, p  # name another kind
            else:
                self.supply_kinds_gone = ALL_KINDS
            return
        self.hand[p].append(c)
        slot = p * M + m
        self.materials[slot] = self.materials[slot] + 1
        self.known_materials[slot] = self.known_materials[slot] + 1  # everyone saw which kind
        self._log(("take", p, m, src, self.choose_reason))

    def _any_material_left(self, excl: int = 0) -> bool:
        """Whether a material of a kind not in the mask `excl` is in the discard or the deck."""
        kind, sub = self.columns.kind, self.columns.sub
        for zone in (self.supply_discard, self.supply):
            for c in zone:
                if kind[c] == MATERIAL and not excl >> sub[c] & 1:
                    return True
        return False

    def _do_discard(self, p: int, a: int) -> None:
        """Lever hand_limit: one card from hand, face-up (public): a material to the Supply
        discard (it comes back under supply_reshuffle), a Patch to the Build discard."""
        if a == A.PAY_PATCH:
            c = self._remove_from_hand(p, PATCH, 0)
            self.patches[p] = self.patches[p] - 1
            self.build_discard.append(c)
        else:
            m = a - A.PAY_MAT
            c = self._remove_from_hand(p, MATERIAL, m)
            i = p * M + m
            self.materials[i] = self.materials[i] - 1
            if self.known_materials[i]:
                self.known_materials[i] = self.known_materials[i] - 1
            self.supply_discard.append(c)
        self._log(("discard", p, c, self.columns.hand_limit))

    def _do_trade(self, p: int, m: int) -> None:
        """Lever trade_in: give one material of kind m face-up to the Supply discard; after
        the last one, take a free material of your choice (U5's order: discard, then deck)."""
        c = self._remove_from_hand(p, MATERIAL, m)
        i = p * M + m
        self.materials[i] = self.materials[i] - 1
        if self.known_materials[i]:
            self.known_materials[i] = self.known_materials[i] - 1
        self.supply_discard.append(c)
        self._log(("trade_give", p, c))
        self.trade_left -= 1
        if self.trade_left:
            self.decision, self.decider = A.D_TRADE, p
        else:
            self.steps.append((S_CHOOSE, p, "Trade-in"))

    def _do_blade(self, p: int, ctype: int) -> None:
        c = self._remove_component(p, ctype)
        self.build_deck.insert(0, c)  # U7: to the bottom of the Build Deck, face known to all
        self.build_bottom_known += 1
        self._log(("return", p, c))

    # ---- steps ---------------------------------------------------------------------
    def _step_draw(self, p: int, n: int, why: str) -> None:
        """Draw n Supply cards; a Twist resolves, leaves the game and is replaced (U6)."""
        t = self.columns
        supply = self.supply
        hand = self.hand[p]
        mats = self.materials
        got = 0
        wanted = n
        while n:
            if not supply:
                self.supply_ran_dry = True
                if not (self.supply_discard and self.columns.supply_reshuffle):
                    break
                self._reshuffle_supply()
                supply = self.supply
            if self.lazy_decks:  # a determinization's Supply Deck is in no fixed order
                # float(len): the double the mixed product converts to (compiled: no
                # generic multiply); the same index
                i = int(self._rand().random() * float(len(supply)))
                supply[i], supply[-1] = supply[-1], supply[i]
            c = supply.pop()
            self._drew_supply()
            if t.kind[c] == MATERIAL:
                hand.append(c)
                slot = p * M + t.sub[c]
                mats[slot] = mats[slot] + 1
                self.epoch_drawn[slot] += 1
                got += 1
                n -= 1
                continue
            self.removed_twists.append(c)
            if t.sub[c] == SURGE:
                if got:  # the cards before the Twist, then the Twist, then the replacement
                    self._log(("got", p, got, why, got))
                self._log(("twist", p, c))
                if n:
                    self.steps.append((S_DRAW, p, n, why))  # the replacement, after the choices
                self.steps.append((S_CHOOSE, p, "Power Surge"))
                self.steps.append((S_CHOOSE, p, "Power Surge"))
                return
            self.shortage_pending = True
            self._log(("twist", p, c))
            self._log(("shortage_pending",))
        self._log(("got", p, got, why, wanted))

    def _drew_supply(self) -> None:
        """A card has just left the Supply Deck (a Draw, a Pass, a free choice from it)."""
        self.supply_drawn |= DREW if self.supply_ran_dry else DREW | DREW_FRESH
        if not self.supply:
            self.supply_ran_dry = True

    def _step_choose(self, p: int, reason: str) -> None:
        if not self._any_material_left():
            self.supply_kinds_gone = (
                ALL_KINDS  # public: no material in the Supply Deck (nor the discard)
            )
            self._log(("nothing", p, reason))
            return
        self.choose_excluded, self.choose_reason = 0, reason
        self.decision, self.decider = A.D_CHOOSE, p

    def _step_blade(self, p: int) -> None:
        if self.distinct_component_types(p):
            self.decision, self.decider = A.D_BLADE, p
        else:
            self._log(("no_return", p))

    def _step_refill(self, skip: bool) -> None:
        """After a claim: refill the row (U12 end check), or skip once (U6); 2p discard (U16).

        `skip`: a Supply Shortage was pending when the claim was made."""
        row = self.build_row
        if skip:
            self.shortage_pending = False
            self._log(("skip_refill",))
        elif not self.build_deck:
            self._trigger_end("build_deck_empty", self.decider)
        else:
            added = []
            for s in range(self.columns.row_size):
                if row[s] < 0 and self.build_deck:
                    row[s] = self._take_build()
                    added.append(row[s])
            self._log(("refill", tuple(added)))
        if self.num_players == 2 and self.build_deck:
            c = self._take_build()
            self.build_discard.append(c)
            self._log(("discard_top", c))

    def _step_end_turn(self, p: int) -> None:
        limit = self.columns.hand_limit
        if limit and len(self.hand[p]) > limit:
            # lever hand_limit: discard down first, one card a decision, then end again
            self.steps.append((S_END_TURN, p))
            self.decision, self.decider = A.D_DISCARD, p
            return
        self.turns[p] = self.turns[p] + 1
        self.total_turns += 1
        n = self.num_players
        if p == (self.first_player + n - 1) % n:  # the round is complete
            if self.end_pending:
                self._finish()
                return
            if self.columns.conveyor and self._conveyor(p):  # lever row_conveyor
                self._finish()  # the Build Deck could not refill: the round is finished
                return
            if self.columns.stall_end:
                # U13: dry at the round's start, and no card drawn from the Supply Deck since
                # (a trade-in can refill the discard that a Draw then reshuffles)
                if self.supply_empty_round and not self.row_moved and not self.supply_drawn:
                    self.end_reason = "stall"  # U13
                    self._log(("stall",))
                    self._finish()
                    return
                if self.columns.recycle:  # U13 under the recycling levers: idle rounds
                    moved = self.row_moved or bool(self.supply_drawn & DREW_FRESH)
                    self.idle_rounds = 0 if moved else self.idle_rounds + 1
                    if self.idle_rounds >= IDLE_STALL_ROUNDS:
                        self.end_reason = "stall"
                        self._log(("stall",))
                        self._finish()
                        return
            elif self.round >= STALL_CAP_ROUNDS:
                self.end_reason = "stalled"  # U13 option off: the hard cap
                self._log(("cap", self.round))
                self._finish()
                return
            self.round += 1
            self._log(("round", self.round))
            self.row_moved = False
            self.supply_empty_round = self.supply_dry()
            self.supply_drawn = 0
        self._start_turn((p + 1) % n)

    def _conveyor(self, p: int) -> bool:
        """Lever row_conveyor: at the end of each round the first `conveyor` unreserved Row
        cards (slot order) go face-up to the Build discard and their slots refill from the
        Build Deck, so the Row moves without a claim. A slot the Build Deck cannot refill
        ends the game (U12's "can't be refilled", the round being finished). True then."""
        row = self.build_row
        left = self.columns.conveyor
        for s in range(self.columns.row_size):
            if not left:
                break
            c = row[s]
            if c < 0 or self.reserved_by[s] >= 0:
                continue
            left -= 1
            row[s] = -1
            self.build_discard.append(c)
            self.row_moved = True
            self._log(("conveyor", c))
            if not self.build_deck:
                self._trigger_end("build_deck_empty", p)
                return True
            row[s] = self._take_build()
            self._log(("refill", (row[s],)))
        return False

    def _start_turn(self, p: int) -> None:
        self.turn_seat = p
        reserved_by = self.reserved_by
        # U4: the Patch is discarded at the start of your next turn. A loop of int compares,
        # not `p in reserved_by` (compiled: a generic containment test, boxed compares)
        for s in range(ROW):
            if reserved_by[s] == p:
                self.build_discard.append(self.reserve_patch[s])
                self._log(("unreserve", p, self.build_row[s]))
                reserved_by[s] = self.reserve_patch[s] = -1
        self.decision, self.decider = A.D_TURN, p

    def _rank_final(self, pts: list[int]) -> tuple[int, str | None]:
        """`scoring.rank(self, pts)` (U17's chain through `break_ties`) for this state's
        int keys, compared field by field: every search playout ends an UPTIME game, and
        the generic `break_ties` over float sequences was a twentieth of a compiled
        iteration. Pinned against `scoring.rank` by tests/uptime/test_uptime_speed_paths.py.
        The winner is the lexicographically greatest key (turn order makes it unique); the
        level is the deepest key where another seat first falls short of it."""
        n = self.num_players
        first = self.first_player
        computers, contracts, draw_pass = self.computers, self.contracts, self.draw_pass
        best = 0
        for q in range(1, n):
            # is q's key (pts, computers, contracts, -draw_pass, -turn order) above best's?
            a, b = pts[q], pts[best]
            if a == b:
                a, b = computers[q], computers[best]
                if a == b:
                    a, b = contracts[q], contracts[best]
                    if a == b:
                        a, b = draw_pass[best], draw_pass[q]
                        if a == b:
                            a, b = (best - first) % n, (q - first) % n
            if a > b:
                best = q
        deepest = 0
        for q in range(n):
            if q == best:
                continue
            if pts[q] != pts[best]:
                depth = 0
            elif computers[q] != computers[best]:
                depth = 1
            elif contracts[q] != contracts[best]:
                depth = 2
            elif draw_pass[q] != draw_pass[best]:
                depth = 3
            else:
                depth = 4
            if depth > deepest:
                deepest = depth
        return best, None if deepest == 0 else scoring.TIEBREAK_LEVELS[deepest - 1]

    def _finish(self) -> None:
        self.decision, self.decider = A.D_OVER, TERMINAL_PLAYER
        self.steps.clear()
        self._log(("end", self.end_reason))
        final = tuple(scoring.breakdown(self, q) for q in range(self.num_players))
        self.final_points = [b["total"] for b in final]
        winner, level = self._rank_final(self.final_points)
        self.final_winner = winner
        facts = tuple(
            (self.computers[q], self.contracts[q], self.draw_pass[q])
            for q in range(self.num_players)
        )
        self._log(("final", final, winner, level, facts, self.first_player))
