"""UPTIME observation vector (fixed size for a player count and card set), for
the adapters.

Built from ``observation(p)`` only. Cards are one-hot by id over the card
file's ids (C = 54 packaged; slots named by id); card names (for the known
bottom of the Build Deck and payments) count over the distinct names, 1/K per
copy, K the most copies of one name in the card file (6 packaged), so a count
never leaves [0, 1]. Seats are relative (``you``, ``seat+1``, ...). Counts are scaled to
about [0, 1] and clipped; each block's name says its divisor. Divisors that
are card counts (Supply and Build Deck sizes, materials, Patches) come from the
game's card data, so a designer's deck with other material or Patch counts is
scaled by its own numbers (the packaged deck: 26, 28, 24, 6, 2).

Every block is named where it is written below; ``cardlab.adapters.encoding.layout(game)``
gives the block names and slices, ``feature_names(game)`` one name per slot.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from cardlab.adapters.encoding import (
    Writer,
    encoding_for,
    game_cache,
    rel,
    rotate,
    seat_names,
    sparse_vector,
)
from cardlab.core import Game
from cardlab.games.uptime import scoring
from cardlab.games.uptime.actions import BASE_DECISIONS, D_OVER, D_PAY, DECISION_NAMES, FOR_AUCTION
from cardlab.games.uptime.cards import MATERIAL, MATERIAL_KINDS, PATCH

DECISIONS = DECISION_NAMES  # the engine's own list, so the two cannot drift


def decisions(game: Game) -> tuple[str, ...]:
    """The decision kinds this game can reach: the rules as written have the first seven;
    the levers hand_limit and trade_in add "discard" and "trade_in" (so the vector of a
    game at the defaults is the same as before the levers)."""
    if game.options.get("hand_limit") or game.options.get("trade_in"):
        return DECISIONS
    return DECISIONS[:BASE_DECISIONS]


PHASES = ("play", "final_round", "over")
SOURCES = ("computers", "network", "contracts", "leftovers", "total")


@cache
def _index(items: tuple[str, ...]) -> dict[str, int]:
    return {x: i for i, x in enumerate(items)}


def _tables(game: Game) -> tuple[dict[str, int], dict[str, int], list[str]]:
    ids = _index(tuple(game.cards.ids))
    names = _index(tuple(sorted(set(game.cards.name))))
    return ids, names, list(game.cards.material_names)


def _counts(game: Game) -> tuple[int, int, int, int, int]:
    """Divisors from the card data: Supply Deck, Build Deck, raw materials in all, most
    copies of one material, Patches (each at least 1)."""
    t = game.cards
    mats = [t.sub[c] for c in range(t.count) if t.kind[c] == MATERIAL]
    most = max((mats.count(k) for k in set(mats)), default=1)
    patches = sum(1 for k in t.kind if k == PATCH)
    return t.num_supply, len(t.build_cards), max(1, len(mats)), most, max(1, patches)


def _per_seat(c: int, m: int) -> int:
    return c + 2 + m + 6 + len(SOURCES)


def size(game: Game) -> int:
    n = game.num_players
    ids, names, mats = _tables(game)
    c, k, m = len(ids), len(names), len(mats)
    return (
        c + 4 * (c + n) + 3 * c + k + n * _per_seat(c, m)
        + (1 + c + n + 1 + 2 * n) + (1 + n + 2 + k) + len(decisions(game)) + 3 + 5 + 4 * n
    )  # fmt: skip


def _ids(w: Writer, name: str, ids: dict[str, int], cards: list[dict[str, Any]]) -> None:
    block = w.block(name, ids)
    for card in cards:
        block[ids[card["id"]]] = 1.0


@cache
def _copies(names: tuple[str, ...]) -> int:
    """The most copies of one card name in the card file: the names blocks' divisor."""
    return max((names.count(x) for x in set(names)), default=1)


def _names(w: Writer, name: str, names: dict[str, int], items: list[str], copies: int) -> None:
    block = w.block(f"{name}/{copies}", names)
    for item in set(items):  # count, then divide once (the fast path does the same)
        block[names[item]] = items.count(item) / copies


