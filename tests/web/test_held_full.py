"""No one can hold the server full. Watching a table does not keep it alive (only a
seated player's socket does), sockets per client address are capped, the caps
count the client a trusted proxy names, and a newcomer at a full server gets a
short Retry-After and then a table once the idle limit has passed.

The first test runs a real server and connects from many loopback addresses
(127.0.0.x), as an attacker with many addresses would."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, SeatSocket, close_all, create, toy_catalog
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardlab.web.app import create_app
from cardlab.web.limits import Limits

IDLE = 1.5


@contextlib.contextmanager
def serving(app) -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
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


def post_table(port: int, source: str) -> tuple[int, dict, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    body = json.dumps({"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2})
    origin = f"http://127.0.0.1:{port}"
    conn.request(
        "POST", "/api/tables", body, {"content-type": "application/json", "origin": origin}
    )
    resp = conn.getresponse()
    data = json.loads(resp.read() or b"{}")
    headers = {k.lower(): v for k, v in resp.getheaders()}
    conn.close()
    return resp.status, data, headers


def open_socket(port: int, source: str, table: str, hello: dict) -> ClientConnection:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    ws = connect(f"ws://127.0.0.1:{port}/ws/{table}", sock=sock, origin=f"http://127.0.0.1:{port}")
    with contextlib.suppress(ConnectionClosed):  # a refused socket is closed at once
        ws.send(json.dumps({"type": "hello", **hello}))
    return ws


def first_frame(ws: ClientConnection) -> dict:
    return json.loads(ws.recv(timeout=10))


def test_spectators_from_many_addresses_cannot_hold_the_server_full(tmp_path: Path):
    limits = Limits(
        max_tables=6,
        tables_per_client=2,
        sockets_per_client=3,
        idle_before_first_move=IDLE,
        idle_after_first_move=IDLE,
    )
    app = create_app(db=tmp_path / "t.db", catalog=toy_catalog(), bot_delay=0, limits=limits)
    held: list[ClientConnection] = []
    try:
        with serving(app) as port:
            for n in range(2, 5):  # three addresses, two tables each: the server is full
                source = f"127.0.0.{n}"
                for _ in range(2):
                    status, made, _ = post_table(port, source)
                    assert status == 201, made
                    spectate = {"role": "spectator", "token": made["tokens"]["spectator"]}
                    for _ in range(2 if len(held) % 3 == 0 else 1):
                        ws = open_socket(port, source, made["table"], spectate)
                        assert first_frame(ws)["type"] == "state"
                        held.append(ws)
                # A fourth socket from the same address is refused by name.
                extra = open_socket(port, source, made["table"], spectate)
                refusal = first_frame(extra)
                assert refusal["fatal"] and "too many table connections" in refusal["error"]
                with pytest.raises(ConnectionClosed) as closed:
                    extra.recv(timeout=5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            full_at = time.monotonic()
            status, refused, headers = post_table(port, "127.0.0.50")
            assert status == 503 and "server is full" in refused["error"], refused
            retry = int(headers["retry-after"])
            assert 1 <= retry <= IDLE + 2, "a short-lived refusal: the next idle table is near"
            # The spectators stay connected; the tables close on their idle clock anyway.
            while True:
                status, made, _ = post_table(port, "127.0.0.50")
                if status == 201 or time.monotonic() - full_at > 10:
                    break
                time.sleep(0.1)
            waited = time.monotonic() - full_at
            assert status == 201, made
            assert waited <= IDLE + 2
            seat = open_socket(
                port, "127.0.0.50", made["table"], {"seat": 0, "token": made["tokens"]["seat0"]}
            )
            frame = first_frame(seat)
            assert frame["type"] == "state" and frame["you"] == 0, "the newcomer is seated"
            seat.close()
            print(f"newcomer refused 503 Retry-After {retry}, seated after {waited:.2f} s")
    finally:
        for ws in held:
            with contextlib.suppress(Exception):
                ws.close()


def test_a_seated_player_keeps_a_table_alive_and_a_spectator_does_not(db):
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        limits=Limits(idle_before_first_move=60, idle_after_first_move=60),
        allowed_hosts=HOSTS,
    )
    with TestClient(app) as c:
        hub = c.app.state.hub
        watched, played = create(c), create(c)
        SeatSocket(
            c, watched["table"], {"role": "spectator", "token": watched["tokens"]["spectator"]}
        ).state()
        SeatSocket(c, played["table"], {"seat": 1, "token": played["tokens"]["seat1"]}).state()
        assert hub.next_expiry() == pytest.approx(60, abs=2)
        assert c.portal.call(hub.expire, time.time() + 61) == [watched["table"]]
        assert played["table"] in hub.tables.live
        close_all()


@pytest.mark.parametrize(("trusted", "second_ok"), [("", False), ("*", True)])
def test_the_socket_cap_counts_the_client_a_trusted_proxy_names(db, trusted, second_ok):
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        limits=Limits(sockets_per_client=1),
        allowed_hosts=HOSTS,
        forwarded_allow_ips=trusted,
    )
    with TestClient(app) as c:
        made = create(c)
        hello = {"role": "spectator", "token": made["tokens"]["spectator"]}
        first = SeatSocket(c, made["table"], hello, {**ORIGIN, "x-forwarded-for": "203.0.113.1"})
        assert first.state()["you"] is None
        second = SeatSocket(c, made["table"], hello, {**ORIGIN, "x-forwarded-for": "203.0.113.2"})
        frame = second.recv()
        if second_ok:
            assert frame["type"] == "state"
        else:
            assert frame["fatal"] and "too many table connections" in frame["error"]
        again = SeatSocket(c, made["table"], hello, {**ORIGIN, "x-forwarded-for": "203.0.113.1"})
        assert "too many table connections" in again.recv()["error"]
        close_all()
        deadline = time.monotonic() + 5
        while c.app.state.sockets.open and time.monotonic() < deadline:
            time.sleep(0.02)
        assert c.app.state.sockets.open == {}, "a closed socket gives its place back"


def test_a_watcher_coming_and_going_never_restarts_the_idle_clock(db):
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        limits=Limits(idle_before_first_move=60, idle_after_first_move=60),
        allowed_hosts=HOSTS,
    )
    with TestClient(app) as c:
        hub = c.app.state.hub
        made = create(c)
        hub.seen[made["table"]] -= 50  # made 50 s ago
        watcher = SeatSocket(
            c, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
        )
        watcher.state()
        watcher.close()
        deadline = time.monotonic() + 5
        while hub.sockets.get(made["table"]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.next_expiry() == pytest.approx(10, abs=2)
        assert c.portal.call(hub.expire, time.time() + 11) == [made["table"]]


def test_serve_takes_the_trusted_proxy_and_the_socket_cap(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from cardlab.cli import app

    seen: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app_, **kw: seen.update(kw, app=app_))
    args = ["serve", "--db", str(tmp_path / "t.db"), "--operator-token", "x" * 24]
    args += ["--trusted-proxy", "10.0.0.2", "--trusted-proxy", "192.0.2.0/24"]
    result = CliRunner().invoke(app, [*args, "--sockets-per-client", "5"])
    assert result.exit_code == 0, result.output
    served = seen["app"]
    assert served.state.hub.limits.sockets_per_client == 5
    assert seen["loop"] == "cardlab.web.guards:GuardedLoop"
    key = served.state.client_address.key
    xff = [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.9")]
    assert key({"client": ("10.0.0.2", 1), "headers": xff}) == "203.0.113.9"
    assert key({"client": ("192.0.2.77", 1), "headers": xff}) == "203.0.113.9"
    assert key({"client": ("10.0.0.3", 1), "headers": xff}) == "10.0.0.3", "not our proxy"
    bad = CliRunner().invoke(app, [*args[:5], "--trusted-proxy", "proxy.example"])
    assert bad.exit_code == 2 and "--trusted-proxy: 'proxy.example'" in bad.output
