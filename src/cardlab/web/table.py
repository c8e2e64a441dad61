"""One live table: the true state, its seats, and the parts that play it.

All changes to a table go through `Table.submit`, which checks the seat, the
sequence number and legality, applies the action, commits it to the store and
only then wakes the broadcaster. A driver task per table plays the bot seats and
runs the turn timer.

`Table` is the one face the hub, the sockets and the tests use; each of its jobs
is a part it owns, with the part's own state:

- `bots` (`table_bots.TableBots`): bot moves, paced and taking turns with every
  other table's (`BotTurns`), decided on the loop, in a thread or in the process
  pool, greedy's move for a bot that failed;
- `clock` (`table_clock.TurnClock`): the turn timer, the timer's move, think times;
- `choices` (`table_held.HeldChoices`): simultaneous decisions, seats' early
  choices held until the engine reaches them;
- `undo_book` (`table_undo.UndoBook`): whether the last move may be taken back.

The table itself keeps what every part shares: the state and its log (checked,
committed, replayed, rebuilt), who holds each seat (`epoch`), and closing."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from functools import cached_property
from typing import Any

from cardlab.agents import make_agent
from cardlab.agents.base import Agent
from cardlab.core import Game, GameState
from cardlab.core.rng import derived_seed
from cardlab.web.botpool import BotPool
from cardlab.web.store import Store, TableRecord
from cardlab.web.table_bots import INLINE_BOT_SECONDS, BotTurns, TableBots
from cardlab.web.table_clock import TurnClock
from cardlab.web.table_held import HeldChoices, simultaneous_kinds
from cardlab.web.table_info import public_info, replay_command
from cardlab.web.table_refusal import (
    IDLE_CLOSED,
    Refused,
    check_holder,
    check_move,
    closed_refusal,
)
from cardlab.web.table_undo import UndoBook

# What the rest of the code imports from here (the parts' names it used to find here).
__all__ = ["IDLE_CLOSED", "INLINE_BOT_SECONDS", "BotTurns", "Refused", "Table"]

CHECKPOINT_EVERY = 25
"""Replays keep a cloned state every this many actions so stepping back is cheap."""


class Table:
    def __init__(
        self,
        record: TableRecord,
        game: Game,
        store: Store,
        bot_delay: float,
        bot_turns: BotTurns | None = None,
        bot_pool: BotPool | None = None,
        closed: str | None = None,
    ) -> None:
        self.record = record
        # Set when the table was closed before its game ended (stood idle, or could not
        # be restored live): the reason every message that would change it is refused
        # with. A finished table is closed by its state (`closed_reason`).
        self.closed = closed
        self.game = game
        self.store = store
        self.bot_delay = bot_delay
        self.bot_turns = bot_turns
        self.bot_pool = bot_pool
        self.state: GameState = game.new_initial_state(record.seed)
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.connected: dict[int, int] = {}
        self.on_change: Callable[[Table], Awaitable[None]] | None = None
        self.on_private: Callable[[Table, int], None] | None = None
        self._agents: dict[int, Agent] = {}
        # Bumped whenever a seat changes hands: a bot's (or the timer's) move made for
        # an earlier holder is refused under the lock.
        self.epoch: dict[int, int] = {}
        self._checkpoints: dict[int, GameState] = {0: self.state.clone()}
        self.driver: asyncio.Task[None] | None = None
        self.clock = TurnClock(self)
        self.choices = HeldChoices(self, simultaneous_kinds(game))
        self.undo_book = UndoBook(self)
        self._track_decision()

    @cached_property
    def bots(self) -> TableBots:
        """The table's bots, made on first use: they read the table (its pool, seats
        and agents) only when they decide, so a table's decisions can be tried on a
        bare table (`Table.__new__`) with just those set."""
        return TableBots(self)

    # -- identity and setup ---------------------------------------------------------
    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.record.seats

    @property
    def seq(self) -> int:
        return len(self.state.history())

    @property
    def held(self) -> dict[int, int]:
        """Seats' early secret choices, held until the engine reaches them."""
        return self.choices.held

    @property
    def batch_start(self) -> int | None:
        """The step the simultaneous decision in progress began at, or None."""
        return self.choices.batch_start

    @property
    def connected_since(self) -> dict[int, float]:
        """When each seat last connected (the hub sets it; think times start there)."""
        return self.clock.connected_since

    def is_bot(self, seat: int) -> bool:
        return bool(self.seats[seat]["kind"] == "bot")

    def human_seat(self, seat: int) -> bool:
        """A seat a person holds a link to (now played by them or handed to a bot)."""
        spec = self.seats[seat]
        return spec["kind"] == "human" or bool(spec.get("human"))

    def agent(self, seat: int) -> Agent:
        spec = self.seats[seat]
        if seat not in self._agents:
            params = dict(spec.get("params") or {})
            self._agents[seat] = make_agent(
                spec["agent"], seed=self.bot_seed(seat, -1, "bot"), **params
            )
        return self._agents[seat]

    def bot_seed(self, seat: int, seq: int, purpose: str) -> int:
        """The seed of one bot decision (or its redeal, or a timer's move) of `seat` at
        step `seq`: sha256 of the table's secret seed and the purpose (core.rng), so
        nothing a player sees of one decision predicts another, and a restarted
        server makes every decision again exactly as before (it depends on the seed,
        the seat and the step only, never on how many decisions came first)."""
        return derived_seed(self.record.seed, f"web:{purpose}:{seat}:{seq}")

    # -- closed tables ------------------------------------------------------------------
    def closed_reason(self) -> str | None:
        """Why nothing may change this table any more (None while it is live)."""
        if self.closed is not None:
            return self.closed
        if self.state.is_terminal():
            return "this table is closed: the game is over"
        return None

    def refusal(self, kind: str) -> str | None:
        """Why a message of `kind` is refused because the table is closed, or None."""
        return closed_refusal(self.closed_reason(), self.closed, kind)

    # -- the state and its log ----------------------------------------------------------
    def replay_log(self, stored_only: bool = False) -> None:
        """Rebuild the state from the stored log (server start), then the early
        choices of the simultaneous decision in progress; `stored_only` (a closed
        table rebuilt to be looked at): the stored moves only, nothing is written."""
        if stored_only:
            for rec in self.store.load_actions(self.id):
                if rec.seq != self.seq:
                    raise RuntimeError(f"table {self.id}: action log has a gap at {rec.seq}")
                self.state.apply_action(rec.action)
                self._remember()
            self._track_decision()
            return
        self._replay(self.store.load_actions(self.id))
        self.choices.restore()
        self._apply_held()

    def _replay(self, records: list[Any]) -> None:
        """Apply stored actions in order; the last one, if a human's, is judged for undo."""
        for k, rec in enumerate(records):
            if rec.seq != self.seq:
                raise RuntimeError(f"table {self.id}: action log has a gap at {rec.seq}")
            last_human = k == len(records) - 1 and rec.by == "human"
            before = self.state.clone() if last_human else None
            self.state.apply_action(rec.action)
            self._moved(rec.seat, rec.action, before)

    def _rebuild(self) -> None:
        """The state from seed + log, as a restart builds it (after an undo)."""
        self.state = self.game.new_initial_state(self.record.seed)
        self._checkpoints = {0: self.state.clone()}
        self.choices.reset()
        self._replay(self.store.load_actions(self.id))

    def _commit(self, seat: int, action: int, by: str) -> None:
        seq = self.seq
        try:
            self.store.append_action(self.id, seq, seat, action, by)
        except sqlite3.IntegrityError:
            raise Refused(f"step {seq} was already recorded; nothing was applied") from None
        before = self.state.clone() if by == "human" else None
        self.state.apply_action(action)
        self._moved(seat, action, before)

    def _moved(self, seat: int, action: int, before: GameState | None) -> None:
        """After each applied action (`before`: the position first, for a human's)."""
        self.undo_book.judge(seat, action, before)
        self._remember()
        self._track_decision()

    def _track_decision(self) -> None:
        """A new decision is offered now: its think time starts, and it may open a
        simultaneous batch."""
        self.clock.offered()
        self.choices.track()

    def _apply_held(self) -> None:
        """Apply held choices while the engine waits for a seat that has one."""
        while (move := self.choices.next_held()) is not None:
            seat, action = move
            self._commit(seat, action, "human")
            self.store.drop_held(self.id, seat)

    def _remember(self) -> None:
        if self.seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[self.seq] = self.state.clone()

    def state_at(self, step: int) -> GameState:
        """The true state after `step` actions (server side only), for replays."""
        history = self.state.history()
        step = max(0, min(step, len(history)))
        base = max(k for k in self._checkpoints if k <= step)
        state = self._checkpoints[base].clone()
        for action in history[base:step]:
            state.apply_action(action)
        return state

    # -- what the audiences are shown ---------------------------------------------------
    def public_info(self) -> dict[str, Any]:
        """Table facts every audience may see (`table_info.public_info`)."""
        return public_info(self, self.clock.left())

    def replay_command(self) -> str:
        """`cardlab play` dealing this table's game again (`table_info.replay_command`)."""
        return replay_command(self.record)

    def options_for(self, seat: int) -> list[int]:
        """The actions `seat` may send now (`HeldChoices.options_for`)."""
        return self.choices.options_for(seat)

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        """What the frame of `seat` offers: every move it may send now, with labels."""
        return self.choices.legal_for(seat)

    def chosen(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's own held choice (for its frame alone), or None."""
        return self.choices.chosen(seat)

    def why_no_undo(self, seat: int | None) -> str | None:
        """None when `seat` may undo its last move now; else the reason."""
        return self.undo_book.why_not(seat)

    def timer_move(self, seat: int, seq: int) -> int:
        """The move the clock plays for `seat` at step `seq` (`TurnClock.timer_move`)."""
        return self.clock.timer_move(seat, seq)

    # -- the ways a state changes -------------------------------------------------------
    async def submit(
        self, seat: int, action: int, expected_seq: int | None, by: str, epoch: int | None = None
    ) -> None:
        """Apply (or, for an early simultaneous choice, hold) one move; refuse with
        the reason and change nothing when it may not be made. A bot's or the
        timer's move names the step it was made for and the seat's `epoch` then: it
        is refused when the seat changed hands since (checked under the lock)."""
        async with self.lock:
            if by in ("bot", "timer"):
                check_holder(self, seat, expected_seq, by, epoch)
            held = self._apply_locked(seat, action, expected_seq, by)
        if held:
            if self.on_private is not None:
                self.on_private(self, seat)  # only this seat learns it has chosen
            return
        await self._announce()

    def _apply_locked(self, seat: int, action: int, expected_seq: int | None, by: str) -> bool:
        """Apply the checked move (True: an early choice, held instead)."""
        options, early = check_move(self, seat, action, expected_seq, by)
        if by == "human":
            self.clock.record_think_time(seat, len(options))
        if early:
            self.choices.hold(seat, action)
            return True
        self._commit(seat, action, by)
        self._apply_held()
        self.clock.arm()
        return False

    async def undo(self, seat: int) -> None:
        """Take back `seat`'s last move: delete its row from the log (one transaction,
        refused if it is not the last row) and rebuild the state from seed + log, as a
        restart would. Every seat's epoch moves on, so a bot or timer move made for
        the undone position is refused."""
        async with self.lock:
            reason = self.closed_reason() or self.why_no_undo(seat)
            if reason is not None:
                raise Refused(f"cannot undo: {reason}")
            if not self.store.delete_last_action(self.id, self.seq - 1, seat):
                raise Refused("cannot undo: the log has moved on")
            self._rebuild()
            for s in range(self.record.players):
                self.epoch[s] = self.epoch.get(s, 0) + 1
            self.undo_book.forget()
            self.clock.arm()
        await self._announce()

    async def set_seat(
        self, seat: int, spec: dict[str, Any], expect_bot: bool | None = None
    ) -> None:
        """Change who plays `seat`. `expect_bot`: the seat must (True) or must not
        (False) be a bot's when the lock is taken, else Refused (a reclaim, hand-back
        or hand-over checked before it waited for the lock may be out of date)."""
        async with self.lock:
            closed = self.closed_reason()
            if closed is not None:
                raise Refused(closed)
            if expect_bot is not None and self.is_bot(seat) != expect_bot:
                raise Refused(
                    f"seat {seat} is not played by a bot"
                    if expect_bot
                    else f"seat {seat} is already played by a bot"
                )
            self.seats[seat] = {**self.seats[seat], **spec}
            self.epoch[seat] = self.epoch.get(seat, 0) + 1
            self._agents.pop(seat, None)
            self.bots.forget(seat)
            if self.is_bot(seat):
                self.choices.drop(seat)  # the bot decides in its turn
            self.store.update_seats(self.id, self.seats)
            self.clock.arm()
        await self._announce()

    async def _announce(self) -> None:
        self.changed.set()
        if self.on_change is not None:
            await self.on_change(self)

    # -- the driver: bots and the turn timer ------------------------------------------
    def start(self) -> None:
        if self.driver is None and self.closed is None:
            self.driver = asyncio.create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
            self.driver = None

    async def _drive(self) -> None:
        """Until the game ends: a bot seat's move (`TableBots.play`), or the clock
        while a human decides (`TurnClock.wait`), whichever seat is to act."""
        while not self.state.is_terminal():
            self.changed.clear()
            seat = self.state.current_player()
            seq = self.seq
            epoch = self.epoch.get(seat, 0)
            if self.is_bot(seat):
                await self.bots.play(seat, seq, epoch)
            else:
                await self.clock.wait(seat, seq, epoch)

    async def _decide(self, seat: int, view: GameState, seq: int | None = None) -> int:
        """The seat's bot decides on `view` (`TableBots.decide`). The bots decide through
        this method, so one table's decisions can be wrapped (slowed, broken)."""
        return await self.bots.decide(seat, view, seq)
