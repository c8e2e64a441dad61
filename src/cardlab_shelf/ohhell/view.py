"""OH HELL views: the observations, the public view, and the story of a game.

`observation(state, seat)` builds a seat's view and (seat None) the public view with
one function: the public view is the seat view minus the hand. Cards appear as
``{"id", "name"}``. `narrate` and `final_table` read an observation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab_shelf.deck import SUIT_WORDS

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.state import OhHellState


def card_json(state: OhHellState, index: int) -> dict[str, Any]:
    card = state.cards.cards[index]
    return {"id": card.id, "name": card.name}


def observation(state: OhHellState, seat: int | None) -> dict[str, Any]:
    n = state.game.num_players
    over = state.is_terminal()
    obs: dict[str, Any] = {
        "game": state.game.name,
        "seat": seat,
        "num_players": n,
        "current_player": state.current_player(),
        "decision": _decision(state),
        "decision_kind": None if over else state.phase,
        "phase": "over" if over else state.phase,
        "deal": min(state.deal + 1, len(state.game.sizes)),
        "deals": len(state.game.sizes),
        "hand_size": state.size,
        "dealer": state.dealer,
        "trump": None if over else card_json(state, state.trump_card),
        "trump_suit": None if over else SUIT_WORDS[state.trump_suit],
        "scores": list(state.points),
        "trick": [{"seat": s, "card": card_json(state, c)} for s, c in state.trick],
        "players": [
            {
                "cards in hand": len(state.hands[s]),
                "bid": state.bids[s],
                "tricks": state.tricks[s],
                "bids made": state.made[s],
            }
            for s in range(n)
        ],
        "log": _public_log(state),
        "end_reason": state.end_reason,
        "winners": state.winners(),
    }
    if seat is not None:
        obs["hand"] = [card_json(state, c) for c in state.hands[seat]]
    return obs


def _public_log(state: OhHellState) -> list[dict[str, Any]]:
    """Every event of the deal under way; of earlier deals those that name no card
    (bids, tricks taken, scores), since their cards have been dealt again."""
    start = state.deal_start
    return [
        _public_event(state, e, named=i >= start)
        for i, e in enumerate(state.log)
        if i >= start or e[0] != "play"
    ]


def _decision(state: OhHellState) -> str:
    if state.is_terminal():
        return ""
    seat = state.to_act
    if state.phase == "bid":
        hook = " (as dealer, not to make the bids add up)" if seat == state.dealer else ""
        return f"seat {seat}: bid the tricks you will take of {state.size}{hook}"
    if not state.trick:
        return f"seat {seat}: lead"
    return f"seat {seat}: play to the trick"


def _public_event(state: OhHellState, event: tuple[Any, ...], named: bool) -> dict[str, Any]:
    kind = event[0]
    if kind == "deal":
        _, number, dealer, size, trump = event
        out: dict[str, Any] = {"kind": "deal", "deal": number, "dealer": dealer, "size": size}
        out["trump_suit"] = SUIT_WORDS[state.game.suit[trump]]
        if named:
            out["trump"] = card_json(state, trump)
        return out
    if kind == "bid":
        return {"kind": "bid", "seat": event[1], "tricks": event[2]}
    if kind == "play":
        return {"kind": "play", "seat": event[1], "card": card_json(state, event[2])}
    if kind == "trick":
        return {"kind": "trick", "winner": event[1]}
    if kind == "scored":
        return {"kind": "scored", "bids": list(event[1]), "tricks": list(event[2]),
                "points": list(event[3])}  # fmt: skip
    return {"kind": kind, "reason": event[1]}


def narrate(obs: dict[str, Any]) -> list[NarrativeLine]:
    lines: list[NarrativeLine] = []
    group = "Deal 1"
    for i, event in enumerate(obs["log"]):
        kind, seat = event["kind"], event.get("seat")
        if kind == "deal":
            group = f"Deal {event['deal']}"
            shown = f" ({event['trump']['name']} turned up)" if "trump" in event else ""
            text = (f"Deal {event['deal']}: seat {event['dealer']} deals {event['size']} each; "
                    f"{event['trump_suit']} are trumps{shown}.")  # fmt: skip
        elif kind == "bid":
            text = f"Seat {seat} bids {event['tricks']}."
        elif kind == "play":
            text = f"Seat {seat} plays {event['card']['name']}."
        elif kind == "trick":
            seat = event["winner"]
            text = f"Seat {seat} takes the trick."
        elif kind == "scored":
            parts = [
                f"seat {s} {'made' if b == t else 'missed'} {b} ({p})"
                for s, (b, t, p) in enumerate(
                    zip(event["bids"], event["tricks"], event["points"], strict=True)
                )
            ]
            text = "Deal scored: " + ", ".join(parts) + "."
        else:
            text = f"The game is over ({event['reason']})."
        lines.append(NarrativeLine(index=i, group=group, text=text, seat=seat))
    return lines


def final_table(obs: dict[str, Any]) -> FinalTable:
    """Each seat's points deal by deal (they add up to its total)."""
    deals = [e for e in obs["log"] if e["kind"] == "scored"]
    columns = tuple(f"deal {i + 1}" for i in range(len(deals))) or ("points",)
    rows = []
    for seat, total in enumerate(obs["scores"]):
        parts = tuple(float(d["points"][seat]) for d in deals) or (float(total),)
        rows.append(FinalRow(seat=seat, name=f"Seat {seat}", parts=parts, total=float(total)))
    return FinalTable(
        columns=columns,
        rows=tuple(rows),
        winners=tuple(obs["winners"]),
        decided_by="most points, then most bids made",
    )
