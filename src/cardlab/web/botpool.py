"""Bots that think (ISMCTS) search in a bounded pool of worker processes.

A search holds the CPU for up to a second; in a thread it would also hold the
interpreter lock the event loop needs to answer humans, so slow bots decide in
`workers` separate processes and queue for them in arrival order. The worker
gets the bot's redealt view (never the true state), builds the agent from its
spec and a seed fixed by the table, and returns the action and the CPU time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cardlab.core import GameState

log = logging.getLogger("cardlab.web")


def _decide(kind: str, params: dict[str, Any], seed: int, view: GameState) -> tuple[int, float]:
    from cardlab.agents import make_agent

    start = time.process_time()
    action = make_agent(kind, seed=seed, **params).step(view)
    return int(action), time.process_time() - start


class BotPool:
    """`workers` processes (started on first use) shared by every table of a server."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def decide(
        self, kind: str, params: dict[str, Any], seed: int, view: GameState
    ) -> tuple[int, float]:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), _decide, kind, params, seed, view)
        except BrokenProcessPool:
            log.warning("bot worker died; starting a new pool")
            self.shutdown()
            raise

    def shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(Exception):
                pool.shutdown(wait=False, cancel_futures=True)
