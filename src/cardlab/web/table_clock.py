"""The clock of a table: the turn timer of a human decision, the move played when
it runs out, and how long each human decision took.

A deadline is read on `time.monotonic` (a wall-clock jump must not end a turn); a
think time on `time.time`, since the seat's connection time it is measured from
comes from the hub in wall-clock seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import time
from typing import Protocol

from cardlab.agents import agent_view, make_agent
from cardlab.core import GameState
from cardlab.web.store import Store, TableRecord
from cardlab.web.table_refusal import Refused

log = logging.getLogger("cardlab.web")


class ClockTable(Protocol):
    """What a table's clock reads of its table, and the one way it acts on it."""

    @property
    def id(self) -> str: ...
    @property
    def record(self) -> TableRecord: ...
    @property
    def store(self) -> Store: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seq(self) -> int: ...
    @property
    def epoch(self) -> dict[int, int]: ...
    @property
    def changed(self) -> asyncio.Event: ...
    def is_bot(self, seat: int) -> bool: ...
    def bot_seed(self, seat: int, seq: int, purpose: str) -> int: ...
    async def submit(
        self, seat: int, action: int, expected_seq: int | None, by: str, epoch: int | None = None
    ) -> None: ...


class TurnClock:
    """The time a table keeps: when the human decision in progress must be made by
    (when the table has a turn timer), the quick bot's move for a seat whose time
    ran out, and each human's think time for `cardlab calibrate`. Apart from the
    table so everything that reads a clock is in one place and can be read alone."""

    def __init__(self, table: ClockTable) -> None:
        self._table = table
        self.deadline: float | None = None
        self.offered_at = time.time()
        # When each seat's socket last connected (set by the hub): a think time starts
        # no earlier, so a player who was away is not counted as thinking.
        self.connected_since: dict[int, float] = {}

    def arm(self) -> None:
        """Start the clock for a human decision (when the table has a turn timer)."""
        t = self._table
        seconds = t.record.settings.get("turn_seconds") or 0
        waiting = not t.state.is_terminal() and not t.is_bot(t.state.current_player())
        self.deadline = time.monotonic() + seconds if seconds and waiting else None

    def left(self) -> float | None:
        """Seconds left of the turn in progress (tenths), or None without a timer."""
        if self.deadline is None:
            return None
        return round(max(0.0, self.deadline - time.monotonic()), 1)

    def offered(self) -> None:
        """A new decision is offered now: think times are measured from here."""
        self.offered_at = time.time()

    def record_think_time(self, seat: int, options: int) -> None:
        """A human's think time: from when the decision was offered (or the seat
        connected, if later) to the move; for `cardlab calibrate`."""
        t = self._table
        since = max(self.offered_at, self.connected_since.get(seat, 0.0))
        kind = t.state.decision_kind()  # in a simultaneous batch: the batch's kind
        try:
            t.store.record_decision(
                t.record.game, kind, options, max(0.0, time.time() - since), t.record.players
            )
        except sqlite3.Error:
            log.exception("table %s: think time not recorded", t.id)

    async def wait(self, seat: int, seq: int, epoch: int) -> None:
        """Wait while the human at `seat` decides: until the table changes, or until
        the clock runs out and the timer moves for the seat."""
        t = self._table
        if self.deadline is None:
            self.arm()
        timeout = None if self.deadline is None else self.deadline - time.monotonic()
        try:
            await asyncio.wait_for(t.changed.wait(), timeout)
        except TimeoutError:
            await self.timed_out(seat, seq, epoch)

    async def timed_out(self, seat: int, seq: int, epoch: int | None = None) -> None:
        """The clock ran out: the quick bot (greedy) plays for the seat, from a redeal of
        what the seat cannot see, as a bot would (a random move threw away best
        cards); refused if the seat changed hands or the table moved on meanwhile."""
        t = self._table
        if t.seq != seq or t.state.is_terminal():
            return
        action = self.timer_move(seat, seq)
        epoch = t.epoch.get(seat, 0) if epoch is None else epoch
        with contextlib.suppress(Refused):
            await t.submit(seat, action, seq, by="timer", epoch=epoch)

    def timer_move(self, seat: int, seq: int) -> int:
        """Greedy's move for `seat` at step `seq` (seeded by the table, step and seat);
        a legal move picked by that seed if greedy fails."""
        t = self._table
        legal = t.state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = agent_view(t.state, seat, random.Random(t.bot_seed(seat, seq, "timer-view")))
        try:
            action = make_agent("greedy", seed=t.bot_seed(seat, seq, "timer")).step(view)
        except Exception:
            log.exception("table %s: greedy failed on a timer move at step %d", t.id, seq)
            action = None
        if action not in legal:
            action = legal[t.bot_seed(seat, seq, "timer") % len(legal)]
        return action
