"""The SUPER COMPUTER forward model: plain lists and ints in __slots__, so that a
clone is a handful of list copies (ISMCTS clones millions of times); the history and
the log are persistent trails (cardlab.core.trail), which clones share.

One round (S2, S3): every part is reshuffled and 7 are dealt to each seat; builds
are reshuffled and dealt (choose one of two, keep both, or a public race). Then
seven turns; each turn every seat picks a part in secret (sequential decisions,
seat 0 first; a pending pick is private until all have picked), hands pass, all
picks are revealed and each seat places its part (S4) in seat order, or scraps it
when it fits nowhere (S5). After the seventh turn the round is scored (S6).

The state owns its randomness as a seed chain: each round's shuffles come from
`random.Random(self.next_seed)`, which also draws the next link. A clone copies
one int instead of a Mersenne Twister state; the game stays a pure function of
`new_initial_state(seed)` and the actions.

Parts and builds are ints (their index in the card files, `CardTables`); a seat's
computer is a dict grid cell -> part (cells: actions.py); -1 means "none".
Bots read the state through the small read API at the end of the class.
Observation and zones live in view.py, resampling in resample.py, scoring in
scoring.py.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Final

from cardlab.core import GameState
from cardlab.core.columns import CardColumns
from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.core.moves import Move
from cardlab.core.rng import shuffle
from cardlab.core.trail import EMPTY_TRAIL, Trail
from cardlab.games.supercomputer import resample, scoring, view
from cardlab.games.supercomputer.actions import (
    GRID_SIZE,
    IN_WINDOW,
    NEIGHBOURS,
    ORIGIN,
    STEP,
    xy_cell,
)
from cardlab.games.supercomputer.cards import HAND_SIZE, MAX_PLAYERS

if TYPE_CHECKING:
    from cardlab.games.supercomputer.rules import SuperComputerGame

ROUNDS: Final = 3
CHOOSE_BUILD: Final = 0
PICK: Final = 1
PLACE: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("choose_build", "pick", "place", "over")
"""`decision_kind()` of each phase."""
NONE: Final = -1
"""No part (no pending pick, nothing to place)."""


class SuperComputerColumns(CardColumns):
    """What the forward model and the bots' evaluation read on every move: the card
    table columns (the same tuples as `CardTables`, not copies) and the game's options and
    action layout, each with its type. `CardTables` and the Game are plain Python classes
    (pydantic cards, the core's Game), so compiled code (make compiled) reads their
    attributes by a name lookup each; a compiled class's fields are read directly.
    One per game start, shared by every clone; never changed (the pattern:
    cardlab.core.columns)."""

    __slots__ = (
        "green", "red", "bonus", "penalty", "requirement_masks", "neighbour_masks", "fresh_masks",
        "connector_steps",
        "edges", "four_way", "first_place", "scrap", "first_build",
        "voluntary_scrap", "public_race", "pass_direction", "case_w", "case_h", "bounded",
    )  # fmt: skip

    def __init__(self, game: SuperComputerGame | None = None) -> None:
        if game is None:  # bare, for unpickling (mypyc's __new__ calls __init__ without
            return  # arguments; its __setstate__ then fills the slots)
        t = game.tables
        self.green: tuple[tuple[int, ...], ...] = t.green
        """green[part][round]: points for an attached part (S6)."""
        self.red: tuple[tuple[int, ...], ...] = t.red
        """red[part][round]: points (0 or less) for a scrapped part (S6)."""
        self.bonus: tuple[tuple[int, ...], ...] = t.bonus
        self.penalty: tuple[tuple[int, ...], ...] = t.penalty
        self.requirement_masks: tuple[tuple[tuple[int, int], ...], ...] = t.requirement_masks
        self.neighbour_masks: tuple[tuple[tuple[int, int], ...], ...] = t.neighbour_masks
        self.fresh_masks: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple((connect & ~clash, clash, connect) for clash, connect in by_direction)
            for by_direction in t.neighbour_masks
        )
        """fresh_masks[b][d]: the frontier entry of an empty cell whose only neighbour is
        part b, lying in direction d (what `_attach` stores for a cell new to the frontier):
        one shared tuple, so attaching boxes no ints for it."""
        self.edges: tuple[tuple[int, ...], ...] = t.edges
        self.connector_steps: tuple[tuple[int, ...], ...] = tuple(
            tuple(STEP[d] for d in range(4) if edges[d]) for edges in t.edges
        )
        """connector_steps[part]: the grid step (actions.STEP) of each side with a
        connector, north, east, south, west (`open_connectors` looks only there)."""
        self.four_way: tuple[bool, ...] = t.four_way
        layout = game.actions
        self.first_place: int = layout.first_place
        self.scrap: int = layout.scrap
        self.first_build: int = layout.first_build
        self.voluntary_scrap: bool = game.voluntary_scrap
        self.public_race: bool = game.build_mode == "public_race"
        self.pass_direction: tuple[int, ...] = tuple(game.pass_direction)
        self.case_w: int = game.case_width
        """The case's width in cells (lever `case_width`), 0: unbounded as written."""
        self.case_h: int = game.case_height
        """The case's height in cells (lever `case_height`), 0: unbounded as written."""
        self.bounded: bool = bool(game.case_width or game.case_height)


class SuperComputerState(GameState):
    """One moment of a SUPER COMPUTER game. Fields are plain data; see `clone`."""

    clone_shares: ClassVar[frozenset[str]] = frozenset({"_legal", "round_records", "log_memo"})
    """Shared by clones: the cached legal list, the round records and the narrated log
    are replaced whole, never changed in place."""

    __slots__ = (
        "game", "tables", "columns", "num_players", "next_seed",
        "round_index", "turn", "phase", "to_move",
        "hands", "pending_picks", "to_place", "computers", "frontiers", "scrap_piles", "part_deck",
        "hand_knowers",
        "build_deck", "build_offers", "kept_builds", "returned_builds",
        "race_builds", "race_won", "race_discard", "revealed_builds",
        "points", "four_way_attached", "scrapped_count", "picks_made", "round_records",
        "log", "log_memo", "moves", "_legal",
    )  # fmt: skip

    game: SuperComputerGame
    columns: SuperComputerColumns
    round_index: int
    """0, 1, 2: the round being played (its column in every green/red/bonus/penalty)."""
    turn: int
    """0..6: the pick of the round being decided."""
    hands: list[list[int]]
    """Each seat's hand (sorted parts)."""
    pending_picks: list[int]
    """Each seat's secret pick this turn, or NONE (private until all have picked, S3)."""
    to_place: list[int]
    """Each seat's revealed part still to be placed this turn, or NONE."""
    computers: list[dict[int, int]]
    """Each seat's computer this round: grid cell -> part."""
    frontiers: list[dict[int, tuple[int, ...]]]
    """Each seat's empty cells beside its computer (within the window), each with three
    part bitmasks kept up to date as parts are placed: the parts that may go there (they
    connect to a neighbour and clash with none), the parts that clash with a neighbour,
    and the parts that connect to one. `legal_cells` only reads them (S4). (Typed as a
    tuple of any length: compiled, an entry stays one object, read by index.)"""
    scrap_piles: list[list[int]]
    part_deck: list[int]
    """Parts not dealt this round (hidden)."""
    hand_knowers: list[int]
    """Per seat, a bitmask of the seats that know its current hand exactly (view.py)."""
    build_deck: list[int]
    """The build deck; its top is the end of the list."""
    build_offers: list[list[int]]
    """Each seat's two dealt builds before it keeps one (choose_one)."""
    kept_builds: list[list[int]]
    returned_builds: list[list[int]]
    """The build each seat put under the deck this round (it knows which)."""
    race_builds: list[int]
    """Face-up builds still to be won (public_race)."""
    race_won: list[list[int]]
    race_discard: list[int]
    revealed_builds: list[list[int]]
    """Each seat's builds revealed at the last round's scoring."""

    def __init__(self, game: SuperComputerGame | None = None, seed: int = 0) -> None:
        if game is None:  # a bare instance for `clone` (see there)
            return
        self.game = game
        self.tables = game.tables
        self.columns = SuperComputerColumns(game)
        self.num_players = n = game.num_players
        self.next_seed = random.Random(seed).getrandbits(64)
        self.round_index = -1
        self.turn = 0
        self.phase = PICK
        self.to_move = 0
        self.points = [0] * n
        self.four_way_attached = [0] * n  # over the game (S8)
        self.scrapped_count = [0] * n  # over the game (S8)
        self.picks_made = [0] * n
        self.round_records: list[tuple[Any, ...]] = []  # per round and seat: what scored what
        self.log: Trail = EMPTY_TRAIL
        """The events so far, tuples (kind first; view.log_entries narrates them): a
        persistent trail (cardlab.core.trail), pushed onto and shared by clones."""
        self.log_memo: Any = None
        """The public log narrated so far (a `view.LogNarration`, immutable, shared by
        clones), or None: only the view reads and replaces it."""
        self.moves: Trail = EMPTY_TRAIL
        """The decisions so far (a persistent trail, shared by clones): `history()`."""
        self._start_round()

    # -- cheap copies --------------------------------------------------------------
    def clone(self) -> SuperComputerState:
        # A bare instance: __init__ without a game returns at once. (Not object.__new__,
        # which a mypyc-compiled class refuses; compiled, the class call is a C call.)
        c = SuperComputerState()
        c.game, c.tables, c.columns = self.game, self.tables, self.columns
        c.num_players = self.num_players
        c.next_seed = self.next_seed
        c.round_index, c.turn, c.phase, c.to_move = (
            self.round_index,
            self.turn,
            self.phase,
            self.to_move,
        )
        c.hands = [h[:] for h in self.hands]
        c.pending_picks = self.pending_picks[:]
        c.to_place = self.to_place[:]
        c.computers = [g.copy() for g in self.computers]
        c.frontiers = [f.copy() for f in self.frontiers]
        c.scrap_piles = [s[:] for s in self.scrap_piles]
        c.part_deck = self.part_deck[:]
        c.hand_knowers = self.hand_knowers[:]
        c.build_deck = self.build_deck[:]
        c.build_offers = [o[:] for o in self.build_offers]
        c.kept_builds = [k[:] for k in self.kept_builds]
        c.returned_builds = [r[:] for r in self.returned_builds]
        c.race_builds = self.race_builds[:]
        c.race_won = [w[:] for w in self.race_won]
        c.race_discard = self.race_discard[:]
        c.revealed_builds = [s[:] for s in self.revealed_builds]
        c.points = self.points[:]
        c.four_way_attached = self.four_way_attached[:]
        c.scrapped_count = self.scrapped_count[:]
        c.picks_made = self.picks_made[:]
        c.round_records = self.round_records  # copy on write (scoring.score_round)
        c.log = self.log  # a persistent trail (cardlab.core.trail): never changed, shared
        c.log_memo = self.log_memo  # immutable, replaced whole (view.log_entries)
        c.moves = self.moves  # a persistent trail too
        c._legal = self._legal  # never mutated in place, only replaced
        return c

    # -- the round ---------------------------------------------------------------------
    def _start_round(self) -> None:
        """S2: reshuffle every part in play and every build; deal 7 parts each, then builds."""
        g, t, n = self.game, self.tables, self.num_players
        rng = random.Random(self.next_seed)
        self.next_seed = rng.getrandbits(64)
        self.round_index += 1
        self.turn = 0
        deck = list(t.all_parts if n == MAX_PLAYERS else t.base_parts)
        shuffle(rng, deck)
        self.hands = []
        for _ in range(n):
            self.hands.append(sorted(deck[-HAND_SIZE:]))
            del deck[-HAND_SIZE:]
        self.part_deck = deck
        self.pending_picks = [NONE] * n
        self.to_place = [NONE] * n
        self.computers = [{} for _ in range(n)]
        self.frontiers = [{} for _ in range(n)]
        self.scrap_piles = [[] for _ in range(n)]
        self.hand_knowers = [1 << q for q in range(n)]
        build_deck = list(range(t.num_builds))
        shuffle(rng, build_deck)  # the top of the build deck is the end of the list
        self.build_offers = [[] for _ in range(n)]
        self.kept_builds = [[] for _ in range(n)]
        self.returned_builds = [[] for _ in range(n)]
        self.race_won = [[] for _ in range(n)]
        self.race_builds = []
        self.race_discard = []
        self.revealed_builds = [[] for _ in range(n)]
        mode = g.build_mode
        if mode == "public_race":  # S9 option 2: players - 1 face-up builds
            self.race_builds = sorted(build_deck.pop() for _ in range(n - 1))
        else:
            for q in range(n):
                two = sorted((build_deck.pop(), build_deck.pop()))
                if mode == "choose_one":
                    self.build_offers[q] = two
                else:
                    self.kept_builds[q] = two
        self.build_deck = build_deck
        self.log = self.log.push(("round", self.round_index, tuple(self.race_builds)))
        self.to_move = 0
        if mode == "choose_one":
            self.phase = CHOOSE_BUILD
            self._legal = [g.actions.first_build + b for b in self.build_offers[0]]
        else:
            self._begin_picks()

    def _begin_picks(self) -> None:
        self.phase = PICK
        self.to_move = 0
        self._legal = self.hands[0][:]

    def _end_picks(self) -> None:
        """S3: everyone has picked: hands pass, then every pick is revealed at once."""
        n = self.num_players
        direction = self.columns.pass_direction[self.round_index]
        hands = self.hands
        knowers = self.hand_knowers
        new_hands: list[list[int]] = [[]] * n
        new_knowers = [0] * n
        for q in range(n):
            to = (q + direction) % n
            new_hands[to] = hands[q]
            # The passer saw this hand; the receiver sees it now.
            new_knowers[to] = knowers[q] | (1 << q) | (1 << to)
        self.hands = new_hands
        self.hand_knowers = new_knowers
        self.to_place = self.pending_picks
        self.pending_picks = [NONE] * n
        # One line for the pass and the reveal (the has_picked flags show each pick live).
        self.log = self.log.push(("reveal", direction, tuple(self.to_place)))
        self._next_placer(0)

    def _next_placer(self, start: int) -> None:
        """The next seat from `start` with a part to place; parts that fit nowhere are scrap."""
        columns = self.columns
        for q in range(start, self.num_players):
            k = self.to_place[q]
            if self.computers[q]:
                bit = 1 << k
                first_place = columns.first_place
                legal = [
                    first_place + c for c, masks in self.frontiers[q].items() if masks[0] & bit
                ]
                if not legal:
                    self._scrap(q, k, self.scrap_reason(q, k))
                    continue
                legal.sort()
            else:  # S4: the first part goes anywhere, which is (0,0)
                legal = [columns.first_place + ORIGIN]
            if columns.voluntary_scrap:
                legal.append(columns.scrap)
            self.phase = PLACE
            self.to_move = q
            self._legal = legal
            return
        self._end_turn()

    def _scrap(self, q: int, k: int, reason: str) -> None:
        """Scrap seat q's revealed part k; `reason` is a key of `view.SCRAP_WHY`."""
        self.scrap_piles[q].append(k)
        self.scrapped_count[q] = self.scrapped_count[q] + 1
        self.to_place[q] = NONE
        self.log = self.log.push(("scrap", q, k, reason))

    def _end_turn(self) -> None:
        if self.columns.public_race:
            scoring.settle_race(self)
        self.turn += 1
        if self.turn < HAND_SIZE:
            self._begin_picks()
            return
        scoring.score_round(self)
        if self.round_index + 1 < ROUNDS:
            self._start_round()
        else:
            self.phase = OVER
            self.to_move = TERMINAL_PLAYER
            self._legal = []
            won, level = scoring.winners(self)
            self.log = self.log.push(("end", tuple(won), level))

    # -- placement (S4) -------------------------------------------------------------------
    def _attach(self, q: int, k: int, cell: int) -> None:
        """Put part k in `cell` of seat q's computer and update the frontier's masks:
        each empty neighbour now has part k in the opposite direction."""
        grid = self.computers[q]
        frontier = self.frontiers[q]
        grid[cell] = k
        if cell in frontier:  # frontier.pop(cell, None) (compiled: no method call)
            del frontier[cell]
        as_neighbour = self.columns.neighbour_masks[k]
        fresh = self.columns.fresh_masks[k]
        for near, back in NEIGHBOURS[cell]:
            if near in grid:
                continue
            masks = frontier.get(near)
            if masks is None:  # a cell new to the frontier: the shared entry
                frontier[near] = fresh[back]
                continue
            clash, connect = as_neighbour[back]
            clash |= masks[1]
            connect |= masks[2]
            frontier[near] = (connect & ~clash, clash, connect)
        if self.columns.bounded:
            self._fit_case(grid, frontier)

    def case_box(self, grid: dict[int, int]) -> tuple[int, int, int, int]:
        """The columns and rows (0..GRID_SIZE-1, inclusive) a part may still occupy so that
        the computer `grid` fits the case (levers `case_width`, `case_height`): the case may
        sit anywhere, so the box is every cell within width-1 columns (height-1 rows) of
        every part. Only the computer's extent matters; 0 leaves that axis unbounded."""
        columns = self.columns
        cols = [c % GRID_SIZE for c in grid]
        rows = [c // GRID_SIZE for c in grid]
        x_lo, x_hi, y_lo, y_hi = 0, GRID_SIZE - 1, 0, GRID_SIZE - 1
        if columns.case_w and cols:
            x_lo, x_hi = max(cols) - columns.case_w + 1, min(cols) + columns.case_w - 1
        if columns.case_h and rows:
            y_lo, y_hi = max(rows) - columns.case_h + 1, min(rows) + columns.case_h - 1
        return x_lo, x_hi, y_lo, y_hi

    def in_case(self, grid: dict[int, int], cell: int) -> bool:
        """Whether a part at `cell` keeps the computer `grid` inside the case."""
        x_lo, x_hi, y_lo, y_hi = self.case_box(grid)
        return x_lo <= cell % GRID_SIZE <= x_hi and y_lo <= cell // GRID_SIZE <= y_hi

    def _fit_case(self, grid: dict[int, int], frontier: dict[int, tuple[int, ...]]) -> None:
        """Drop the frontier cells outside the case (a placement there would not fit it).
        The box only shrinks as parts are attached, so a dropped cell never comes back:
        every reader of the frontier (legal cells, fits, the bots) sees the case."""
        x_lo, x_hi, y_lo, y_hi = self.case_box(grid)
        for cell in list(frontier):
            if not (x_lo <= cell % GRID_SIZE <= x_hi and y_lo <= cell // GRID_SIZE <= y_hi):
                del frontier[cell]

    def legal_cells(self, q: int, k: int) -> list[int]:
        """Grid cells (actions.py) where part `k` may join seat `q`'s computer, sorted:
        the first part goes to (0,0); a later one to an empty cell beside the computer
        where it connects to a neighbour and clashes with none (S4)."""
        if not self.computers[q]:
            return [ORIGIN]
        bit = 1 << k
        out = [cell for cell, masks in self.frontiers[q].items() if masks[0] & bit]
        out.sort()
        return out

    def scrap_reason(self, q: int, k: int) -> str:
        """Why part k has no legal cell on seat q's computer (S4, S5), for the log:
        "no_match" when no empty cell beside the computer would connect it at all,
        "clash" when some would, but each of them has a touching edge that does not fit;
        with a case (lever), "case" when it would fit only in a cell outside the case."""
        bit = 1 << k
        if any(masks[2] & bit for masks in self.frontiers[q].values()):
            return "clash"
        if not self.columns.bounded:
            return "no_match"
        # the frontier holds only cells inside the case: rebuild the unbounded one
        grid = self.computers[q]
        masks_at: dict[int, tuple[int, int]] = {}
        for cell, part in grid.items():
            as_neighbour = self.columns.neighbour_masks[part]
            for near, back in NEIGHBOURS[cell]:
                if near not in grid:
                    clash, connect = masks_at.get(near, (0, 0))
                    masks_at[near] = (
                        clash | as_neighbour[back][0],
                        connect | as_neighbour[back][1],
                    )
        if any(connect & ~clash & bit for clash, connect in masks_at.values()):
            return "case"
        if any(connect & bit for _, connect in masks_at.values()):
            return "clash"
        return "no_match"

    def open_connectors(self, q: int) -> int:
        """Connectors of seat q's computer that face an empty cell (room to grow)."""
        grid = self.computers[q]
        steps = self.columns.connector_steps
        count = 0
        if self.columns.bounded:  # with a case, only the connectors facing room inside it
            x_lo, x_hi, y_lo, y_hi = self.case_box(grid)
            for c, k in grid.items():
                for step in steps[k]:
                    near = c + step
                    if (
                        near not in grid
                        and x_lo <= near % GRID_SIZE <= x_hi
                        and y_lo <= near // GRID_SIZE <= y_hi
                    ):
                        count += 1
            return count
        # each part's connector sides from a table (search rates every seat of every
        # playout with it): the sides without one are not looked at
        for c, k in grid.items():
            for step in steps[k]:
                if c + step not in grid:
                    count += 1
        return count

    # -- the API -----------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def legal_actions(self) -> list[int]:
        """The legal actions (computed once per state; a fresh list each call)."""
        return self._legal[:]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def apply_action(self, action: Any) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        act: int = action  # an int from here on (compiled: native int operations)
        for x in self._legal:  # `act in self._legal` (empty when the game is over), written
            if x == act:  # out (compiled: int compares)
                break
        else:
            raise IllegalActionError(illegal_action_message(self, action))
        self.moves = self.moves.push(act)
        q = self.to_move
        phase = self.phase
        if phase == PICK:
            self.hands[q].remove(act)
            self.pending_picks[q] = act
            self.picks_made[q] = self.picks_made[q] + 1
            if q + 1 < self.num_players:
                self.to_move = q + 1
                self._legal = self.hands[q + 1][:]
            else:
                self._end_picks()
        elif phase == PLACE:
            k = self.to_place[q]
            columns = self.columns
            if act == columns.scrap:
                self._scrap(q, k, "chosen")
            else:
                cell = act - columns.first_place
                self._attach(q, k, cell)
                self.to_place[q] = NONE
                if columns.four_way[k]:
                    self.four_way_attached[q] = self.four_way_attached[q] + 1
                self.log = self.log.push(("place", q, k, cell))
            self._next_placer(q + 1)
        else:  # CHOOSE_BUILD (S2: keep one of two, the other to the bottom of the deck)
            first_build = self.columns.first_build
            b = act - first_build
            offer = self.build_offers[q]
            other = offer[0] if offer[1] == b else offer[1]
            self.kept_builds[q] = [b]
            self.build_offers[q] = []
            self.build_deck.insert(0, other)
            self.returned_builds[q] = [other]
            self.log = self.log.push(("keep", q))
            if q + 1 < self.num_players:
                self.to_move = q + 1
                self._legal = [first_build + b for b in self.build_offers[q + 1]]
            else:
                self._begin_picks()

    def action_to_string(self, action: Any) -> str:
        return view.action_label(self, action)

    def describe_action(self, action: Any) -> Move:
        return view.describe_action(self, action)

    def returns(self) -> list[float]:
        return [float(s) for s in self.points]

    def scores(self) -> list[float]:
        return [float(s) for s in self.points]

    def winners(self) -> list[int]:
        return scoring.winners(self)[0] if self.phase == OVER else []

    def history(self) -> list[int]:
        return self.moves.items()

    def decision_kind(self) -> str:
        return PHASE_NAMES[self.phase]

    def progress_values(self) -> list[float]:
        return scoring.progress(self)

    def info(self) -> dict[str, Any]:
        return scoring.info(self)

    # -- views (view.py, resample.py) -----------------------------------------------------
    def observation(self, player: Any) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.public_observation(self)

    def zones(self) -> dict[str, list[str]]:
        return view.zones(self)

    def hidden_card_ids(self, player: Any) -> set[str]:
        return view.hidden_card_ids(self, player)

    def resample_from_infostate(self, player: Any, seed: Any) -> SuperComputerState:
        return resample.resample(self, player, seed)

    # -- read API for bots ------------------------------------------------------------
    def attached_parts(self, seat: int) -> list[int]:
        """The parts on seat's computer this round."""
        return list(self.computers[seat].values())

    def part_to_place(self, seat: int) -> int | None:
        """The revealed part seat is placing now, if any."""
        k = self.to_place[seat]
        return None if k == NONE else k

    def part_in_play(self, seat: int) -> int | None:
        """Seat's pending pick, else its revealed part still to place, else None."""
        k = self.pending_picks[seat]
        if k == NONE:
            k = self.to_place[seat]
        return None if k == NONE else k

    def fits(self, seat: int, part: int) -> bool:
        """Whether `part` has a legal cell on seat's computer now (S4): whether
        `legal_cells` would be non-empty, without building and sorting the list."""
        if not self.computers[seat]:
            return True
        bit = 1 << part
        for masks in self.frontiers[seat].values():  # noqa: SIM110 (compiled, any() of a generator builds an object)
            if masks[0] & bit:
                return True
        return False

    def open_connectors_after(self, seat: int, cell: int) -> int:
        """Open connectors of seat's computer if its part to place went to `cell`."""
        grid = self.computers[seat]
        if cell in grid:
            raise ValueError(f"cell {cell} of seat {seat}'s computer is taken")
        grid[cell] = self.to_place[seat]
        try:
            return self.open_connectors(seat)
        finally:
            del grid[cell]

    def parts_fitting_after(self, seat: int, cell: int, parts: list[int]) -> int:
        """How many of `parts` would have a legal cell on seat's computer once its part
        to place went to `cell`."""
        may = self.placeable_after(seat, cell)
        return sum(1 for j in parts if may >> j & 1)

    def placeable_after(self, seat: int, cell: int) -> int:
        """The parts (a bit per part) that would have a legal cell on seat's computer once
        its part to place went to `cell`: the frontier update of `_attach`, on a copy."""
        k = self.to_place[seat]
        grid = self.computers[seat]
        frontier = dict(self.frontiers[seat])
        frontier.pop(cell, None)
        as_neighbour = self.tables.neighbour_masks[k]
        for near, back in NEIGHBOURS[cell]:
            if near in grid:
                continue
            _, clash, connect = frontier.get(near, (0, 0, 0))
            clash |= as_neighbour[back][0]
            connect |= as_neighbour[back][1]
            frontier[near] = (connect & ~clash, clash, connect)
        if self.columns.bounded:
            grid[cell] = k
            try:
                self._fit_case(grid, frontier)
            finally:
                del grid[cell]
        may = 0
        for masks in frontier.values():
            may |= masks[0]
        return may

    def target_builds(self, seat: int) -> list[int]:
        """The builds seat is playing for: the face-up race builds (public_race), its
        kept builds, or (before it has kept one) its offered builds."""
        if self.game.build_mode == "public_race":
            return self.race_builds[:]
        return self.kept_builds[seat][:] or self.build_offers[seat][:]

    # -- test helper -------------------------------------------------------------------
    def set_computer(self, seat: int, parts: dict[tuple[int, int], int]) -> None:
        """Test/scenario helper: replace seat's computer by `{(x, y): part index}`.

        Lets scenario tests build a hand-made grid (S4 legality, S6/S7 builds) without
        poking private fields; the parts must not be elsewhere in play for the
        conservation checks, so tests use it on a fresh state's placed parts only
        when they do not also check conservation."""
        self.computers[seat] = {}
        self.frontiers[seat] = {}
        for (x, y), k in parts.items():
            if not IN_WINDOW[xy_cell(x, y)]:
                raise ValueError(f"({x},{y}) lies outside the placement window")
            if not self.in_case(self.computers[seat], xy_cell(x, y)):
                raise ValueError(f"({x},{y}) does not fit the case with the parts before it")
            self._attach(seat, k, xy_cell(x, y))
        if self.phase == PLACE and self.to_move == seat:
            self._next_placer(seat)
