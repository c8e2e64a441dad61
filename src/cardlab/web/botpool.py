"""Bots that think (ISMCTS) search in a bounded pool of worker processes.

A search holds the CPU for up to a second; in a thread it would also hold the
interpreter lock the event loop needs to answer humans, so slow bots decide in
`workers` separate processes. The worker gets the bot's redealt view (never the
true state: `agents.agent_view`, whose every field, the history included, is what
the bot's seat observed), pickled, builds the agent from its spec and a seed fixed
by the table, and returns the action and the CPU time.

Searches wait in one queue per client (the key of the table's lane, `lane`), and
the queues take turns: a worker that frees up takes the oldest search of the
client served least (a client that starts waiting counts as served as much as the
least served one waiting, so it goes next but cannot then claim a backlog of
turns). One client's eight searching tables therefore delay another client's
search by one search per worker at most, not by eight (a single FIFO would put
it behind all of them). Stopping the pool terminates its processes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cardlab.agents.parallel import pack, unpack
from cardlab.core import GameState

log = logging.getLogger("cardlab.web")

Job = tuple[asyncio.Future[Any], tuple[Any, ...]]
"""A waiting search: its future and (the worker's function, its arguments)."""


WORKER_NICE = 5
"""Searches run at a lower CPU priority than the event loop: on a busy host the loop
(humans' clicks, quick bots) gets the CPU first."""


def _lower_priority(server: int) -> None:
    """Each worker's initializer: a lower priority, and an end with the server (pid)."""
    from cardlab.agents.parallel import exit_with_parent

    exit_with_parent(server)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)


def _decide(
    kind: str, params: dict[str, Any], seed: int, view: GameState | bytes
) -> tuple[int, float]:
    from cardlab.agents import make_agent

    start = time.process_time()
    # packed (agents.parallel.pack): the game travels as a recipe, rebuilt once per worker
    state: GameState = unpack(view) if isinstance(view, bytes) else view
    action = make_agent(kind, seed=seed, **params).step(state)
    return int(action), time.process_time() - start


