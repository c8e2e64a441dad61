"""Every link is revocable, and a host cannot take a seat over unseen.

- The host replaces a seat's link: the seat's socket is told why (a fatal frame naming
  the host) before it closes, a player who comes back with the old link is told the
  same, and every audience's frames mark the seat reissued from then on (whoever plays
  it may be the host, who now can see its hand).
- The host replaces the spectator link or its own: every socket of the old link but
  the asker's is told and closed at once, the old token is refused, and the new link
  reaches the host's socket alone.
- A refused revoke changes nothing: not a token, not the settings, not a socket."""

from __future__ import annotations

import json
import sqlite3

from starlette.testclient import TestClient
from web_support import HOSTS, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.limits import Limits


def app(db) -> TestClient:
    return TestClient(
        create_app(
            db=db,
            catalog=toy_catalog(),
            bot_delay=0,
            message_rate=10_000,
            limits=Limits(syncs_per_second=1000, frames_per_second=1000),
            allowed_hosts=HOSTS,
        )
    )


def role_socket(c, table: str, role: str, token: str) -> SeatSocket:
    return SeatSocket(c, table, {"role": role, "token": token})


def tokens(db, table: str) -> list:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT role, token_hash FROM tokens WHERE table_id=? ORDER BY role", (table,)
        ).fetchall()


def settings(db, table: str) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT settings FROM tables WHERE id=?", (table,)).fetchone()[0]


def fatal(sock: SeatSocket) -> dict:
    return sock.recv_until(lambda m: m["type"] == "error" and m.get("fatal"))


def test_a_revoked_seat_is_told_and_marked_to_every_audience(db):
    with app(db) as c:
        made = create(c, players=2, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}])
        tid = made["table"]
        a, b = seat_socket(c, made, 0), seat_socket(c, made, 1)
        host = role_socket(c, tid, "host", made["tokens"]["host"])
        watch = role_socket(c, tid, "spectator", made["tokens"]["spectator"])
        for s in (a, b, host, watch):
            assert s.state()["table"]["reissued"] == []
        host.send({"type": "revoke", "seat": 0})
        told = fatal(a)  # the player is told before the socket closes
        assert told["code"] == 4409 and "host replaced this seat's link" in told["error"]
        assert "sees its cards" in told["error"]
        link = host.recv_until(lambda m: m["type"] == "link")
        assert link["seat"] == 0 and link["token"] != made["tokens"]["seat0"]
        for s in (b, watch, host):  # every audience sees the seat was reissued
            frame = s.recv_until(lambda m: m["type"] == "state" and m["table"]["reissued"])
            assert frame["table"]["reissued"] == [0] and frame["table"]["seats"][0]["reissued"]
        # the player back with the old link is told why it no longer opens the seat
        again = SeatSocket(c, tid, {"seat": 0, "token": made["tokens"]["seat0"]})
        refused = again.recv()
        assert refused["fatal"] and "host replaced this seat's link" in refused["error"]
        # whoever opens the new link plays the seat, and it stays marked
        taken = SeatSocket(c, tid, {"seat": 0, "token": link["token"]})
        view = taken.state()
        assert view["you"] == 0 and view["table"]["seats"][0]["reissued"]
        for text in b.frames + watch.frames + a.frames:
            assert link["token"] not in text  # the new link reached the host alone
        close_all()
    with app(db) as c:  # the mark survives a restart
        b = seat_socket(c, made, 1)
        assert b.state()["table"]["reissued"] == [0]
        close_all()


def test_the_spectator_link_is_revoked_at_once(db):
    with app(db) as c:
        made = create(c, players=2)
        tid = made["table"]
        old = made["tokens"]["spectator"]
        watchers = [role_socket(c, tid, "spectator", old) for _ in range(2)]
        a = seat_socket(c, made, 0)
        host = role_socket(c, tid, "host", made["tokens"]["host"])
        for s in (*watchers, a, host):
            s.state()
        host.send({"type": "revoke", "role": "spectator"})
        link = host.recv_until(lambda m: m["type"] == "link")
        assert link == {"type": "link", "role": "spectator", "token": link["token"]}
        for w in watchers:
            told = fatal(w)
            assert told["code"] == 4409 and "spectator link" in told["error"]
        late = role_socket(c, tid, "spectator", old)
        refused = late.recv()
        assert refused["fatal"] and "replaced this table's spectator link" in refused["error"]
        fresh = role_socket(c, tid, "spectator", link["token"])
        assert fresh.state()["you"] is None
        a.send({"type": "sync"})
        a.state()
        for text in a.frames + [t for w in watchers for t in w.frames]:
            assert link["token"] not in text
        close_all()


def test_the_host_revokes_its_own_link(db):
    with app(db) as c:
        made = create(c, players=2)
        tid = made["table"]
        host = role_socket(c, tid, "host", made["tokens"]["host"])
        a = seat_socket(c, made, 0)
        host.state()
        a.state()
        host.send({"type": "revoke", "role": "host"})
        link = host.recv_until(lambda m: m["type"] == "link")
        assert link["role"] == "host" and link["token"] != made["tokens"]["host"]
        host.send({"type": "sync"})  # the asking socket holds the new link: still open
        host.state()
        stale = role_socket(c, tid, "host", made["tokens"]["host"])
        refused = stale.recv()
        assert refused["fatal"] and "host link" in refused["error"]
        assert role_socket(c, tid, "host", link["token"]).state()["you"] is None
        assert link["token"] not in "".join(a.frames)
        close_all()


