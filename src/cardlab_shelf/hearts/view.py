"""HEARTS views: the observations, the public view, and the story of a game.

`observation(state, seat)` builds a seat's view and (seat None) the public view with
one function: the public view is the seat view minus the hand, the cards chosen to
pass and where the passed cards went. Cards appear as ``{"id", "name"}``.
`narrate` and `final_table` read an observation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine

if TYPE_CHECKING:
    from cardlab_shelf.hearts.state import HeartsState

WORDS = {1: "left", 3: "right", 2: "across", 0: "hold"}


def card_json(state: HeartsState, index: int) -> dict[str, Any]:
    card = state.cards.cards[index]
    return {"id": card.id, "name": card.name}


def observation(state: HeartsState, seat: int | None) -> dict[str, Any]:
    n = state.game.num_players
    over = state.is_terminal()
    points = state.game.points
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
        "pass_direction": WORDS[state.direction],
        "scores": [int(p) for p in state.returns()],
        "game_points": list(state.points),
        "hearts_broken": state.broken,
        "trick": [{"seat": s, "card": card_json(state, c)} for s, c in state.trick],
        "players": [
            {
                "cards in hand": len(state.hands[s]),
                "chosen to pass": len(state.choosing[s]),
                "tricks": state.tricks_won[s],
                "points this deal": sum(points[c] for c in state.taken[s]),
                "penalty cards taken": [card_json(state, c) for c in state.taken_penalty(s)],
            }
            for s in range(n)
        ],
        "log": _public_log(state),
        "end_reason": state.end_reason,
        "winners": state.winners(),
        "lowest_wins": True,
    }
    if seat is not None:
        obs["hand"] = [card_json(state, c) for c in state.hands[seat]]
        you: dict[str, Any] = {
            "chosen to pass": [card_json(state, c) for c in state.choosing[seat]]
        }
        if state.passed[seat]:
            you["passed"] = [card_json(state, c) for c in state.passed[seat]]
            you["passed to"] = (seat + state.direction) % n
        obs["you"] = you
    return obs


def _public_log(state: HeartsState) -> list[dict[str, Any]]:
    """The public log: every event of the deal under way; of earlier deals, the
    events that name no card (who took each trick and its points, the deal's score),
    since their cards have been dealt again and may be in a hand now."""
    start = state.deal_start
    return [
        _public_event(state, e)
        for i, e in enumerate(state.log)
        if i >= start or e[0] not in ("play", "chose")
    ]


def _decision(state: HeartsState) -> str:
    if state.is_terminal():
        return ""
    seat = state.to_act
    if state.phase == "pass":
        chosen = len(state.choosing[seat])
        return f"seat {seat}: choose a card to pass {WORDS[state.direction]} ({chosen} of 3 chosen)"
    if not state.trick:
        return f"seat {seat}: lead to trick {state.tricks_played + 1}"
    return f"seat {seat}: play to the trick"


def _public_event(state: HeartsState, event: tuple[Any, ...]) -> dict[str, Any]:
    kind = event[0]
    if kind == "deal":
        return {"kind": "deal", "deal": event[1], "pass": WORDS[event[2]]}
    if kind == "chose":
        return {"kind": "chose", "seat": event[1]}
    if kind == "exchange":
        return {"kind": "exchange", "pass": WORDS[event[1]]}
    if kind == "play":
        return {"kind": "play", "seat": event[1], "card": card_json(state, event[2])}
    if kind == "trick":
        return {"kind": "trick", "winner": event[1], "points": event[2]}
    if kind == "scored":
        return {"kind": "scored", "points": list(event[1]), "moon": event[2]}
    return {"kind": kind, "reason": event[1]}


def narrate(obs: dict[str, Any]) -> list[NarrativeLine]:
    """A readable line for every public event, grouped by deal."""
    lines: list[NarrativeLine] = []
    group = "Deal 1"
    for i, event in enumerate(obs["log"]):
        kind, seat = event["kind"], event.get("seat")
        if kind == "deal":
            group = f"Deal {event['deal']}"
            how = "no passing" if event["pass"] == "hold" else f"pass three cards {event['pass']}"
            text = f"Deal {event['deal']}: {how}."
        elif kind == "chose":
            text = f"Seat {seat} chooses a card to pass."
        elif kind == "exchange":
            text = f"The chosen cards are passed {event['pass']}."
        elif kind == "play":
            text = f"Seat {seat} plays {event['card']['name']}."
        elif kind == "trick":
            seat = event["winner"]
            pts = event["points"]
            text = f"Seat {seat} takes the trick" + (f" ({pts} points)." if pts else ".")
        elif kind == "scored":
            pts = ", ".join(f"seat {s} {p}" for s, p in enumerate(event["points"]))
            moon = event["moon"]
            text = (
                f"Seat {moon} shoots the moon! " if moon is not None else ""
            ) + f"Deal points: {pts}."
        else:
            text = f"The game is over ({event['reason']})."
        lines.append(NarrativeLine(index=i, group=group, text=text, seat=seat))
    return lines


def final_table(obs: dict[str, Any]) -> FinalTable:
    """Each seat's penalty points deal by deal (they add up to its total); fewest wins."""
    deals = [e for e in obs["log"] if e["kind"] == "scored"]
    running = obs["phase"] != "over"
    columns = tuple(f"deal {i + 1}" for i in range(len(deals))) + (
        ("this deal",) if running else ()
    )
    rows = []
    for seat, total in enumerate(obs["scores"]):
        parts = tuple(float(d["points"][seat]) for d in deals)
        if running:
            parts += (float(total) - sum(parts),)
        rows.append(FinalRow(seat=seat, name=f"Seat {seat}", parts=parts, total=float(total)))
    return FinalTable(
        columns=columns,
        rows=tuple(rows),
        winners=tuple(obs["winners"]),
        decided_by="fewest penalty points (a tie is shared)",
    )
