"""UPTIME personas: two bots with distinct, readable strategies.

Both read only what their seat may know from the state they are handed (already
a resample from their seat's view): their own hand, the Build Row, tableaus,
hand sizes. Ties are broken by the persona's own generator.
"""

from __future__ import annotations

from cardlab.agents.base import Agent, register_agent
from cardlab.core import GameState


def _check(state: GameState, kind: str) -> None:
    if state.game.name != "uptime":
        raise ValueError(f"persona {kind!r} plays UPTIME only, not {state.game.name!r}")


class _UptimeBot(Agent):
    """Shared sub-decision habits: pay with what you have most of, keep Patches,
    keep one of each Component type, take the material your wanted Component lacks."""

    kind = "uptime-bot"

    def step(self, state: GameState) -> int:
        _check(state, self.kind)
        from cardlab.games.uptime import actions as A

        legal = state.legal_actions()
        kind = state.decision_kind()
        if kind == "turn":
            return self.turn(state, legal)
        me = state.current_player()
        s = state
        if kind == "pay":
            return self._pay(s, me, legal)
        if kind == "choose_material":
            want = self._wanted_material(s, me)
            pick = A.CHOOSE_MAT + want if want is not None else None
            return pick if pick in legal else self.rng.choice(legal)
        if kind == "blade_return":
            ct = s.ctype[me * 6 : me * 6 + 6]
            return max(legal, key=lambda a: (ct[a - A.RETURN_COMP], self.rng.random()))
        if kind == "opening_bid":
            return self.opening_bid(s, me, legal)
        return self.raise_or_pass(s, me, legal)

    # -- helpers ------------------------------------------------------------------
    def _pay(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        mats = s.mats[me * 4 : me * 4 + 4]
        ct = s.ctype[me * 6 : me * 6 + 6]
        no_patch = [a for a in legal if a != A.PAY_PATCH] or legal

        def score(a: int) -> float:
            if A.PAY_MAT <= a < A.PAY_COMP:
                return mats[a - A.PAY_MAT]
            if A.PAY_COMP <= a < A.PAY_PATCH:
                return ct[a - A.PAY_COMP]
            return -1.0

        return max(no_patch, key=lambda a: (score(a), self.rng.random()))

    def _wanted_material(self, s, me: int) -> int | None:  # type: ignore[no-untyped-def]
        """The material that would let us requisition a Component type we lack."""
        from cardlab.games.uptime.cards import COMPONENT

        t = s.t
        mats = s.mats[me * 4 : me * 4 + 4]
        for c in s.row:
            if c >= 0 and t.kind[c] == COMPONENT and not s.ctype[me * 6 + t.sub[c]]:
                a, b = t.component_cost[t.sub[c]]
                if mats[a] and not mats[b]:
                    return b
                if mats[b] and not mats[a]:
                    return a
        return min(range(4), key=lambda m: (mats[m], self.rng.random()))

    def _labelled(self, s, legal: list[int]):  # type: ignore[no-untyped-def]
        """Legal turn actions grouped by what they claim."""
        from cardlab.games.uptime import actions as A
        from cardlab.games.uptime.cards import COMPONENT, COMPUTER, NETWORK, PATCH

        t = s.t
        groups: dict[str, list[int]] = {
            "computer": [],
            "network": [],
            "component": [],
            "patch": [],
            "bid": [],
        }
        for a in legal:
            if A.REQ <= a < A.BID_SLOT:
                k = t.kind[s.row[a - A.REQ]]
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

    def _new_type_components(self, s, me: int, comps: list[int]) -> list[int]:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        t = s.t
        return [a for a in comps if not s.ctype[me * 6 + t.sub[s.row[a - A.REQ]]]]

    def _draw(self, s) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        return A.DRAW

    def turn(self, s, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
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

    def bias(self, s, me: int, action: int, group: str) -> float:  # type: ignore[no-untyped-def]
        return 0.0

    def opening_bid(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        return legal[0]

    def raise_or_pass(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
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

    def turn(self, s, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        me = s.current_player()
        t = s.t
        g = self._labelled(s, legal)
        rnd = self.rng.random
        if g["computer"]:
            return max(g["computer"], key=lambda a: (t.sub[s.row[a - A.REQ]] == 3, rnd()))
        if g["network"]:
            return self.rng.choice(g["network"])
        if g["bid"]:
            return max(g["bid"], key=lambda a: (t.value[s.row[a - A.BID_SLOT]], rnd()))
        types = sum(1 for x in s.ctype[me * 6 : me * 6 + 6] if x)
        patches = s.npatch[me]
        mats = s.mats[me * 4 : me * 4 + 4]
        fresh = self._new_type_components(s, me, g["component"])
        if fresh:

            def patch_free(a: int) -> bool:
                x, y = t.component_cost[t.sub[s.row[a - A.REQ]]]
                return bool(mats[x] and mats[y])

            cheap = [a for a in fresh if patch_free(a)]
            if cheap:  # a Patch spent on a Component only trades one wild type for one type
                return self.rng.choice(cheap)
        if g["patch"] and types + patches < 3:
            return self.rng.choice(g["patch"])
        if A.SWEEP in legal:
            return A.SWEEP
        if s.supply or (s.sdisc and s.game.options.get("supply_reshuffle")):
            return A.DRAW
        return A.PASS

    def raise_or_pass(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

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

    def bias(self, s, me: int, action: int, group: str) -> float:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        if group == "bid":
            return 2.0 + 0.3 * s.t.value[s.row[action - A.BID_SLOT]]
        if s.ncomp[me] == 0 and group in ("computer", "component"):
            return 1.0  # the ticket to open bidding
        if action == A.DRAW:
            return 0.5  # hoard
        if group in ("network", "patch") or action >= A.RESERVE:
            return -1.0
        return 0.0

    def _prize(self, s) -> int:  # type: ignore[no-untyped-def]
        return s.t.value[s.row[s.a_slot]]

    def opening_bid(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        rivals = max(sum(s.mats[q * 4 : q * 4 + 4]) for q in range(s.n) if q != me)
        target = min(rivals + 1, self._prize(s))
        bids = [a - A.BID for a in legal]
        return A.BID + max(1, min(target, max(bids)))

    def raise_or_pass(self, s, me: int, legal: list[int]) -> int:  # type: ignore[no-untyped-def]
        from cardlab.games.uptime import actions as A

        cheapest = [a for a in legal if a != A.BID_PASS]
        if cheapest and min(cheapest) - A.BID < self._prize(s):
            return min(cheapest)
        return A.BID_PASS
