"""The UPTIME game: player counts, rule options (rulings U3, U4, U10, U13, U14, U16) and card data.

The forward model lives in `state.py`; scoring in `scoring.py`; what players
read in `view.py`; determinization in `resample.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, cast

from cardlab.core.errors import OptionError
from cardlab.core.game import Game
from cardlab.core.options import OptionSpec, lever
from cardlab.core.plugin import DecisionKind, GameInfo
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import (
    COMPONENT,
    COMPUTER,
    CONTRACT,
    MATERIAL,
    NETWORK,
    PATCH,
    TWIST,
    CardTable,
    load_cards,
)
from cardlab.games.uptime.scoring import NETWORK_CAP
from cardlab.games.uptime.state import (
    BLADE,
    IDLE_STALL_ROUNDS,
    STALL_CAP_ROUNDS,
    SURGE,
    WORKSTATION,
    UptimeState,
)
from cardlab.games.uptime.tunables import TUNABLES

IDLE_END = (
    "U13's idle-round end (with stall_end, the default): the game also ends after "
    f"{IDLE_STALL_ROUNDS} full rounds in a row in which no card left the Build Row and none was "
    "drawn from the Supply Deck before it first ran out (end_reason 'stall')"
)
"""The end rule the recycling levers (hand_limit, trade_in, pass_cards=0) turn on, in the words
each lever's description gives it (`cardlab games`, the lobby's options, the variant sheet)."""


class UptimeGame(Game):
    """UPTIME for 2-4 players (2 players: the rulebook's variant, U16)."""

    name: ClassVar[str] = "uptime"
    title: ClassVar[str] = "UPTIME"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "patch_cost",
            (1, 0),
            "raw materials it costs to claim a Patch from the Build Row",
            "U4",
        ),
        OptionSpec(
            "raise_requires_computer",
            (False, True),
            "whether raisers, like the opener, must own a Computer",
            "U10",
        ),
        OptionSpec(
            "stall_end",
            (True, False),
            "end after a round with an empty Supply Deck and no claim (false: hard round cap, 'stalled')",
            "U13",
        ),
        OptionSpec(
            "router_rule",
            ("per_computer", "one_router_per_computer"),
            "Router points: every Router counts every Computer, or each Computer attaches to one Router",
            "U14",
        ),
        OptionSpec(
            "supply_reshuffle",
            (True, False),
            "paid and bid materials go back to the supply: a draw that finds the Supply Deck "
            "empty first shuffles the supply discard into a new one (false: never reshuffled)",
            "U3",
        ),
        OptionSpec(
            "row_sweep",
            (False, True),
            "designer option, not in the rulebook: when nothing in the Build Row is claimable "
            "by you, a turn may send its unreserved cards to the Build Deck bottom and refill",
            "designer",
        ),
        OptionSpec(
            "starting_hand",
            (4, 2, 3, 5, 6),
            "cards dealt to each player at setup with 3-4 players; the 2-player game deals one "
            "more (the rulebook: 4, and 5 with two players)",
            "U16",
        ),
        # Rule levers: each default is the rule as written; docs/rules/uptime.md
        # "Rule levers" gives the passage each changes and what a designer tries it for.
        lever(
            "hand_limit",
            (0, 6, 8, 10),
            "cards a seat may keep in hand at the end of its turn; above it the seat discards "
            "down, materials to the Supply discard, Patches to the Build discard (0: no limit). "
            "Turns on " + IDLE_END,
            passage="U11 / A turn: the rulebook sets no hand limit",
            purpose="stop hoarding: materials held back return to the Supply for others",
            says="At the end of its turn a seat holding more than {value} cards discards down to "
            "{value}: materials to the Supply discard, Patches to the Build discard. This turns "
            "on " + IDLE_END + ".",
            low=0,
            high=30,
        ),
        lever(
            "trade_in",
            (0, 3, 2, 4),
            "a turn action: give this many raw materials of any kinds to the Supply discard "
            "and take 1 of your choice from the Supply discard or the Supply Deck (0: off). "
            "Turns on " + IDLE_END,
            passage="A turn: Draw, Requisition, Bid or Pass (no trade of materials)",
            purpose="let a seat complete a Component's two specific materials without luck",
            says="A turn action (Trade): give {value} raw materials of any kinds to the Supply "
            "discard and take 1 of your choice from the Supply discard or the Supply Deck. This "
            "turns on " + IDLE_END + ".",
            low=0,
            high=10,
        ),
        lever(
            "leftover_rate",
            (3, 0, 2, 4, 5),
            "leftover raw materials score 1 point per this many at the end (0: nothing)",
            passage="Scoring: 'Every 3 leftover raw materials: 1 point' (U15)",
            purpose="make hoarding materials worth less than converting them",
            low=0,
            high=24,
        ),
        lever(
            "computer_points",
            (0, 6, 7, 8),
            "points every Computer scores, overriding the printed value (0: as printed)",
            passage="Scoring: 'Computer: 5 points each'",
            purpose="reward building over bidding and hoarding",
            low=0,
            high=20,
        ),
        lever(
            "draw_cards",
            (2, 3),
            "Supply cards a Draw takes",
            passage="A turn: 'Draw - take the top 2 cards of the Supply Deck'",
            purpose="speed materials into hands (or slow them)",
            low=1,
            high=4,
        ),
        lever(
            "pass_cards",
            (1, 0, 2),
            "Supply cards a Pass takes (0 turns on " + IDLE_END + ")",
            passage="A turn: 'Pass - draw the top 1 card'",
            purpose="make Pass a real pass (0) or a second Draw",
            low=0,
            high=3,
        ),
        lever(
            "row_size",
            (4, 3, 2),
            "slots of the Build Row that are dealt and refilled (the action encoding has 4)",
            passage="Setup: 'deal 4 face-up to form the Build Row'",
            purpose="a tighter market: fewer choices, faster turnover",
            low=2,
            high=4,
        ),
        lever(
            "later_seat_bonus",
            (0, 1),
            "extra starting cards per place after the first player in turn order (the 2nd "
            "seat gets this many more, the 3rd twice as many...; 0: all dealt alike)",
            passage="Setup: 'Deal 4 starting cards to each player'",
            purpose="offset the first player's head start on the Build Row",
            low=0,
            high=2,
        ),
        lever(
            "row_conveyor",
            (0, 1, 2),
            "at the end of each round this many Build Row cards (first unreserved slots) go "
            "to the Build discard and refill; a refill the Build Deck cannot make ends the "
            "game, as after a claim (0: the Row moves only on a claim)",
            passage="Requisition / How it ends: the Row refills only after a claim (U12)",
            purpose="a Row nobody can claim from keeps moving, and the Build Deck is a clock",
            low=0,
            high=4,
        ),
    )

    table: CardTable
    _num_actions: int

    def load_cards(self, path: Path | None) -> CardTable:
        self.table = load_cards(path)
        self._check_deal(path)
        base = A.num_actions(self._count(MATERIAL))
        self._num_actions = base + 1 if self.options["trade_in"] else base  # TRADE (actions.py)
        return self.table

    @property
    def starting_hand(self) -> int:
        """Cards dealt to each seat at setup: option `starting_hand` (4 by the rulebook's
        Setup), one more with two players (U16: "Deal 5 starting cards instead of 4")."""
        hand = cast(int, self.options["starting_hand"])
        return hand + 1 if self.num_players == 2 else hand

    def _check_deal(self, path: Path | None) -> None:
        """Refuse a deck whose Supply cannot deal every seat its full starting hand.

        The deal takes `starting_hand` raw materials per seat (a Twist dealt is replaced,
        U6) and a Power Surge dealt on the way may take 2 more from the Supply Deck (U5),
        so the deck needs players x hand + 2 raw materials."""
        n, bonus = self.num_players, cast(int, self.options["later_seat_bonus"])
        need = n * self.starting_hand + bonus * n * (n - 1) // 2 + 2
        have = self._count(MATERIAL)
        if have < need:
            source = f"the card file {path}" if path else "the packaged card file"
            if self.variant is not None and self.variant.changes:
                source += f" with the changes of variant {self.variant.source or self.variant.name}"
            raise OptionError(
                f"uptime: starting_hand={self.options['starting_hand']} with "
                f"{self.num_players} players deals {self.num_players} x {self.starting_hand} "
                f"cards (plus {bonus * n * (n - 1) // 2} for later_seat_bonus={bonus}), and a Power Surge dealt on the way takes 2 more: the Supply Deck "
                f"needs at least {need} raw materials, but {source} has {have}. Deal fewer "
                f"cards or add raw materials."
            )

    def new_initial_state(self, seed: int = 0) -> UptimeState:
        return UptimeState(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        """61 for the packaged deck; one more per raw material beyond 24 (bids, actions.py),
        and one more (TRADE) with the lever trade_in on."""
        return self._num_actions

    def _count(self, kind: int, sub: int | None = None) -> int:
        t = self.table
        return sum(
            1 for i in range(t.count) if t.kind[i] == kind and (sub is None or t.sub[i] == sub)
        )

    def max_game_length(self) -> int:
        """The bound of docs/rules/uptime.md "How long a game can be", for these options.

        Turns: with stall_end=false the hard cap, 100 rounds of n turns. With stall_end=true
        (the pool is the Supply Deck, plus the supply discard under supply_reshuffle):
        Draw/Pass turns begun with a non-empty pool take a card from it (at most S, plus one
        per material paid back into it under supply_reshuffle); claims <= build cards +
        Blades; sweeps <= build cards not in the first Row; reserves <= Patches; once the
        pool is empty at a round's start, a round without a claim or sweep ends the game, so
        such rounds are at most events + 1; rounds in which the pool runs dry part-way are at
        most 1 (events + 1 under supply_reshuffle, which refills it only by payments).
        Under the recycling levers a round that moves the Row or takes a card from the
        Supply Deck before it first ran out (at most S such rounds) is busy, any other is
        idle, and IDLE_STALL_ROUNDS idle rounds in a row end the game.
        Sub-decisions over the game: payments (materials paid + 3 per Computer + Patches),
        free-material choices (4 kinds per take), Blade returns, and per auction an opening
        bid and n-1 raises.
        """
        t, n, opt = self.table, self.num_players, self.options
        supply = t.num_supply
        materials = self._count(MATERIAL)
        kinds = len(t.material_names)
        builds = len(t.build_cards)
        computers, patches = self._count(COMPUTER), self._count(PATCH)
        contracts = self._count(CONTRACT)
        blades = self._count(COMPUTER, BLADE)
        takes = self._count(COMPUTER, WORKSTATION) + 2 * self._count(TWIST, SURGE)
        claims = builds + blades  # a Blade's returned Component can be claimed again
        sweeps = builds - int(opt["row_size"]) if opt["row_sweep"] else 0
        events = claims + sweeps
        if opt["supply_reshuffle"]:
            # materials recycle: bound the paid ones by what the claims can cost
            paid = (
                2 * (self._count(COMPONENT) + blades)
                + sum(t.network_cost.values())
                + patches * int(opt["patch_cost"])
                + contracts * materials  # a bid is backed by materials in hand
            )
            runs_dry = events + 1
        else:
            # each material is paid at most once, plus the ones a free take brings back
            paid = materials + takes
            runs_dry = 1
        recycle = bool(opt["hand_limit"] or opt["trade_in"] or not opt["pass_cards"])
        if opt["row_conveyor"]:
            # every round but the last takes a Build card (a Blade's return adds one)
            turns = (builds + blades + 1) * n
        elif opt["stall_end"] and recycle:
            # levers that cycle materials: every round moves the Row (an event), takes a card
            # from the Supply Deck before it first runs out (at most S such rounds) or is idle,
            # and IDLE_STALL_ROUNDS idle rounds in a row end the game (U13)
            busy = events + supply
            turns = (busy + (busy + 1) * IDLE_STALL_ROUNDS) * n
        elif opt["stall_end"]:
            # a Draw takes up to draw_cards, a Pass pass_cards (>= 1 here): a card each at least
            draws = supply + (paid if opt["supply_reshuffle"] else 0)
            turns = draws + events + patches + runs_dry * n + (events + 1) * n
        else:
            turns = STALL_CAP_ROUNDS * n
        payments = paid + 3 * computers + patches
        # per turn: a trade-in's gives and free choice; discards down to the hand limit
        # (never more than a whole hand: every material and Patch)
        per_turn = (int(opt["trade_in"]) + kinds if opt["trade_in"] else 0) + (
            materials + patches if opt["hand_limit"] else 0
        )
        return turns * (1 + per_turn) + payments + takes * kinds + blades + contracts * n

    def utility_bounds(self) -> tuple[float, float]:
        """Points never go below 0 (all card points and values are >= 0). Max: every
        Computer (at its printed value, or lever computer_points), the Network cap (8, or less
        if the Networks cannot reach it), every Contract, and every raw material as leftovers
        (1 per 3, U15; lever leftover_rate, 0: none)."""
        t = self.table
        computers = [i for i in range(t.count) if t.kind[i] == COMPUTER]
        network = 0
        for i in range(t.count):
            if t.kind[i] == NETWORK:
                per = min(len(computers), t.router_max[i]) if t.sub[i] else 1
                network += t.value[i] * per
        per_computer = cast(int, self.options["computer_points"])
        rate = cast(int, self.options["leftover_rate"])
        top = (
            sum(per_computer or t.value[i] for i in computers)
            + min(NETWORK_CAP, network)
            + sum(t.value[i] for i in range(t.count) if t.kind[i] == CONTRACT)
            + (self._count(MATERIAL) // rate if rate else 0)
        )
        return 0.0, float(top)


GAME_INFO = GameInfo(
    pitch=(
        "Turn raw silicon into servers, wire your servers into a network and win the "
        "contracts that pay for it before the supply chain runs dry. Each turn you draw "
        "materials, requisition a card from the Build Row, open a once-around auction on "
        "a Contract, or pass. Computers score 12 under the recommended rules the table "
        "plays by default (5 as printed), Routers and Cables build a network, and the "
        "first Cloud Milestone (2 Computers and a Contract) or the empty Build Deck ends "
        "the game."
    ),
    game="cardlab.games.uptime.rules:UptimeGame",
    decision_kinds=(
        DecisionKind(
            "turn", (10.0, 30.0), (0.5, 2.0), about="draw, requisition, bid, reserve or pass"
        ),
        DecisionKind("pay", (2.0, 6.0), (0.2, 1.0), about="which card pays a cost"),
        DecisionKind("choose_material", (3.0, 8.0), about="a free raw material of your choice"),
        DecisionKind("blade_return", (3.0, 8.0), about="the Component the Blade returns"),
        DecisionKind("opening_bid", (5.0, 15.0), (0.2, 0.5), about="open an auction"),
        DecisionKind("raise_or_pass", (4.0, 12.0), (0.2, 0.5), about="answer an auction"),
        DecisionKind("discard", (2.0, 6.0), (0.2, 1.0), about="a card to discard (hand limit)"),
        DecisionKind("trade_in", (2.0, 6.0), (0.2, 1.0), about="a material to trade in"),
    ),
    box_minutes={2: (25.0, 25.0), 3: (25.0, 30.0), 4: (25.0, 30.0)},
    tunables=TUNABLES,
    round_overhead_seconds=(20.0, 60.0),
)
"""How cardlab finds UPTIME (entry point ``cardlab.games``); see `cardlab.core.plugin`."""
