"""What each seat may know: observation, zones, labels, resampling, lab info.

A mixin of RunwayState so the forward model (state.py) stays short. Hidden
information: another seat's hand is shown only as a count plus the cards
everyone saw it take from the Bench; the draw pile and the Deal deck only as
counts; the seed and the generator never appear.
"""

from __future__ import annotations

import operator
import random
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.games.runway.layout import (
    BLIND0,
    BLIND_TAKE,
    CARD_IDS,
    DEAL0,
    NUM_CAPITAL,
    OVER,
    PASS,
    PITCH,
    ROLE_NAMES,
    SECTOR0,
    SKIP,
    SWAP0,
    TAKE0,
    closing_winner,
)


class KnowledgeMixin:
    """Views of a RunwayState; see the module docstring."""

    __slots__ = ()

    # -- card descriptions ----------------------------------------------------------
    def capital_label(self, card: int) -> str:
        return f"{self.cards.kinds[card >> 3].name} {(card & 7) + 1}"  # type: ignore[attr-defined]

    def capital_view(self, card: int) -> dict[str, Any]:
        kind = self.cards.kinds[card >> 3]  # type: ignore[attr-defined]
        return {
            "id": CARD_IDS[card],
            "name": f"{kind.name} {(card & 7) + 1}",
            "kind": kind.name,
            "number": (card & 7) + 1,
            "symbol": kind.symbol,
            "colour": kind.colour,
            "line_mark": kind.line_mark,
        }

    def deal_view(self, card: int, shocks: int | None = None) -> dict[str, Any]:
        c = self.cards  # type: ignore[attr-defined]
        i = card - DEAL0
        view = {
            "id": CARD_IDS[card],
            "name": c.deals[i].name,
            "sector": c.sectors[c.deal_sector[i]],
            "score": c.deal_score[i],
            "hype": c.deal_hype[i],
        }
        if shocks is not None:
            view["shocks"] = shocks
        return view

    def deal_label(self, card: int) -> str:
        c = self.cards  # type: ignore[attr-defined]
        i = card - DEAL0
        return f"{c.deals[i].name} ({c.sectors[c.deal_sector[i]]}, {c.deal_score[i]})"

    # -- labels -----------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        s: Any = self
        if 0 <= action < NUM_CAPITAL:
            role = s._role(action) if s.deal >= DEAL0 else 0
            return f"pitch {self.capital_label(action)} ({ROLE_NAMES[role]})"
        if action == PASS:
            return "pass (then trade)"
        if SWAP0 <= action < BLIND0:
            card, slot = divmod(action - SWAP0, 3)
            took = self.capital_label(s.bench[slot]) if slot < len(s.bench) else f"slot {slot}"
            return f"trade {self.capital_label(card)} for Bench {took}"
        if BLIND0 <= action < SKIP:
            return f"discard {self.capital_label(action - BLIND0)} and draw blind"
        if action == SKIP:
            return "skip the trade"
        if TAKE0 <= action < BLIND_TAKE:
            slot = action - TAKE0
            took = self.capital_label(s.bench[slot]) if slot < len(s.bench) else f"slot {slot}"
            return f"take Bench {took} (empty hand)"
        if action == BLIND_TAKE:
            return "draw a blind card (empty hand)"
        return f"unknown action {action}"

    def log_text(self) -> list[str]:
        """The public log as text (each event's text is cached on the card data)."""
        cache = self.cards.event_text  # type: ignore[attr-defined]
        out = []
        for ev in self.log:  # type: ignore[attr-defined]
            text = cache.get(ev)
            if text is None:
                text = cache[ev] = self.describe(ev)
            out.append(text)
        return out

    def describe(self, ev: tuple[Any, ...]) -> str:
        """One public log event as text."""
        kind = ev[0]
        if kind == "flip":
            tucked = f" with {ev[2]} Shock(s) tucked under it" if ev[2] else ""
            return f"Deal flipped: {self.deal_label(ev[1])}{tucked}"
        if kind == "last":
            return f"seat {ev[1]} pitches last on this Deal"
        if kind == "pitch":
            return f"seat {ev[1]} pitches {self.capital_label(ev[2])} ({ROLE_NAMES[ev[3]]})"
        if kind == "pass":
            return f"seat {ev[1]} passes"
        if kind == "skip":
            return f"seat {ev[1]} skips the trade"
        if kind == "swap":
            return (
                f"seat {ev[1]} trades {self.capital_label(ev[2])} for Bench "
                f"{self.capital_label(ev[3])}"
            )
        if kind == "blind":
            return f"seat {ev[1]} discards {self.capital_label(ev[2])} and draws a blind card"
        if kind == "take":
            refill = "nothing" if ev[3] < 0 else self.capital_label(ev[3])
            return (
                f"seat {ev[1]} takes Bench {self.capital_label(ev[2])} with an empty hand; "
                f"the Bench refills with {refill}"
            )
        if kind == "blind_take":
            return f"seat {ev[1]} draws a blind card with an empty hand"
        if kind == "reshuffle":
            return f"the discard ({ev[1]} cards) is shuffled into the draw pile"
        if kind == "win":
            return f"seat {ev[1]} wins {self.deal_label(ev[2])} for {ev[3]}"
        if kind == "dump":
            return f"{self.deal_label(ev[1])} is Dumped: nobody competed"
        if kind == "ride":
            return f"seat {ev[1]} is paid 1 for a Network Ride"
        if kind == "draw":
            return f"seat {ev[1]} draws {ev[2]} card(s) back up"
        if kind == "foothold":
            sector = self.cards.sectors[ev[2]]  # type: ignore[attr-defined]
            if ev[3] < 0:
                return f"seat {ev[1]} has no Foothold left to place in {sector}"
            lock = f", locking it for +{ev[3]}" if ev[3] else ""
            return f"seat {ev[1]} places a Foothold in {sector}{lock}"
        if kind == "hype":
            return f"Hype is now {ev[1]}"
        if kind == "end":
            return f"the 12th Deal closed; Sector bonuses {list(ev[1])}"
        return str(ev)

    # -- observation ---------------------------------------------------------------------
    def _seat(self, player: Any) -> int:
        """`player` as a seat number; anything else is a clear error."""
        n = self.n  # type: ignore[attr-defined]
        try:
            seat = operator.index(player)
        except TypeError:
            seat = -1
        if isinstance(player, bool) or not 0 <= seat < n:
            raise CardlabError(f"no seat {player!r} in a {n}-player game; seats are 0-{n - 1}")
        return seat

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know: the public view plus its own hand."""
        return self._view(self._seat(player))

    def public_observation(self) -> dict[str, Any]:
        """What everyone (players and spectators) may know, "seat": None: no hand;
        `known_in_hands` lists, for every seat, the cards everyone saw it take from
        the Bench (they stay public while they sit in that hand)."""
        return self._view(None)

    def _view(self, player: int | None) -> dict[str, Any]:
        """One builder for both views, so the public part can never drift from a
        seat's: with player None, every private part is left out."""
        s: Any = self
        c = s.cards
        cv = self.capital_view
        if s.phase == OVER:
            decision = "the game is over"
        elif s.phase == PITCH:
            decision = (
                f"seat {s.order[s.turn]}: pitch a Capital card on {self.deal_label(s.deal)} or pass"
            )
        else:
            decision = (
                f"seat {s.order[s.turn]}: trade after passing (swap with the Bench, "
                "discard and draw blind, or skip)"
            )
        known = {
            str(q): [cv(x) for x in sorted(h) if s.public[x]]
            for q, h in enumerate(s.hands)
            if q != player
        }
        obs = {
            "game": "runway",
            "seat": player,
            "num_players": s.n,
            "current_player": self.current_player(),  # type: ignore[attr-defined]
            "decision": decision,
            "phase": ("pitch", "trade", "over")[s.phase],
            "scores": list(s.rep),
            "log": self.log_text(),
            "sectors": list(c.sectors),
            "hype": s.hype,
            "hype_bonus": 2 if s.hype >= 10 else 1 if s.hype >= 5 else 0,
            "deal_in_play": self.deal_view(s.deal, len(s.deal_shocks)) if s.deal >= 0 else None,
            "next_deal": self.deal_view(s.next_deal, len(s.next_shocks))
            if s.next_deal >= 0
            else None,
            "deal_deck_count": len(s.deal_deck),
            "deals_closed": s.deals_closed,
            "bench": [cv(x) for x in s.bench],
            "pitched": [
                {"seat": q, "card": cv(x), "role": ROLE_NAMES[s._role(x)]} for q, x in s.pitched
            ],
            "pitch_order": list(s.order) if s.phase != OVER else [],
            "last_seat": s.last_seat,
        }
        if player is not None:  # the only private part
            obs["hand"] = [cv(x) for x in s.hands[player]]
        obs |= {
            "hand_sizes": [len(h) for h in s.hands],
            "known_in_hands": known,
            "discard": [cv(x) for x in s.discard],
            "draw_pile_count": len(s.pile),
            "reputation": list(s.rep),
            "footholds": [dict(zip(c.sectors, f, strict=True)) for f in s.footholds],
            "footholds_left": list(s.footholds_left),
            "sectors_locked": list(s.locked),
            "deals_won": [[self.deal_view(d) for d in w] for w in s.won],
            "dumped": [self.deal_view(d) for d in s.dumped],
            "rides_paid": list(s.rides),
        }
        return obs

    # -- zones, hidden cards, resampling ------------------------------------------------
    def zones(self) -> dict[str, list[str]]:
        s: Any = self
        ids = CARD_IDS
        z: dict[str, list[str]] = {}
        for q, h in enumerate(s.hands):
            z[f"private:{q}:hand"] = [ids[x] for x in h]
        z["public:bench"] = [ids[x] for x in s.bench]
        z["public:pitched"] = [ids[x] for _, x in s.pitched]
        z["public:discard"] = [ids[x] for x in s.discard]
        z["hidden:draw_pile"] = [ids[x] for x in s.pile]
        z["public:deal_in_play"] = [ids[s.deal]] if s.deal >= 0 else []
        z["public:shocks_under_deal_in_play"] = [ids[x] for x in s.deal_shocks]
        z["public:next_deal"] = [ids[s.next_deal]] if s.next_deal >= 0 else []
        z["public:shocks_under_next_deal"] = [ids[x] for x in s.next_shocks]
        z["hidden:deal_deck"] = [ids[x] for x in s.deal_deck]
        for q, w in enumerate(s.won):
            z[f"public:won_by_{q}"] = [ids[x] for x in w]
        z["public:dumped"] = [ids[x] for x in s.dumped]
        z["public:spent_shocks"] = [ids[x] for x in s.spent_shocks]
        z["public:sectors"] = [ids[SECTOR0 + i] for i in range(4)]
        return z

    def hidden_card_ids(self, player: int) -> set[str]:
        """Deck, draw pile and other hands, except cards seen taken from the Bench."""
        player = self._seat(player)
        s: Any = self
        ids = CARD_IDS
        hidden = {ids[x] for x in s.pile} | {ids[x] for x in s.deal_deck}
        for q, h in enumerate(s.hands):
            if q != player:
                hidden.update(ids[x] for x in h if not s.public[x])
        return hidden

    def public_hidden_card_ids(self) -> set[str]:
        """Deck, draw pile and every hand, except cards everyone saw taken from the Bench."""
        s: Any = self
        ids = CARD_IDS
        hidden = {ids[x] for x in s.pile} | {ids[x] for x in s.deal_deck}
        for h in s.hands:
            hidden.update(ids[x] for x in h if not s.public[x])
        return hidden

    def resample_from_infostate(self, player: int, seed: int) -> Any:
        """Redeal what `player` cannot see, consistently with what it knows.

        Unseen Capital cards are exchangeable only within a "generation": the
        cards dealt or drawn before the first reshuffle come from one pool, and
        each reshuffle of the (public) discard starts a new pool whose contents
        everyone knows. So hidden hand cards and draw-pile cards are permuted
        within their generation; cards seen taken from the Bench stay put. The
        Deal deck (Deals and Shocks not yet flipped) is reshuffled whole.
        """
        player = self._seat(player)
        s: Any = self.clone()  # type: ignore[attr-defined]
        rng = random.Random(seed)
        rnd = rng.random
        public, tag, gen_now = s.public, s.tag, s.pile_gen
        # pools of unseen cards by generation; the draw pile is the current one
        pools: dict[int, list[int]] = {gen_now: s.pile}
        wants: list[tuple[list[int], list[int]]] = []  # (hand, generation of each hidden card)
        for q, h in enumerate(s.hands):
            if q == player:
                continue
            gens = [tag[x] for x in h if not public[x]]
            if not gens:
                continue
            for x in h:
                if not public[x]:
                    pools.setdefault(tag[x], []).append(x)
            h[:] = [x for x in h if public[x]]
            wants.append((h, gens))
        # Sort each pool first so the redeal depends only on what `player` knows
        # and the seed, never on where the hidden cards really lie (a bot given
        # two indistinguishable worlds must see the same resamples).
        for gen in sorted(pools):
            pool = pools[gen]
            pool.sort()
            if len(pool) > 1:
                pool.sort(key=lambda _: rnd())  # a uniform shuffle: iid random keys
        for h, gens in wants:
            for gen in gens:
                x = pools[gen].pop()
                tag[x] = gen
                h.append(x)
            h.sort()
        # what is left of the current pool is the (shuffled) draw pile: s.pile itself
        s.deal_deck.sort()
        s.deal_deck.sort(key=lambda _: rnd())
        s.reshuffle_seed = rng.getrandbits(64)
        if player != s.current_player():
            s._legal = None  # the deciding seat's own hand may have been redealt
        return s

    # -- lab summary and evaluation -------------------------------------------------------
    def info(self) -> dict[str, Any]:
        s: Any = self
        names = [d.name for d in s.cards.deals]
        return {
            "end_reason": "12th Deal closed" if s.phase == OVER else "in progress",
            "tiebreak": s.tiebreak,
            "rounds": s.deals_closed,
            "turns": s.turns,
            "decisions": len(s.actions),
            "acquired": [[names[d - DEAL0] for d in w] for w in s.won],
            "card_points": [{names[d - DEAL0]: s.rewards[d - DEAL0] for d in w} for w in s.won],
            "deals_won": [len(w) for w in s.won],
            "deals_dumped": len(s.dumped),
            "sectors_locked": list(s.locked),
            "lock_points": list(s.lock_points),
            "ride_points": list(s.rides),
            "sector_bonus": list(s.end_bonus),
            "hype": s.hype,
            "reputation": list(s.rep),
        }

    def progress_values(self) -> list[float]:
        """Each seat's progress (the core rates a seat against the best rival):
        Reputation, the Sector bonus and locks in reach, Deals currently being won,
        and the strength of the hand."""
        s: Any = self
        return [self._progress(q) for q in range(s.n)]

    def _progress(self, q: int) -> float:
        s: Any = self
        value = float(s.rep[q])
        if s.phase == OVER:
            return value
        f = s.footholds[q]
        if s.footholds_left[q]:
            value += 0.8 * sum(1 for x in f if x)  # the end-of-game Sector bonus to come
            value += 0.6 * sum(1 for x in f if x == 1)  # a lock is one win away
        if s.pitched and s.deal >= 0:
            sector = s.cards.deal_sector[s.deal - DEAL0]
            if closing_winner(s.pitched, sector)[0] == q:
                value += 0.5 * s.cards.deal_score[s.deal - DEAL0]
        value += 0.04 * sum((x & 7) + 1 for x in s.hands[q]) + 0.1 * len(s.hands[q])
        return value
