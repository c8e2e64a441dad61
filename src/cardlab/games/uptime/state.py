"""The UPTIME forward model: plain-data state, legal actions, and apply_action.

Design for speed (ISMCTS clones states millions of times):
- Cards are ints 0..53 indexing the shared CardTable; every zone is a flat list.
- Per-seat counters (materials per kind, Component types, Computers...) are flat
  int lists, so legality checks never scan hands.
- The history and the public log are immutable cons cells shared by clones.
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
from typing import Any

from cardlab.core.contract import action_index, illegal_action_message
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import TERMINAL_PLAYER, GameState
from cardlab.games.uptime import actions as A
from cardlab.games.uptime import scoring
from cardlab.games.uptime.cards import COMPONENT, COMPUTER, CONTRACT, MATERIAL, NETWORK, PATCH

# Follow-up steps (first tuple item).
S_DRAW, S_CHOOSE, S_BLADE, S_REFILL, S_END_TURN, S_BEGIN = range(6)
NONE = -1  # no decision pending: run the steps
SURGE = 0  # CardTable.sub of the Power Surge twist
WORKSTATION, BLADE, TOWER, MAINFRAME = range(4)
ROW = 4
STALL_CAP_ROUNDS = 100
"""With stall_end=false, the hard cap: the game stops after this many rounds, 'stalled' (U13)."""


def _cons_list(cell: Any) -> list[Any]:
    out = []
    while cell is not None:
        out.append(cell[0])
        cell = cell[1]
    out.reverse()
    return out


class UptimeState(GameState):
    """One moment of an UPTIME game. See the module docstring for the layout."""

    __slots__ = (
        "game", "t", "n", "rng", "_rng_shared",
        "supply", "sdisc", "removed", "bdeck", "bknown", "bdisc",
        "row", "resv", "rpatch",
        "hand", "mats", "npatch", "known",
        "tab", "ctype", "ncomp", "mainframe", "tower", "ncontract",
        "draw_pass", "turns", "first", "turn_seat", "round", "total_turns",
        "shortage", "end_pending", "end_reason", "row_moved", "supply_empty_round", "sgone", "lazy",
        "steps", "dk", "dseat",
        "pay_kind", "pay_spec", "pay_n", "pay_used", "pay_patch_ok", "pay_for", "pay_slot",
        "pay_paid", "choose_excl", "choose_reason",
        "a_slot", "a_opener", "a_high", "a_seat", "a_queue",
        "_legal", "hist", "nhist", "log", "acq",
    )  # fmt: skip

    def __init__(self, game: Any, seed: int) -> None:
        t = game.table
        n = game.num_players
        self.game, self.t, self.n = game, t, n
        self.rng = random.Random(seed)
        self._rng_shared = False
        self.supply = list(t.supply_cards)
        self.rng.shuffle(self.supply)
        self.bdeck = list(t.build_cards)
        self.rng.shuffle(self.bdeck)
        self.sdisc, self.removed, self.bdisc = [], [], []
        self.bknown = 0
        self.row = [self.bdeck.pop() for _ in range(ROW)]
        self.resv, self.rpatch = [-1] * ROW, [-1] * ROW
        self.hand = [[] for _ in range(n)]
        self.mats, self.known = [0] * (4 * n), [0] * (4 * n)
        self.npatch = [0] * n
        self.tab = [[] for _ in range(n)]
        self.ctype = [0] * (6 * n)
        self.ncomp, self.mainframe, self.tower = [0] * n, [0] * n, [0] * n
        self.ncontract, self.draw_pass, self.turns = [0] * n, [0] * n, [0] * n
        self.first = self.rng.randrange(n)  # U17: the first player is chosen by the seed
        self.turn_seat = self.first
        self.round, self.total_turns = 1, 0
        self.shortage = self.end_pending = self.row_moved = self.supply_empty_round = False
        self.end_reason: str | None = None
        self.sgone = 0  # kinds publicly known to be absent from the Supply Deck (U5 "gone")
        self.lazy = False  # a determinization: hidden deck cards are drawn at random (resample)
        self.dk, self.dseat = NONE, -1
        self._clear_payment()
        self.choose_excl, self.choose_reason = 0, ""
        self.a_slot = self.a_opener = self.a_high = self.a_seat = -1
        self.a_queue: tuple[int, ...] = ()
        self._legal: list[int] | None = None
        self.hist: Any = None
        self.nhist = 0
        self.log: Any = None
        self.acq: Any = None
        self._log(("setup", self.first, tuple(self.row)))
        deal = 5 if n == 2 else 4  # U16: 5 cards each with two players
        self.steps: list[tuple[Any, ...]] = [(S_BEGIN,)]
        for i in reversed(range(n)):
            self.steps.append((S_DRAW, (self.first + i) % n, deal, "deal"))
        self._run()

    # ---- small helpers ---------------------------------------------------------
    def _log(self, entry: tuple[Any, ...]) -> None:
        self.log = (entry, self.log)

    def _rand(self) -> random.Random:
        if self._rng_shared:  # copy-on-write: never draw from a generator a clone shares
            rng = random.Random.__new__(random.Random)  # no seeding: the state is set next
            rng.setstate(self.rng.getstate())
            self.rng, self._rng_shared = rng, False
        return self.rng

    def _clear_payment(self) -> None:
        self.pay_kind = self.pay_n = self.pay_used = self.pay_for = self.pay_slot = 0
        self.pay_spec: tuple[int, ...] = ()
        self.pay_patch_ok = False
        self.pay_paid: tuple[int, ...] = ()

    def _net_cost(self, card: int, seat: int) -> int:
        cost = self.t.network_cost[card]
        return max(1, cost - 1) if self.tower[seat] else cost  # U8

    def _take_build(self) -> int:
        deck = self.bdeck
        if self.lazy and len(deck) > self.bknown:  # the unknown part is in no fixed order
            i = self.bknown + int(self._rand().random() * (len(deck) - self.bknown))
            deck[i], deck[-1] = deck[-1], deck[i]
        card = deck.pop()
        if self.bknown > len(deck):
            self.bknown = len(self.bdeck)
        return card

    def _trigger_end(self, reason: str, seat: int) -> None:
        if not self.end_pending:
            self.end_pending, self.end_reason = True, reason
            self._log(("trigger", seat, reason))

    def _check_milestone(self, seat: int) -> None:
        # U12/U9: 2 Computers (Mainframe counts 2 here only) and 1 Contract.
        if self.ncomp[seat] + self.mainframe[seat] >= 2 and self.ncontract[seat] >= 1:
            self._trigger_end("milestone", seat)

    # ---- the API -----------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.dk == A.D_OVER else self.dseat

    def is_terminal(self) -> bool:
        return self.dk == A.D_OVER

    def legal_actions(self) -> list[int]:
        """Legal actions now (computed once per state; a fresh list each call)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = action_index(self, action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            from cardlab.games.uptime.view import decision_text

            raise IllegalActionError(illegal_action_message(self, action, decision_text(self)))
        self.hist = (action, self.hist)
        self.nhist += 1
        self._legal = None
        self._do(action)
        self._run()

    def history(self) -> list[int]:
        return _cons_list(self.hist)

    def returns(self) -> list[float]:
        return [float(x) for x in scoring.points(self)]

    def scores(self) -> list[float]:
        return self.returns()

    def winners(self) -> list[int]:
        return [scoring.rank(self)[0]] if self.dk == A.D_OVER else []

    def decision_kind(self) -> str:
        return A.DECISION_NAMES[self.dk]

    def action_to_string(self, action: int) -> str:
        from cardlab.games.uptime.view import action_label

        return action_label(self, action)

    def observation(self, player: int) -> dict[str, Any]:
        from cardlab.games.uptime.view import observation

        return observation(self, player)

    def public_observation(self) -> dict[str, Any]:
        from cardlab.games.uptime.view import public_observation

        return public_observation(self)

    def info(self) -> dict[str, Any]:
        from cardlab.games.uptime.view import game_info

        return game_info(self)

    def zones(self) -> dict[str, list[str]]:
        ids = self.t.ids
        z = {
            "hidden:supply_deck": [ids[c] for c in self.supply],
            "hidden:build_deck": [ids[c] for c in self.bdeck],
            "public:supply_discard": [ids[c] for c in self.sdisc],
            "public:build_discard": [ids[c] for c in self.bdisc],
            "public:removed_twists": [ids[c] for c in self.removed],
            "public:build_row": [ids[c] for c in self.row if c >= 0],
            "public:reserve_patches": [ids[c] for c in self.rpatch if c >= 0],
        }
        for p in range(self.n):
            z[f"private:{p}:hand"] = [ids[c] for c in self.hand[p]]
            z[f"public:tableau_{p}"] = [ids[c] for c in self.tab[p]]
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
        if s.dk in (A.D_PAY, A.D_CHOOSE, A.D_BLADE):
            s = self.clone()
            while s.dk in (A.D_PAY, A.D_CHOOSE, A.D_BLADE):
                legal = s.legal_actions()
                if not legal:  # an inconsistent copy (never a real game): value it as it stands
                    break
                s.apply_action(legal[0])
        pts = scoring.points(s)
        bidder, bid, prize = -1, 0, 0
        if s.a_slot >= 0 and s.dk in (A.D_OPEN_BID, A.D_RAISE):
            bidder = s.a_seat if s.dk == A.D_RAISE else s.dseat
            bid = s.a_high if s.dk == A.D_RAISE else 1
            prize = s.t.value[s.row[s.a_slot]]

        def value(p: int) -> float:
            b = p * 6
            types = sum(1 for x in s.ctype[b : b + 6] if x)
            mats = sum(s.mats[p * 4 : p * 4 + 4])
            net_ready = 1.0 if s.ncomp[p] >= 2 else 0.0
            v = (
                pts[p]
                + 1.3 * min(types, 3)
                + 0.25 * min(types, 6)
                + (0.45 + 0.15 * net_ready) * min(mats, 9)
                + 0.1 * max(0, mats - 9)
                + 1.0 * s.npatch[p]
                + 0.5 * s.tower[p]
            )
            if p == bidder:
                v += 0.8 * prize - 0.45 * bid
            return v

        return [value(p) for p in range(s.n)]

    def clone(self) -> UptimeState:
        s = object.__new__(UptimeState)
        s.game, s.t, s.n = self.game, self.t, self.n
        s.rng = self.rng
        s._rng_shared = self._rng_shared = True
        s.supply, s.sdisc, s.removed = self.supply[:], self.sdisc[:], self.removed[:]
        s.bdeck, s.bknown, s.bdisc = self.bdeck[:], self.bknown, self.bdisc[:]
        s.row, s.resv, s.rpatch = self.row[:], self.resv[:], self.rpatch[:]
        s.hand = [h[:] for h in self.hand]
        s.mats, s.npatch, s.known = self.mats[:], self.npatch[:], self.known[:]
        s.tab = [x[:] for x in self.tab]
        s.ctype, s.ncomp, s.mainframe = self.ctype[:], self.ncomp[:], self.mainframe[:]
        s.tower, s.ncontract = self.tower[:], self.ncontract[:]
        s.draw_pass, s.turns = self.draw_pass[:], self.turns[:]
        s.first, s.turn_seat, s.round = self.first, self.turn_seat, self.round
        s.total_turns, s.shortage, s.end_pending = self.total_turns, self.shortage, self.end_pending
        s.end_reason, s.row_moved = self.end_reason, self.row_moved
        s.supply_empty_round, s.sgone, s.lazy = self.supply_empty_round, self.sgone, self.lazy
        s.steps, s.dk, s.dseat = self.steps[:], self.dk, self.dseat
        s.pay_kind, s.pay_spec, s.pay_n = self.pay_kind, self.pay_spec, self.pay_n
        s.pay_used, s.pay_patch_ok, s.pay_for = self.pay_used, self.pay_patch_ok, self.pay_for
        s.pay_slot, s.pay_paid = self.pay_slot, self.pay_paid
        s.choose_excl, s.choose_reason = self.choose_excl, self.choose_reason
        s.a_slot, s.a_opener, s.a_high = self.a_slot, self.a_opener, self.a_high
        s.a_seat, s.a_queue = self.a_seat, self.a_queue
        s._legal, s.hist, s.nhist = self._legal, self.hist, self.nhist
        s.log, s.acq = self.log, self.acq
        return s

    def resample_from_infostate(self, player: int, seed: int) -> UptimeState:
        from cardlab.games.uptime.resample import resample

        return resample(self, player, seed)

    # ---- legal actions -------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        dk = self.dk
        p = self.dseat
        mats = self.mats
        b = p * 4
        if dk == A.D_TURN:
            return self._turn_legal(p)
        if dk == A.D_PAY:
            patches = self.npatch[p] if self.pay_patch_ok else 0
            if self.pay_kind == A.NEED_SPECIFIC:
                m = self.pay_spec[0]
                out = [A.PAY_MAT + m] if mats[b + m] else []
                if patches:
                    deficit = sum(1 for r in self.pay_spec[1:] if not mats[b + r])
                    if deficit <= patches - 1:
                        out.append(A.PAY_PATCH)
                return out
            if self.pay_kind == A.NEED_ANY:
                out = [A.PAY_MAT + m for m in range(4) if mats[b + m]]
                have = mats[b] + mats[b + 1] + mats[b + 2] + mats[b + 3]
            else:
                used, c6 = self.pay_used, p * 6
                ct = self.ctype
                out = [A.PAY_COMP + t for t in range(6) if ct[c6 + t] and not used >> t & 1]
                have = len(out)
            if patches:
                out.append(A.PAY_PATCH)
            if have + patches == self.pay_n:
                return out[:1]  # everything must go: the order is no choice
            return out
        if dk == A.D_CHOOSE:
            return [A.CHOOSE_MAT + m for m in range(4) if not self.choose_excl >> m & 1]
        if dk == A.D_BLADE:
            c6 = p * 6
            return [A.RETURN_COMP + t for t in range(6) if self.ctype[c6 + t]]
        if dk == A.D_OPEN_BID:
            top = min(sum(mats[b : b + 4]), A.MAX_BID)
            return [A.BID + k for k in range(1, top + 1)]
        if dk == A.D_RAISE:
            top = min(sum(mats[b : b + 4]), A.MAX_BID)
            return [A.BID_PASS] + [A.BID + k for k in range(self.a_high + 1, top + 1)]
        return []

    def _turn_legal(self, p: int) -> list[int]:
        t = self.t
        kind, sub = t.kind, t.sub
        b = p * 4
        mats = self.mats
        total = mats[b] + mats[b + 1] + mats[b + 2] + mats[b + 3]
        patches = self.npatch[p]
        reqs: list[int] = []
        bids: list[int] = []
        reserves: list[int] = []
        for s in range(ROW):
            c = self.row[s]
            if c < 0:
                continue
            r = self.resv[s]
            if r >= 0 and r != p:
                continue  # U4: reserved for someone else
            k = kind[c]
            if k == COMPONENT:
                x, y = t.component_cost[sub[c]]
                if (not mats[b + x]) + (not mats[b + y]) <= patches:
                    reqs.append(A.REQ + s)
            elif k == COMPUTER:
                c6 = p * 6
                types = sum(1 for v in self.ctype[c6 : c6 + 6] if v)
                if types + patches >= 3:
                    reqs.append(A.REQ + s)
            elif k == NETWORK:
                if self.ncomp[p] >= 2 and total + patches >= self._net_cost(c, p):
                    reqs.append(A.REQ + s)
            elif k == PATCH:
                if total + patches >= self.game.options["patch_cost"]:
                    reqs.append(A.REQ + s)
            elif k == CONTRACT and self.ncomp[p] >= 1 and total >= 1:
                bids.append(A.BID_SLOT + s)  # U10: the opener needs 1+ Computer
            if patches and r < 0:
                reserves.append(A.RESERVE + s)
        if (
            not reqs
            and not bids
            and len(self.bdeck) > self.bknown
            and self.game.options["row_sweep"]
        ):
            # Designer option: nothing in the Row is claimable by you and the Build Deck still
            # holds unseen cards (each sweep reveals one or more, so sweeps are finite).
            return [A.DRAW, A.PASS, *reserves, A.SWEEP]
        return [A.DRAW, A.PASS, *reqs, *bids, *reserves]

    # ---- applying ------------------------------------------------------------------
    def _run(self) -> None:
        """Execute follow-up steps until a real decision (or the end) is reached."""
        steps = self.steps
        while True:
            dk = self.dk
            if dk == NONE:
                step = steps.pop()
                code = step[0]
                if code == S_DRAW:
                    self._step_draw(step[1], step[2], step[3])
                elif code == S_END_TURN:
                    self._step_end_turn(step[1])
                elif code == S_REFILL:
                    self._step_refill(step[1])
                elif code == S_CHOOSE:
                    self._step_choose(step[1], step[2])
                elif code == S_BLADE:
                    self._step_blade(step[1])
                else:  # S_BEGIN
                    self._log(("round", 1))
                    self.supply_empty_round = self._supply_dry()
                    self._start_turn(self.first)
                continue
            if dk == A.D_TURN or dk == A.D_OVER:
                return
            legal = self._compute_legal()
            if len(legal) == 1:  # a forced sub-decision is not a choice
                self._do(legal[0])
                continue
            self._legal = legal
            return

    def _do(self, a: int) -> None:
        dk, p = self.dk, self.dseat
        self.dk = NONE
        if dk == A.D_TURN:
            self._do_turn(p, a)
        elif dk == A.D_PAY:
            self._do_pay(p, a)
        elif dk == A.D_CHOOSE:
            self._do_choose(p, a - A.CHOOSE_MAT)
        elif dk == A.D_BLADE:
            self._do_blade(p, a - A.RETURN_COMP)
        elif dk == A.D_OPEN_BID:
            self.a_high, self.a_seat = a - A.BID, p
            self.a_queue = tuple((p + i) % self.n for i in range(1, self.n))
            self._log(("open", p, self.row[self.a_slot], self.a_high, self.a_slot))
            self._next_bidder()
        else:  # D_RAISE
            if a == A.BID_PASS:
                self._log(("decline", p))
            else:
                self.a_high, self.a_seat = a - A.BID, p
                self._log(("raise", p, self.a_high))
            self._next_bidder()

    def _do_turn(self, p: int, a: int) -> None:
        self.steps.append((S_END_TURN, p))
        if a <= A.PASS:
            self.draw_pass[p] += 1  # U17 counts these for the tie-break
            self._log(("action", p, "draw" if a == A.DRAW else "pass"))
            self.steps.append((S_DRAW, p, 2 if a == A.DRAW else 1, "draw"))
        elif a == A.SWEEP:
            self.draw_pass[p] += 1  # a non-claim turn: counted with Draw/Pass (U17)
            self._sweep(p)
        elif a < A.BID_SLOT:
            self._start_requisition(p, a - A.REQ)
        elif a < A.RESERVE:
            self.a_slot, self.a_opener = a - A.BID_SLOT, p
            self.dk, self.dseat = A.D_OPEN_BID, p
        else:
            s = a - A.RESERVE
            patch = self._remove_from_hand(p, PATCH, 0)
            self.npatch[p] -= 1
            self.rpatch[s], self.resv[s] = patch, p
            self._log(("reserve", p, self.row[s], s))

    def _sweep(self, p: int) -> None:
        """Designer option row_sweep: the unreserved Row cards go face-up (so their identity is
        public) to the bottom of the Build Deck in slot order, then every empty slot is refilled
        from the top. Cards left the Row, so the stall rule (U13) sees a moving Row; the game stays
        finite because a sweep is legal only while the deck holds unseen cards, and each sweep
        draws at least one of them into the Row (swept cards lie below them, seen)."""
        row, deck = self.row, self.bdeck
        swept = []
        for s in range(ROW):
            if row[s] >= 0 and self.resv[s] < 0:
                swept.append(row[s])
                deck.insert(0, row[s])
                row[s] = -1
        self.bknown += len(swept)
        self.row_moved = True
        self._log(("sweep", p, tuple(swept)))
        added = []
        for s in range(ROW):
            if row[s] < 0 and self.resv[s] < 0 and deck:
                row[s] = self._take_build()
                added.append(row[s])
        self._log(("refill", tuple(added)))

    def _supply_dry(self) -> bool:
        """No card can be drawn: the Supply Deck is empty (and, under the U3 reshuffle, so is
        the supply discard it would be rebuilt from)."""
        if self.supply:
            return False
        return not (self.sdisc and self.game.options["supply_reshuffle"])

    def _reshuffle_supply(self) -> None:
        """U3 (option supply_reshuffle, default on): the supply discard becomes the Supply Deck,
        shuffled by the state's generator."""
        self.supply, self.sdisc = self.sdisc, []
        if not self.lazy:  # a determinization draws its deck at random anyway
            self._rand().shuffle(self.supply)
        sub = self.t.sub
        present = 0
        for c in self.supply:
            present |= 1 << sub[c]
        self.sgone = 15 & ~present  # the new deck's kinds were public (the discard is face-up)
        self._log(("reshuffle", len(self.supply)))

    def _start_requisition(self, p: int, s: int) -> None:
        t = self.t
        c = self.row[s]
        k = t.kind[c]
        self._clear_payment()
        self.pay_for, self.pay_slot, self.pay_patch_ok = A.FOR_REQUISITION, s, True
        if k == COMPONENT:
            self.pay_kind, self.pay_spec = A.NEED_SPECIFIC, t.component_cost[t.sub[c]]
            self.pay_n = 2
        elif k == COMPUTER:
            self.pay_kind, self.pay_n = A.NEED_TYPES, 3
        elif k == NETWORK:
            self.pay_kind, self.pay_n = A.NEED_ANY, self._net_cost(c, p)
            if self.tower[p]:
                self.tower[p] = 0  # U8: the discount is used by this Network
                self._log(("tower", p))
        else:  # PATCH (U4: claim cost option)
            self.pay_kind, self.pay_n = A.NEED_ANY, self.game.options["patch_cost"]
        if self.pay_n:
            self.dk, self.dseat = A.D_PAY, p
        else:
            self._complete_payment(p)

    def _remove_from_hand(self, p: int, kind: int, sub: int) -> int:
        t = self.t
        h = self.hand[p]
        for i in range(len(h) - 1, -1, -1):
            c = h[i]
            if t.kind[c] == kind and t.sub[c] == sub:
                del h[i]
                return c
        raise AssertionError("card not in hand")  # pragma: no cover

    def _remove_component(self, p: int, ctype: int) -> int:
        t = self.t
        tab = self.tab[p]
        for i in range(len(tab) - 1, -1, -1):
            c = tab[i]
            if t.kind[c] == COMPONENT and t.sub[c] == ctype:
                del tab[i]
                self.ctype[p * 6 + ctype] -= 1
                return c
        raise AssertionError("component not in tableau")  # pragma: no cover

    def _do_pay(self, p: int, a: int) -> None:
        if a < A.PAY_COMP:
            m = a - A.PAY_MAT
            c = self._remove_from_hand(p, MATERIAL, m)
            i = p * 4 + m
            self.mats[i] -= 1
            if self.known[i]:
                self.known[i] -= 1
            self.sdisc.append(c)  # U3: paid materials go face-up to the supply
        elif a < A.PAY_PATCH:
            c = self._remove_component(p, a - A.PAY_COMP)
            self.pay_used |= 1 << (a - A.PAY_COMP)
            self.bdisc.append(c)
        else:
            c = self._remove_from_hand(p, PATCH, 0)
            self.npatch[p] -= 1
            self.bdisc.append(c)
        self.pay_paid = (*self.pay_paid, c)
        if self.pay_kind == A.NEED_SPECIFIC:
            self.pay_spec = self.pay_spec[1:]
        self.pay_n -= 1
        if self.pay_n:
            self.dk, self.dseat = A.D_PAY, p
        else:
            self._complete_payment(p)

    def _complete_payment(self, p: int) -> None:
        t = self.t
        steps = self.steps
        paid = self.pay_paid
        if self.pay_for == A.FOR_AUCTION:
            s = self.a_slot
            c = self.row[s]
            self.row[s] = -1
            self.tab[p].append(c)
            self.ncontract[p] += 1
            self._log(("win", p, c, self.a_high, paid))
            self.a_slot = self.a_opener = self.a_high = self.a_seat = -1
        else:
            s = self.pay_slot
            c = self.row[s]
            self.row[s] = -1
            self._log(("claim", p, c, paid, s))
            k = t.kind[c]
            if k == PATCH:
                self.hand[p].append(c)  # U3: a Patch goes to hand
                self.npatch[p] += 1
            else:
                self.tab[p].append(c)
                if k == COMPONENT:
                    self.ctype[p * 6 + t.sub[c]] += 1
                elif k == COMPUTER:
                    self.ncomp[p] += 1
        self.row_moved = True
        self.acq = ((p, c), self.acq)
        self._clear_payment()
        self._check_milestone(p)
        # U6: a Supply Shortage skips the refill of the next claim after its reveal. One revealed
        # while this claim resolves (by the Blade's draw) waits for the following claim.
        steps.append((S_REFILL, self.shortage))
        if t.kind[c] == COMPUTER:
            ability = t.sub[c]
            if ability == WORKSTATION:
                steps.append((S_CHOOSE, p, "Workstation"))
            elif ability == BLADE:
                steps.append((S_DRAW, p, 1, "blade"))  # U7: then draw the top Supply card
                steps.append((S_BLADE, p))
            elif ability == TOWER:
                self.tower[p] = 1
            else:
                self.mainframe[p] = 1
                self._check_milestone(p)

    def _next_bidder(self) -> None:
        """U10: clockwise once around; a seat that cannot raise passes by itself."""
        need_computer = self.game.options["raise_requires_computer"]
        mats = self.mats
        while self.a_queue:
            q, self.a_queue = self.a_queue[0], self.a_queue[1:]
            b = q * 4
            can = mats[b] + mats[b + 1] + mats[b + 2] + mats[b + 3] > self.a_high
            if can and (not need_computer or self.ncomp[q] >= 1):
                self.dk, self.dseat = A.D_RAISE, q
                return
            self._log(("cannot_raise", q))
        # Everyone answered: only the winner pays (U10), in materials, no Patch (U4).
        self._clear_payment()
        self.pay_for, self.pay_kind, self.pay_n = A.FOR_AUCTION, A.NEED_ANY, self.a_high
        self.dk, self.dseat = A.D_PAY, self.a_seat

    def _do_choose(self, p: int, m: int) -> None:
        """U5: from the supply discard first, else the Supply Deck (then shuffled)."""
        t = self.t
        src = ""
        for i in range(len(self.sdisc) - 1, -1, -1):
            c = self.sdisc[i]
            if t.kind[c] == MATERIAL and t.sub[c] == m:
                del self.sdisc[i]
                src = "discard"
                break
        else:
            for i, c in enumerate(self.supply):
                if t.kind[c] == MATERIAL and t.sub[c] == m:
                    del self.supply[i]
                    if not self.lazy:  # a lazy deck is drawn at random anyway
                        self._rand().shuffle(self.supply)
                    src = "deck"
                    break
        if not src:
            self.choose_excl |= 1 << m
            self.sgone |= 1 << m  # public: none in the Supply Deck now, until a reshuffle (U3)
            self._log(("gone", p, m))
            if self._any_material_left(self.choose_excl):
                self.dk, self.dseat = A.D_CHOOSE, p  # name another kind
            else:
                self.sgone = 15
            return
        self.hand[p].append(c)
        self.mats[p * 4 + m] += 1
        self.known[p * 4 + m] += 1  # everyone saw which kind was taken
        self._log(("take", p, m, src, self.choose_reason))

    def _any_material_left(self, excl: int = 0) -> bool:
        """Whether a material of a kind not in the mask `excl` is in the discard or the deck."""
        kind, sub = self.t.kind, self.t.sub
        for zone in (self.sdisc, self.supply):
            for c in zone:
                if kind[c] == MATERIAL and not excl >> sub[c] & 1:
                    return True
        return False

    def _do_blade(self, p: int, ctype: int) -> None:
        c = self._remove_component(p, ctype)
        self.bdeck.insert(0, c)  # U7: to the bottom of the Build Deck, face known to all
        self.bknown += 1
        self._log(("return", p, c))

    # ---- steps ---------------------------------------------------------------------
    def _step_draw(self, p: int, n: int, why: str) -> None:
        """Draw n Supply cards; a Twist resolves, leaves the game and is replaced (U6)."""
        t = self.t
        supply = self.supply
        hand = self.hand[p]
        mats = self.mats
        got = 0
        wanted = n
        while n:
            if not supply:
                if not (self.sdisc and self.game.options["supply_reshuffle"]):
                    break
                self._reshuffle_supply()
                supply = self.supply
            if self.lazy:  # a determinization's Supply Deck is in no fixed order
                i = int(self._rand().random() * len(supply))
                supply[i], supply[-1] = supply[-1], supply[i]
            c = supply.pop()
            if t.kind[c] == MATERIAL:
                hand.append(c)
                mats[p * 4 + t.sub[c]] += 1
                got += 1
                n -= 1
                continue
            self.removed.append(c)
            if t.sub[c] == SURGE:
                if got:  # the cards before the Twist, then the Twist, then the replacement
                    self._log(("got", p, got, why, got))
                self._log(("twist", p, c))
                if n:
                    self.steps.append((S_DRAW, p, n, why))  # the replacement, after the choices
                self.steps.append((S_CHOOSE, p, "Power Surge"))
                self.steps.append((S_CHOOSE, p, "Power Surge"))
                return
            self.shortage = True
            self._log(("twist", p, c))
            self._log(("shortage_pending",))
        self._log(("got", p, got, why, wanted))

    def _step_choose(self, p: int, reason: str) -> None:
        if not self._any_material_left():
            self.sgone = 15  # public: no material in the Supply Deck (nor the discard)
            self._log(("nothing", p, reason))
            return
        self.choose_excl, self.choose_reason = 0, reason
        self.dk, self.dseat = A.D_CHOOSE, p

    def _step_blade(self, p: int) -> None:
        if any(self.ctype[p * 6 : p * 6 + 6]):
            self.dk, self.dseat = A.D_BLADE, p
        else:
            self._log(("no_return", p))

    def _step_refill(self, skip: bool) -> None:
        """After a claim: refill the row (U12 end check), or skip once (U6); 2p discard (U16).

        `skip`: a Supply Shortage was pending when the claim was made."""
        row = self.row
        if skip:
            self.shortage = False
            self._log(("skip_refill",))
        elif not self.bdeck:
            self._trigger_end("build_deck_empty", self.dseat)
        else:
            added = []
            for s in range(ROW):
                if row[s] < 0 and self.bdeck:
                    row[s] = self._take_build()
                    added.append(row[s])
            self._log(("refill", tuple(added)))
        if self.n == 2 and self.bdeck:
            c = self._take_build()
            self.bdisc.append(c)
            self._log(("discard_top", c))

    def _step_end_turn(self, p: int) -> None:
        self.turns[p] += 1
        self.total_turns += 1
        n = self.n
        if p == (self.first + n - 1) % n:  # the round is complete
            if self.end_pending:
                self._finish()
                return
            if self.game.options["stall_end"]:
                if self.supply_empty_round and not self.row_moved:
                    self.end_reason = "stall"  # U13
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
            self.supply_empty_round = self._supply_dry()
        self._start_turn((p + 1) % n)

    def _start_turn(self, p: int) -> None:
        self.turn_seat = p
        for s in range(ROW):
            if self.resv[s] == p:  # U4: the Patch is discarded at the start of your next turn
                self.bdisc.append(self.rpatch[s])
                self._log(("unreserve", p, self.row[s]))
                self.resv[s] = self.rpatch[s] = -1
        self.dk, self.dseat = A.D_TURN, p

    def _finish(self) -> None:
        self.dk, self.dseat = A.D_OVER, TERMINAL_PLAYER
        self.steps.clear()
        self._log(("end", self.end_reason))
        winner, level = scoring.rank(self)
        final = tuple(scoring.breakdown(self, q) for q in range(self.n))
        facts = tuple((self.ncomp[q], self.ncontract[q], self.draw_pass[q]) for q in range(self.n))
        self._log(("final", final, winner, level, facts, self.first))
