"""CRAZY EIGHTS views: the observations, the public view, and the story of a game.

`observation(state, seat)` builds a seat's view and (seat None) the public view with
one function: the public view is the seat view minus the hand. Cards appear as
``{"id", "name"}``; a draw is logged without its card. `narrate` and `final_table`
read an observation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab_shelf.deck import SUIT_WORDS

if TYPE_CHECKING:
    from cardlab_shelf.crazyeights.state import CrazyEightsState


def card_json(state: CrazyEightsState, index: int) -> dict[str, Any]:
    card = state.cards.cards[index]
    return {"id": card.id, "name": card.name}


def observation(state: CrazyEightsState, seat: int | None) -> dict[str, Any]:
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
        "deal": min(state.deal + 1, state.game.options["deals"]),
        "deals": state.game.options["deals"],
        "dealer": state.dealer,
        "top": None if over else card_json(state, state.discard[-1]),
        "suit_to_follow": None if over or state.wild_start else SUIT_WORDS[state.suit_to_follow()],
        "any_card": state.wild_start and not over,
        "stock": len(state.stock),
        "discards": len(state.discard),
        "scores": list(state.points),
        "players": [
            {
                "cards in hand": len(state.hands[s]),
                "deals won": state.deals_won[s],
                "passed": state.passes > 0 and _passed_lately(state, s),
            }  # fmt: skip
            for s in range(n)
        ],
        "log": _public_log(state),
        "end_reason": state.end_reason,
        "winners": state.winners(),
    }
    if seat is not None:
        obs["hand"] = [card_json(state, c) for c in state.hands[seat]]
    return obs


def _passed_lately(state: CrazyEightsState, seat: int) -> bool:
    """Whether `seat` is among the passes in a row now on the table."""
    n = state.game.num_players
    return any((state.to_act - k) % n == seat for k in range(1, state.passes + 1))


def _public_log(state: CrazyEightsState) -> list[dict[str, Any]]:
    """Every event of the deal under way; of earlier deals those that name no card,
    since their cards have been dealt again."""
    start = state.deal_start
    return [
        _public_event(state, e, named=i >= start)
        for i, e in enumerate(state.log)
        if i >= start or e[0] not in ("play",)
    ]


def _decision(state: CrazyEightsState) -> str:
    if state.is_terminal():
        return ""
    seat = state.to_act
    if state.phase == "suit":
        return f"seat {seat}: name the suit to follow"
    if state.wild_start:
        return f"seat {seat}: the starter is an eight, play any card (or draw)"
    top = state.cards.cards[state.discard[-1]].name
    return f"seat {seat}: play on {top} ({SUIT_WORDS[state.suit_to_follow()]}), an eight, or draw"


def _public_event(state: CrazyEightsState, event: tuple[Any, ...], named: bool) -> dict[str, Any]:
    kind = event[0]
    if kind == "deal":
        out: dict[str, Any] = {"kind": "deal", "deal": event[1], "dealer": event[2]}
        if named:
            out["starter"] = card_json(state, event[3])
        return out
    if kind == "play":
        return {"kind": "play", "seat": event[1], "card": card_json(state, event[2])}
    if kind == "suit":
        return {"kind": "suit", "seat": event[1], "suit": SUIT_WORDS[event[2]]}
    if kind in ("draw", "pass"):
        return {"kind": kind, "seat": event[1]}
    if kind == "scored":
        return {"kind": "scored", "points": list(event[1]), "winner": event[2], "blocked": event[3]}
    return {"kind": kind, "reason": event[1]}


def narrate(obs: dict[str, Any]) -> list[NarrativeLine]:
    lines: list[NarrativeLine] = []
    group = "Deal 1"
    for i, event in enumerate(obs["log"]):
        kind, seat = event["kind"], event.get("seat")
        if kind == "deal":
            group = f"Deal {event['deal']}"
            shown = f"; {event['starter']['name']} starts the pile" if "starter" in event else ""
            text = f"Deal {event['deal']}: seat {event['dealer']} deals{shown}."
        elif kind == "play":
            text = f"Seat {seat} plays {event['card']['name']}."
        elif kind == "suit":
            text = f"Seat {seat} names {event['suit']}."
        elif kind == "draw":
            text = f"Seat {seat} draws a card."
        elif kind == "pass":
            text = f"Seat {seat} passes."
        elif kind == "scored":
            seat = event["winner"]
            how = "The deal is blocked" if event["blocked"] else f"Seat {seat} goes out"
            won = (
                f"; seat {seat} scores {event['points'][seat]}"
                if seat is not None
                else "; nobody scores"
            )
            text = f"{how}{won}."
        else:
            text = f"The game is over ({event['reason']})."
        lines.append(NarrativeLine(index=i, group=group, text=text, seat=seat))
    return lines


def final_table(obs: dict[str, Any]) -> FinalTable:
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
        decided_by="most points, then most deals won",
    )
