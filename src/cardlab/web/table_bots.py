"""The bots of a table: whose turn it is among all tables' bots, where one bot's
decision is made, and what plays for a bot that failed.

Bot moves of all tables take turns (`BotTurns`): at most one a pass of the event
loop, so a human's click, read at every pass, never waits behind a whole round of
bot moves. A bot whose decisions cost little CPU decides on the loop (a thread hop
and the GIL hand-offs cost more than a greedy move); a searching bot (ISMCTS)
decides in the server's bounded pool of worker processes (`botpool.py`), so its
search never holds the lock the loop needs; any other bot not yet known to be
quick decides in a worker thread."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from typing import Any, Protocol

from cardlab.agents import agent_view, make_agent
from cardlab.agents.base import Agent
from cardlab.core import GameState
from cardlab.web.botpool import BotPool
from cardlab.web.catalog import ISMCTS_STRENGTHS
from cardlab.web.table_refusal import Refused

log = logging.getLogger("cardlab.web")

STRONG_ITERATIONS = ISMCTS_STRENGTHS["strong"]
"""An ISMCTS seat with this many iterations or more uses all of the bot pool's workers."""

INLINE_BOT_SECONDS = 0.002
"""A bot seat whose recent decisions each took less CPU than this decides on the event loop."""


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


def _searches(agent: Agent) -> bool:
    """A bot that searches (ISMCTS: an iteration budget) thinks for a long time."""
    return isinstance(getattr(agent, "iterations", None), int) or bool(
        getattr(agent, "time_ms", None)
    )


def _timed_step(agent: Agent, view: GameState) -> tuple[int, float]:
    """A decision made in a worker thread, with the CPU time it took that thread."""
    start = time.thread_time()
    action = agent.step(view)
    return action, time.thread_time() - start


class BotTable(Protocol):
    """What a table's bots read of their table, and the two ways they act on it."""

    @property
    def id(self) -> str: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seats(self) -> list[dict[str, Any]]: ...
    @property
    def seq(self) -> int: ...
    @property
    def epoch(self) -> dict[int, int]: ...
    @property
    def bot_delay(self) -> float: ...
    @property
    def bot_turns(self) -> BotTurns | None: ...
    @property
    def bot_pool(self) -> BotPool | None: ...
    def is_bot(self, seat: int) -> bool: ...
    def agent(self, seat: int) -> Agent: ...
    def bot_seed(self, seat: int, seq: int, purpose: str) -> int: ...
    async def submit(
        self, seat: int, action: int, expected_seq: int | None, by: str, epoch: int | None = None
    ) -> None: ...

    # The table's own entry to `TableBots.decide`: one table's decisions can be
    # wrapped there (slowed, broken) without touching any other table's bots.
    async def _decide(self, seat: int, view: GameState, seq: int | None = None) -> int: ...


class TableBots:
    """The bot seats of one table: each move paced and queued behind the other
    tables' bots, decided where it costs the loop least (its measured CPU cost
    picks the loop, a thread or the process pool), and played by greedy once the
    seat's own bot has failed. Apart from the table so how a bot thinks changes in
    one place; the table only learns the move, through `submit` like anyone's."""

    def __init__(self, table: BotTable) -> None:
        self._table = table
        self._cost: dict[int, float] = {}
        self._failed: set[int] = set()

    def forget(self, seat: int) -> None:
        """The seat changed hands: its next bot is measured and trusted afresh."""
        self._cost.pop(seat, None)
        self._failed.discard(seat)

    async def play(self, seat: int, seq: int, epoch: int) -> None:
        """The bot's move at step `seq`, after the table's delay (so humans can follow)
        and its turn among all tables' bots."""
        t = self._table
        if t.bot_delay > 0:
            await asyncio.sleep(t.bot_delay)
        if t.bot_turns is not None:
            await t.bot_turns.turn()
        await self.move(seat, seq, epoch)

    async def move(self, seat: int, seq: int, epoch: int | None = None) -> None:
        """Decide and submit the bot's move, unless the table moved on or the seat
        changed hands; `submit` checks both again under the lock."""
        t = self._table
        epoch = t.epoch.get(seat, 0) if epoch is None else epoch
        if (
            t.seq != seq
            or t.state.current_player() != seat
            or not t.is_bot(seat)
            or t.epoch.get(seat, 0) != epoch
        ):
            return
        legal = t.state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            # Bots get a redeal of what their seat cannot see, never the true state.
            view = agent_view(t.state, seat, random.Random(t.bot_seed(seat, seq, "view")))
            try:
                if seat in self._failed:  # greedy plays for it (logged once)
                    raise RuntimeError(f"the bot of seat {seat} failed before")
                action = await t._decide(seat, view, seq)
            except Exception:
                action = self.fallback_move(seat, seq, view)
        try:
            await t.submit(seat, action, seq, by="bot", epoch=epoch)
        except Refused as exc:
            log.info("table %s: bot move at step %d dropped: %s", t.id, seq, exc)

    def fallback_move(self, seat: int, seq: int, view: GameState) -> int:
        """A bot that raised plays the quick bot's (greedy's) move; its traceback is
        logged once per table and seat, not once a move."""
        t = self._table
        if seat not in self._failed:
            self._failed.add(seat)
            log.exception(
                "table %s: the %s bot of seat %d failed; greedy plays for it from now on "
                "(logged once)",
                t.id,
                t.seats[seat].get("agent"),
                seat,
            )
        try:
            return make_agent("greedy", seed=t.bot_seed(seat, seq, "fallback")).step(view)
        except Exception:
            log.debug("table %s: greedy failed too at step %d", t.id, seq, exc_info=True)
            legal = t.state.legal_actions()
            return legal[t.bot_seed(seat, seq, "fallback") % len(legal)]

    async def decide(self, seat: int, view: GameState, seq: int | None = None) -> int:
        """The seat's bot decides on `view`: on the loop if it is known to be quick, in
        the worker process pool if it searches (ISMCTS), else in a thread. Its cost is
        the peak of recent decisions (decaying)."""
        t = self._table
        cost = self._cost.get(seat)
        pool = t.bot_pool
        if cost is not None and cost < INLINE_BOT_SECONDS:
            agent = self._reseeded(seat, seq)
            start = time.perf_counter()
            action = agent.step(view)
            spent = time.perf_counter() - start
        elif pool is not None and _searches(t.agent(seat)):
            # A searching bot thinks in a worker process; any other bot (a few ms at
            # most) in a thread, so it never queues behind other tables' searches.
            spec = t.seats[seat]
            seed = t.bot_seed(seat, t.seq if seq is None else seq, "bot")
            params = dict(spec.get("params") or {})
            if spec["agent"] == "ismcts" and params.get("iterations", 0) >= STRONG_ITERATIONS:
                # the lobby's strongest bot searches root-parallel over every bot worker
                # (agents.parallel; `cardlab serve --bot-workers N`, default 1: plain)
                params["workers"] = pool.workers
            action, spent = await pool.decide(spec["agent"], params, seed, view)
        else:
            agent = self._reseeded(seat, seq)
            action, spent = await asyncio.to_thread(_timed_step, agent, view)
        self._cost[seat] = max(spent, 0.8 * (cost or 0.0))
        return action

    def _reseeded(self, seat: int, seq: int | None) -> Agent:
        """The seat's agent, its generator set for this decision (`bot_seed`)."""
        t = self._table
        agent = t.agent(seat)
        reseed = getattr(agent, "reseed", None)
        if reseed is not None:
            reseed(t.bot_seed(seat, t.seq if seq is None else seq, "bot"))
        return agent
