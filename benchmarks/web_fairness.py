"""Benchmark (not a test): does one client's load slow another client's tables? (issue 23)

Client A runs `--load` tables whose every seat is an ISMCTS bot (`--iterations`, no
pacing). Client B then plays one table of quick greedy bots and one of searching bots.
We report B's time per quick-bot move and B's wait per search (queue + search, wall
clock), alone and under A's load, with the pool's per-client turns and, for comparison,
with every table in one queue (the single FIFO the pool had before).

    .venv/bin/python benchmarks/web_fairness.py [--load 8] [--iterations 200] [--game runway]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path
from tempfile import TemporaryDirectory

warnings.filterwarnings("ignore")

from starlette.testclient import TestClient  # noqa: E402

from cardlab.web.app import create_app  # noqa: E402
from cardlab.web.botpool import BotLane  # noqa: E402
from cardlab.web.limits import Limits  # noqa: E402

WAITS: list[tuple[str, float]] = []
FIFO = [False]


async def timed_decide(self, kind, params, seed, view, key=""):
    """A table's search, timed under its client's key (in FIFO mode queued under one key)."""
    start = time.perf_counter()
    try:
        return await self.pool.decide(kind, params, seed, view, "all" if FIFO[0] else self.key)
    finally:
        WAITS.append((self.key, time.perf_counter() - start))


def post(c: TestClient, client: str, spec: dict) -> str:
    headers = {"origin": "http://testserver", "x-forwarded-for": client}
    r = c.post("/api/tables", json=spec, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()["table"]


def measure_b(c: TestClient, args, label: str) -> dict[str, float]:
    hub = c.app.state.hub
    quick = post(
        c,
        "10.0.0.2",
        {"game": args.game, "players": 3, "seats": [{"kind": "bot", "agent": "greedy"}] * 3},
    )
    start = time.perf_counter()
    table = hub.tables[quick]
    while not table.state.is_terminal() and time.perf_counter() - start < 120:
        time.sleep(0.01)
    per_move = (time.perf_counter() - start) / max(1, table.seq)
    WAITS.clear()
    spec = {"kind": "bot", "agent": "ismcts", "params": {"iterations": args.iterations}}
    search = post(c, "10.0.0.2", {"game": args.game, "players": 3, "seats": [spec] * 3})
    key = hub.creators[search]
    start = time.perf_counter()
    while (
        sum(1 for k, _ in WAITS if k == key) <= args.searches and time.perf_counter() - start < 300
    ):
        time.sleep(0.05)
    mine = [w for k, w in WAITS if k == key][1 : args.searches + 1]  # the first starts the pool
    others = [w for k, w in WAITS if k != key]
    hub.tables[search].driver.cancel()
    out = {
        "quick_move_ms": 1000 * per_move,
        "b_search_s": statistics.mean(mine),
        "a_search_s": statistics.mean(others) if others else float("nan"),
    }
    print(
        f"{label:34s} B quick-bot move {out['quick_move_ms']:6.1f} ms   B search wait "
        f"{out['b_search_s']:5.2f} s   (A's searches {out['a_search_s']:5.2f} s, {len(others)})",
        flush=True,
    )
    return out


def run(args, fifo: bool, load: int) -> dict[str, float]:
    with TemporaryDirectory() as tmp:
        app = create_app(
            db=Path(tmp) / "t.db",
            bot_delay=0,
            limits=Limits(creates_per_minute=1000, create_burst=100, bot_workers=args.workers),
            forwarded_allow_ips="*",
            allowed_hosts=["testserver"],
        )
        FIFO[0] = fifo  # every table in one queue: the old single FIFO
        with TestClient(app) as c:
            spec = {"kind": "bot", "agent": "ismcts", "params": {"iterations": args.iterations}}
            for _ in range(load):
                post(c, "10.0.0.1", {"game": args.game, "players": 3, "seats": [spec] * 3})
            time.sleep(2.0 if load else 0)
            label = f"{'one FIFO' if fifo else 'per-client turns'}, A's load {load}"
            return measure_b(c, args, label)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--load", type=int, default=8)
    p.add_argument("--iterations", type=int, default=500)
    p.add_argument("--searches", type=int, default=10)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--game", default="runway")
    args = p.parse_args()
    BotLane.decide = timed_decide  # type: ignore[method-assign]
    alone = run(args, fifo=False, load=0)
    fair = run(args, fifo=False, load=args.load)
    fifo = run(args, fifo=True, load=args.load)
    print(
        f"quick bot under load: {fair['quick_move_ms'] / alone['quick_move_ms']:.2f}x alone; "
        f"B's search wait: {fair['b_search_s'] / alone['b_search_s']:.2f}x alone with turns, "
        f"{fifo['b_search_s'] / alone['b_search_s']:.2f}x with one FIFO"
    )


if __name__ == "__main__":
    sys.exit(main())
