"""UPTIME personas: two bots with distinct, readable strategies.

Both read only what their seat may know from the state they are handed (already
a resample from their seat's view): their own hand, the Build Row, tableaus,
hand sizes. Ties are broken by the persona's own generator.
"""

from __future__ import annotations

from typing import cast

from cardlab.agents.base import Agent, register_agent
from cardlab.core import GameState
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import COMPONENT, COMPUTER, NETWORK, PATCH
from cardlab.games.uptime.state import UptimeState


def _check(state: GameState, kind: str) -> None:
    if state.game.name != "uptime":
        raise ValueError(f"persona {kind!r} plays UPTIME only, not {state.game.name!r}")


class _UptimeBot(Agent):
    """Shared sub-decision habits: pay with what you have most of, keep Patches,
    keep one of each Component type, take the material your wanted Component lacks."""

    kind = "uptime-bot"

    def step(self, state: GameState) -> int:
        _check(state, self.kind)
        legal = state.legal_actions()
        kind = state.decision_kind()
        if kind == "turn":
            return self.turn(cast(UptimeState, state), legal)
        me = state.current_player()
        s = cast(UptimeState, state)
        if kind == "pay":
            return self._pay(s, me, legal)
        if kind in ("discard", "trade_in"):  # levers hand_limit, trade_in
            return self._give(s, me, legal)
        if kind == "choose_material":
            want = self._wanted_material(s, me)
            pick = A.CHOOSE_MAT + want if want is not None else None
            return pick if pick in legal else self.rng.choice(legal)
        if kind == "blade_return":
            ct = s.component_types_of(me)
            return max(legal, key=lambda a: (ct[a - A.RETURN_COMP], self.rng.random()))
        if kind == "opening_bid":
            return self.opening_bid(s, me, legal)
        return self.raise_or_pass(s, me, legal)

    # -- helpers ------------------------------------------------------------------
    def _pay(self, s: UptimeState, me: int, legal: list[int]) -> int:
        mats = s.materials_of(me)
        ct = s.component_types_of(me)
        no_patch = [a for a in legal if a != A.PAY_PATCH] or legal

        def score(a: int) -> float:
            if A.PAY_MAT <= a < A.PAY_COMP:
                return mats[a - A.PAY_MAT]
            if A.PAY_COMP <= a < A.PAY_PATCH:
                return ct[a - A.PAY_COMP]
            return -1.0

        return max(no_patch, key=lambda a: (score(a), self.rng.random()))

    def _give(self, s: UptimeState, me: int, legal: list[int]) -> int:
        """A card to part with (a discard down to the hand limit, a trade-in): the material
        the seat needs least, i.e. the one it holds most of that no Row Component of a
        missing type asks for; a Patch (wild) only when nothing else is left."""
        mats = s.materials_of(me)
        needed = {m for pair in s._row_needs(me) for m in pair}

        def spare(a: int) -> tuple[float, ...]:
            if a == A.PAY_PATCH:
                return (-1.0, 0.0, 0.0)
            m = a - A.PAY_MAT
            return (float(m not in needed), float(mats[m]), self.rng.random())

        return max(legal, key=spare)

    def _trade_helps(self, s: UptimeState, me: int) -> bool:
        """A trade-in completes a needed cost: the seat holds one material of a Row Component
        of a missing type and, after giving `trade_in` others (not that one), can pay it."""
        k = s.columns.trade_in
        want = s.wanted_material(me)
        if not k or want < 0 or s.columns.trade_action not in s.legal_actions():
            return False
        mats = s.materials_of(me)
        keep = {m for pair in s._row_needs(me) for m in pair if mats[m]}
        spare = sum(mats[m] - (1 if m in keep else 0) for m in range(len(mats)))
        return spare >= k

    def _wanted_material(self, s: UptimeState, me: int) -> int | None:
        """The material that would let us requisition a Component type we lack."""
        t = s.table
        mats = s.materials_of(me)
        owned = s.component_types_of(me)
        for c in s.build_row:
            if c >= 0 and t.kind[c] == COMPONENT and not owned[t.sub[c]]:
                a, b = t.component_cost[t.sub[c]]
                if mats[a] and not mats[b]:
                    return b
                if mats[b] and not mats[a]:
                    return a
        return min(range(len(mats)), key=lambda m: (mats[m], self.rng.random()))

    def _labelled(self, s: UptimeState, legal: list[int]) -> dict[str, list[int]]:
        """Legal turn actions grouped by what they claim."""
        t = s.table
        groups: dict[str, list[int]] = {
            "computer": [],
            "network": [],
            "component": [],
            "patch": [],
            "bid": [],
        }
        for a in legal:
            if A.REQ <= a < A.BID_SLOT:
                k = t.kind[s.row_card(a - A.REQ)]
                name = {
                    COMPUTER: "computer",
                    NETWORK: "network",
                    COMPONENT: "component",
                    PATCH: "patch",
                }[k]
                groups[name].append(a)
            elif A.BID_SLOT <= a < A.RESERVE:
                groups["bid"].append(a)
        return groups

    def _new_type_components(self, s: UptimeState, me: int, comps: list[int]) -> list[int]:
        t = s.table
        owned = s.component_types_of(me)
        return [a for a in comps if not owned[t.sub[s.row_card(a - A.REQ)]]]

    def turn(self, s: UptimeState, legal: list[int]) -> int:
        """One-step lookahead on the game's heuristic plus this persona's bias."""
        me = s.current_player()
        groups = self._labelled(s, legal)
        group_of = {a: name for name, acts in groups.items() for a in acts}
        best, best_value = legal[0], float("-inf")
        for a in legal:
            child = s.clone()
            child.apply_action(a)
            value = child.heuristic_value(me) + self.bias(s, me, a, group_of.get(a, "other"))
            value += 1e-6 * self.rng.random()
            if value > best_value:
                best, best_value = a, value
        return best

    def bias(self, s: UptimeState, me: int, action: int, group: str) -> float:
        return 0.0

    def opening_bid(self, s: UptimeState, me: int, legal: list[int]) -> int:
        return legal[0]

    def raise_or_pass(self, s: UptimeState, me: int, legal: list[int]) -> int:
        return legal[0]


