"""Refusals are not traffic: a client that keeps reading and sends refused moves just
under the message rate is answered within its own error budget and never closed, and
the answers to a socket's own messages do not spend the budget of frames the server
chooses to send (broadcasts)."""

from __future__ import annotations

import threading
import time

from starlette.testclient import TestClient
from web_support import HOSTS, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.hub import ERROR_BURST, ERRORS_PER_SECOND
from cardlab.web.limits import Limits
from cardlab.web.security import RateLimiter


def reader(sock, frames: list[dict]) -> threading.Thread:
    def run() -> None:
        while True:
            try:
                frames.append(sock.recv())
            except Exception:  # the socket closed (or the test ended it)
                frames.append({"type": "closed"})
                return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_reading_client_sending_refused_moves_under_the_rate_is_never_closed(db):
    # A frame budget of 1 a second: before, every error frame spent it, so 18 refusals
    # a second filled the socket's queue in about 4 s and the server closed it (1013).
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        message_rate=20,
        limits=Limits(frames_per_second=1.0),
        allowed_hosts=HOSTS,
    )
    with TestClient(app) as c:
        made = create(c)
        seat = seat_socket(c, made, 0)
        first = seat.state()
        frames: list[dict] = []
        thread = reader(seat, frames)
        seconds, rate = 5.0, 18.0
        start = time.monotonic()
        sent = 0
        while time.monotonic() - start < seconds:
            seat.send({"type": "act", "action": 10_000, "seq": first["seq"]})  # never legal
            sent += 1
            time.sleep(max(0.0, start + sent / rate - time.monotonic()))
        time.sleep(0.3)  # the last answers arrive
        mark = len(frames)
        seat.send({"type": "sync"})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(
            f["type"] in ("state", "closed") for f in frames[mark:]
        ):
            time.sleep(0.02)
        took = time.monotonic() - start
        answered = [f["type"] for f in frames[mark:]]
        seat.close()
        thread.join(2)
        fatal = [f for f in frames[:mark] if f.get("fatal") or f["type"] == "closed"]
        errors = [f for f in frames if f["type"] == "error" and not f.get("fatal")]
        assert not fatal, fatal
        assert "state" in answered, "the socket still answers a sync at the end"
        assert sent >= 85
        # Within the error budget: a burst, then its rate; the rest were counted.
        assert 1 <= len(errors) <= ERROR_BURST + ERRORS_PER_SECOND * took + 1
        assert sum(f.get("unanswered", 0) for f in errors) + len(errors) <= sent
        assert any(f.get("unanswered") for f in errors)
        assert all("10000" in f["error"] or "not" in f["error"] for f in errors)
        assert len(errors) < sent
        close_all()


def test_answers_do_not_spend_the_frame_budget(client):
    made = create(client)
    seat = seat_socket(client, made, 0)
    seat.state()
    conn = next(iter(client.app.state.hub.sockets[made["table"]]))
    before = conn.frame_limiter.tokens
    for _ in range(5):
        seat.send({"type": "sync"})
        seat.state()
    assert conn.frame_limiter.tokens >= before  # syncs were answered outside the budget


def test_ready_spends_nothing():
    bucket = RateLimiter(rate=1.0, burst=2.0)
    assert bucket.ready(0.0) and bucket.allow(0.0) and bucket.allow(0.0)
    assert not bucket.ready(0.0) and not bucket.ready(0.5)
    assert bucket.ready(1.0) and bucket.allow(1.0) and not bucket.ready(1.0)


def test_over_the_error_budget_the_latest_refusal_is_still_answered(client):
    made = create(client)
    seat = seat_socket(client, made, 0)
    seat.state()
    for _ in range(int(ERROR_BURST) + 10):
        seat.send({"type": "warp"})
    seat.send({"type": "last-one"})
    last = seat.recv_until(lambda m: m["type"] == "error" and "last-one" in m["error"])
    assert last["unanswered"] >= 9, "the refusals it replaced are counted"
    close_all()
