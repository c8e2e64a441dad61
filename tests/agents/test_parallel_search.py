"""Root-parallel ISMCTS (`ismcts:workers=N`, agents/parallel.py).

The search in worker processes must be a pure function of (seed, workers, view):
the same seed and worker count decide the same on positions of every shipped
game, the processes add nothing (an in-process run of the same shards gives the
same root visits), one worker is the plain search, and the web's bot pool, which
runs the shards in its own bounded workers, decides as the agent does."""

from __future__ import annotations

import asyncio
import os
import random
import types

import pytest
from ismcts_positions import cases

from cardlab.agents import ISMCTSAgent, make_agent, parallel
from cardlab.agents.bench import sample_positions
from cardlab.agents.parallel import ParallelISMCTSAgent, combine, plan, search_shard
from cardlab.agents.play import agent_view
from cardlab.core.errors import CardlabError
from cardlab.games import load_game
from cardlab.web.botpool import BotPool

ITERATIONS = 40
GAMES = sorted({name for name, _ in cases()})


def views(name: str, players: int = 2, count: int = 2) -> list:
    game = load_game(name, players=players)
    states = sample_positions(game, count, seed=3, every=6)
    return [agent_view(s, s.current_player(), random.Random(i)) for i, s in enumerate(states)]


def in_process(agent: ParallelISMCTSAgent, view) -> tuple[int, dict, dict]:
    """The decision made from the same shards run here, one after the other."""
    shards = agent.plan()
    results = [search_shard(s.params, s.seed, view) for s in shards]
    action = agent.finish(view.legal_actions(), results, 0.0)
    return action, agent.last_search.visits, agent.last_search.values


@pytest.fixture(scope="module", autouse=True)
def _stop_workers():
    yield
    parallel.shutdown_pool()


def test_the_plan_splits_iterations_and_gives_each_worker_the_time():
    shards = plan(7, {"iterations": 1001, "c": 0.5}, 2)
    assert [s.params["iterations"] for s in shards] == [501, 500]
    assert all(s.params["c"] == 0.5 for s in shards)
    assert len({s.seed for s in shards}) == 2  # a seed of its own per worker
    assert [s.seed for s in shards] == [s.seed for s in plan(7, {"iterations": 1001}, 2)]
    assert len(plan(7, {"iterations": 3}, 4)) == 3  # no worker with 0 iterations
    timed = plan(7, {"time_ms": 50}, 3)
    assert [s.params for s in timed] == [{"time_ms": 50}] * 3
    assert sum(s.params["iterations"] for s in plan(7, {}, 2)) == ISMCTSAgent(0).iterations


def test_one_worker_is_the_plain_search():
    assert type(make_agent("ismcts", seed=4, iterations=ITERATIONS, workers=1)) is ISMCTSAgent
    for name in GAMES:
        for view in views(name):
            plain = ISMCTSAgent(seed=11, iterations=ITERATIONS)
            want = plain.step(view)
            shard = search_shard({"iterations": ITERATIONS}, 11, view)
            got, stats = combine(view.legal_actions(), [shard], 0.0)
            assert got == want, name
            assert stats.visits == plain.last_search.visits, name
            assert stats.values == pytest.approx(plain.last_search.values, abs=1e-12), name


def test_same_seed_and_workers_decide_the_same_in_processes():
    for name in GAMES:
        for players in (2, 4):
            for view in views(name, players):
                first = make_agent("ismcts", seed=5, iterations=ITERATIONS, workers=2)
                again = make_agent("ismcts", seed=5, iterations=ITERATIONS, workers=2)
                local = make_agent("ismcts", seed=5, iterations=ITERATIONS, workers=2)
                a, b = first.step(view), again.step(view)
                where = f"{name} {players}p"
                assert a == b, where
                assert first.last_search.visits == again.last_search.visits, where
                assert first.last_search.iterations == ITERATIONS, where
                assert (a, first.last_search.visits) == in_process(local, view)[:2], where
    assert len(parallel.pool_pids()) == 2  # one pool, reused by every decision


def test_the_web_pool_runs_the_shards_and_decides_as_the_agent():
    view = views("runway", 3, 1)[0]
    want = make_agent("ismcts", seed=9, iterations=ITERATIONS, workers=2).step(view)
    capped = make_agent("ismcts", seed=9, iterations=ITERATIONS).step(view)
    pool = BotPool(2)
    lone = BotPool(1)

    async def run() -> tuple[int, int]:
        params = {"iterations": ITERATIONS, "workers": 2}
        (two, cpu), (one, _) = await asyncio.gather(
            pool.lane("a").decide("ismcts", dict(params), 9, view),
            lone.decide("ismcts", dict(params), 9, view),
        )
        assert cpu > 0
        return two, one

    try:
        two, one = asyncio.run(run())
        assert pool.dispatched == ["a", "a"]  # two shards, both in the pool's workers
        assert lone.dispatched == [""]  # capped at the pool's one worker: the plain search
    finally:
        pids = pool.pids() + lone.pids()
        pool.shutdown()
        lone.shutdown()
    assert (two, one) == (want, capped)
    _gone(pids)