def write(w: Writer, obs: dict[str, Any], game: Game) -> None:
    """Write one seat's UPTIME observation into `w` (see the module docstring)."""
    n, me = game.num_players, obs["seat"]
    ids, names, mats = _tables(game)
    supply, build, materials, most, patches = _counts(game)
    seats = seat_names(n)
    _ids(w, "hand", ids, obs["hand"])
    for i, slot in enumerate(obs["build_row"]):
        _ids(w, f"build_row{i}.card", ids, [slot["card"]] if slot["card"] else [])
        w.one_hot(f"build_row{i}.reserved_by", seats, rel(slot["reserved_by"], me, n))
    for key in ("supply_discard", "build_discard", "removed_twists"):
        _ids(w, key, ids, obs[key])
    copies = _copies(tuple(game.cards.name))
    _names(w, "build_deck_bottom_known", names, obs["build_deck_bottom_known"], copies)
    for q, seat in enumerate(rotate(obs["players"], me)):
        s = seats[q]
        _ids(w, f"{s}.tableau", ids, seat["tableau"])
        w.scaled(
            f"{s}.hand_counts",
            [seat["hand_materials"] / supply, seat["hand_patches"] / patches],
            1,
            (f"hand_materials/{supply}", f"hand_patches/{patches}"),
        )
        known = [seat["known_materials"].get(m, 0) for m in mats]
        w.scaled(f"{s}.known_materials/{most}", known, most, mats)
        w.scaled(
            f"{s}.progress",
            [
                seat["computers"] / 4,
                seat["milestone_computers"] / 5,
                seat["contracts"] / 6,
                seat["draw_pass_actions"] / 30,
                seat["turns"] / 40,
                seat["tower_discount"],
            ],
            1,
            (
                "computers/4",
                "milestone_computers/5",
                "contracts/6",
                "draw_pass_actions/30",
                "turns/40",
                "tower_discount",
            ),
        )
        w.scaled(f"{s}.points/20", [seat["points"][src] for src in SOURCES], 20, SOURCES)
    auction = obs["auction"]
    w.scaled("auction.present", [auction is not None], 1)
    _ids(w, "auction.contract", ids, [auction["contract"]] if auction else [])
    w.one_hot("auction.opener", seats, rel(auction["opener"], me, n) if auction else None)
    w.scaled(
        f"auction.high_bid/{materials}",
        [(auction["high_bid"] or 0) if auction else 0],
        materials,
    )
    w.one_hot("auction.high_bidder", seats, rel(auction["high_bidder"], me, n) if auction else None)
    waiting = w.block("auction.still_to_answer", seats)
    for seat_no in auction["still_to_answer"] if auction else []:
        waiting[rel(seat_no, me, n)] = 1.0
    pay = obs["payment"]
    w.scaled("payment.present", [pay is not None], 1)
    w.one_hot("payment.payer", seats, rel(pay["payer"], me, n) if pay else None)
    w.scaled(
        "payment.details",
        [pay is not None and pay["for"] == "auction", (pay["remaining"] if pay else 0) / 4],
        1,
        ("for_auction", "remaining/4"),
    )
    _names(w, "payment.paid", names, pay["paid"] if pay else [], copies)
    kinds = decisions(game)
    w.one_hot("decision_kind", kinds, kinds.index(obs["decision_kind"]))
    w.one_hot("phase", PHASES, PHASES.index(obs["phase"]))
    w.scaled(
        "table",
        [
            obs["round"] / 40,
            obs["supply_shortage_pending"],
            obs["end_triggered"] is not None,
            obs["build_deck_count"] / build,
            obs["supply_deck_count"] / supply,
        ],
        1,
        (
            "round/40",
            "supply_shortage_pending",
            "end_triggered",
            f"build_deck/{build}",
            f"supply_deck/{supply}",
        ),
    )
    w.one_hot("first_seat", seats, rel(obs["first_player"], me, n))
    w.one_hot("turn_of", seats, rel(obs["turn_of"], me, n))
    w.one_hot("current_seat", seats, rel(obs["current_player"], me, n))
    w.scaled("scores/40", rotate(obs["scores"], me), 40, seats)


# -- the fast path: the same vector read off the state ------------------------------------
# `write` above is the reference (from the observation only); tests/adapters/test_encoding.py
# checks this gives the identical vector at every state of random games, every seat. Each
# value is computed as `write` computes it, so the floats match exactly. A game whose
# layout has blocks this path does not know (a new lever's slots) is encoded by `write`.


class _Fast:
    """Block starts (read off the reference layout) and card slots, per game."""

    def __init__(self, game: Game) -> None:
        from cardlab.adapters.encoding import offsets

        at = self.at = offsets(game)
        n = game.num_players
        ids, names, mats = _tables(game)
        t = game.cards
        self.id_slot = [ids[x] for x in t.ids]
        self.name_slot = [names[x] for x in t.name]
        self.copies = _copies(tuple(t.name))
        self.counts = _counts(game)
        self.mats = len(mats)
        self.size = size(game)
        kinds = decisions(game)
        self.kind_slot = {d: kinds.index(name) for d, name in enumerate(DECISIONS) if name in kinds}
        seats = seat_names(n)
        keys = ("tableau", "hand_counts", f"known_materials/{self.counts[3]}", "progress")
        self.seat = [tuple(at[f"{s}.{k}"] for k in (*keys, "points/20")) for s in seats]
        self.row = [
            (at[f"build_row{i}.card"], at[f"build_row{i}.reserved_by"])
            for i in range(sum(1 for b in at if b.endswith(".reserved_by")))
        ]
        known = {
            "hand", "supply_discard", "build_discard", "removed_twists",
            f"build_deck_bottom_known/{self.copies}", "auction.present", "auction.contract",
            "auction.opener", f"auction.high_bid/{self.counts[2]}", "auction.high_bidder",
            "auction.still_to_answer", "payment.present", "payment.payer", "payment.details",
            f"payment.paid/{self.copies}", "decision_kind", "phase", "table", "first_seat",
            "turn_of", "current_seat", "scores/40",
        }  # fmt: skip
        known |= {
            f"build_row{i}.{k}" for i in range(len(self.row)) for k in ("card", "reserved_by")
        }
        known |= {f"{s}.{k}" for s in seats for k in (*keys, "points/20")}
        self.ok = known == set(at)