@register_agent("converter")
class Converter(_UptimeBot):
    """Builds Computers whenever the rules allow, by plan rather than by lookahead.

    Turn, in order: claim a Computer (3 Component types or Patches ready); claim a
    Network (2+ Computers); open a bid on the best Contract once it owns a Computer
    (the Cloud Milestone); buy a Component of a type it lacks (paid in materials if it
    can: a Patch spent there would only trade a wild type for one type); claim a Patch (a wild
    Component type); sweep the Build Row when the designer option allows
    and nothing in it is claimable; otherwise Draw (2 cards beat Pass's 1), and Pass
    only when the Supply is dry. It never reserves: a turn is one action, so a
    reservation cannot speed its own Computer (it only denies a rival). It never raises in an auction: its materials are
    meant for Components. Payments keep Patches and one of each Component type; free
    materials complete a Component it lacks."""

    kind = "converter"

    def turn(self, s: UptimeState, legal: list[int]) -> int:
        me = s.current_player()
        t = s.table
        g = self._labelled(s, legal)
        rnd = self.rng.random
        if g["computer"]:
            return max(g["computer"], key=lambda a: (t.sub[s.row_card(a - A.REQ)] == 3, rnd()))
        if g["network"]:
            return self.rng.choice(g["network"])
        if g["bid"]:
            return max(g["bid"], key=lambda a: (t.value[s.row_card(a - A.BID_SLOT)], rnd()))
        types = s.distinct_component_types(me)
        patches = s.patches[me]
        mats = s.materials_of(me)
        fresh = self._new_type_components(s, me, g["component"])
        if fresh:

            def patch_free(a: int) -> bool:
                x, y = t.component_cost[t.sub[s.row_card(a - A.REQ)]]
                return bool(mats[x] and mats[y])

            cheap = [a for a in fresh if patch_free(a)]
            if cheap:  # a Patch spent on a Component only trades one wild type for one type
                return self.rng.choice(cheap)
        if g["patch"] and types + patches < 3:
            return self.rng.choice(g["patch"])
        if self._trade_helps(s, me):  # lever trade_in: buy the material a Component lacks
            return s.columns.trade_action
        if A.SWEEP in legal:
            return A.SWEEP
        if s.can_draw():
            return A.DRAW
        return A.PASS

    def raise_or_pass(self, s: UptimeState, me: int, legal: list[int]) -> int:
        return A.BID_PASS


@register_agent("auctioneer")
class Auctioneer(_UptimeBot):
    """Hoards raw materials and wins Contracts in auctions.

    Turn: one-step lookahead on the game's heuristic, biased toward opening bids
    (+2, more for valuable Contracts), toward its first Computer (the ticket to
    open bidding) and toward Draw (hoarding, +0.5), against Networks, Patches and
    Reserves. It opens just above what any rival could raise to, capped at the
    Contract's value, and raises rivals' auctions while the price stays below the
    value. Unspent materials still score 1 point per 3 at the end."""

    kind = "auctioneer"

    def bias(self, s: UptimeState, me: int, action: int, group: str) -> float:
        if action == s.columns.trade_action:  # lever trade_in: only to reach its first Computer
            return 0.5 if s.computers[me] == 0 and self._trade_helps(s, me) else -1.0
        if group == "bid":
            return 2.0 + 0.3 * s.table.value[s.row_card(action - A.BID_SLOT)]
        if s.computers[me] == 0 and group in ("computer", "component"):
            return 1.0  # the ticket to open bidding
        if action == A.DRAW:
            return 0.5  # hoard
        if group in ("network", "patch") or action >= A.RESERVE:
            return -1.0
        return 0.0

    def _prize(self, s: UptimeState) -> int:
        return s.table.value[s.auction_contract()]

    def opening_bid(self, s: UptimeState, me: int, legal: list[int]) -> int:
        rivals = max(s.material_count(q) for q in range(s.num_players) if q != me)
        target = min(rivals + 1, self._prize(s))
        bids = [a - A.BID for a in legal]
        return A.BID + max(1, min(target, max(bids)))

    def raise_or_pass(self, s: UptimeState, me: int, legal: list[int]) -> int:
        cheapest = [a for a in legal if a != A.BID_PASS]
        if cheapest and min(cheapest) - A.BID < self._prize(s):
            return min(cheapest)
        return A.BID_PASS