class BotPool:
    """`workers` processes (started on first use) shared by every table of a server."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._queues: dict[str, deque[Job]] = {}
        self._turns: dict[str, list[int]] = {}
        """Per client waiting or searching: [searches served, when last served, when it
        came]; forgotten when it has neither."""
        self._running: dict[str, int] = {}
        self._clock = 0
        self._busy = 0
        self._generation = 0
        self.dispatched: list[str] = []
        """The key of each search handed to a worker, in order (the last 1,000)."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
                initargs=(os.getpid(),),
            )
        return self._pool

    def lane(self, key: str) -> BotPool:
        """The pool as one client's tables see it: their searches queue under `key`."""
        return BotLane(self, key)

    def waiting(self) -> int:
        return sum(len(q) for q in self._queues.values())

    async def decide(
        self, kind: str, params: dict[str, Any], seed: int, view: GameState, key: str = ""
    ) -> tuple[int, float]:
        workers = params.get("workers", 1)
        if kind == "ismcts" and isinstance(workers, int) and workers > 1:
            return await self._decide_parallel(params, seed, view, key)
        return await self._queue((_decide, kind, params, seed, pack(view)), key)  # type: ignore[no-any-return]

    async def _decide_parallel(
        self, params: dict[str, Any], seed: int, view: GameState, key: str
    ) -> tuple[int, float]:
        """Root-parallel ISMCTS (agents.parallel) over at most this pool's workers: the
        shards queue as searches of `key` and are combined here, so the decision is the
        one `make_agent("ismcts", seed=seed, **params).step(view)` makes."""
        from cardlab.agents import make_agent
        from cardlab.agents.parallel import ParallelISMCTSAgent, search_shard

        params = {**params, "workers": min(int(params["workers"]), self.workers)}
        agent = make_agent("ismcts", seed=seed, **params)
        if not isinstance(agent, ParallelISMCTSAgent):  # capped to one worker
            return await self._queue((_decide, "ismcts", params, seed, pack(view)), key)  # type: ignore[no-any-return]
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0], 0.0
        start = time.perf_counter()
        packed = pack(view)
        jobs = [self._queue((search_shard, s.params, s.seed, packed), key) for s in agent.plan()]
        results = await asyncio.gather(*jobs)
        action = agent.finish(legal, list(results), time.perf_counter() - start)
        return action, agent.worker_cpu_seconds

    async def _queue(self, args: tuple[Any, ...], key: str) -> Any:
        """Queue one job (a function and its arguments) for a worker, fairly by client."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
        if key not in self._turns:
            level = min((t[0] for t in self._turns.values()), default=0)
            self._clock += 1
            self._turns[key] = [level, -1, self._clock]
        queue.append((done, args))
        self._pump()
        return await done  # a cancelled wait is skipped when its turn comes

    def _pump(self) -> None:
        while self._busy < self.workers and self._queues:
            key = min(self._queues, key=lambda k: self._turns[k])
            queue = self._queues[key]
            done, args = queue.popleft()
            if not queue:
                del self._queues[key]
            if done.done():
                self._forget(key)
                continue
            try:
                work = self._executor().submit(*args)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._drop_pool()
                done.set_exception(exc)
                continue
            self._busy += 1
            self._clock += 1
            self._turns[key][:2] = [self._turns[key][0] + 1, self._clock]
            self._running[key] = self._running.get(key, 0) + 1
            self.dispatched = [*self.dispatched[-999:], key]
            work.add_done_callback(self._reporter(done, key))

    def _forget(self, key: str) -> None:
        if key not in self._queues and not self._running.get(key):
            self._turns.pop(key, None)
            self._running.pop(key, None)

    def _reporter(self, done: asyncio.Future[Any], key: str) -> Any:
        """The worker's done-callback (a pool thread): hand the result to the loop."""
        loop, generation = done.get_loop(), self._generation

        def report(work: Future[tuple[int, float]]) -> None:
            loop.call_soon_threadsafe(self._finished, work, done, generation, key)

        return report

    def _finished(
        self,
        work: Future[tuple[int, float]],
        done: asyncio.Future[Any],
        generation: int,
        key: str,
    ) -> None:
        if generation != self._generation:  # the pool was stopped meanwhile
            if not done.done():
                done.set_exception(RuntimeError("the bot workers were stopped"))
            return
        self._busy -= 1
        self._running[key] = self._running.get(key, 1) - 1
        self._forget(key)
        exc = None if work.cancelled() else work.exception()
        if isinstance(exc, BrokenProcessPool):
            log.warning("bot worker died; starting a new pool")
            self._drop_pool()
        if not done.done():
            if work.cancelled():
                done.cancel()
            elif exc is not None:
                done.set_exception(exc)
            else:
                done.set_result(work.result())
        self._pump()

    def pids(self) -> list[int]:
        """The worker processes' ids (for the shutdown test)."""
        pool = self._pool
        procs = getattr(pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    def _drop_pool(self) -> None:
        """A broken pool: the next search starts a new one (waiting searches stay queued)."""
        pool, self._pool = self._pool, None
        self._generation += 1
        self._busy = 0
        self._running.clear()
        for key in list(self._turns):
            self._forget(key)
        if pool is not None:
            _terminate(pool)

    def shutdown(self) -> None:
        """Stop the workers now: waiting searches fail and every worker process is
        terminated (a search in progress does not outlive the server)."""
        for queue in self._queues.values():
            for done, _ in queue:
                if not done.done():
                    done.set_exception(RuntimeError("the server is stopping"))
        self._queues.clear()
        self._turns.clear()
        self._drop_pool()


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Shut the executor down and end its processes (terminate, then kill)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)


class BotLane(BotPool):
    """One client's view of a shared `BotPool` (what a table is given)."""

    def __init__(self, pool: BotPool, key: str) -> None:
        self.pool, self.key = pool, key  # no queues or processes of its own
        self.workers = pool.workers

    def lane(self, key: str) -> BotPool:
        return self.pool.lane(key)

    async def decide(
        self, kind: str, params: dict[str, Any], seed: int, view: GameState, key: str = ""
    ) -> tuple[int, float]:
        return await self.pool.decide(kind, params, seed, view, key or self.key)

    def shutdown(self) -> None:
        """The shared pool is the server's to stop."""
