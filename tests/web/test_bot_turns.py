"""Bot moves take turns across tables (one per event-loop pass), and a bot decides
on the loop only once its decisions are known to be quick."""

from __future__ import annotations

import asyncio
import threading
import time

from cardlab.web import table as table_mod
from cardlab.web.table import BotTurns, Table


def test_bot_turns_let_one_move_go_per_loop_pass_and_in_order():
    async def main() -> tuple[list[tuple[str, int]], list[int]]:
        turns = BotTurns()
        events: list[tuple[str, int]] = []
        passes = 0
        stop = False

        async def ticker() -> None:  # counts passes of the loop
            nonlocal passes
            while not stop:
                passes += 1
                await asyncio.sleep(0)

        async def bot(i: int) -> None:
            await turns.turn()
            events.append(("move", passes))

        tick = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        await asyncio.gather(*(bot(i) for i in range(5)))
        stop = True
        await tick
        return events, [p for _, p in events]

    events, at = asyncio.run(main())
    assert len(events) == 5
    assert all(b > a for a, b in zip(at, at[1:], strict=False)), at  # never two in one pass


def test_a_stopped_tables_wait_does_not_block_the_others():
    async def main() -> bool:
        turns = BotTurns()
        first = asyncio.create_task(turns.turn())
        second = asyncio.create_task(turns.turn())
        await asyncio.sleep(0)
        first.cancel()
        await asyncio.wait_for(second, 1)
        return second.done()

    assert asyncio.run(main())


class _Agent:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.threads: list[bool] = []

    def step(self, view):
        self.threads.append(threading.current_thread() is threading.main_thread())
        end = time.thread_time() + self.seconds
        while time.thread_time() < end:
            pass
        return 0


def _decide_many(agent: _Agent, n: int) -> list[bool]:
    table = Table.__new__(Table)
    table._bot_cost = {}
    table.bot_pool = None  # worker threads here; the process pool is tested on a real table
    table.agent = lambda seat: agent  # type: ignore[method-assign]

    async def main() -> None:
        for _ in range(n):
            await table._decide(0, None)  # type: ignore[arg-type]

    asyncio.run(main())
    return agent.threads


def test_a_quick_bot_decides_on_the_loop_after_its_first_decision():
    on_loop = _decide_many(_Agent(0.0), 4)
    assert on_loop == [False, True, True, True]


def test_a_slow_bot_always_decides_in_a_worker_thread():
    on_loop = _decide_many(_Agent(3 * table_mod.INLINE_BOT_SECONDS), 3)
    assert on_loop == [False, False, False]
