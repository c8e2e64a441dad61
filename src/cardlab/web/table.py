"""One live table: the true state, its seats, its bots and its clock.

All changes to a table go through `Table.submit`, which checks the seat, the
sequence number and legality, applies the action, commits it to the store and
only then wakes the broadcaster. A driver task per table plays the bot seats
(paced by `bot_delay` so humans can follow) and the turn timer.

Bot moves of all tables take turns (`BotTurns`): at most one a pass of the
event loop, so a human's click, read at every pass, never waits behind a whole
round of bot moves. A bot whose decisions cost little CPU decides on the loop
(a thread hop and the GIL hand-offs cost more than a greedy move); one that
thinks longer, or is not yet known, decides in a worker thread."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from cardlab.agents import agent_view, make_agent
from cardlab.agents.base import Agent
from cardlab.core import Game, GameState
from cardlab.web.store import Store, TableRecord

log = logging.getLogger("cardlab.web")

CHECKPOINT_EVERY = 25
"""Replays keep a cloned state every this many actions so stepping back is cheap."""


INLINE_BOT_SECONDS = 0.002
"""A bot seat whose recent decisions each took less CPU than this decides on the event loop."""


class Refused(Exception):
    """An action or request the table refuses; the message goes back to the sender."""


class BotTurns:
    """One queue for the bot moves of every table of a server: each waiting move
    is let go on its own pass of the event loop, in arrival order, so the loop
    reads sockets (human clicks) between any two bot moves."""

    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._runner: asyncio.Task[None] | None = None

    async def turn(self) -> None:
        loop = asyncio.get_running_loop()
        runner = self._runner
        if runner is None or runner.done() or runner.get_loop() is not loop:
            self._waiting = deque()
            self._runner = loop.create_task(self._run(), name="bot-turns")
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append(done)
        await done

    async def _run(self) -> None:
        while True:
            while self._waiting:
                done = self._waiting.popleft()
                if not done.done():  # a stopped table's wait is cancelled
                    done.set_result(None)
                    await asyncio.sleep(0)  # the next move waits for the next pass
            await asyncio.sleep(0)
            if not self._waiting:
                self._runner = None
                return


def _timed_step(agent: Agent, view: GameState) -> tuple[int, float]:
    """A decision made in a worker thread, with the CPU time it took that thread."""
    start = time.thread_time()
    action = agent.step(view)
    return action, time.thread_time() - start


class Table:
    def __init__(
        self,
        record: TableRecord,
        game: Game,
        store: Store,
        bot_delay: float,
        bot_turns: BotTurns | None = None,
    ) -> None:
        self.record = record
        self.game = game
        self.store = store
        self.bot_delay = bot_delay
        self.state: GameState = game.new_initial_state(record.seed)
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.connected: dict[int, int] = {}
        self.on_change: Callable[[Table], Awaitable[None]] | None = None
        self._agents: dict[int, Agent] = {}
        self._bot_cost: dict[int, float] = {}
        self.bot_turns = bot_turns
        self._view_rng = random.Random(record.seed ^ 0x5EED)
        self._checkpoints: dict[int, GameState] = {0: self.state.clone()}
        self.driver: asyncio.Task[None] | None = None
        self.turn_deadline: float | None = None

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

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat]["kind"] == "bot"

    def agent(self, seat: int) -> Agent:
        spec = self.seats[seat]
        if seat not in self._agents:
            params = dict(spec.get("params") or {})
            self._agents[seat] = make_agent(
                spec["agent"], seed=self.record.seed % 100_000 + seat, **params
            )
        return self._agents[seat]

    def replay_log(self) -> None:
        """Rebuild the state from the stored log (server start)."""
        for rec in self.store.load_actions(self.id):
            if rec.seq != self.seq:
                raise RuntimeError(f"table {self.id}: action log has a gap at {rec.seq}")
            self.state.apply_action(rec.action)
            self._remember()

    def public_info(self) -> dict[str, Any]:
        """Table facts every audience may see (no seed, no tokens)."""
        return {
            "id": self.id,
            "game": self.record.game,
            "title": getattr(self.game, "title", self.record.game),
            "players": self.record.players,
            "options": self.record.options,
            "turn_seconds": self.record.settings.get("turn_seconds", 0),
            "turn_left": self._turn_left(),
            "seats": [
                {
                    "seat": i,
                    "name": s.get("name") or f"Seat {i}",
                    "kind": s["kind"],
                    "agent": s.get("agent"),
                    "connected": self.connected.get(i, 0) > 0,
                }
                for i, s in enumerate(self.seats)
            ],
        }

    def _turn_left(self) -> float | None:
        if self.turn_deadline is None:
            return None
        return round(max(0.0, self.turn_deadline - time.monotonic()), 1)

    # -- the one way a state changes --------------------------------------------------
    async def submit(self, seat: int, action: int, expected_seq: int | None, by: str) -> None:
        async with self.lock:
            self._apply_locked(seat, action, expected_seq, by)
        await self._announce()

    def _apply_locked(self, seat: int, action: int, expected_seq: int | None, by: str) -> None:
        state = self.state
        if state.is_terminal():
            raise Refused("the game is over")
        if expected_seq is not None and expected_seq != self.seq:
            raise Refused(
                f"stale move: it was made at step {expected_seq} but the table is at step "
                f"{self.seq}; nothing was applied, your view has been refreshed"
            )
        current = state.current_player()
        if current != seat:
            raise Refused(f"it is not your decision now (waiting for seat {current})")
        if action not in state.legal_actions():
            raise Refused(
                f"action {action} is not one of your legal moves now; nothing was applied"
            )
        seq = self.seq
        try:
            self.store.append_action(self.id, seq, seat, action, by)
        except sqlite3.IntegrityError:
            raise Refused(f"step {seq} was already recorded; nothing was applied") from None
        state.apply_action(action)
        self._remember()
        self._arm_timer()

    def _arm_timer(self) -> None:
        """Start the clock for a human decision (when the table has a turn timer)."""
        seconds = self.record.settings.get("turn_seconds") or 0
        waiting = not self.state.is_terminal() and not self.is_bot(self.state.current_player())
        self.turn_deadline = time.monotonic() + seconds if seconds and waiting else None

    def _remember(self) -> None:
        if self.seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[self.seq] = self.state.clone()

    async def _announce(self) -> None:
        self.changed.set()
        if self.on_change is not None:
            await self.on_change(self)

    # -- seats changing hands ---------------------------------------------------------
    async def set_seat(self, seat: int, spec: dict[str, Any]) -> None:
        async with self.lock:
            self.seats[seat] = {**self.seats[seat], **spec}
            self._agents.pop(seat, None)
            self._bot_cost.pop(seat, None)
            self.store.update_seats(self.id, self.seats)
            self._arm_timer()
        await self._announce()

    # -- replays of the finished game -------------------------------------------------
    def state_at(self, step: int) -> GameState:
        """The true state after `step` actions (server side only)."""
        history = self.state.history()
        step = max(0, min(step, len(history)))
        base = max(k for k in self._checkpoints if k <= step)
        state = self._checkpoints[base].clone()
        for action in history[base:step]:
            state.apply_action(action)
        return state

    # -- the driver: bots and the turn timer ------------------------------------------
    def start(self) -> None:
        if self.driver is None:
            self.driver = asyncio.create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
            self.driver = None

    async def _drive(self) -> None:
        while not self.state.is_terminal():
            self.changed.clear()
            seat = self.state.current_player()
            seq = self.seq
            if self.is_bot(seat):
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                if self.bot_turns is not None:
                    await self.bot_turns.turn()
                await self._bot_move(seat, seq)
                continue
            if self.turn_deadline is None:
                self._arm_timer()
            timeout = None if self.turn_deadline is None else self.turn_deadline - time.monotonic()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout)
            except TimeoutError:
                await self._timed_out(seat, seq)

    async def _bot_move(self, seat: int, seq: int) -> None:
        if self.seq != seq or self.state.current_player() != seat or not self.is_bot(seat):
            return
        legal = self.state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            # Bots get a redeal of what their seat cannot see, never the true state.
            view = agent_view(self.state, seat, self._view_rng)
            try:
                action = await self._decide(seat, view)
            except Exception:
                log.exception("table %s: bot of seat %d failed; it plays at random", self.id, seat)
                action = random.choice(legal)
        try:
            await self.submit(seat, action, seq, by="bot")
        except Refused as exc:
            log.info("table %s: bot move at step %d dropped: %s", self.id, seq, exc)

    async def _decide(self, seat: int, view: GameState) -> int:
        """The seat's bot decides on `view`: on the loop if it is known to be quick,
        else in a worker thread. Its cost is the peak of recent decisions (decaying)."""
        agent = self.agent(seat)
        cost = self._bot_cost.get(seat)
        if cost is not None and cost < INLINE_BOT_SECONDS:
            start = time.perf_counter()
            action = agent.step(view)
            spent = time.perf_counter() - start
        else:
            action, spent = await asyncio.to_thread(_timed_step, agent, view)
        self._bot_cost[seat] = max(spent, 0.8 * (cost or 0.0))
        return action

    async def _timed_out(self, seat: int, seq: int) -> None:
        """The clock ran out: a random legal move is made for the seat."""
        if self.seq != seq or self.state.is_terminal():
            return
        action = random.choice(self.state.legal_actions())
        with contextlib.suppress(Refused):
            await self.submit(seat, action, seq, by="timer")
