"""A table's undo book: its last move, if a human's, and whether that move's mover
may take it back. The safety rule itself (what a move may have taught its mover) is
`undo.py`; this keeps the position it is judged from and the verdict, so the
rule's cost (`undo.REDEALS` redeals) is paid once a move, and only when asked."""

from __future__ import annotations

from typing import Protocol

from cardlab.core import GameState
from cardlab.web.store import TableRecord
from cardlab.web.undo import REDEALS, forecast, verdict


class UndoTable(Protocol):
    """What a table's undo book reads of its table."""

    @property
    def record(self) -> TableRecord: ...
    @property
    def closed(self) -> str | None: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seq(self) -> int: ...
    @property
    def held(self) -> dict[int, int]: ...
    def is_bot(self, seat: int) -> bool: ...
    def bot_seed(self, seat: int, seq: int, purpose: str) -> int: ...


class UndoBook:
    """Whether the table's last move may be undone, and why not. The move is noted
    after it is applied (`judge`); its verdict is reached on first asking, so a
    batch of simultaneous choices applied at once costs one verdict, and kept, so
    every frame after it asks for free."""

    def __init__(self, table: UndoTable) -> None:
        self._table = table
        # The last move, if a human's: (seat, step after it); the position before it
        # until the verdict is first asked for, then why it cannot be undone.
        self.last: tuple[int, int] | None = None
        self._before: tuple[GameState, int] | None = None
        self._reason: str | None = None

    def judge(self, seat: int, action: int, before: GameState | None) -> None:
        """After a move: remember the position before it (a human's move, `before`), to
        judge whether it may be undone when that is first asked (`verdict`)."""
        t = self._table
        if before is None or t.state.is_terminal():
            self.last, self._before = None, None
            return
        self.last = (seat, t.seq)
        self._before = (before, action)
        self._reason = None

    def forget(self) -> None:
        """The move was undone: the one before it stands (one step back only)."""
        self.last, self._before = None, None

    def verdict(self) -> str | None:
        """Why the table's last move cannot be undone (None: it can), judged once, on
        redeals of what its mover cannot see (`undo.forecast`, seeds fixed by the table,
        the seat and the step, so a restart judges the same)."""
        t = self._table
        if self._before is not None and self.last is not None:
            before, action = self._before
            seat, step = self.last[0], self.last[1] - 1
            seeds = [t.bot_seed(seat, step, f"undo{i}") for i in range(REDEALS)]
            fc = forecast(before, seat, action, t.record.players, seeds)
            self._reason = verdict(fc, t.state, seat)
            self._before = None
        return self._reason

    def why_not(self, seat: int | None) -> str | None:
        """None when `seat` may undo its last move now; else the reason."""
        t = self._table
        u = self.last
        if seat is None:
            return "only a seat can undo its own move"
        if t.closed is not None:
            return t.closed
        if t.state.is_terminal():
            return "the game is over"
        if u is None or u[0] != seat:
            return "your last move is not the table's last move (or it was not yours to undo)"
        if u[1] != t.seq:
            return "another seat has acted since your move"
        if t.is_bot(seat):
            return "a bot plays your seat now"
        if t.held:
            return "a seat has already made its secret choice; the move stands"
        return self.verdict()