@game_cache
def _fast(game: Game) -> _Fast:
    return _Fast(game)


def encode_state(state: Any, seat: int) -> np.ndarray:
    """`write(w, state.observation(seat), game)`'s vector, without the observation."""
    game = state.game
    f = _fast(game)
    if not f.ok:
        return encoding_for(game).encode_reference(state, seat)
    s, at, slot = state, f.at, f.id_slot
    n, me = game.num_players, seat
    supply, build, materials, most, patches = f.counts
    idx: list[int] = []
    ext, one = idx.extend, idx.append
    val: list[float] = []
    scaled: list[tuple[int, list[float]]] = []
    if 0 <= me < n:
        base = at["hand"]
        ext([base + slot[c] for c in s.hand[me]])
    for i, (card, reserved) in enumerate(f.row):
        c = s.build_row[i]
        if c >= 0:
            one(card + slot[c])
        if s.reserved_by[i] >= 0:
            one(reserved + (s.reserved_by[i] - me) % n)
    for key, cards in (
        ("supply_discard", s.supply_discard),
        ("build_discard", s.build_discard),
        ("removed_twists", s.removed_twists),
    ):
        base = at[key]
        ext([base + slot[c] for c in cards])
    for r in range(n):
        q = (me + r) % n
        tableau, hand_counts, known, progress, points = f.seat[r]
        ext([tableau + slot[c] for c in s.tableau[q]])
        scaled.append((hand_counts, [s.material_count(q) / supply, s.patches[q] / patches]))
        k = s.known_materials[q * MATERIAL_KINDS : q * MATERIAL_KINDS + f.mats]
        scaled.append((known, [float(x) / most for x in k]))
        scaled.append(
            (
                progress,
                [
                    s.computers[q] / 4,
                    (s.computers[q] + s.has_mainframe[q]) / 5,
                    s.contracts[q] / 6,
                    s.draw_pass[q] / 30,
                    s.turns[q] / 40,
                    float(bool(s.tower_discount[q])),
                ],
            )
        )
        b = scoring.breakdown(s, q)
        scaled.append((points, [float(b[src]) / 20 for src in SOURCES]))
        if r == 0:
            totals = [0.0] * n
        totals[r] = float(b["total"])
    if s.auction_slot >= 0:
        one(at["auction.present"])
        one(at["auction.contract"] + slot[s.build_row[s.auction_slot]])
        one(at["auction.opener"] + (s.auction_opener - me) % n)
        if s.auction_high_bid > 0:
            scaled.append((at[f"auction.high_bid/{materials}"], [s.auction_high_bid / materials]))
            one(at["auction.high_bidder"] + (s.auction_high_bidder - me) % n)
        base = at["auction.still_to_answer"]
        ext([base + (q - me) % n for q in s.auction_to_answer])
    if s.decision == D_PAY:
        one(at["payment.present"])
        one(at["payment.payer"] + (s.decider - me) % n)
        scaled.append((at["payment.details"], [float(s.pay_for == FOR_AUCTION), s.pay_left / 4]))
        _name_counts(f, at[f"payment.paid/{f.copies}"], s.pay_paid, idx, val)
    bottom = s.build_deck[: s.build_bottom_known]
    _name_counts(f, at[f"build_deck_bottom_known/{f.copies}"], bottom, idx, val)
    if s.decision in f.kind_slot:
        one(at["decision_kind"] + f.kind_slot[s.decision])
    over = s.decision == D_OVER
    one(at["phase"] + (2 if over else 1 if s.end_pending else 0))
    scaled.append(
        (
            at["table"],
            [
                s.round / 40,
                float(s.shortage_pending),
                float((s.end_pending or over) and s.end_reason is not None),
                len(s.build_deck) / build,
                len(s.supply) / supply,
            ],
        )
    )
    for key, q in (("first_seat", s.first_player), ("turn_of", s.turn_seat)):
        if q is not None and q >= 0:
            one(at[key] + (q - me) % n)
    current = s.current_player()
    if current >= 0:
        one(at["current_seat"] + (current - me) % n)
    scaled.append((at["scores/40"], [x / 40 for x in totals]))
    val.extend([1.0] * (len(idx) - len(val)))
    return sparse_vector(f.size, idx, val, scaled)


def _name_counts(f: _Fast, base: int, cards: Any, idx: list[int], val: list[float]) -> None:
    """Per card name among `cards`: its copies / the most copies of a name, as (slot,
    value) pairs appended after the one-hots so far (which get value 1 first)."""
    if not cards:
        return
    val.extend([1.0] * (len(idx) - len(val)))
    counts: dict[int, int] = {}
    for c in cards:
        k = f.name_slot[c]
        counts[k] = counts.get(k, 0) + 1
    for k, m in counts.items():
        idx.append(base + k)
        val.append(m / f.copies)
