"""The SUPER COMPUTER forward model: plain lists and ints in __slots__, so that a
clone is a handful of list copies (ISMCTS clones millions of times).

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

Observation, zones and resampling live in `view.py`; scoring helpers in `scoring.py`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardlab.core import GameState
from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER
from cardlab.games.supercomputer import scoring, view
from cardlab.games.supercomputer.cards import HAND_SIZE
from cardlab.games.supercomputer.tables import CONNECT, OPPOSITE, ORIGIN, STEP, cell_xy

if TYPE_CHECKING:
    from cardlab.games.supercomputer.rules import SuperComputerGame

ROUNDS = 3
CHOOSE_BUILD, PICK, PLACE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("choose_build", "pick", "place", "over")
CHOOSE_ONE, KEEP_BOTH, PUBLIC_RACE = 0, 1, 2


class SuperComputerState(GameState):
    """One moment of a SUPER COMPUTER game. Fields are plain data; see `clone`."""

    __slots__ = (
        "game", "t", "n", "next_seed", "rnd", "turn", "phase", "cur",
        "hands", "picks", "placing", "grids", "scrap", "deck", "knowers",
        "bdeck", "offer", "kept", "returned", "race", "race_won", "race_gone", "shown",
        "score", "fourway", "scrapped", "picks_made", "records", "log", "hist", "_legal",
    )  # fmt: skip

    def __init__(self, game: SuperComputerGame, seed: int) -> None:
        self.game = game
        self.t = game.tables
        self.n = n = game.num_players
        self.next_seed = random.Random(seed).getrandbits(64)
        self.rnd = -1
        self.turn = 0
        self.phase = PICK
        self.cur = 0
        self.score = [0] * n
        self.fourway = [0] * n  # 4-way parts attached over the game (S8)
        self.scrapped = [0] * n  # parts scrapped over the game (S8)
        self.picks_made = [0] * n
        self.records: list[tuple[Any, ...]] = []  # per round and seat: what scored what
        self.log: list[tuple[Any, ...]] = []
        self.hist: list[int] = []
        self._start_round()

    # -- cheap copies --------------------------------------------------------------
    def clone(self) -> SuperComputerState:
        c = object.__new__(SuperComputerState)
        c.game, c.t, c.n, c.next_seed = self.game, self.t, self.n, self.next_seed
        c.rnd, c.turn, c.phase, c.cur = self.rnd, self.turn, self.phase, self.cur
        c.hands = [h[:] for h in self.hands]
        c.picks = self.picks[:]
        c.placing = self.placing[:]
        c.grids = [g.copy() for g in self.grids]
        c.scrap = [s[:] for s in self.scrap]
        c.deck = self.deck[:]
        c.knowers = self.knowers[:]
        c.bdeck = self.bdeck[:]
        c.offer = [o[:] for o in self.offer]
        c.kept = [k[:] for k in self.kept]
        c.returned = [r[:] for r in self.returned]
        c.race = self.race[:]
        c.race_won = [w[:] for w in self.race_won]
        c.race_gone = self.race_gone[:]
        c.shown = [s[:] for s in self.shown]
        c.score = self.score[:]
        c.fourway = self.fourway[:]
        c.scrapped = self.scrapped[:]
        c.picks_made = self.picks_made[:]
        c.records = self.records  # copy on write (scoring.score_round)
        c.log = self.log[:]
        c.hist = self.hist[:]
        c._legal = self._legal  # never mutated in place, only replaced
        return c

    # -- the round ---------------------------------------------------------------------
    def _start_round(self) -> None:
        """S2: reshuffle every part in play and every build; deal 7 parts each, then builds."""
        g, t, n = self.game, self.t, self.n
        rng = random.Random(self.next_seed)
        self.next_seed = rng.getrandbits(64)
        self.rnd += 1
        self.turn = 0
        deck = list(t.all_parts if n == 5 else t.base_parts)
        rng.shuffle(deck)
        self.hands = []
        for _ in range(n):
            self.hands.append(sorted(deck[-HAND_SIZE:]))
            del deck[-HAND_SIZE:]
        self.deck = deck
        self.picks = [-1] * n
        self.placing = [-1] * n
        self.grids = [{} for _ in range(n)]
        self.scrap = [[] for _ in range(n)]
        self.knowers = [1 << q for q in range(n)]
        bdeck = list(range(t.num_builds))
        rng.shuffle(bdeck)  # the top of the build deck is the end of the list
        self.offer = [[] for _ in range(n)]
        self.kept = [[] for _ in range(n)]
        self.returned = [[] for _ in range(n)]
        self.race_won = [[] for _ in range(n)]
        self.race = []
        self.race_gone = []
        self.shown = [[] for _ in range(n)]
        mode = g.build_mode
        if mode == PUBLIC_RACE:  # S9 option 2: players - 1 face-up builds
            self.race = sorted(bdeck.pop() for _ in range(n - 1))
        else:
            for q in range(n):
                two = sorted((bdeck.pop(), bdeck.pop()))
                if mode == CHOOSE_ONE:
                    self.offer[q] = two
                else:
                    self.kept[q] = two
        self.bdeck = bdeck
        self.log.append(("round", self.rnd, tuple(self.race)))
        self.cur = 0
        if mode == CHOOSE_ONE:
            self.phase = CHOOSE_BUILD
            self._legal = [g.build0 + b for b in self.offer[0]]
        else:
            self._begin_picks()

    def _begin_picks(self) -> None:
        self.phase = PICK
        self.cur = 0
        self._legal = self.hands[0][:]

    def _end_picks(self) -> None:
        """S3: everyone has picked: hands pass, then every pick is revealed at once."""
        n = self.n
        d = self.game.pass_step[self.rnd]
        hands = self.hands
        knowers = self.knowers
        new_hands: list[list[int]] = [[]] * n
        new_knowers = [0] * n
        for q in range(n):
            to = (q + d) % n
            new_hands[to] = hands[q]
            # The passer saw this hand; the receiver sees it now.
            new_knowers[to] = knowers[q] | (1 << q) | (1 << to)
        self.hands = new_hands
        self.knowers = new_knowers
        for q in range(n):
            self.placing[q] = self.picks[q]
            self.picks[q] = -1
        # One line for the pass and the reveal (the has_picked flags show each pick live).
        self.log.append(("reveal", d, tuple(self.placing)))
        self._next_placer(0)

    def _next_placer(self, start: int) -> None:
        """The next seat from `start` with a part to place; parts that fit nowhere are scrap."""
        for q in range(start, self.n):
            k = self.placing[q]
            cells = self.legal_cells(q, k)
            if not cells:
                self._scrap(q, k, self.scrap_reason(q, k))
                continue
            place0 = self.game.place0
            legal = [place0 + c for c in cells]
            if self.game.voluntary_scrap:
                legal.append(self.game.scrap_action)
            self.phase = PLACE
            self.cur = q
            self._legal = legal
            return
        self._end_turn()

    def _scrap(self, q: int, k: int, reason: str) -> None:
        """Scrap seat q's revealed part k; `reason` is a `scoring.SCRAP_REASONS` key."""
        self.scrap[q].append(k)
        self.scrapped[q] += 1
        self.placing[q] = -1
        self.log.append(("scrap", q, k, reason))

    def _end_turn(self) -> None:
        if self.game.build_mode == PUBLIC_RACE:
            scoring.settle_race(self)
        self.turn += 1
        if self.turn < HAND_SIZE:
            self._begin_picks()
            return
        scoring.score_round(self)
        if self.rnd + 1 < ROUNDS:
            self._start_round()
        else:
            self.phase = OVER
            self.cur = TERMINAL_PLAYER
            self._legal = []
            won, level = scoring.winners(self)
            self.log.append(("end", tuple(won), level))

    # -- placement (S4) -------------------------------------------------------------------
    def legal_cells(self, q: int, k: int) -> list[int]:
        """Grid cells (see tables.py) where part `k` may join seat `q`'s computer, sorted."""
        grid = self.grids[q]
        if not grid:
            return [ORIGIN]
        fn, fe, fs, fw = (f[k] for f in self.t.fit)
        seen = set(grid)
        out = []
        for c in grid:
            for cell in (c - 15, c + 1, c + 15, c - 1):
                if cell in seen:
                    continue
                seen.add(cell)
                connected = False
                b = grid.get(cell - 15)
                if b is not None:
                    v = fn[b]
                    if not v:
                        continue
                    connected = v == 2
                b = grid.get(cell + 1)
                if b is not None:
                    v = fe[b]
                    if not v:
                        continue
                    connected = connected or v == 2
                b = grid.get(cell + 15)
                if b is not None:
                    v = fs[b]
                    if not v:
                        continue
                    connected = connected or v == 2
                b = grid.get(cell - 1)
                if b is not None:
                    v = fw[b]
                    if not v:
                        continue
                    connected = connected or v == 2
                if connected:
                    x, y = cell_xy(cell)
                    if -6 <= x <= 6 and -6 <= y <= 6:
                        out.append(cell)
        out.sort()
        return out

    def scrap_reason(self, q: int, k: int) -> str:
        """Why part k has no legal cell on seat q's computer (S4, S5), for the log:
        "no_match" when no empty cell beside the computer would connect it at all,
        "clash" when some would, but each of them has a touching edge that does not fit."""
        grid = self.grids[q]
        fit = self.t.fit
        for c in grid:
            for d in range(4):
                cell = c + STEP[d]
                if cell in grid:
                    continue
                # Part k at `cell` has the computer's part at `c` as its neighbour
                # in the opposite direction.
                if fit[OPPOSITE[d]][k][grid[c]] == CONNECT:
                    return "clash"
        return "no_match"

    def open_connectors(self, q: int) -> int:
        """Connectors of seat q's computer that face an empty cell (room to grow)."""
        grid = self.grids[q]
        edges = self.t.edges
        count = 0
        for c, k in grid.items():
            e = edges[k]
            for d in range(4):
                if e[d] and (c + STEP[d]) not in grid:
                    count += 1
        return count

    # -- the API -----------------------------------------------------------------------
    def current_player(self) -> int:
        return self.cur

    def legal_actions(self) -> list[int]:
        """The legal actions (computed once per state; a fresh list each call)."""
        return self._legal[:]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        if action not in self._legal or self.phase == OVER:
            raise IllegalActionError(illegal_action_message(self, action))
        self.hist.append(action)
        q = self.cur
        phase = self.phase
        if phase == PICK:
            self.hands[q].remove(action)
            self.picks[q] = action
            self.picks_made[q] += 1
            if q + 1 < self.n:
                self.cur = q + 1
                self._legal = self.hands[q + 1][:]
            else:
                self._end_picks()
        elif phase == PLACE:
            k = self.placing[q]
            if action == self.game.scrap_action:
                self._scrap(q, k, "chosen")
            else:
                cell = action - self.game.place0
                self.grids[q][cell] = k
                self.placing[q] = -1
                if self.t.four_way[k]:
                    self.fourway[q] += 1
                self.log.append(("place", q, k, cell))
            self._next_placer(q + 1)
        else:  # CHOOSE_BUILD (S2: keep one of two, the other to the bottom of the deck)
            b = action - self.game.build0
            other = self.offer[q][0] if self.offer[q][1] == b else self.offer[q][1]
            self.kept[q] = [b]
            self.offer[q] = []
            self.bdeck.insert(0, other)
            self.returned[q] = [other]
            self.log.append(("keep", q))
            if q + 1 < self.n:
                self.cur = q + 1
                self._legal = [self.game.build0 + b for b in self.offer[q + 1]]
            else:
                self._begin_picks()

    def action_to_string(self, action: int) -> str:
        return view.action_label(self, action)

    def returns(self) -> list[float]:
        return [float(s) for s in self.score]

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def winners(self) -> list[int]:
        return scoring.winners(self)[0] if self.phase == OVER else []

    def history(self) -> list[int]:
        return self.hist[:]

    def decision_kind(self) -> str:
        return PHASE_NAMES[self.phase]

    def progress_values(self) -> list[float]:
        return scoring.progress(self)

    def info(self) -> dict[str, Any]:
        return scoring.info(self)

    # -- views (view.py) ------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return view.observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        return view.public_observation(self)

    def zones(self) -> dict[str, list[str]]:
        return view.zones(self)

    def hidden_card_ids(self, player: int) -> set[str]:
        return view.hidden_card_ids(self, player)

    def resample_from_infostate(self, player: int, seed: int) -> SuperComputerState:
        return view.resample(self, player, seed)

    # -- test helper -------------------------------------------------------------------
    def set_computer(self, seat: int, parts: dict[tuple[int, int], int]) -> None:
        """Test/scenario helper: replace seat's computer by `{(x, y): part index}`.

        Lets scenario tests build a hand-made grid (S4 legality, S6/S7 builds) without
        poking private fields; the parts must not be elsewhere in play for the
        conservation checks, so tests use it on a fresh state's placed parts only
        when they do not also check conservation."""
        from cardlab.games.supercomputer.tables import xy_cell

        self.grids[seat] = {xy_cell(x, y): k for (x, y), k in parts.items()}
        if self.phase == PLACE and self.cur == seat:
            self._next_placer(seat)
