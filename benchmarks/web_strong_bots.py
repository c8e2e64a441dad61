"""Benchmark (not a test): a human's move-to-frame while the strongest allowed bots
play at many tables of one `cardlab serve` process (issue 12: p95 < 100 ms with 30
tables).

`--tables` bot-only tables (every seat ISMCTS at the server's cap,
`--max-bot-iterations`, no pacing) play without pause, restarting when a game ends.
Meanwhile `--humans` scripted humans, each at its own table against quick greedy
bots, click a random legal move the moment they may; we time each click from sending
it to receiving the state frame that contains it.

    .venv/bin/python benchmarks/web_strong_bots.py --tables 30 --seconds 60 [--game supercomputer]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_tables import human as play_seat0  # noqa: E402


async def watch_bots(server: Server, game: str, players: int, iterations: int, deadline: float):
    """One bot-only table after another; returns the bot moves seen."""
    seats = [{"kind": "bot", "agent": "ismcts", "params": {"iterations": iterations}}] * players
    moves = 0
    ws_base = server.url.replace("http://", "ws://")
    while time.monotonic() < deadline:
        made = await asyncio.to_thread(
            server.create, game=game, players=players, bot_delay=0, seats=seats
        )
        async with websockets.connect(
            f"{ws_base}/ws/{made['table']}", origin=server.url, max_size=2**22
        ) as ws:
            hello = {"type": "hello", "role": "spectator", "token": made["tokens"]["spectator"]}
            await ws.send(json.dumps(hello))
            seq = 0
            while time.monotonic() < deadline:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                except TimeoutError:
                    continue
                if msg["type"] == "state":
                    seq = msg["seq"]
                    if msg["terminal"]:
                        break
            moves += seq
    return moves


async def human(server: Server, game: str, players: int, deadline: float, i: int, lat: list):
    """One table after another with a scripted human in seat 0 (web_tables.human) and
    greedy bots, until time is up."""
    rng = random.Random(i)
    ws_base = server.url.replace("http://", "ws://")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "greedy"}] * (players - 1)
    while time.monotonic() < deadline:
        made = await asyncio.to_thread(
            server.create, game=game, players=players, bot_delay=0, seats=seats
        )
        url = f"{ws_base}/ws/{made['table']}"
        await play_seat0(url, made["table"], made["tokens"]["seat0"], deadline, rng, lat)


async def run(server: Server, args: argparse.Namespace) -> dict:
    lat: list[float] = []
    start = time.monotonic()
    deadline = start + args.seconds
    bots = [
        watch_bots(server, args.game, args.players, args.iterations, deadline)
        for _ in range(args.tables)
    ]
    humans = [human(server, args.game, args.players, deadline, i, lat) for i in range(args.humans)]
    results = await asyncio.gather(*bots, *humans)
    elapsed = time.monotonic() - start
    lat.sort()

    def pct(p: float) -> float | None:
        return round(1000 * lat[int(p * (len(lat) - 1))], 1) if lat else None

    return {
        "game": args.game,
        "players": args.players,
        "bot_tables": args.tables,
        "ismcts_iterations": args.iterations,
        "bot_workers": args.bot_workers,
        "seconds": round(elapsed, 1),
        "bot_moves": sum(r for r in results[: args.tables] if r),
        "clicks": len(lat),
        "move_to_frame_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "move_to_frame_ms_p95": pct(0.95),
        "move_to_frame_ms_max": round(1000 * lat[-1], 1) if lat else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--humans", type=int, default=2)
    ap.add_argument("--game", default="supercomputer")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--iterations", type=int, default=1500, help="ISMCTS iterations (the cap)")
    ap.add_argument("--bot-workers", type=int, default=1)
    args = ap.parse_args()
    extra = (
        "--max-bot-iterations",
        str(args.iterations),
        "--bot-workers",
        str(args.bot_workers),
        "--tables-per-client",
        "1000",
        "--max-tables",
        "1000",
        "--creates-per-minute",
        "100000",
    )
    with TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.db", extra=extra).start()
        try:
            urllib.request.urlopen(server.url + "/api/games").read()
            result = asyncio.run(run(server, args))
        finally:
            server.kill()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
