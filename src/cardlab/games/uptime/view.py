"""What players read: observations, action labels, the public log and the lab's info.

Everything here is derived from a state and never changes it. `observation(p)`
shows hidden cards only as counts: the Supply and Build Decks, and the other
seats' raw materials. Log entries never carry card ids (a card named in the log
may later sit in a hand), only names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.moves import Move
from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab.games.uptime import actions as A
from cardlab.games.uptime import scoring
from cardlab.games.uptime.cards import (
    COMPONENT,
    COMPONENT_TYPES,
    COMPUTER,
    CONTRACT,
    KIND_NAMES,
    MATERIAL,
    MATERIAL_KINDS,
    NETWORK,
    PATCH,
)

ROW = 4
"""Slots of the Build Row (the state's ROW; repeated here so the view never imports the state)."""

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState


def seat_name(p: int) -> str:
    return f"Seat {p}"


# ---- actions ------------------------------------------------------------------------
def _requisition_cost(state: UptimeState, card: int, seat: int) -> str:
    """The cost in words, and whether paying it must spend the seat's Patches: a
    Requisition the seat can pay only with its wild Patch says so,
    since the payment that follows may then take the Patch without another question.
    The seat is the decider, the only one who sees the label; what it holds is its own."""
    t = state.table
    k = t.kind[card]
    have = len(state.hand[seat]) - state.patches[seat]  # raw materials in hand
    if k == COMPUTER:
        c6 = seat * COMPONENT_TYPES
        types = sum(1 for n in state.component_types[c6 : c6 + COMPONENT_TYPES] if n)
        short = max(0, 3 - types)
        return "pay 3 different Component types" + _patches_for(
            short, "a Component type" if short == 1 else f"{short} Component types"
        )
    if k == NETWORK:
        cost = state.network_cost(card, seat)
        short = max(0, cost - have)
        return f"pay {cost} raw material{'s' if cost != 1 else ''}; needs 2+ Computers" + (
            _patches_for(short, f"{short} of them")
        )
    if k == PATCH:
        n = int(state.game.options["patch_cost"])
        return (f"pay {n} raw material" + _patches_for(max(0, n - have), "it")) if n else "free"
    if k == CONTRACT:
        return "won only by bidding"
    a, b = t.component_cost[t.sub[card]]
    held = state.materials
    missing = [m for m in (a, b) if not held[seat * MATERIAL_KINDS + m]]
    names = ", ".join(t.material_names[m] for m in missing)
    return f"pay {t.material_names[a]}, {t.material_names[b]}" + _patches_for(len(missing), names)


def _payment_ids(state: UptimeState, card: int, seat: int) -> tuple[str, ...]:
    """The seat's own cards that can pay for requisitioning `card` (U3's costs, in the
    order `_requisition_cost` words them): a Component's two raw materials, any raw
    material for a Network or a Patch card, the built Components for a Computer, and the
    seat's wild Patches whenever the cost is short. Only the seat's hand and tableau."""
    t = state.table
    ids = t.ids
    hand = state.hand[seat]
    patches = tuple(ids[c] for c in hand if t.kind[c] == PATCH)
    raw = tuple(ids[c] for c in hand if t.kind[c] == MATERIAL)
    k = t.kind[card]
    if k == CONTRACT:
        return ()
    if k == COMPUTER:
        built = tuple(ids[c] for c in state.tableau[seat] if t.kind[c] == COMPONENT)
        return built + patches
    if k == PATCH and not int(state.game.options["patch_cost"]):
        return ()  # a free Patch card costs nothing
    if k in (NETWORK, PATCH):
        return raw + patches
    a, b = t.component_cost[t.sub[card]]
    return tuple(ids[c] for c in hand if t.kind[c] == MATERIAL and t.sub[c] in (a, b)) + patches


def _patches_for(count: int, what: str) -> str:
    """ "; spends your Patch for Copper" when paying needs `count` Patches, else ""."""
    if count <= 0:
        return ""
    if count == 1:
        return f"; spends your Patch for {what}"
    return f"; spends {count} of your Patches for {what}"


def _cards(count: int) -> str:
    return "Supply card" if count == 1 else f"{count} Supply cards"


def action_label(state: UptimeState, action: int) -> str:
    """A readable label; meaningful for any action number, best for legal ones."""
    t = state.table
    seat = state.decider if state.decider >= 0 else 0
    if action == A.DRAW:
        if state.supply_dry():
            return "Draw (the Supply is empty: you get nothing)"
        return f"Draw (take the top {_cards(state.columns.draw_cards)})"  # lever draw_cards
    if action == A.PASS:
        taken = state.columns.pass_cards  # lever pass_cards (0: a real pass)
        if not taken:
            return "Pass (take nothing)"
        if state.supply_dry():
            return "Pass (the Supply is empty: you get nothing)"
        return f"Pass (take the top {_cards(taken)})"
    if action == A.SWEEP:
        return "Sweep the Build Row (to the Build Deck bottom; refill)"
    k_trade = state.columns.trade_in
    if k_trade and action == state.columns.trade_action:
        return f"Trade in {k_trade} raw materials for 1 of your choice"
    if state.decision == A.D_DISCARD and (
        A.PAY_MAT <= action < A.PAY_COMP or action == A.PAY_PATCH
    ):
        what = "a Patch" if action == A.PAY_PATCH else f"a {t.material_names[action - A.PAY_MAT]}"
        return f"Discard {what} (hand limit {state.columns.hand_limit})"
    if state.decision == A.D_TRADE and A.PAY_MAT <= action < A.PAY_COMP:
        return f"Trade in a {t.material_names[action - A.PAY_MAT]} ({state.trade_left} to give)"
    if A.REQ <= action < A.RESERVE + ROW:
        # The slot is named so that two copies of a Component in the Row read differently
        # (every legal action of a state has its own label).
        s = (action - A.REQ) % ROW
        c = state.build_row[s]
        if c < 0:
            return f"{('Requisition', 'Bid on', 'Reserve')[(action - A.REQ) // 4]} slot {s + 1} (empty)"
        name = t.name[c]
        if action < A.BID_SLOT:
            return f"Requisition {name} from slot {s + 1} ({_requisition_cost(state, c, seat)})"
        if action < A.RESERVE:
            return f"Bid on Contract {name} in slot {s + 1} (value {t.value[c]})"
        return f"Reserve {name} in slot {s + 1} with a Patch"
    if A.PAY_MAT <= action < A.PAY_COMP:
        return f"Pay {t.material_names[action - A.PAY_MAT]}"
    if A.PAY_COMP <= action < A.PAY_PATCH:
        return f"Discard {t.component_names[action - A.PAY_COMP]} from your tableau"
    if action == A.PAY_PATCH:
        return f"Pay with a Patch (instead of {_next_need(state)})"
    if A.CHOOSE_MAT <= action < A.RETURN_COMP:
        return f"Take a free {t.material_names[action - A.CHOOSE_MAT]}"
    if A.RETURN_COMP <= action < A.BID_PASS:
        return f"Return {t.component_names[action - A.RETURN_COMP]} to the bottom of the Build Deck"
    if action == A.BID_PASS:
        return "Pass (do not raise)"
    if A.BID < action < A.SWEEP or A.SWEEP < action < state.game.num_distinct_actions:
        k = A.bid_amount(action)
        verb = "Open the bidding at" if state.decision == A.D_OPEN_BID else "Raise to"
        return f"{verb} {k} material{'s' if k != 1 else ''}"
    return f"no such action {action!r}"


def describe_action(state: UptimeState, action: int) -> Move:
    """What `action` does, for programs (the table's touch play, the replay, the
    adapters): the cards it names by id, the Build Row slot, a bid's amount. Only cards
    the deciding seat sees: its own hand and tableau, and the public Build Row."""
    t = state.table
    seat = state.decider if state.decider >= 0 else 0
    ids = t.ids
    if action == A.DRAW:
        return Move("draw", extra={"supply_empty": state.supply_dry()})
    if action == A.PASS:
        return Move("pass", extra={"supply_empty": state.supply_dry()})
    if action == A.SWEEP:
        return Move("sweep", targets=tuple(ids[c] for c in state.build_row if c >= 0))
    if state.columns.trade_in and action == state.columns.trade_action:
        return Move("trade_in", amount=state.columns.trade_in)
    hand = state.hand[seat] if 0 <= seat < state.num_players else []

    def held(kind: int, sub: int | None = None) -> tuple[str, ...]:
        return tuple(ids[c] for c in hand if t.kind[c] == kind and (sub is None or t.sub[c] == sub))

    def built(sub: int) -> tuple[str, ...]:
        return tuple(
            ids[c] for c in state.tableau[seat] if t.kind[c] == COMPONENT and t.sub[c] == sub
        )

    if state.decision == A.D_DISCARD and (
        A.PAY_MAT <= action < A.PAY_COMP or action == A.PAY_PATCH
    ):
        which = held(PATCH) if action == A.PAY_PATCH else held(MATERIAL, action - A.PAY_MAT)
        return Move("discard", alternatives=which)
    if state.decision == A.D_TRADE and A.PAY_MAT <= action < A.PAY_COMP:
        return Move("trade_give", alternatives=held(MATERIAL, action - A.PAY_MAT))
    if A.REQ <= action < A.RESERVE + ROW:
        verb, slot = divmod(action - A.REQ, ROW)
        c = state.build_row[slot]
        target = (ids[c],) if c >= 0 else ()
        if verb == 0:
            pays = _payment_ids(state, c, seat) if c >= 0 else ()
            return Move("requisition", targets=target, pays_with=pays, slot=slot, costly=True)
        if verb == 1:
            return Move("bid_on", targets=target, slot=slot, costly=True)
        return Move("reserve", targets=target, alternatives=held(PATCH), slot=slot, costly=True)
    if A.PAY_MAT <= action < A.PAY_COMP:
        return Move("pay_material", alternatives=held(MATERIAL, action - A.PAY_MAT))
    if A.PAY_COMP <= action < A.PAY_PATCH:
        return Move("pay_component", alternatives=built(action - A.PAY_COMP))
    if action == A.PAY_PATCH:
        return Move("pay_patch", alternatives=held(PATCH))
    if A.CHOOSE_MAT <= action < A.RETURN_COMP:
        m = action - A.CHOOSE_MAT
        # U5: the free material comes from the supply discard first (public: the card
        # named here), else unseen from the Supply Deck (no card to name)
        from_discard = [c for c in state.supply_discard if t.kind[c] == MATERIAL and t.sub[c] == m]
        return Move(
            "choose_material",
            targets=(ids[from_discard[-1]],) if from_discard else (),
            extra={"material": t.material_names[m]},
        )
    if A.RETURN_COMP <= action < A.BID_PASS:
        return Move("return_component", alternatives=built(action - A.RETURN_COMP))
    if action == A.BID_PASS:
        return Move("bid_pass")
    if A.BID < action < A.SWEEP or A.SWEEP < action < state.game.num_distinct_actions:
        kind = "open_bid" if state.decision == A.D_OPEN_BID else "raise"
        return Move(kind, amount=A.bid_amount(action), costly=True)
    return Move("unknown")


def _next_need(state: UptimeState) -> str:
    if state.pay_need == A.NEED_SPECIFIC and state.pay_materials:
        return state.table.material_names[state.pay_materials[0]]
    if state.pay_need == A.NEED_TYPES:
        return "a Component type"
    return "a raw material"


# ---- decision ---------------------------------------------------------------------
def decision_text(state: UptimeState) -> str:
    t = state.table
    p = state.decider
    dk = state.decision
    if dk == A.D_OVER:
        return "the game is over"
    who = seat_name(p)
    if dk == A.D_TURN:
        # No list of the legal kinds here: which Requisitions a seat can pay depends on its
        # private hand, and this text is public (the seat's own labels list them).
        return f"{who} to take a turn"
    if dk == A.D_PAY:
        if state.pay_for == A.FOR_AUCTION:
            return f"{who}: pay the winning bid, {state.pay_left} more raw material(s)"
        card = t.name[state.build_row[state.pay_slot]]
        return f"{who}: pay for {card}: {_next_need(state)} next ({state.pay_left} left)"
    if dk == A.D_CHOOSE:
        return f"{who}: choose a free raw material ({state.choose_reason})"
    if dk == A.D_BLADE:
        return f"{who}: return one of your Components to the Build Deck bottom (Blade)"
    if dk == A.D_DISCARD:
        return f"{who}: discard down to the hand limit of {state.columns.hand_limit}"
    if dk == A.D_TRADE:
        return f"{who}: trade in raw materials, {state.trade_left} more to give"
    card = t.name[state.build_row[state.auction_slot]]
    if dk == A.D_OPEN_BID:
        return f"{who}: name your opening bid for Contract {card}"
    return f"{who}: raise above {state.auction_high_bid} or pass (Contract {card})"


# ---- the public log -------------------------------------------------------------------
# The state logs compact tuples (card numbers); observations carry each as an event dict of
# names and counts (never a card id: a card named here may later sit in a hand), and the same
# event's readable line. `narrate` and `final_table` read only those dicts.


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


EVENT_KINDS = (
    "setup", "round", "action", "got", "twist", "shortage_pending", "take", "gone", "nothing",
    "claim", "reserve", "unreserve", "open", "raise", "decline", "cannot_raise", "win", "tower",
    "return", "no_return", "sweep", "reshuffle", "refill", "skip_refill", "discard_top",
    "trigger", "stall", "cap", "end", "final", "discard", "trade_give", "conveyor",
)  # fmt: skip
"""Every kind of public event an UPTIME log holds (`events[i]["kind"]`)."""


def _event(state: UptimeState, e: tuple[Any, ...]) -> dict[str, Any]:
    """One log entry as public facts: names, counts and seats."""
    t = state.table
    kind = e[0]
    name = t.name
    mats = t.material_names

    def names(cards: tuple[int, ...]) -> list[str]:
        return [name[c] for c in cards]

    if kind == "setup":
        return {"kind": kind, "seat": e[1], "row": names(e[2])}
    if kind == "round":
        return {"kind": kind, "round": e[1]}
    if kind == "action":
        return {"kind": kind, "seat": e[1], "action": e[2]}
    if kind == "got":
        return {"kind": kind, "seat": e[1], "count": e[2], "why": e[3], "wanted": e[4]}
    if kind in ("twist", "return", "unreserve"):
        return {"kind": kind, "seat": e[1], "card": name[e[2]]}
    if kind == "take":
        return {"kind": kind, "seat": e[1], "material": mats[e[2]], "source": e[3], "why": e[4]}
    if kind == "gone":
        return {"kind": kind, "seat": e[1], "material": mats[e[2]]}
    if kind == "nothing":
        return {"kind": kind, "seat": e[1], "why": e[2]}
    if kind == "claim":
        return {
            "kind": kind,
            "seat": e[1],
            "card": name[e[2]],
            "card_kind": KIND_NAMES[t.kind[e[2]]],
            "paid": names(e[3]),
            "slot": e[4] + 1,
        }
    if kind == "reserve":
        return {"kind": kind, "seat": e[1], "card": name[e[2]], "slot": e[3] + 1}
    if kind == "open":
        return {"kind": kind, "seat": e[1], "card": name[e[2]], "bid": e[3], "slot": e[4] + 1}
    if kind == "raise":
        return {"kind": kind, "seat": e[1], "bid": e[2]}
    if kind in ("decline", "cannot_raise", "tower", "no_return"):
        return {"kind": kind, "seat": e[1]}
    if kind == "win":
        return {"kind": kind, "seat": e[1], "card": name[e[2]], "price": e[3], "paid": names(e[4])}
    if kind == "sweep":
        return {"kind": kind, "seat": e[1], "cards": names(e[2])}
    if kind == "discard":  # lever hand_limit: face-up, so public
        return {"kind": kind, "seat": e[1], "card": name[e[2]], "limit": e[3]}
    if kind == "trade_give":  # lever trade_in: face-up to the Supply discard
        return {"kind": kind, "seat": e[1], "card": name[e[2]]}
    if kind == "conveyor":  # lever row_conveyor
        return {"kind": kind, "card": name[e[1]]}
    if kind == "reshuffle":
        return {"kind": kind, "count": e[1]}
    if kind == "refill":
        return {"kind": kind, "cards": names(e[1])}
    if kind in ("skip_refill", "shortage_pending", "stall"):
        return {"kind": kind}
    if kind == "discard_top":
        return {"kind": kind, "card": name[e[1]]}
    if kind == "trigger":
        return {"kind": kind, "seat": e[1], "reason": e[2]}
    if kind == "cap":
        return {"kind": kind, "round": e[1]}
    if kind == "end":
        return {"kind": kind, "reason": e[1]}
    if kind == "final":
        return {
            "kind": kind,
            "points": [dict(b) for b in e[1]],
            "winner": e[2],
            "tiebreak": e[3],
            "players": [
                {"computers": a, "contracts": b, "draw_pass_actions": c} for a, b, c in e[4]
            ],
            "first_player": e[5],
        }
    raise ValueError(f"unknown UPTIME log entry {e!r}")  # pragma: no cover


def points_phrase(points: dict[str, int]) -> str:
    """'12 points (5 from Computers, 2 from Networks, ...)': never '5 pts (Computers 5)', which
    reads as five Computers."""
    parts = [
        f"{points[key]} from {label}"
        for key, label in (
            ("computers", "Computers"),
            ("network", "Networks"),
            ("contracts", "Contracts"),
            ("leftovers", "leftover materials"),
        )
        if points[key]
    ]
    total = _plural(points["total"], "point")
    return f"{total} ({', '.join(parts)})" if parts else total


_END_REASONS = {
    "milestone": "the round of the Cloud Milestone is finished",
    "build_deck_empty": "the round in which the Build Deck ran out is finished",
    "stall": "stall rule, U13",
    "stalled": "stopped at the round cap, stalled",
}


def event_text(ev: dict[str, Any]) -> str:
    """The readable line of one public event (a dict from an observation's `events`)."""
    kind = ev["kind"]
    s = seat_name(ev["seat"]) if ev.get("seat") is not None else ""

    def listed(items: list[str]) -> str:
        return ", ".join(items) if items else "nothing"

    if kind == "setup":
        return f"{s} goes first. Build Row: {listed(ev['row'])}."
    if kind == "round":
        return f"Round {ev['round']} begins."
    if kind == "action":
        return f"{s} chooses {ev['action'].capitalize()}."
    if kind == "got":
        n, wanted = ev["count"], ev["wanted"]
        verb = {"deal": "is dealt", "draw": "draws", "blade": "draws"}[ev["why"]]
        what = _plural(n, "card") if n else "nothing"
        blade = " for the Blade" if ev["why"] == "blade" else ""
        short = (
            (": the Supply is empty" if n == 0 else "; the Supply is empty") if n < wanted else ""
        )
        return f"{s} {verb} {what}{blade}{short}."
    if kind == "twist":
        return f"{s} reveals the Twist {ev['card']}; it resolves and leaves the game."
    if kind == "shortage_pending":
        return "Supply Shortage: the Build Row will not refill after the next claim."
    if kind == "take":
        src = (
            "the Supply discard" if ev["source"] == "discard" else "the Supply Deck (then shuffled)"
        )
        return f"{ev['why']}: {s} takes a free {ev['material']} from {src}."
    if kind == "gone":
        return f"{s} names {ev['material']}, but none is left anywhere."
    if kind == "nothing":
        return f"{s} gets nothing from {ev['why']}: no raw material is left."
    if kind == "claim":
        paid = f"paying {listed(ev['paid'])}" if ev["paid"] else "for free"
        return f"{s} requisitions {ev['card']} from slot {ev['slot']}, {paid}."
    if kind == "reserve":
        return f"{s} reserves {ev['card']} (slot {ev['slot']}) with a Patch."
    if kind == "unreserve":
        return f"{s}'s Patch on {ev['card']} is discarded (reservation over)."
    if kind == "open":
        return (
            f"{s} opens an auction on the Contract {ev['card']} (slot {ev['slot']}) "
            f"at {_plural(ev['bid'], 'material')}."
        )
    if kind == "raise":
        return f"{s} raises to {_plural(ev['bid'], 'material')}."
    if kind == "decline":
        return f"{s} passes (no raise)."
    if kind == "cannot_raise":
        return f"{s} cannot raise and passes."
    if kind == "win":
        return (
            f"{s} wins the Contract {ev['card']} for {_plural(ev['price'], 'material')}, "
            f"paying {listed(ev['paid'])}."
        )
    if kind == "tower":
        return f"{s} uses the Tower discount (this Network costs 1 material less)."
    if kind == "return":
        return f"{s} returns {ev['card']} to the bottom of the Build Deck (Blade)."
    if kind == "no_return":
        return f"{s} has no Component to return (Blade)."
    if kind == "sweep":
        return f"{s} sweeps {listed(ev['cards'])} to the bottom of the Build Deck (designer option: Row sweep)."
    if kind == "discard":
        return f"{s} discards {ev['card']} face-up (hand limit {ev['limit']})."
    if kind == "trade_give":
        return f"{s} trades in {ev['card']} to the Supply discard."
    if kind == "conveyor":
        return f"End of round: {ev['card']} leaves the Build Row for the Build discard."
    if kind == "reshuffle":
        return f"The Supply discard ({_plural(ev['count'], 'card')}) is shuffled into a new Supply Deck."
    if kind == "refill":
        return f"The Build Row is refilled with {listed(ev['cards'])}."
    if kind == "skip_refill":
        return "Supply Shortage: the Build Row is not refilled this time."
    if kind == "discard_top":
        return f"Two-player rule: the top Build card, {ev['card']}, is discarded."
    if kind == "trigger":
        why = (
            "reached the Cloud Milestone"
            if ev["reason"] == "milestone"
            else "made a claim the empty Build Deck cannot refill"
        )
        return f"Game end triggered: {s} {why}. The round is finished."
    if kind == "stall":
        return "A full round with a dry Supply and no claim: the game ends (U13)."
    if kind == "cap":
        return f"Round cap {ev['round']} reached: the game is stopped as stalled."
    if kind == "end":
        return f"The game is over: {_END_REASONS.get(ev['reason'], str(ev['reason']))}."
    if kind == "final":
        scores = "; ".join(
            f"{seat_name(q)} {points_phrase(pts)}" for q, pts in enumerate(ev["points"])
        )
        decided = decided_by_text(
            ev["points"], ev["winner"], ev["tiebreak"], ev["players"], ev["first_player"]
        )
        return f"Final scores: {scores}. {decided}."
    raise ValueError(f"unknown UPTIME event {ev!r}")  # pragma: no cover


def log_text(state: UptimeState, e: tuple[Any, ...]) -> str:
    """The readable line of one of the state's log entries."""
    return event_text(_event(state, e))


def decided_by_text(
    points: list[dict[str, int]],
    winner: int,
    level: str | None,
    players: list[dict[str, Any]],
    first: int,
) -> str:
    """The tie-break line that decided (U17), e.g. "Seat 2 wins on points" or "Seats 0 and 3
    tied on 12 points; Seat 0 has more Computers (2 to 1)". `players`: per-seat facts with
    the keys computers, contracts and draw_pass_actions (as in an observation)."""
    w = seat_name(winner)
    if level is None:
        return f"{w} wins on points"
    best = points[winner]["total"]
    tied = [q for q, p in enumerate(points) if p["total"] == best]
    who = "Seats " + ", ".join(str(q) for q in tied[:-1]) + f" and {tied[-1]}"
    head = f"{who} tied on {_plural(best, 'point')}; "

    def figures(key: str) -> str:
        others = ", ".join(str(players[q][key]) for q in tied if q != winner)
        return f" ({players[winner][key]} against {others})"

    if level == "most_computers":
        return head + f"{w} has more Computers{figures('computers')}"
    if level == "most_contracts":
        return head + f"{w} won more Contracts{figures('contracts')}"
    if level == "fewest_draw_pass":
        return head + f"{w} took fewer Draw/Pass actions{figures('draw_pass_actions')}"
    return head + f"{w} is earliest in turn order (first player {seat_name(first)})"


def narrate(observation: dict[str, Any]) -> list[NarrativeLine]:
    """A readable line for every public event of the observation's log, grouped by round
    ("Setup", "Round 3", "End"). Built from the observation only."""
    events = observation.get("events")
    if events is None:  # an observation from before structured events: the plain lines
        return [
            NarrativeLine(index=i, group="", text=str(x))
            for i, x in enumerate(observation.get("log") or [])
        ]
    out: list[NarrativeLine] = []
    group = "Setup"
    for i, ev in enumerate(events):
        kind = ev["kind"]
        if kind == "round":
            group = f"Round {ev['round']}"
            continue
        if kind == "end":
            group = "End"
        out.append(NarrativeLine(index=i, group=group, text=event_text(ev), seat=ev.get("seat")))
    return out


FINAL_COLUMNS = ("Computers", "Networks", "Contracts", "Leftovers")
_FINAL_KEYS = ("computers", "network", "contracts", "leftovers")


def final_table(observation: dict[str, Any]) -> FinalTable:
    """Each seat's points by source (Computers, Networks after the cap of 8, Contracts,
    leftover materials; they add up to the score), the winner and the tie-break line that
    decided (U17). Before the end: the standings, no winner."""
    players = observation["players"]
    rows = tuple(
        FinalRow(
            seat=pl["seat"],
            name=seat_name(pl["seat"]),
            parts=tuple(float(pl["points"][k]) for k in _FINAL_KEYS),
            total=float(pl["points"]["total"]),
        )
        for pl in players
    )
    points = [pl["points"] for pl in players]
    winner = observation.get("winner")
    if winner is None:
        return FinalTable(FINAL_COLUMNS, rows, (), "the game is not over yet")
    decided = decided_by_text(
        points, winner, observation.get("tiebreak"), players, observation["first_player"]
    )
    notes = []
    for pl in players:
        pts = pl["points"]
        if pts["network_uncapped"] > pts["network"]:
            notes.append(
                f"{seat_name(pl['seat'])}: Networks capped at {pts['network']} "
                f"(from {pts['network_uncapped']})."
            )
    return FinalTable(FINAL_COLUMNS, rows, (winner,), decided, tuple(notes))


# ---- observation --------------------------------------------------------------------
def observation(state: UptimeState, p: int) -> dict[str, Any]:
    """What seat p may know: the public view plus p's own hand."""
    return _view(state, p)


def public_observation(state: UptimeState) -> dict[str, Any]:
    """What everyone (players and spectators) may know: no hand at all, "seat": None.

    Hands (raw materials and Patches) are private; each seat's hand size, Patch
    count and the kinds everyone saw it take (`known_materials`) are public."""
    return _view(state, None)


def _view(state: UptimeState, p: int | None) -> dict[str, Any]:
    """One builder for both views, so the public part can never drift from a seat's:
    with p None, every private part (the hand) is left out."""
    t = state.table
    n = state.num_players
    describe = t.describe
    over = state.decision == A.D_OVER
    players = []
    for q in range(n):
        known = state.known_materials[q * MATERIAL_KINDS : (q + 1) * MATERIAL_KINDS]
        players.append(
            {
                "seat": q,
                "hand_materials": state.material_count(q),
                "hand_patches": state.patches[q],
                "known_materials": {t.material_names[m]: k for m, k in enumerate(known) if k},
                "tableau": [describe(c) for c in state.tableau[q]],
                "computers": state.computers[q],
                "milestone_computers": state.computers[q] + state.has_mainframe[q],
                "contracts": state.contracts[q],
                "draw_pass_actions": state.draw_pass[q],
                "turns": state.turns[q],
                "tower_discount": bool(state.tower_discount[q]),
                "points": scoring.breakdown(state, q),
            }
        )
    row = []
    for s in range(ROW):
        c = state.build_row[s]
        row.append(
            {
                "slot": s,
                "card": describe(c) if c >= 0 else None,
                "reserved_by": state.reserved_by[s] if state.reserved_by[s] >= 0 else None,
            }
        )
    bottom = state.build_deck[: state.build_bottom_known]
    obs: dict[str, Any] = {
        "game": "uptime",
        "seat": p,
        "num_players": n,
        "current_player": state.current_player(),
        "decision": decision_text(state),
        "decision_kind": A.DECISION_NAMES[state.decision],
        "phase": "over" if over else ("final_round" if state.end_pending else "play"),
        "round": state.round,
        "first_player": state.first_player,
        "turn_of": state.turn_seat,
        "scores": [float(x) for x in scoring.points(state)],
        "end_triggered": state.end_reason if state.end_pending or over else None,
        "supply_shortage_pending": state.shortage_pending,
        "materials": list(t.material_names),
        "build_row": row,
        "build_deck_count": len(state.build_deck),
        "build_deck_bottom_known": [t.name[c] for c in reversed(bottom)],
        "supply_deck_count": len(state.supply),
        "supply_discard": [describe(c) for c in state.supply_discard],
        "build_discard": [describe(c) for c in state.build_discard],
        "removed_twists": [describe(c) for c in state.removed_twists],
        "players": players,
    }
    if p is not None:  # the only private part
        obs["hand"] = [describe(c) for c in state.hand[p]] if 0 <= p < n else []
    obs["auction"] = _auction(state)
    obs["payment"] = _payment(state)
    events = [_event(state, e) for e in state.log]
    obs["events"] = events
    obs["log"] = [event_text(e) for e in events]
    if over:
        winner, level = scoring.rank(state)
        obs["winner"], obs["tiebreak"] = winner, level
    return obs


def _auction(state: UptimeState) -> dict[str, Any] | None:
    if state.auction_slot < 0:
        return None
    return {
        "contract": state.table.describe(state.build_row[state.auction_slot]),
        "opener": state.auction_opener,
        "high_bid": state.auction_high_bid if state.auction_high_bid > 0 else None,
        "high_bidder": state.auction_high_bidder if state.auction_high_bid > 0 else None,
        "still_to_answer": list(state.auction_to_answer),
    }


def _payment(state: UptimeState) -> dict[str, Any] | None:
    if state.decision != A.D_PAY:
        return None
    t = state.table
    return {
        "payer": state.decider,
        "for": "auction"
        if state.pay_for == A.FOR_AUCTION
        else t.name[state.build_row[state.pay_slot]],
        # the Row slot being requisitioned (1-4) is public: two Row cards of one name are
        # two different choices everyone saw made
        "slot": None if state.pay_for == A.FOR_AUCTION else state.pay_slot + 1,
        "remaining": state.pay_left,
        "paid": [t.name[c] for c in state.pay_paid],
    }


# ---- the lab's summary ----------------------------------------------------------------
def card_points(state: UptimeState, q: int) -> dict[str, int]:
    """Points each card name brought seat q (Network points in tableau order until the cap)."""
    t = state.table
    out: dict[str, int] = {}
    net_left = scoring.NETWORK_CAP
    routers_left = state.computers[q]
    per_computer = state.game.options["router_rule"] == "per_computer"
    for c in state.tableau[q]:
        k = t.kind[c]
        pts = 0
        if k in (COMPUTER, CONTRACT):
            pts = t.value[c]
        elif k == NETWORK:
            if t.sub[c] == 0:
                raw = t.value[c]
            else:
                attached = min(
                    state.computers[q] if per_computer else routers_left, t.router_max[c]
                )
                routers_left -= attached
                raw = t.value[c] * attached
            pts = min(raw, net_left)
            net_left -= pts
        out[t.name[c]] = out.get(t.name[c], 0) + pts
    leftover = scoring.breakdown(state, q)["leftovers"]
    if leftover:
        out["leftover materials"] = leftover
    return out


def game_info(state: UptimeState) -> dict[str, Any]:
    over = state.decision == A.D_OVER
    winner, level = scoring.rank(state) if over else (None, None)
    acquired: list[list[str]] = [[] for _ in range(state.num_players)]
    for seat, card in state.acquired:
        acquired[seat].append(state.table.name[card])
    return {
        "end_reason": state.end_reason or ("" if not over else "unknown"),
        "tiebreak": level,
        "winner": winner,
        "rounds": state.round,
        "turns": state.total_turns,
        "decisions": state.num_decisions,
        "acquired": acquired,
        "card_points": [card_points(state, q) for q in range(state.num_players)],
        "points": [scoring.breakdown(state, q) for q in range(state.num_players)],
        "computers": list(state.computers),
        "contracts": list(state.contracts),
        "draw_pass_actions": list(state.draw_pass),
        "first_player": state.first_player,
        "materials_left": [state.material_count(q) for q in range(state.num_players)],
        "supply_left": len(state.supply),
        "build_left": len(state.build_deck),
    }
