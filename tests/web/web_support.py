"""Fixtures for the web tests: an app on a temporary database serving the toy
game (and the real games when their engines are installed)."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from web_toygame import HighCardInTurn, HighCardTogether  # noqa: E402

from cardlab.web.app import create_app  # noqa: E402
from cardlab.web.catalog import Catalog, installed_games  # noqa: E402
from cardlab.web.limits import Limits  # noqa: E402

ORIGIN = {"origin": "http://testserver"}
HOSTS = ("testserver",)
"""Starlette's TestClient sends `Host: testserver`: every test app names it in its
Host allow-list (the default allows only localhost names and the bound address)."""


def toy_catalog() -> Catalog:
    return Catalog(
        {"highcard": HighCardInTurn, "highcard_together": HighCardTogether, **installed_games()}
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


OPEN: list[SeatSocket] = []


def close_all() -> None:
    while OPEN:
        OPEN.pop().close()


@pytest.fixture
def client(db: Path):
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c:
        yield c
        close_all()


@pytest.fixture
def fast_client(db: Path):
    """A client whose scripted seats click faster than any human (no rate limit in the
    way: neither on the messages a seat sends nor on the frames it is sent, which at the
    default 10 a second left a scripted whole game mostly waiting)."""
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        message_rate=10_000,
        allowed_hosts=HOSTS,
        limits=Limits(frames_per_second=10_000),
    )
    with TestClient(app) as c:
        yield c
        close_all()


def create(client: TestClient, **spec: Any) -> dict[str, Any]:
    spec.setdefault("game", "highcard")
    spec.setdefault("players", 2)
    spec.setdefault("seats", [{"kind": "human"}] * spec["players"])
    resp = client.post("/api/tables", json=spec, headers=ORIGIN)
    assert resp.status_code == 201, resp.text
    return resp.json()


class SeatSocket:
    """A test client's socket bound to one seat (or role), recording every frame."""

    def __init__(self, client: TestClient, table: str, hello: dict[str, Any], headers=ORIGIN):
        self._cm = client.websocket_connect(f"/ws/{table}", headers=headers)
        self.ws = self._cm.__enter__()
        self.frames: list[str] = []
        self.closed = False
        OPEN.append(self)
        self.ws.send_text(json.dumps({"type": "hello", **hello}))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.frames.append(text)
        return json.loads(text)

    def recv_until(self, pred) -> dict[str, Any]:
        for _ in range(500):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError("expected frame never came")

    def state(self, seq: int | None = None) -> dict[str, Any]:
        """The next state frame at step `seq` or later; an error frame meanwhile fails the test."""

        def wanted(m: dict[str, Any]) -> bool:
            assert m["type"] != "error", m["error"]
            return m["type"] == "state" and (seq is None or m["seq"] >= seq)

        return self.recv_until(wanted)

    def error(self) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == "error")

    def send(self, msg: Any) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):  # the server may have closed it already
                self._cm.__exit__(None, None, None)


def seat_socket(client: TestClient, made: dict[str, Any], seat: int) -> SeatSocket:
    return SeatSocket(client, made["table"], {"seat": seat, "token": made["tokens"][f"seat{seat}"]})
