"""What a table refuses, and the reason its sender reads: messages to a closed table,
and a move that is not this holder's, not this step's or not legal now.

These checks change nothing, so they run first and a refused move leaves the table
as it was. They live apart from `table.py` so every reason a sender may be given is
in one place, and so the table's parts (`table_bots`, `table_clock`) can catch
`Refused` without importing the table that owns them; `cardlab.web.table`
re-exports what the rest of the code uses."""

from __future__ import annotations

from typing import Any, Protocol

from cardlab.core import GameState

PLAY_KINDS = frozenset({"act", "undo", "hand_to_bot", "reclaim", "hand_back", "allow_reclaim"})
"""Messages that change the game or who plays it: refused once the table is closed."""

AROUND_KINDS = frozenset({"chat", "mute", "rematch", "revoke", "replay", "survey"})
"""Messages around a game: a finished table still answers them (its replay, the
rematch, the chat, links the host replaces, the players' after-game survey); a table
closed before its end does not."""

IDLE_CLOSED = (
    "this table is closed: nobody was at it, so it was closed after standing idle; "
    "start a new one from the lobby"
)
"""Why a table closed before its game ended refuses what would change it."""


class Refused(Exception):
    """An action or request the table refuses; the message goes back to the sender."""


def closed_refusal(reason: str | None, closed: str | None, kind: str) -> str | None:
    """Why a message of `kind` is refused (`reason`: why the table is closed, if it is):
    a finished table refuses play and seat changes, one closed before its end
    (`closed`) refuses everything but a look at it (sync)."""
    if reason is None:
        return None
    if kind in PLAY_KINDS or (closed is not None and kind in AROUND_KINDS):
        return reason
    return None


class MoveTable(Protocol):
    """What a move is checked against."""

    @property
    def closed(self) -> str | None: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seats(self) -> list[dict[str, Any]]: ...
    @property
    def seq(self) -> int: ...
    @property
    def epoch(self) -> dict[int, int]: ...
    @property
    def held(self) -> dict[int, int]: ...
    @property
    def batch_start(self) -> int | None: ...
    def is_bot(self, seat: int) -> bool: ...
    def options_for(self, seat: int) -> list[int]: ...


def check_holder(
    table: MoveTable, seat: int, expected_seq: int | None, by: str, epoch: int | None
) -> None:
    """A machine's move is for one step and one holder of the seat: the bot that
    searched it, or (the timer) the human who let the clock run out."""
    if by == "bot" and not table.is_bot(seat):
        raise Refused(f"seat {seat} is no longer played by a bot")
    if by == "timer" and table.is_bot(seat):
        raise Refused(f"seat {seat} is played by a bot now; the timer's move is void")
    if epoch is None or epoch != table.epoch.get(seat, 0):
        raise Refused(f"seat {seat} changed hands since this {by} move was made")
    if expected_seq is None or expected_seq != table.seq:
        raise Refused(f"the {by} move was made for step {expected_seq}, not {table.seq}")


def check_move(
    table: MoveTable, seat: int, action: int, expected_seq: int | None, by: str
) -> tuple[list[int], bool]:
    """Refuse a move that may not be made now; else the seat's options and whether the
    move is an early choice in a simultaneous decision (to be held, not applied)."""
    state = table.state
    if table.closed is not None:
        raise Refused(table.closed)
    if state.is_terminal():
        raise Refused("the game is over")
    if by == "human" and table.is_bot(seat):
        raise Refused(
            f"seat {seat} is played by a bot now; "
            + (
                "send reclaim to take it back"
                if table.seats[seat].get("reclaim")
                else "the host can hand it back to you"
            )
        )
    current = state.current_player()
    options = table.options_for(seat) if by == "human" else state.legal_actions()
    early = by == "human" and current != seat and bool(options)
    if by == "human" and seat in table.held:
        raise Refused("you have already chosen; waiting for the others")
    # In a simultaneous decision the options do not change while others choose,
    # so a move made on any view since the decision began is current.
    batch_start = table.batch_start
    oldest = batch_start if batch_start is not None and by == "human" else table.seq
    if expected_seq is not None and not oldest <= expected_seq <= table.seq:
        raise Refused(
            f"stale move: it was made at step {expected_seq} but the table is at step "
            f"{table.seq}; nothing was applied, your view has been refreshed"
        )
    if current != seat and not early:
        raise Refused(f"it is not your decision now (waiting for seat {current})")
    if action not in options:
        raise Refused(f"action {action} is not one of your legal moves now; nothing was applied")
    return options, early
