"""Tables expire. A table nobody has open is closed as abandoned after
its idle limit; finished and abandoned tables leave memory and are rebuilt read-only
when opened (replays keep working); the caps count live tables only; per-client limits
believe X-Forwarded-For only from a configured proxy and group IPv6 by /64."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.hub import ARCHIVE_CACHE
from cardlab.web.limits import ClientAddress, Limits, group
from cardlab.web.store import Store

BOTS = [{"kind": "bot", "agent": "random"}] * 2


def app_client(db: Path, **limits) -> TestClient:
    app = create_app(
        db=db, catalog=toy_catalog(), bot_delay=0, limits=Limits(**limits), allowed_hosts=HOSTS
    )
    return TestClient(app)


def status(db: Path, table: str) -> str | None:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT status FROM tables WHERE id=?", (table,)).fetchone()[0]


def wait_finished(c: TestClient, table: str) -> None:
    hub = c.app.state.hub
    deadline = time.monotonic() + 10
    while table in hub.tables.live and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table not in hub.tables.live


def test_a_finished_table_leaves_memory_and_is_rebuilt_read_only_with_its_replay(db):
    with app_client(db) as c:
        made = create(c, seats=BOTS)
        wait_finished(c, made["table"])
        hub = c.app.state.hub
        assert status(db, made["table"]) == "finished"
        assert len(hub.tables) == 0 and hub.live_tables() == 0
        assert made["table"] not in hub.creators and made["table"] not in hub.seen
    with app_client(db) as c:  # a restart rebuilds no finished table
        hub = c.app.state.hub
        assert len(hub.tables) == 0 and not hub.tables.archive
        assert c.get(f"/t/{made['table']}").status_code == 200
        spectator = SeatSocket(
            c, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
        )
        final = spectator.state()
        assert final["terminal"] and final["legal"] == []
        archived = hub.tables.archive[made["table"]]
        assert archived.closed_reason() == "this table is closed: the game is over"
        assert archived.driver is None  # nothing drives a closed table
        spectator.send({"type": "replay", "step": 1})
        replay = spectator.recv_until(lambda m: m["type"] == "replay")
        assert replay["step"] == 1 and replay["steps"] == final["seq"]
        wrong = SeatSocket(c, made["table"], {"role": "spectator", "token": "not-it"})
        assert "not valid" in wrong.error()["error"]  # a closed table still needs its token
        assert len(hub.tables) == 0  # opening it made it no live table
        close_all()


def test_closed_tables_in_memory_are_bounded_by_the_cache(db):
    with app_client(db, creates_per_minute=1000, create_burst=1000) as c:
        hub = c.app.state.hub
        made = [create(c, seats=BOTS) for _ in range(ARCHIVE_CACHE + 4)]
        for m in made:
            wait_finished(c, m["table"])
        for m in made:
            assert hub.tables[m["table"]].state.is_terminal()
        assert len(hub.tables.archive) == ARCHIVE_CACHE and len(hub.tables) == 0


def test_an_idle_table_is_abandoned_and_the_server_full_clears(db):
    with app_client(db, max_tables=2, idle_before_first_move=60) as c:
        hub = c.app.state.hub
        first, second = create(c), create(c)
        resp = c.post("/api/tables", json={"game": "highcard"}, headers=ORIGIN)
        assert resp.status_code == 503 and "server is full" in resp.json()["error"]
        watched = seat_socket(c, second, 0)  # someone sits at the second table
        watched.state()
        closed = c.portal.call(hub.expire, time.time() + 61)
        assert closed == [first["table"]]
        assert status(db, first["table"]) == "abandoned"
        assert status(db, second["table"]) == "live"
        assert hub.live_tables() == 1
        assert c.post("/api/tables", json={"game": "highcard"}, headers=ORIGIN).status_code == 201
        close_all()
    with app_client(db) as c:  # not restored as live; opened, it is read-only
        hub = c.app.state.hub
        assert first["table"] not in hub.tables.live and second["table"] in hub.tables.live
        seat = seat_socket(c, first, 0)
        frame = seat.state()
        assert frame["legal"] == [] and not frame.get("terminal")
        seat.send({"type": "act", "action": 0, "seq": frame["seq"]})
        assert "closed after standing idle" in seat.error()["error"]
        assert Store(db).load_actions(first["table"]) == []
        close_all()


def test_a_table_a_human_has_moved_at_gets_the_longer_limit(db):
    with app_client(db, idle_before_first_move=60, idle_after_first_move=3600) as c:
        hub = c.app.state.hub
        made = create(c, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
        seat = seat_socket(c, made, 0)
        frame = seat.state()
        if not frame["legal"]:  # the bot moves first in some deals
            frame = seat.recv_until(lambda m: m["type"] == "state" and m["legal"])
        seat.send({"type": "act", "action": frame["legal"][0]["action"], "seq": frame["seq"]})
        seat.state(frame["seq"] + 1)
        seat.close()
        deadline = time.monotonic() + 5
        while hub.sockets.get(made["table"]) and time.monotonic() < deadline:
            time.sleep(0.02)
        if made["table"] not in hub.tables.live:
            pytest.skip("the toy game ended in one move")
        assert c.portal.call(hub.expire, time.time() + 120) == []
        assert c.portal.call(hub.expire, time.time() + 3601) == [made["table"]]
        close_all()


def test_a_database_from_before_statuses_is_settled_at_start(db):
    with app_client(db) as c:
        done, live = create(c, seats=BOTS), create(c)
        wait_finished(c, done["table"])
    with sqlite3.connect(db) as conn:  # as an older server left it: no status column
        conn.execute("UPDATE tables SET status=NULL, client=NULL")
    with app_client(db) as c:
        hub = c.app.state.hub
        assert list(hub.tables) == [live["table"]]
        assert status(db, done["table"]) == "finished" and status(db, live["table"]) == "live"


def test_the_per_client_cap_survives_a_restart(db):
    with app_client(db, tables_per_client=1) as c:
        create(c)
    with app_client(db, tables_per_client=1) as c:
        resp = c.post("/api/tables", json={"game": "highcard"}, headers=ORIGIN)
        assert resp.status_code == 429 and "unfinished tables" in resp.json()["error"]


def test_forwarded_for_is_believed_only_from_a_configured_proxy(db, tmp_path):
    def two_from(c: TestClient) -> list[int]:
        codes = []
        for ip in ("203.0.113.7", "198.51.100.9"):
            headers = {**ORIGIN, "x-forwarded-for": ip}
            codes.append(
                c.post("/api/tables", json={"game": "highcard"}, headers=headers).status_code
            )
        return codes

    with app_client(db, tables_per_client=1) as c:  # by default: the peer, whatever it says
        assert two_from(c) == [201, 429]
    app = create_app(
        db=tmp_path / "proxy.db",
        catalog=toy_catalog(),
        limits=Limits(tables_per_client=1),
        allowed_hosts=HOSTS,
        forwarded_allow_ips="*",
    )
    with TestClient(app) as c:  # behind the proxy: one client per forwarded address
        assert two_from(c) == [201, 201]


@pytest.mark.parametrize(
    ("peer", "xff", "trusted", "key"),
    [
        ("10.0.0.2", "203.0.113.7", "", "10.0.0.2"),
        ("10.0.0.2", "203.0.113.7", "10.0.0.0/8", "203.0.113.7"),
        ("10.0.0.2", "6.6.6.6, 203.0.113.7", "10.0.0.2", "203.0.113.7"),  # spoofed left part
        ("10.0.0.2", "203.0.113.7, 10.0.0.3", "10.0.0.0/8", "203.0.113.7"),  # two proxies
        ("192.0.2.1", "203.0.113.7", "10.0.0.0/8", "192.0.2.1"),  # not our proxy
        ("10.0.0.2", "garbage", "10.0.0.2", "10.0.0.2"),
        ("2001:db8:1:2:aaaa::1", "", "", "2001:db8:1:2::/64"),
        ("10.0.0.2", "2001:db8:1:2::99", "*", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.5", "", "", "192.0.2.5"),
    ],
)
def test_client_keys(peer, xff, trusted, key):
    headers = [(b"x-forwarded-for", xff.encode())] if xff else []
    scope = {"client": (peer, 5000), "headers": headers}
    assert ClientAddress(trusted).key(scope) == key


def test_ipv6_neighbours_share_one_key_and_bad_proxy_lists_are_refused():
    assert group("2001:db8:0:1::1") == group("2001:db8:0:1:ffff:ffff:ffff:ffff")
    assert group("2001:db8:0:1::1") != group("2001:db8:0:2::1")
    with pytest.raises(ValueError, match="not an IP address"):
        ClientAddress("10.0.0.1,proxy.example")


def test_the_server_closes_idle_tables_by_itself(db):
    with app_client(db, idle_before_first_move=0.3, idle_after_first_move=0.3) as c:
        hub = c.app.state.hub
        assert hub.sweep_interval() == pytest.approx(0.05)
        made = create(c)
        deadline = time.monotonic() + 10
        while made["table"] in hub.tables.live and time.monotonic() < deadline:
            time.sleep(0.05)
        assert status(db, made["table"]) == "abandoned"
