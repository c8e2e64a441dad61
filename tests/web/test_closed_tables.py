"""A closed table is a state of the table: every message kind of the socket protocol
that would change it gets a clear "this table is closed" refusal (an error frame in
words, the socket kept), and nothing changes: not the log, the seats, the links, the
settings or the chat. A table closed before its end (it stood idle) refuses everything
but a look (sync); a finished table refuses play and seat changes and still answers
its replay, chat, rematch and link revocations."""

from __future__ import annotations

import contextlib
import inspect
import json
import re
import sqlite3
import time
from collections.abc import Iterator

from starlette.testclient import TestClient
from web_support import HOSTS, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web import sockets
from cardlab.web.app import create_app
from cardlab.web.limits import Limits

CLOSED = "this table is closed"

# Every message kind the socket loop handles, with a well-formed body, and who sends it.
MESSAGES: list[tuple[str, dict]] = [
    ("seat0", {"type": "act", "action": 0, "seq": 0}),
    ("seat0", {"type": "undo"}),
    ("seat0", {"type": "hand_to_bot", "seat": 0, "agent": "greedy"}),
    ("seat0", {"type": "reclaim"}),
    ("seat0", {"type": "chat", "text": "still there?"}),
    ("seat0", {"type": "rematch"}),
    ("seat0", {"type": "replay", "step": 0}),
    ("host", {"type": "hand_to_bot", "seat": 1, "agent": "random"}),
    ("host", {"type": "hand_back", "seat": 1}),
    ("host", {"type": "allow_reclaim", "seat": 1}),
    ("host", {"type": "revoke", "seat": 1}),
    ("host", {"type": "revoke", "role": "spectator"}),
    ("host", {"type": "revoke", "role": "host"}),
    ("host", {"type": "mute", "seat": 1}),
    ("host", {"type": "chat", "text": "hello"}),
    ("host", {"type": "rematch"}),
    ("spectator", {"type": "chat", "text": "hi"}),
    ("spectator", {"type": "replay", "step": 0}),
    ("seat0", {"type": "survey", "fun": 3}),
]
LOOKS = ("sync", "ping", "hello")
"""Kinds that change nothing: a closed table still answers a look at it."""


def protocol_kinds() -> set[str]:
    """The message kinds `sockets._dispatch` handles, read from its source."""
    source = inspect.getsource(sockets._dispatch)
    kinds = set(re.findall(r'kind == "(\w+)"', source))
    for group in re.findall(r"kind in \(([^)]*)\)", source):
        kinds |= set(re.findall(r'"(\w+)"', group))
    return kinds | set(sockets.HOST_ONLY)


def test_every_protocol_kind_is_tried():
    tried = {msg["type"] for _, msg in MESSAGES}
    assert protocol_kinds() - set(LOOKS) <= tried, protocol_kinds() - tried


@contextlib.contextmanager
def app(db, **limits) -> Iterator[TestClient]:
    """A test client whose sockets are all closed on the way out (a failed assertion
    would otherwise leave the client waiting for them)."""
    client = TestClient(
        create_app(
            db=db,
            catalog=toy_catalog(),
            bot_delay=0,
            message_rate=10_000,
            limits=Limits(syncs_per_second=1000, frames_per_second=1000, **limits),
            allowed_hosts=HOSTS,
        )
    )
    with client:
        try:
            yield client
        finally:
            close_all()


def what_stays(db, table_id: str) -> str:
    """Everything a refused message must leave as it was, read from the store."""
    with sqlite3.connect(db) as conn:
        rows = [
            conn.execute(
                f"SELECT * FROM {name} WHERE table_id=? ORDER BY 1, 2", (table_id,)
            ).fetchall()
            for name in ("actions", "tokens", "chat")
        ]
        rows.append(conn.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchall())
    return json.dumps(rows, default=str)


