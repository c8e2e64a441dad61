"""Slow clients and fairness. A connection that sends no whole
request in time is closed (uvicorn alone holds it forever), a flood of bad requests
writes a bounded number of log lines, and searching bots of one client queue behind
each other, not in front of another client's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import uvicorn

from cardlab.web import botpool
from cardlab.web.botpool import BotPool
from cardlab.web.guards import LogBudget, guarded_h11, install_log_budget, uvicorn_options


async def hello_app(scope, receive, send):
    if scope["type"] == "websocket":  # accept, then echo each text message
        await receive()
        await send({"type": "websocket.accept"})
        while (msg := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": msg.get("text") or ""})
        return
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.contextmanager
def serving(timeout: float) -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        hello_app, http=guarded_h11(timeout), log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()


def closed_after(conn: socket.socket, limit: float) -> float | None:
    """Seconds until the server closes `conn` (reads until EOF), None if not within limit."""
    start = time.monotonic()
    conn.settimeout(limit)
    try:
        while conn.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def test_a_silent_connection_is_closed_at_the_deadline():
    with serving(0.5) as port, socket.create_connection(("127.0.0.1", port)) as conn:
        took = closed_after(conn, 5)
    assert took is not None and 0.3 < took < 3


def test_a_slowloris_request_head_is_closed_at_the_deadline():
    with serving(0.5) as port, socket.create_connection(("127.0.0.1", port)) as conn:
        start = time.monotonic()
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        with contextlib.suppress(OSError):
            for _ in range(40):  # a header byte every 0.05 s: never a whole head
                conn.sendall(b"X")
                time.sleep(0.05)
        took = closed_after(conn, 5)
        assert took is not None and time.monotonic() - start < 3


def test_a_trickled_body_is_closed_and_whole_requests_are_served():
    with serving(0.5) as port:
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
            assert closed_after(conn, 5) is not None
        with socket.create_connection(("127.0.0.1", port)) as conn:
            for _ in range(3):  # keep-alive: each request gets its own deadline
                time.sleep(0.3)
                conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                reply = b""
                while not reply.endswith(b"ok"):
                    reply += conn.recv(4096)
                assert reply.startswith(b"HTTP/1.1 200 OK")


def test_a_websocket_outlives_the_request_deadline():
    from websockets.sync.client import connect

    with serving(0.3) as port, connect(f"ws://127.0.0.1:{port}/ws") as ws:
        time.sleep(1.0)  # three deadlines: the upgrade ended the request's
        ws.send("still here")
        assert ws.recv(timeout=5) == "still here"


def test_a_flood_of_bad_requests_writes_a_bounded_log():
    install_log_budget()
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("uvicorn.error")
    try:
        with serving(5.0) as port:
            logger.addHandler(handler)  # after uvicorn has configured its loggers
            for _ in range(150):
                with socket.create_connection(("127.0.0.1", port)) as conn:
                    conn.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
                    closed_after(conn, 5)
    finally:
        logger.removeHandler(handler)
    invalid = [r for r in records if "Invalid HTTP request" in r.getMessage()]
    assert 1 <= len(invalid) <= 25  # 150 bad requests, at most the burst of 20 (and a few)


def test_the_log_budget_says_how_much_it_held_back(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    budget = LogBudget(per_minute=60, burst=3)

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, msg, (), None)

    passed = [budget.filter(record("Invalid HTTP request received.")) for _ in range(50)]
    assert passed.count(True) == 3
    assert budget.filter(record("another message"))  # each message has its own budget
    clock[0] += 1.0  # one line a second comes back
    later = record("Invalid HTTP request received.")
    assert budget.filter(later) and "47 similar lines held back" in later.getMessage()


def test_bad_guard_settings_are_refused():
    with pytest.raises(ValueError, match="request timeout"):
        guarded_h11(0)
    with pytest.raises(ValueError, match="keep-alive"):
        uvicorn_options(keep_alive_timeout=0)


def fake_decide(kind, params, seed, view):
    time.sleep(0.02)
    return 0, 0.02


def test_one_clients_searches_do_not_queue_in_front_of_anothers(monkeypatch):
    """8 searching tables of client A wait first, then one of client B: with one worker,
    B's search is the second to run (a single FIFO made it the ninth)."""
    monkeypatch.setattr(botpool, "_decide", fake_decide)
    pool = BotPool(1)
    threads = ThreadPoolExecutor(1)
    monkeypatch.setattr(pool, "_executor", lambda: threads)

    async def run() -> list[str]:
        a_lanes = [pool.lane("client-a") for _ in range(8)]
        b_lane = pool.lane("client-b")
        searches = [asyncio.ensure_future(lane.decide("ismcts", {}, 0, None)) for lane in a_lanes]
        await asyncio.sleep(0)
        searches.append(asyncio.ensure_future(b_lane.decide("ismcts", {}, 0, None)))
        await asyncio.gather(*searches)
        return pool.dispatched

    order = asyncio.run(run())
    threads.shutdown()
    assert order[:2] == ["client-a", "client-b"] and order.count("client-a") == 8


def test_clients_take_turns_while_all_wait(monkeypatch):
    monkeypatch.setattr(botpool, "_decide", fake_decide)
    pool = BotPool(1)
    threads = ThreadPoolExecutor(1)
    monkeypatch.setattr(pool, "_executor", lambda: threads)

    async def run() -> list[str]:
        jobs = [pool.decide("ismcts", {}, 0, None, key="a") for _ in range(3)]
        jobs += [pool.decide("ismcts", {}, 0, None, key="b") for _ in range(3)]
        jobs += [pool.decide("ismcts", {}, 0, None, key="c")]
        await asyncio.gather(*jobs)
        return pool.dispatched

    order = asyncio.run(run())
    threads.shutdown()
    assert order == ["a", "b", "c", "a", "b", "a", "b"]