def test_shutdown_leaves_no_worker_behind():
    view = views("uptime", 2, 1)[0]
    make_agent("ismcts", seed=1, iterations=ITERATIONS, workers=2).step(view)
    pids = parallel.pool_pids()
    assert len(pids) == 2
    parallel.shutdown_pool()
    _gone(pids)
    assert parallel.pool_pids() == []


def _gone(pids: list[int]) -> None:
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "two", 1000])
def test_a_bad_worker_count_is_refused_by_name(bad):
    with pytest.raises(CardlabError, match="workers"):
        make_agent("ismcts", workers=bad)


def test_the_spec_takes_workers():
    from cardlab.agents import parse_agent_spec

    spec = parse_agent_spec("ismcts:iterations=30,workers=2")
    agent = spec.make(seed=0)
    assert isinstance(agent, ParallelISMCTSAgent) and agent.workers == 2
    assert agent.iterations == 30


def test_a_packed_view_decides_as_the_view_on_every_game():
    """A compiled engine's state does not pickle (native tables built from the game): the
    view travels packed, and the unpacked copy searches exactly as the original."""
    for name in GAMES:
        for players in (2, 4):
            for view in views(name, players):
                copy = parallel.unpack(parallel.pack(view))
                assert copy.history() == view.history() and str(copy) == str(view)
                a, b = ISMCTSAgent(seed=2, iterations=30), ISMCTSAgent(seed=2, iterations=30)
                assert a.step(view) == b.step(copy), name
                assert a.last_search.visits == b.last_search.visits, name


class _RecordingPool:
    """A bot pool that records what the table asks of it."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.asked: list[dict] = []

    async def decide(self, kind, params, seed, view, key=""):
        self.asked.append(dict(params))
        return 0, 1.0


def test_the_tables_strong_bot_asks_for_every_bot_worker_and_no_other_bot_does():
    from cardlab.web.catalog import ISMCTS_STRENGTHS
    from cardlab.web.table import Table

    def asked(workers: int) -> list[dict]:
        table = Table.__new__(Table)
        table._bot_cost = {}
        table.bot_pool = _RecordingPool(workers)
        seats = [
            {"agent": "ismcts", "params": {"iterations": n}} for n in ISMCTS_STRENGTHS.values()
        ]
        table.record = types.SimpleNamespace(seats=seats)
        table.agent = lambda seat: make_agent("ismcts", **seats[seat]["params"])
        table.bot_seed = lambda seat, seq, purpose: seat

        async def main() -> None:
            for seat in range(len(seats)):
                await table._decide(seat, None, 0)

        asyncio.run(main())
        return table.bot_pool.asked

    quick, solid, strong = ISMCTS_STRENGTHS.values()
    assert asked(2) == [
        {"iterations": quick},
        {"iterations": solid},
        {"iterations": strong, "workers": 2},
    ]
    assert asked(1)[-1] == {"iterations": strong, "workers": 1}  # one worker: the plain search


def test_a_worker_ends_when_its_parent_is_killed(tmp_path) -> None:
    """A pool worker outlives a SIGKILLed parent by at most a few polls (no orphans)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "parent.py"
    script.write_text(
        "import multiprocessing, os, sys, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from cardlab.agents.parallel import exit_with_parent\n"
        "if __name__ == '__main__':\n"
        "    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('spawn'),"
        " initializer=exit_with_parent, initargs=(os.getpid(),))\n"
        "    print(pool.submit(os.getpid).result(), flush=True)\n"
        "    time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError(f"worker {worker} outlived its killed parent")


def test_a_worker_whose_owner_is_already_gone_exits_at_once() -> None:
    """A worker started by a process that died before the initializer ran has been
    re-parented: told its owner's pid, it exits instead of watching its new parent."""
    import subprocess
    import sys

    code = (
        "import os\n"
        "from cardlab.agents.parallel import exit_with_parent\n"
        "exit_with_parent(os.getppid() + 1_000_000)\n"  # not this process's parent
        "print('still running')\n"
    )
    gone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert gone.returncode == 0 and gone.stdout == "", gone
    code = code.replace("os.getppid() + 1_000_000", "os.getppid()")
    kept = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert kept.stdout == "still running\n", kept  # its real owner: it goes on
