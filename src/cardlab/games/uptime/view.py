"""What players read: observations, action labels, the public log and the lab's info.

Everything here is derived from a state and never changes it. `observation(p)`
shows hidden cards only as counts: the Supply and Build Decks, and the other
seats' raw materials. Log entries never carry card ids (a card named in the log
may later sit in a hand), only names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.games.uptime import actions as A
from cardlab.games.uptime import scoring
from cardlab.games.uptime.cards import COMPUTER, CONTRACT, NETWORK, PATCH

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState


def seat_name(p: int) -> str:
    return f"Seat {p}"


# ---- actions ------------------------------------------------------------------------
def _requisition_cost(state: UptimeState, card: int, seat: int) -> str:
    t = state.t
    k = t.kind[card]
    if k == COMPUTER:
        return "pay 3 different Component types"
    if k == NETWORK:
        cost = state._net_cost(card, seat)
        return f"pay {cost} raw material{'s' if cost != 1 else ''}; needs 2+ Computers"
    if k == PATCH:
        n = state.game.options["patch_cost"]
        return f"pay {n} raw material" if n else "free"
    if k == CONTRACT:
        return "won only by bidding"
    a, b = t.component_cost[t.sub[card]]
    return f"pay {t.material_names[a]}, {t.material_names[b]}"


def action_label(state: UptimeState, action: int) -> str:
    """A readable label; meaningful for any action number, best for legal ones."""
    t = state.t
    seat = state.dseat if state.dseat >= 0 else 0
    if action == A.DRAW:
        if state._supply_dry():
            return "Draw (the Supply is empty: you get nothing)"
        return "Draw (take the top 2 Supply cards)"
    if action == A.PASS:
        if state._supply_dry():
            return "Pass (the Supply is empty: you get nothing)"
        return "Pass (take the top Supply card)"
    if action == A.SWEEP:
        return "Sweep the Build Row (to the Build Deck bottom; refill)"
    if A.REQ <= action < A.RESERVE + 4:
        # The slot is named so that two copies of a Component in the Row read differently
        # (issue 16: every legal action of a state has its own label).
        s = (action - A.REQ) % 4
        c = state.row[s]
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
    if A.BID < action < A.SWEEP:
        k = action - A.BID
        verb = "Open the bidding at" if state.dk == A.D_OPEN_BID else "Raise to"
        return f"{verb} {k} material{'s' if k != 1 else ''}"
    return f"no such action {action!r}"


def _next_need(state: UptimeState) -> str:
    if state.pay_kind == A.NEED_SPECIFIC and state.pay_spec:
        return state.t.material_names[state.pay_spec[0]]
    if state.pay_kind == A.NEED_TYPES:
        return "a Component type"
    return "a raw material"


def describe_illegal(state: UptimeState, action: object) -> str:
    if state.dk == A.D_OVER:
        return f"action {action!r} refused: the game is over"
    legal = state.legal_actions()
    shown = ", ".join(f"{a}={action_label(state, a)}" for a in legal[:12])
    what = action_label(state, action) if isinstance(action, int) else repr(action)
    return (
        f"action {action!r} ({what}) is not legal for seat {state.dseat} now "
        f"({decision_text(state)}); legal: {shown}"
    )


# ---- decision ---------------------------------------------------------------------
def decision_text(state: UptimeState) -> str:
    t = state.t
    p = state.dseat
    dk = state.dk
    if dk == A.D_OVER:
        return "the game is over"
    who = seat_name(p)
    if dk == A.D_TURN:
        return f"{who}: choose a turn action (Draw, Requisition, Bid, Reserve or Pass)"
    if dk == A.D_PAY:
        if state.pay_for == A.FOR_AUCTION:
            return f"{who}: pay the winning bid, {state.pay_n} more raw material(s)"
        card = t.name[state.row[state.pay_slot]]
        return f"{who}: pay for {card}: {_next_need(state)} next ({state.pay_n} left)"
    if dk == A.D_CHOOSE:
        return f"{who}: choose a free raw material ({state.choose_reason})"
    if dk == A.D_BLADE:
        return f"{who}: return one of your Components to the Build Deck bottom (Blade)"
    card = t.name[state.row[state.a_slot]]
    if dk == A.D_OPEN_BID:
        return f"{who}: name your opening bid for Contract {card}"
    return f"{who}: raise above {state.a_high} or pass (Contract {card})"


# ---- log ----------------------------------------------------------------------------
def log_text(state: UptimeState, e: tuple[Any, ...]) -> str:
    t = state.t
    kind = e[0]
    s = seat_name(e[1]) if len(e) > 1 and isinstance(e[1], int) else ""

    def names(cards: tuple[int, ...]) -> str:
        return ", ".join(t.name[c] for c in cards) or "nothing"

    if kind == "setup":
        return f"{s} goes first. Build Row: {names(e[2])}."
    if kind == "action":
        return f"{s} chooses {e[2].capitalize()}."
    if kind == "got":
        verb = {"deal": "is dealt", "draw": "draws", "blade": "draws (Blade)"}[e[3]]
        return f"{s} {verb} {e[2]} card{'s' if e[2] != 1 else ''}."
    if kind == "twist":
        return f"{s} reveals {t.name[e[2]]}; it resolves and leaves the game."
    if kind == "shortage_pending":
        return "Supply Shortage: the Build Row will not refill after the next claim."
    if kind == "take":
        src = "the supply discard" if e[3] == "discard" else "the Supply Deck (then shuffled)"
        return f"{s} takes a free {t.material_names[e[2]]} from {src} ({e[4]})."
    if kind == "gone":
        return f"{s} names {t.material_names[e[2]]}, but none is left anywhere."
    if kind == "nothing":
        return f"{s} gets nothing from {e[2]}: no raw material is left."
    if kind == "claim":
        return f"{s} requisitions {t.name[e[2]]}, paying {names(e[3])}."
    if kind == "reserve":
        return f"{s} reserves {t.name[e[2]]} with a Patch."
    if kind == "unreserve":
        return f"{s}'s Patch on {t.name[e[2]]} is discarded (reservation over)."
    if kind == "open":
        return f"{s} opens bidding on {t.name[e[2]]} at {e[3]}."
    if kind == "raise":
        return f"{s} raises to {e[2]}."
    if kind == "decline":
        return f"{s} passes."
    if kind == "cannot_raise":
        return f"{s} cannot raise and passes."
    if kind == "win":
        return f"{s} wins {t.name[e[2]]} for {e[3]}, paying {names(e[4])}."
    if kind == "tower":
        return f"{s} uses the Tower discount."
    if kind == "return":
        return f"{s} returns {t.name[e[2]]} to the bottom of the Build Deck (Blade)."
    if kind == "no_return":
        return f"{s} has no Component to return (Blade)."
    if kind == "sweep":
        return f"{s} sweeps {names(e[2])} to the bottom of the Build Deck (row_sweep)."
    if kind == "reshuffle":
        return f"The supply discard ({e[1]} cards) is shuffled into a new Supply Deck."
    if kind == "refill":
        return f"Build Row refilled with {names(e[1])}."
    if kind == "skip_refill":
        return "Supply Shortage: the Build Row is not refilled this time."
    if kind == "discard_top":
        return f"Two-player rule: the top Build card, {t.name[e[1]]}, is discarded."
    if kind == "trigger":
        why = "reached the Cloud Milestone" if e[2] == "milestone" else "claimed; Build Deck empty"
        return f"Game end triggered: {s} {why}. The round is finished."
    if kind == "stall":
        return "A full round with an empty Supply Deck and no claim: the game ends (U13)."
    if kind == "cap":
        return f"Round cap {e[1]} reached: the game is stopped as stalled."
    if kind == "end":
        return f"The game is over ({e[1]})."
    return str(e)  # pragma: no cover


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
    from cardlab.games.uptime.state import _cons_list

    t = state.t
    n = state.n
    describe = t.describe
    over = state.dk == A.D_OVER
    players = []
    for q in range(n):
        b = q * 4
        players.append(
            {
                "seat": q,
                "hand_materials": sum(state.mats[b : b + 4]),
                "hand_patches": state.npatch[q],
                "known_materials": {
                    t.material_names[m]: state.known[b + m] for m in range(4) if state.known[b + m]
                },
                "tableau": [describe(c) for c in state.tab[q]],
                "computers": state.ncomp[q],
                "milestone_computers": state.ncomp[q] + state.mainframe[q],
                "contracts": state.ncontract[q],
                "draw_pass_actions": state.draw_pass[q],
                "turns": state.turns[q],
                "tower_discount": bool(state.tower[q]),
                "points": scoring.breakdown(state, q),
            }
        )
    row = []
    for s in range(4):
        c = state.row[s]
        row.append(
            {
                "slot": s,
                "card": describe(c) if c >= 0 else None,
                "reserved_by": state.resv[s] if state.resv[s] >= 0 else None,
            }
        )
    bottom = state.bdeck[: state.bknown]
    obs: dict[str, Any] = {
        "game": "uptime",
        "seat": p,
        "num_players": n,
        "current_player": state.current_player(),
        "decision": decision_text(state),
        "decision_kind": A.DECISION_NAMES[state.dk],
        "phase": "over" if over else ("final_round" if state.end_pending else "play"),
        "round": state.round,
        "first_player": state.first,
        "turn_of": state.turn_seat,
        "scores": [float(x) for x in scoring.points(state)],
        "end_triggered": state.end_reason if state.end_pending or over else None,
        "supply_shortage_pending": state.shortage,
        "materials": list(t.material_names),
        "build_row": row,
        "build_deck_count": len(state.bdeck),
        "build_deck_bottom_known": [t.name[c] for c in reversed(bottom)],
        "supply_deck_count": len(state.supply),
        "supply_discard": [describe(c) for c in state.sdisc],
        "build_discard": [describe(c) for c in state.bdisc],
        "removed_twists": [describe(c) for c in state.removed],
        "players": players,
    }
    if p is not None:  # the only private part
        obs["hand"] = [describe(c) for c in state.hand[p]] if 0 <= p < n else []
    obs["auction"] = _auction(state)
    obs["payment"] = _payment(state)
    obs["log"] = [log_text(state, e) for e in _cons_list(state.log)]
    if over:
        winner, level = scoring.rank(state)
        obs["winner"], obs["tiebreak"] = winner, level
    return obs


def _auction(state: UptimeState) -> dict[str, Any] | None:
    if state.a_slot < 0:
        return None
    return {
        "contract": state.t.describe(state.row[state.a_slot]),
        "opener": state.a_opener,
        "high_bid": state.a_high if state.a_high > 0 else None,
        "high_bidder": state.a_seat if state.a_high > 0 else None,
        "still_to_answer": list(state.a_queue),
    }


def _payment(state: UptimeState) -> dict[str, Any] | None:
    if state.dk != A.D_PAY:
        return None
    t = state.t
    return {
        "payer": state.dseat,
        "for": "auction" if state.pay_for == A.FOR_AUCTION else t.name[state.row[state.pay_slot]],
        "remaining": state.pay_n,
        "paid": [t.name[c] for c in state.pay_paid],
    }


# ---- the lab's summary ----------------------------------------------------------------
def card_points(state: UptimeState, q: int) -> dict[str, int]:
    """Points each card name brought seat q (Network points in tableau order until the cap)."""
    t = state.t
    out: dict[str, int] = {}
    net_left = scoring.NETWORK_CAP
    routers_left = state.ncomp[q]
    per_computer = state.game.options["router_rule"] == "per_computer"
    for c in state.tab[q]:
        k = t.kind[c]
        pts = 0
        if k in (COMPUTER, CONTRACT):
            pts = t.value[c]
        elif k == NETWORK:
            if t.sub[c] == 0:
                raw = t.value[c]
            else:
                attached = min(state.ncomp[q] if per_computer else routers_left, t.router_max[c])
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
    from cardlab.games.uptime.state import _cons_list

    over = state.dk == A.D_OVER
    winner, level = scoring.rank(state) if over else (None, None)
    acquired: list[list[str]] = [[] for _ in range(state.n)]
    for seat, card in _cons_list(state.acq):
        acquired[seat].append(state.t.name[card])
    return {
        "end_reason": state.end_reason or ("" if not over else "unknown"),
        "tiebreak": level,
        "winner": winner,
        "rounds": state.round,
        "turns": state.total_turns,
        "decisions": state.nhist,
        "acquired": acquired,
        "card_points": [card_points(state, q) for q in range(state.n)],
        "points": [scoring.breakdown(state, q) for q in range(state.n)],
        "computers": list(state.ncomp),
        "contracts": list(state.ncontract),
        "draw_pass_actions": list(state.draw_pass),
        "first_player": state.first,
        "materials_left": [sum(state.mats[q * 4 : q * 4 + 4]) for q in range(state.n)],
        "supply_left": len(state.supply),
        "build_left": len(state.bdeck),
    }
