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

from cardlab.adapters.encoding import Writer, rel, rotate, seat_names
from cardlab.core import Game
from cardlab.games.uptime.actions import BASE_DECISIONS, DECISION_NAMES
from cardlab.games.uptime.cards import MATERIAL, PATCH

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
    for item in items:
        block[names[item]] += 1.0 / copies


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