REFUSED = [
    ("host", {"type": "revoke", "role": "player"}),
    ("host", {"type": "revoke"}),
    ("host", {"type": "revoke", "role": ["host"]}),
    ("host", {"type": "revoke", "seat": 7}),
    ("host", {"type": "revoke", "seat": "0"}),
    ("seat0", {"type": "revoke", "role": "spectator"}),
    ("seat0", {"type": "revoke", "seat": 0}),
    ("spectator", {"type": "revoke", "role": "host"}),
]


def test_a_refused_revoke_changes_nothing(db):
    with app(db) as c:
        made = create(c, players=2)
        tid = made["table"]
        before = (tokens(db, tid), settings(db, tid))
        socks = {
            "host": role_socket(c, tid, "host", made["tokens"]["host"]),
            "spectator": role_socket(c, tid, "spectator", made["tokens"]["spectator"]),
            "seat0": seat_socket(c, made, 0),
        }
        for s in socks.values():
            s.state()
        for who, msg in REFUSED:
            socks[who].send(msg)
            err = socks[who].error()
            assert not err.get("fatal") and len(err["error"]) > 10, (who, msg, err)
            assert (tokens(db, tid), settings(db, tid)) == before, (who, msg)
        for s in socks.values():  # every socket still open
            s.send({"type": "sync"})
            s.state()
        close_all()


def play_out(socks: dict[int, SeatSocket]) -> None:
    views = {s: sock.state() for s, sock in socks.items()}
    while not views[0]["terminal"]:
        seq, seat = views[0]["seq"], views[0]["current_player"]
        move = views[seat]["legal"][0]["action"]
        socks[seat].send({"type": "act", "action": move, "seq": seq})
        views = {s: sock.state(seq + 1) for s, sock in socks.items()}


def test_a_seat_the_host_took_over_is_marked_at_the_rematch(db):
    """The host reissues seat 1 at a finished table and asks for the rematch with it:
    the rematch marks seat 1 reissued for everyone. The host's reissued link at the
    rematch stops when the player asks for the seat again (its socket is closed)."""
    with app(db) as c:
        made = create(c, players=2)
        tid = made["table"]
        a, b = seat_socket(c, made, 0), seat_socket(c, made, 1)
        host = role_socket(c, tid, "host", made["tokens"]["host"])
        host.state()
        play_out({0: a, 1: b})
        host.send({"type": "revoke", "seat": 1})
        link = host.recv_until(lambda m: m["type"] == "link")
        as_b = SeatSocket(c, tid, {"seat": 1, "token": link["token"]})
        as_b.state()
        as_b.send({"type": "rematch"})
        new = as_b.recv_until(lambda m: m["type"] == "rematch_link")
        a.send({"type": "rematch"})
        mine = a.recv_until(lambda m: m["type"] == "rematch_link")
        new_a = SeatSocket(c, new["table"], {"seat": 0, "token": mine["token"]})
        assert new_a.state()["table"]["reissued"] == [1]
        table = c.app.state.hub.tables[new["table"]]
        assert "revoked" not in table.record.settings  # no old link's record carried over
        # At the rematch the host reissues seat 0 and opens it: seat 0's player is told.
        host.send({"type": "rematch"})
        host_link = host.recv_until(lambda m: m["type"] == "rematch_link")
        new_host = role_socket(c, new["table"], "host", host_link["token"])
        new_host.state()
        new_host.send({"type": "revoke", "seat": 0})
        taken = new_host.recv_until(lambda m: m["type"] == "link")
        assert "host replaced this seat's link" in fatal(new_a)["error"]
        as_a = SeatSocket(c, new["table"], {"seat": 0, "token": taken["token"]})
        assert as_a.state()["table"]["reissued"] == [0, 1]
        # The player asks its old table for its rematch link again: the host's socket on
        # the seat is closed, and the player's new link opens the seat.
        a.send({"type": "rematch"})
        again = a.recv_until(lambda m: m["type"] == "rematch_link")
        assert "newer rematch link" in fatal(as_a)["error"]
        back = SeatSocket(c, new["table"], {"seat": 0, "token": again["token"]})
        assert back.state()["table"]["seats"][0]["reissued"]  # the mark stays
        close_all()


def test_revoke_frames_are_json_a_page_can_read(db):
    """The link frame names what it replaced: a seat, or a role."""
    with app(db) as c:
        made = create(c, players=2)
        host = role_socket(c, made["table"], "host", made["tokens"]["host"])
        host.state()
        for msg in ({"type": "revoke", "seat": 1}, {"type": "revoke", "role": "spectator"}):
            host.send(msg)
            frame = host.recv_until(lambda m: m["type"] == "link")
            assert set(frame) == {"type", "token", next(k for k in msg if k != "type")}
            json.dumps(frame)
        close_all()