def open_as(c, made, who: str) -> SeatSocket:
    if who.startswith("seat"):
        sock = seat_socket(c, made, int(who[4:]))
    else:
        sock = SeatSocket(c, made["table"], {"role": who, "token": made["tokens"][who]})
    sock.state()
    return sock


def answer(c, made, who: str, msg: dict) -> list[dict]:
    """The frames answering `msg`, sent on a socket of its own (so no per-socket budget
    of the server's is in the way): everything before the state frame a sync after
    it is answered with."""
    sock = open_as(c, made, who)
    sock.send(msg)
    sock.send({"type": "sync"})
    got = []
    while True:
        frame = sock.recv()
        if frame["type"] == "state":
            sock.close()
            return got
        got.append(frame)


def test_an_abandoned_table_refuses_every_message_kind_and_changes_nothing(db):
    with app(db, idle_before_first_move=60) as c:
        hub = c.app.state.hub
        made = create(c, players=2)
        assert c.portal.call(hub.expire, time.time() + 61) == [made["table"]]
        before = what_stays(db, made["table"])
        open_as(c, made, "spectator")  # rebuilt from the store, closed
        table = hub.tables[made["table"]]
        assert table.closed is not None and table.driver is None
        for who, msg in MESSAGES:
            got = answer(c, made, who, msg)
            errors = [f for f in got if f["type"] == "error"]
            assert errors and all(not f.get("fatal") for f in errors), (who, msg, got)
            assert CLOSED in errors[0]["error"] and "idle" in errors[0]["error"], (msg, errors)
            assert not [f for f in got if f["type"] in ("link", "rematch_link")], (msg, got)
            assert what_stays(db, made["table"]) == before, (who, msg)
        look = open_as(c, made, "seat0")
        look.send({"type": "sync"})
        assert look.state()["legal"] == []  # a look is still answered
        close_all()


def play_out(table_sockets: dict[int, SeatSocket]) -> dict:
    views = {s: sock.state() for s, sock in table_sockets.items()}
    while True:
        cur = views[0]
        if cur["terminal"]:
            return cur
        seat = cur["current_player"]
        move = views[seat]["legal"][0]
        table_sockets[seat].send({"type": "act", "action": move["action"], "seq": cur["seq"]})
        views = {s: sock.state(cur["seq"] + 1) for s, sock in table_sockets.items()}


PLAY = {"act", "undo", "hand_to_bot", "reclaim", "hand_back", "allow_reclaim"}


def check_finished(db, c, made) -> None:
    for who, msg in MESSAGES:
        if msg["type"] not in PLAY:
            continue
        before = what_stays(db, made["table"])
        got = answer(c, made, who, msg)
        errors = [f for f in got if f["type"] == "error"]
        assert errors and CLOSED in errors[0]["error"], (who, msg, got)
        assert "game is over" in errors[0]["error"]
        assert what_stays(db, made["table"]) == before, (who, msg)
    # what surrounds a finished game still works
    got = answer(c, made, "seat0", {"type": "replay", "step": 1})
    assert [f["step"] for f in got if f["type"] == "replay"] == [1]
    got = answer(c, made, "host", {"type": "chat", "text": "good game"})
    assert any(f["type"] == "chat" for f in got)
    got = answer(c, made, "seat0", {"type": "rematch"})
    assert any(f["type"] == "rematch_link" for f in got)
    got = answer(c, made, "seat0", {"type": "survey", "fun": 3})
    assert any(f["type"] == "survey" and f["saved"] for f in got), got


def test_a_finished_table_refuses_play_live_and_after_a_restart(db):
    with app(db) as c:
        made = create(c, players=2)
        play_out({0: seat_socket(c, made, 0), 1: seat_socket(c, made, 1)})
        check_finished(db, c, made)
        close_all()
    with app(db) as c:  # rebuilt from the store: the same answers
        open_as(c, made, "spectator")
        assert c.app.state.hub.tables[made["table"]].closed_reason().startswith(CLOSED)
        check_finished(db, c, made)
        close_all()
