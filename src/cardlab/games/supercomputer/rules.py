"""The SUPER COMPUTER game: parameters (players, rule options, cards), GAME_INFO.

The action encoding is in actions.py, the forward model in state.py, what each
seat may see in view.py."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from cardlab.core import Game, OptionSpec
from cardlab.core.options import lever
from cardlab.core.plugin import DecisionKind, GameInfo
from cardlab.games.supercomputer.actions import ActionLayout, xy_cell
from cardlab.games.supercomputer.cards import HAND_SIZE, CardSet, CardTables, load_cards
from cardlab.games.supercomputer.state import ROUNDS, SuperComputerState
from cardlab.games.supercomputer.tunables import TUNABLES

if TYPE_CHECKING:
    from cardlab.core.variants import Variant

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
    lever(
        "case_width",
        (0, 3, 4, 5),
        "the computer must fit a case this many cells wide (0: no case, as written)",
        passage="Placement (S4): the first part goes anywhere and the grid has no edge; "
        "'Cards must be attached on the turn they are played and all adjacent connectors "
        "MUST be satisfied'",
        purpose="make placement a plan, not a reflex: with room running out, where a part "
        "goes decides what still fits (the placement-skill target)",
        low=0,
        high=7,
    ),
    lever(
        "case_height",
        (0, 3, 4, 5),
        "the computer must fit a case this many cells tall (0: no case, as written)",
        passage="Placement (S4), as for case_width",
        purpose="with case_width, a bounded computer (a W x H case); the sample computer "
        "needs 3 x 4",
        low=0,
        high=7,
    ),
    lever(
        "scrap_of_green",
        (0, 50, 100),
        "a scrapped part scores minus this percentage of its green value this round, "
        "rounded up (0: the printed red dot, as written)",
        passage="'Any parts not used during the build phase ... will count as negative points "
        "indicated on the card by the red dot, depending on the round' and 'Unattached cards "
        "will score Red (negative) points' (S6)",
        purpose="tie the risk to the prize: a valuable part that fails to connect costs "
        "what it would have scored (at 100), so taking it without room is a gamble",
        low=0,
        high=200,
    ),
)


def scrap_values(
    green: tuple[tuple[int, ...], ...], red: tuple[tuple[int, ...], ...], percent: int
) -> tuple[tuple[int, ...], ...]:
    """The lever `scrap_of_green`: each part's scrap points per round, minus `percent` %
    of its green value that round rounded up (a part worth 1 costs at least 1 at any
    percentage above 0); 0 keeps the printed red values."""
    if not percent:
        return red
    return tuple(tuple(-((g * percent + 99) // 100) for g in row) for row in green)


PASSING = {"left": (1, 1, 1), "alternate": (1, -1, 1), "right": (-1, -1, -1)}
"""The passing option as a direction per round: +1 to the left, -1 to the right."""


class SuperComputerGame(Game):
    """SUPER COMPUTER for 2-5 players: draft parts, build a computer on a grid, 3 rounds."""

    name: ClassVar[str] = "supercomputer"
    title: ClassVar[str] = "SUPER COMPUTER"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

    def __init__(
        self,
        players: int,
        cards: str | Path | None = None,
        variant: Variant | None = None,
        **options: object,
    ) -> None:
        super().__init__(players, cards=cards, variant=variant, **options)
        self.tables = CardTables(self.cards)
        self.actions = ActionLayout(self.tables.num_parts, self.tables.num_builds)
        self.voluntary_scrap = bool(self.options["voluntary_scrap"])
        self.build_mode = str(self.options["builds"])
        """"choose_one", "keep_both" or "public_race" (S2, S9 options 1 and 2)."""
        # Seat q passes to (q + step) % n: +1 is left (clockwise), -1 is right (S9 option 3).
        self.pass_direction = PASSING[str(self.options["passing"])]
        """Per round, +1 (pass left) or -1 (pass right)."""
        self.case_width = int(self.options["case_width"])
        self.case_height = int(self.options["case_height"])
        """The case (levers): a placement must keep the computer within case_width x
        case_height cells; 0 leaves that side unbounded (state.case_box)."""
        self.scrap_of_green = int(self.options["scrap_of_green"])
        self.tables.red = scrap_values(self.tables.green, self.tables.red, self.scrap_of_green)

    def load_cards(self, path: Path | None) -> CardSet:
        return load_cards(path)

    def new_initial_state(self, seed: int = 0) -> SuperComputerState:
        return SuperComputerState(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        return self.actions.count

    def place_action(self, x: int, y: int) -> int:
        """The action placing the revealed part at (x, y) (x east, y south of the first part)."""
        return self.actions.place(xy_cell(x, y))

    def pick_action(self, part_id: str) -> int:
        return self.actions.pick(self.tables.part_ids.index(part_id))

    def keep_action(self, build_id: str) -> int:
        return self.actions.keep(self.tables.build_ids.index(build_id))

    def max_game_length(self) -> int:
        """Length (docs/rules/supercomputer.md): per round each seat makes at most one build
        choice (only under builds=choose_one), 7 picks and 7 placements (a part scrapped for
        want of a place is no decision); 3 rounds: 45 n, or 42 n without the build choice."""
        per_round = 2 * HAND_SIZE + (1 if self.build_mode == "choose_one" else 0)
        return ROUNDS * per_round * self.num_players

    def utility_bounds(self) -> tuple[float, float]:
        """Per round a seat holds 7 distinct parts, each scoring its green (attached, >= 0) or
        its red (scrapped, <= 0); plus builds: choose_one one bonus or penalty, keep_both the
        sum of two bonuses or up to two penalties, public_race 0 to n-1 bonuses (no
        penalties). Summed over the 3 rounds with each round's worst and best cards."""
        t = self.tables
        kept = {"choose_one": 1, "keep_both": 2}.get(self.build_mode, 0)
        won = min(self.num_players - 1, t.num_builds) if self.build_mode == "public_race" else kept
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
    pitch=(
        "Draft parts and wire them into a super computer over three rounds. Everyone "
        "picks a part in secret, passes the rest, then reveals and attaches it: "
        "connectors must match colour for colour (black is universal) and cards never "
        "rotate. Parts that cannot connect are scrap and cost points; meet your build "
        "card's specification for a bonus."
    ),
    game="cardlab.games.supercomputer.rules:SuperComputerGame",
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
