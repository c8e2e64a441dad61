"""WAR views: the observations, the public view, and the story of a game.

`observation(state, seat)` builds a seat's view and (seat None) the public view with
one function; in WAR they differ only in `seat`, since a seat sees nothing of its
own pile either. The cards face up on the table (seat 0's card waiting for seat 1's,
and the last battle's until its taker gathers them) are shown as ``{"id", "name"}``;
the log names battles' cards by name only (they go back into face-down piles). `narrate` and `final_table` read an observation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine

if TYPE_CHECKING:
    from cardlab_shelf.war.state import WarState


def observation(state: WarState, seat: int | None) -> dict[str, Any]:
    over = state.is_terminal()
    names = [c.name for c in state.cards.cards]
    ids = [c.id for c in state.cards.cards]
    return {
        "game": state.game.name,
        "seat": seat,
        "num_players": 2,
        "current_player": state.current_player(),
        "decision": "" if over else f"seat {state.to_act}: turn over your top card",
        "decision_kind": None if over else "turn",
        "phase": "over" if over else "turn",
        "battle": state.battles + (0 if over else 1),
        "battles": state.game.options["battles"],
        "scores": [int(x) for x in state.returns()],
        "table": [{"id": ids[c], "name": names[c]} for c in state.up + state.shown],
        "face_down_on_table": len(state.down),
        "taker": state.taker,
        "players": [{"cards in pile": len(state.piles[s])} for s in (0, 1)],
        "wars": state.wars,
        "log": [_public_event(names, e) for e in state.log],
        "end_reason": state.end_reason,
        "winners": state.winners(),
    }


def _public_event(names: list[str], event: tuple[Any, ...]) -> dict[str, Any]:
    if event[0] == "battle":
        _, number, first, second, taker, taken = event
        return {
            "kind": "battle",
            "battle": number,
            "turned": [[names[c] for c in first], [names[c] for c in second]],
            "taker": taker,
            "taken": taken,
        }
    return {"kind": "end", "reason": event[1]}


def narrate(obs: dict[str, Any]) -> list[NarrativeLine]:
    lines = []
    for i, event in enumerate(obs["log"]):
        if event["kind"] == "battle":
            a, b = event["turned"]
            wars = len(a) - 1
            shown = " then ".join(f"{x} against {y}" for x, y in zip(a, b, strict=True))
            war = f" ({'war' if wars == 1 else f'{wars} wars'})" if wars else ""
            taker = event["taker"]
            who = (
                f"seat {taker} takes {event['taken']} cards"
                if taker is not None
                else "nobody takes them"
            )
            text = f"Battle {event['battle']}: {shown}{war}; {who}."
            seat = taker
        else:
            text, seat = f"The game is over ({event['reason']}).", None
        lines.append(
            NarrativeLine(
                index=i, group=f"Battle {event.get('battle', '')}".strip(), text=text, seat=seat
            )
        )
    return lines


def final_table(obs: dict[str, Any]) -> FinalTable:
    rows = tuple(
        FinalRow(seat=s, name=f"Seat {s}", parts=(float(t),), total=float(t))
        for s, t in enumerate(obs["scores"])
    )
    return FinalTable(
        columns=("cards held",),
        rows=rows,
        winners=tuple(obs["winners"]),
        decided_by="most cards held (a tie is shared)",
    )
