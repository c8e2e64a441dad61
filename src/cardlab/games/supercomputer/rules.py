"""The SUPER COMPUTER game: parameters (players, options, cards) and the action layout.

Action layout (P parts, B builds in the card files; packaged: P = 35, B = 14, 275 actions):
  0 .. P-1              pick part k (its index in cards.toml; id sc<k>)
  P .. P+224            place the revealed part on grid cell c = (y + 7) * 15 + (x + 7)
                        (tables.py); only cells with |x|, |y| <= 6 are ever legal, since
                        a round has seven parts. Label: "RAM at (1,0)".
  P+225                 scrap the revealed part by choice (option voluntary_scrap)
  P+226 .. P+225+B      keep build b (the other offered build goes under the deck)
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from cardlab.core import Game, OptionSpec
from cardlab.core.plugin import DecisionKind, GameInfo
from cardlab.games.supercomputer.cards import HAND_SIZE, CardSet, load_cards
from cardlab.games.supercomputer.state import ROUNDS, SuperComputerState
from cardlab.games.supercomputer.tables import STRIDE, Tables, xy_cell
from cardlab.games.supercomputer.tunables import TUNABLES

GRID_CELLS = STRIDE * STRIDE
"""Placement actions reserve one slot per cell of the padded 15 x 15 grid."""

OPTIONS = (
    OptionSpec(
        "voluntary_scrap",
        (False, True),
        "false: scrap only a part with no legal place; true: a player may also choose to scrap",
        ruling="S5",
    ),
    OptionSpec(
        "builds",
        ("choose_one", "keep_both", "public_race"),
        "choose_one: keep 1 of 2 builds; keep_both: both must be met; "
        "public_race: players-1 face-up builds won by the sole seat meeting one",
        ruling="S9",
    ),
    OptionSpec(
        "passing",
        ("left", "alternate", "right"),
        "pass hands left every round; left-right-left; or right every round",
        ruling="S9",
    ),
)


class SuperComputerGame(Game):
    """SUPER COMPUTER for 2-5 players: draft parts, build a computer on a grid, 3 rounds."""

    name: ClassVar[str] = "supercomputer"
    title: ClassVar[str] = "SUPER COMPUTER"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

    def __init__(self, players: int, cards: str | Path | None = None, **options: object) -> None:
        super().__init__(players, cards=cards, **options)
        self.tables = Tables(self.cards)
        p, b = self.tables.num_parts, self.tables.num_builds
        self.place0 = p
        # The placement block is the padded grid (225 slots), of which 169 can be legal.
        self.scrap_action = p + GRID_CELLS
        self.build0 = self.scrap_action + 1
        self._num_actions = self.build0 + b
        self.voluntary_scrap = bool(self.options["voluntary_scrap"])
        self.build_mode = ("choose_one", "keep_both", "public_race").index(
            str(self.options["builds"])
        )
        passing = self.options["passing"]
        # Seat q passes to (q + step) % n: +1 is left (clockwise), -1 is right (S9 option 3).
        self.pass_step = {"left": (1, 1, 1), "alternate": (1, -1, 1), "right": (-1, -1, -1)}[
            str(passing)
        ]

    def load_cards(self, path: Path | None) -> CardSet:
        return load_cards(path)

    def new_initial_state(self, seed: int = 0) -> SuperComputerState:
        return SuperComputerState(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    def place_action(self, x: int, y: int) -> int:
        """The action placing the revealed part at (x, y) (x east, y south of the first part)."""
        return self.place0 + xy_cell(x, y)

    def pick_action(self, part_id: str) -> int:
        return self.tables.part_ids.index(part_id)

    def keep_action(self, build_id: str) -> int:
        return self.build0 + self.tables.build_ids.index(build_id)

    def max_game_length(self) -> int:
        """Length (docs/rules/supercomputer.md): per round each seat makes at most one build
        choice (only under builds=choose_one), 7 picks and 7 placements (a part scrapped for
        want of a place is no decision); 3 rounds: 45 n, or 42 n without the build choice."""
        per_round = 2 * HAND_SIZE + (1 if self.build_mode == 0 else 0)
        return ROUNDS * per_round * self.num_players

    def utility_bounds(self) -> tuple[float, float]:
        """Per round a seat holds 7 distinct parts, each scoring its green (attached, >= 0) or
        its red (scrapped, <= 0); plus builds: choose_one one bonus or penalty, keep_both the
        sum of two bonuses or up to two penalties, public_race 0 to n-1 bonuses (no
        penalties). Summed over the 3 rounds with each round's worst and best cards."""
        t = self.tables
        kept = {0: 1, 1: 2}.get(self.build_mode, 0)
        won = min(self.num_players - 1, t.num_builds) if self.build_mode == 2 else kept
        low = high = 0
        for r in range(ROUNDS):
            low += sum(
                sorted(min(g[r], d[r]) for g, d in zip(t.green, t.red, strict=True))[:HAND_SIZE]
            )
            high += sum(
                sorted(max(g[r], d[r]) for g, d in zip(t.green, t.red, strict=True))[-HAND_SIZE:]
            )
            low += sum(sorted(min(0, p[r]) for p in t.penalty)[:kept])
            high += sum(sorted(max(0, b[r]) for b in t.bonus)[len(t.bonus) - won :])
        return float(low), float(high)


GAME_INFO = GameInfo(
    name="supercomputer",
    title="SUPER COMPUTER",
    pitch=(
        "Draft parts and wire them into a super computer over three rounds. Everyone "
        "picks a part in secret, passes the rest, then reveals and attaches it: "
        "connectors must match colour for colour (black is universal) and cards never "
        "rotate. Parts that cannot connect are scrap and cost points; meet your build "
        "card's specification for a bonus."
    ),
    game="cardlab.games.supercomputer.rules:SuperComputerGame",
    package="cardlab.games.supercomputer",
    min_players=2,
    max_players=5,
    default_players=4,
    decision_kinds=(
        DecisionKind(
            "choose_build", (10.0, 30.0), simultaneous=True, about="keep one of two builds"
        ),
        DecisionKind(
            "pick", (5.0, 20.0), (0.5, 1.5), simultaneous=True, about="a secret draft pick"
        ),
        DecisionKind(
            "place", (3.0, 10.0), (0.3, 1.0), simultaneous=True, about="where the part goes"
        ),
    ),
    box_minutes={},
    tunables=TUNABLES,
    round_overhead_seconds=(60.0, 150.0),
)
"""How cardlab finds SUPER COMPUTER (entry point ``cardlab.games``); see `cardlab.core.plugin`."""
