"""Benchmark (not a test): many bot tables at once on one `cardlab serve` process.

Each table has one scripted "human" socket (seat 0) that clicks a random legal
move the moment it is asked, and bots in the other seats with no pacing. We
report actions/s served over all tables and the click-to-update latency: from
sending a move to receiving the state frame that contains it.

    .venv/bin/python benchmarks/web_tables.py --tables 50 --game runway --seconds 30 [--bot-delay 0.8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from tempfile import TemporaryDirectory

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from browser import Server  # noqa: E402


async def human(
    url: str, table: str, token: str, deadline: float, rng: random.Random, lat: list[float]
) -> int:
    """Play seat 0 until the game ends or time is up; returns the final step."""
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    async with websockets.connect(url, origin=origin, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
        sent_at: float | None = None
        sent_seq = -1
        seq = 0
        while time.monotonic() < deadline:
            msg = json.loads(await ws.recv())
            if msg["type"] != "state":
                continue
            seq = msg["seq"]
            if sent_at is not None and seq > sent_seq:
                lat.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["terminal"]:
                break
            if msg["legal"] and sent_at is None:
                move = rng.choice(msg["legal"])["action"]
                sent_at, sent_seq = time.perf_counter(), seq
                await ws.send(json.dumps({"type": "act", "action": move, "seq": seq}))
        return seq


async def slot(
    server: Server,
    game: str,
    players: int,
    deadline: float,
    i: int,
    lat: list[float],
    bot_delay: float,
) -> int:
    """One of the concurrent tables: when its game ends a new one starts, until time is up."""
    rng = random.Random(i)
    ws_base = server.url.replace("http://", "ws://")
    steps = 0
    while time.monotonic() < deadline:
        seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "greedy"}] * (players - 1)
        m = await asyncio.to_thread(
            server.create, game=game, players=players, bot_delay=bot_delay, seats=seats
        )
        steps += await human(
            f"{ws_base}/ws/{m['table']}", m["table"], m["tokens"]["seat0"], deadline, rng, lat
        )
    return steps


async def run(
    server: Server, tables: int, game: str, players: int, seconds: float, bot_delay: float
) -> dict:
    lat: list[float] = []
    start = time.monotonic()
    deadline = start + seconds
    steps = await asyncio.gather(
        *[slot(server, game, players, deadline, i, lat, bot_delay) for i in range(tables)]
    )
    elapsed = time.monotonic() - start
    lat.sort()
    return {
        "tables": tables,
        "bot_delay": bot_delay,
        "game": game,
        "players": players,
        "seconds": round(elapsed, 1),
        "actions": sum(steps),
        "actions_per_s": round(sum(steps) / elapsed, 1),
        "clicks": len(lat),
        "click_to_update_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "click_to_update_ms_p95": round(1000 * lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--game", default="runway")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument(
        "--bot-delay", type=float, default=0.0, help="bot pacing (0 = flat out; tables use 0.8)"
    )
    args = ap.parse_args()
    with TemporaryDirectory() as tmp:
        # One client address makes every table here: lift the per-client limits.
        unlimited = ("--tables-per-client", "10000", "--max-tables", "10000")
        rate = ("--creates-per-minute", "1000000")
        server = Server(Path(tmp) / "bench.db", extra=(*unlimited, *rate)).start()
        try:
            urllib.request.urlopen(server.url + "/api/games").read()
            result = asyncio.run(
                run(server, args.tables, args.game, args.players, args.seconds, args.bot_delay)
            )
        finally:
            server.kill()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
