"""Web hardening: no client names a server file, bounded resources, host seat control,
defensive parsing, same-origin side effects, clean names."""

from __future__ import annotations

import json
import os
import sqlite3
import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import HOSTS, ORIGIN, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.hub import Connection
from cardlab.web.limits import Limits
from cardlab.web.offers import scrub
from cardlab.web.security import clean_name


def post(client, spec, headers=ORIGIN):
    return client.post("/api/tables", json=spec, headers=headers)


def app_client(db, **kwargs):
    return TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS, **kwargs)
    )


# -- files only from the command line -----------------------------------------------------
@pytest.mark.parametrize("key", ["cards", "variant"])
def test_no_option_can_name_a_server_file(client, tmp_path, key):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it would block the server until someone writes to it
    for path in [str(fifo), "/proc/self/environ", "pyproject.toml"]:
        resp = post(client, {"game": "highcard", "options": {key: path}})
        assert resp.status_code == 400
        error = resp.json()["error"]
        assert f"unknown option {key!r}" in error and "double_last" in error
        assert str(tmp_path) not in error and "environ" not in error
    assert client.app.state.store.count_tables() == 0


def test_unknown_option_and_field_are_named(client):
    resp = post(client, {"game": "highcard", "options": {"warp_speed": 9}})
    assert resp.status_code == 400 and "'warp_speed'" in resp.json()["error"]
    resp = post(client, {"game": "highcard", "cards_path": "/etc/passwd"})
    assert resp.status_code == 400 and "unknown field 'cards_path'" in resp.json()["error"]
    bad_seat = [{"kind": "human", "file": "/etc/passwd"}, {"kind": "human"}]
    resp = post(client, {"game": "highcard", "seats": bad_seat})
    assert resp.status_code == 400 and "unknown field 'file'" in resp.json()["error"]


def write_variant(tmp_path, name="doubled", game="highcard"):
    path = tmp_path / "secret-dir" / f"{name}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(
        f'game = "{game}"\ntitle = "Doubled"\nabout = "the last round counts twice"\n'
        "[options]\ndouble_last = true\n"
    )
    return path


def test_variants_come_from_the_command_line_and_are_chosen_by_name(tmp_path):
    path = write_variant(tmp_path)
    with app_client(tmp_path / "t.db", variants=(str(path),)) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert games["highcard"]["variants"] == [
            {
                "name": "doubled",
                "title": "Doubled",
                "about": "the last round counts twice",
                "options": {"double_last": True},
                "card_changes": 0,
            }
        ]
        assert str(tmp_path) not in c.get("/api/games").text
        made = create(c, variant="doubled")
        table = c.app.state.hub.tables[made["table"]]
        assert table.record.options["double_last"] is True
        for name in ["nope", str(path), "../doubled"]:
            resp = post(c, {"game": "highcard", "variant": name})
            assert resp.status_code == 400
            assert "unknown variant" in resp.json()["error"]
            assert str(tmp_path) not in resp.json()["error"]
        # a request option still overrides the variant's
        made2 = create(c, variant="doubled", options={"double_last": False})
        assert c.app.state.hub.tables[made2["table"]].record.options["double_last"] is False
        close_all()
    # the variant is stored with the table: a restart without the flag restores it
    with app_client(tmp_path / "t.db") as c:
        table = c.app.state.hub.tables[made["table"]]
        assert table.game.variant is not None and table.game.variant.name == "doubled"
        assert table.public_info()["options"]["double_last"] is True


def test_a_bad_variant_file_stops_the_server_at_start_naming_it(tmp_path):
    from cardlab.core.errors import CardlabError

    path = tmp_path / "bad.toml"
    path.write_text('game = "highcard"\n[options]\ndouble_last = "maybe"\n')
    with pytest.raises(CardlabError, match="bad.toml"):
        create_app(db=tmp_path / "t.db", catalog=toy_catalog(), variants=(str(path),))


def test_error_texts_never_carry_a_server_path():
    known = [("/srv/cardlab/variants/lab.toml", "variant 'lab'")]
    assert scrub("/srv/cardlab/variants/lab.toml: bad key", known) == "variant 'lab': bad key"
    text = scrub("cannot read /home/x/secret.toml or C:\\x\\y.toml; 3/4 done, 0/1")
    assert "/home" not in text and "secret" not in text and "C:\\x" not in text
    assert "3/4" in text and "0/1" in text


# -- bounded resources -----------------------------------------------------------------
def test_bot_strength_is_capped(tmp_path):
    with app_client(tmp_path / "t.db", limits=Limits(max_bot_iterations=200)) as c:
        assert c.get("/api/games").json()["limits"]["max_bot_iterations"] == 200
        strong = [
            {"kind": "human"},
            {"kind": "bot", "agent": "ismcts", "params": {"iterations": 201}},
        ]
        resp = post(c, {"game": "highcard", "seats": strong})
        assert resp.status_code == 400 and "1..200" in resp.json()["error"]
        default = [{"kind": "human"}, {"kind": "bot", "agent": "ismcts"}]  # 1,000 by default
        resp = post(c, {"game": "highcard", "seats": default})
        assert resp.status_code == 400 and "at most 200" in resp.json()["error"]
        ok = [{"kind": "human"}, {"kind": "bot", "agent": "ismcts", "params": {"iterations": 200}}]
        assert post(c, {"game": "highcard", "seats": ok}).status_code == 201


def test_live_tables_are_capped_per_client_and_in_total(tmp_path):
    limits = Limits(tables_per_client=2, max_tables=3, creates_per_minute=1000, create_burst=100)
    with app_client(tmp_path / "t.db", limits=limits) as c:
        create(c)
        create(c)
        resp = post(c, {"game": "highcard"})
        assert resp.status_code == 429 and "2 unfinished tables" in resp.json()["error"]
        hub = c.app.state.hub
        hub.creators = {t: "elsewhere" for t in hub.tables}  # two tables of someone else
        create(c)
        resp = post(c, {"game": "highcard"})
        assert resp.status_code == 503 and "server is full" in resp.json()["error"]
        assert c.app.state.store.count_tables() == 3


def test_table_creation_is_rate_limited_per_client(tmp_path):
    limits = Limits(creates_per_minute=1, create_burst=2, tables_per_client=50)
    with app_client(tmp_path / "t.db", limits=limits) as c:
        create(c)
        create(c)
        resp = post(c, {"game": "highcard"})
        assert resp.status_code == 429 and "a minute" in resp.json()["error"]
        assert int(resp.headers["retry-after"]) >= 1
        # a refused (invalid) request does not spend the budget of anyone
        assert post(c, {"game": "chess"}).status_code == 400


def test_a_newer_socket_replaces_the_older_which_is_told_why(client):
    made = create(client)
    old = seat_socket(client, made, 0)
    old.state()
    new = seat_socket(client, made, 0)
    assert new.state()["you"] == 0
    msg = old.recv_until(lambda m: m["type"] == "error")
    assert msg["fatal"] and msg["code"] == 4409 and "another window" in msg["error"]
    with pytest.raises(WebSocketDisconnect) as closed:
        old.recv()
    assert closed.value.code == 4409
    hub = client.app.state.hub
    assert sum(1 for c in hub.sockets[made["table"]] if c.seat == 0) == 1
    new.send({"type": "sync"})
    assert new.state()["table"]["seats"][0]["connected"]


def test_spectators_are_capped_per_table(tmp_path):
    with app_client(tmp_path / "t.db", limits=Limits(spectators_per_table=2)) as c:
        made = create(c)
        hello = {"role": "spectator", "token": made["tokens"]["spectator"]}
        first, second = SeatSocket(c, made["table"], hello), SeatSocket(c, made["table"], hello)
        first.state(), second.state()
        third = SeatSocket(c, made["table"], hello)
        msg = third.recv()
        assert msg["type"] == "error" and msg["fatal"] and "2 spectators" in msg["error"]
        close_all()


def test_syncs_beyond_the_budget_are_refused(client):
    made = create(client)
    a = seat_socket(client, made, 0)
    a.state()
    for _ in range(30):
        a.send({"type": "sync"})
    assert "too many sync requests" in a.error()["error"]


def test_a_socket_behind_gets_only_the_newest_state_within_its_frame_budget():
    import asyncio

    async def main() -> tuple[list[str], float]:
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        from cardlab.web.security import RateLimiter

        conn = Connection(send_text=send, frame_limiter=RateLimiter(rate=20.0, burst=2.0))
        start = time.monotonic()
        for i in range(40):
            conn.push(f"state {i}", state=True)
        conn.push("error 1")
        conn.queue.put_nowait(None)
        await conn.writer()
        return sent, time.monotonic() - start

    sent, seconds = asyncio.run(main())
    assert sent[-2:] == ["state 39", "error 1"] or sent[-1] == "error 1"
    assert "state 39" in sent and len(sent) <= 4, sent
    assert seconds < 1.0


def test_slow_bots_think_in_a_worker_process(tmp_path):
    with app_client(tmp_path / "t.db", limits=Limits(bot_workers=1)) as c:
        seats = [
            {"kind": "bot", "agent": "ismcts", "params": {"iterations": 20}},
            {"kind": "bot", "agent": "ismcts", "params": {"iterations": 20}},
        ]
        made = create(c, seats=seats)
        spec = SeatSocket(
            c, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
        )
        final = spec.recv_until(lambda m: m["type"] == "state" and m["terminal"])
        assert final["final"]["winners"]
        pool = c.app.state.hub.bot_pool._pool
        assert pool is not None and len(pool._processes) == 1
        assert os.getpid() not in pool._processes
        close_all()


def test_one_playtest_run_at_a_time_with_a_visible_queue(tmp_path, monkeypatch):
    import asyncio

    from cardlab.web import reports as reports_mod

    started: list[str] = []

    async def fake_run(self, game):
        started.append(game)
        await asyncio.sleep(0.3)
        self._runs[game].update(state="done")

    monkeypatch.setattr(reports_mod.Reports, "_run", fake_run)
    monkeypatch.setattr(reports_mod, "lab_games", lambda: ["alpha", "beta", "gamma"])
    with app_client(tmp_path / "t.db") as c:
        c.app.state.reports.games = ["alpha", "beta", "gamma"]
        op = {**ORIGIN, "authorization": f"Bearer {c.app.state.operator_token}"}
        for game in ["alpha", "beta", "gamma"]:
            assert c.post(f"/api/reports/{game}/run", headers=op).status_code == 202
        status = c.get("/api/reports").json()
        assert status["running"] == "alpha" and status["queue"] == ["beta", "gamma"]
        assert status["games"]["gamma"]["state"] == "queued"
        assert status["games"]["gamma"]["position"] == 2
        again = c.post("/api/reports/beta/run", headers=op)
        assert again.status_code == 409 and "queued" in again.json()["error"]
        deadline = time.monotonic() + 10
        while c.get("/api/reports").json()["queue"] and time.monotonic() < deadline:
            time.sleep(0.05)
        while started != ["alpha", "beta", "gamma"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started == ["alpha", "beta", "gamma"]


# -- seat control belongs to the host ----------------------------------------------------
def host_socket(client, made):
    host = SeatSocket(client, made["table"], {"role": "host", "token": made["tokens"]["host"]})
    host.state()
    return host


def test_host_revokes_a_seat_link_and_issues_a_new_one(client):
    made = create(client)
    old = seat_socket(client, made, 1)
    old.state()
    host = host_socket(client, made)
    host.send({"type": "revoke", "seat": 1})
    link = host.recv_until(lambda m: m["type"] == "link")
    assert link["seat"] == 1 and link["token"] != made["tokens"]["seat1"]
    msg = old.recv_until(lambda m: m["type"] == "error")
    assert msg["fatal"] and "replaced this seat's link" in msg["error"]
    stale = SeatSocket(client, made["table"], {"seat": 1, "token": made["tokens"]["seat1"]})
    assert "not valid" in stale.recv()["error"]
    fresh = SeatSocket(client, made["table"], {"seat": 1, "token": link["token"]})
    assert fresh.state()["you"] == 1
    # only the host may revoke; a seat cannot revoke another's link
    a = seat_socket(client, made, 0)
    a.state()
    a.send({"type": "revoke", "seat": 1})
    assert "only the host" in a.error()["error"]


def test_a_seat_the_host_hands_to_a_bot_refuses_its_human_until_handed_back(client):
    made = create(client, bot_delay=10)  # the bot waits; the human is turned away meanwhile
    a = seat_socket(client, made, 0)
    view = a.state()
    move = view["legal"][0]["action"]
    host = host_socket(client, made)
    host.send({"type": "hand_to_bot", "seat": 0, "agent": "greedy"})
    handed = a.recv_until(
        lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "bot"
    )
    assert handed["legal"] == [], "a bot seat never receives legal moves"
    a.send({"type": "act", "action": move, "seq": 0})
    assert "played by a bot" in a.error()["error"]
    a.send({"type": "reclaim"})
    assert "only the host can hand it back" in a.error()["error"]
    table = client.app.state.hub.tables[made["table"]]
    assert table.seq == 0
    host.send({"type": "allow_reclaim", "seat": 0})
    host.recv_until(lambda m: m["type"] == "state")
    a.send({"type": "reclaim"})
    back = a.recv_until(
        lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human"
    )
    assert back["legal"]
    host.send({"type": "hand_to_bot", "seat": 0})
    a.recv_until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "bot")
    host.send({"type": "hand_back", "seat": 0})
    back = a.recv_until(
        lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human"
    )
    assert back["legal"] and table.seq == 0


def test_host_commands_need_the_host_and_a_human_seat(client):
    made = create(
        client, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}], bot_delay=10
    )
    a = seat_socket(client, made, 0)
    a.state()
    for kind in ["hand_back", "allow_reclaim", "revoke"]:
        a.send({"type": kind, "seat": 0})
        assert "only the host" in a.error()["error"]
    host = host_socket(client, made)
    host.send({"type": "hand_back", "seat": 1})
    assert "not a human's seat" in host.error()["error"]
    host.send({"type": "revoke", "seat": 7})
    assert "not a human's seat" in host.error()["error"]


# -- parse defensively -------------------------------------------------------------------
def test_deep_json_is_refused_before_decoding_over_http(client):
    deep = "[" * 2000 + "]" * 2000
    resp = client.post("/api/tables", content=deep, headers=ORIGIN)
    assert resp.status_code == 400 and "nested 2000 deep" in resp.json()["error"]
    nested_options = {"game": "highcard", "options": {"a": json.loads("[" * 7 + "]" * 7)}}
    resp = post(client, nested_options)
    assert resp.status_code == 400
    resp = client.post("/api/tables", content=b"\xff\xfe", headers=ORIGIN)
    assert resp.status_code == 400
    resp = client.post(
        "/api/tables", content=b"{}", headers={**ORIGIN, "content-length": "99999999"}
    )
    assert resp.status_code == 413


def test_deep_json_on_a_socket_gets_an_error_frame_and_the_socket_lives(client):
    made = create(client)
    a = seat_socket(client, made, 0)
    a.state()
    a.send("[" * 2000 + "]" * 2000)
    assert "nested 2000 deep" in a.error()["error"]
    a.send('{"type": "act", "action": ' + "[" * 50 + "]" * 50 + ', "seq": 0}')
    assert "nested" in a.error()["error"]
    a.send({"type": "sync"})
    assert a.state()["seq"] == 0


def test_deep_json_as_the_hello_is_refused_with_a_close_code(client):
    made = create(client)
    sock = SeatSocket(client, made["table"], {"seat": 0, "token": made["tokens"]["seat0"]})
    sock.close()
    with client.websocket_connect(f"/ws/{made['table']}", headers=ORIGIN) as ws:
        ws.send_text("{" * 3000)
        msg = json.loads(ws.receive_text())
        assert msg["fatal"] and "nested" in msg["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4400


# -- side effects need the same origin ---------------------------------------------------
@pytest.mark.parametrize("headers", [{}, {"origin": "https://evil.example"}, {"origin": "null"}])
def test_posts_with_side_effects_need_this_origin(client, headers, db):
    resp = client.post("/api/tables", json={"game": "highcard"}, headers=headers)
    assert resp.status_code == 403 and "may not create tables" in resp.json()["error"]
    resp = client.post("/api/reports/uptime/run", headers=headers)
    assert resp.status_code == 403 and "may not start playtests" in resp.json()["error"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0


# -- names -------------------------------------------------------------------------------
def test_names_lose_format_characters_and_are_bounded(client):
    assert clean_name("\u202eevil") == "evil"
    assert clean_name("a\u200b\u2066b\u2069\u200dc") == "abc"
    assert clean_name("  two\n\tlines  ") == "two lines"
    assert clean_name("x" * 500) == "x" * 24
    assert clean_name(None) == "" and clean_name(12) == "12"
    seats = [
        {"kind": "human", "name": "\u202eevil" + "y" * 100},
        {"kind": "human", "name": "\u2067"},
    ]
    made = create(client, seats=seats)
    info = client.app.state.hub.tables[made["table"]].public_info()
    assert info["seats"][0]["name"] == ("evil" + "y" * 100)[:24]
    assert info["seats"][1]["name"] == "Player 1"


def test_bots_nobody_named_never_share_a_name(client):
    """Two unnamed greedy bots are "greedy bot 1" and "greedy bot 2" (their seats), so a
    shared win reads as two players; a lone bot of its kind keeps the plain name, and
    a name someone gave is kept as given."""
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "agent": "greedy"},
        {"kind": "bot", "agent": "greedy"},
        {"kind": "bot", "agent": "random"},
    ]
    made = create(client, players=4, seats=seats)
    names = [s["name"] for s in client.app.state.hub.tables[made["table"]].public_info()["seats"]]
    assert names == ["Ada", "greedy bot 1", "greedy bot 2", "random bot"]
    default = create(client, players=3, seats=None)
    names = [
        s["name"] for s in client.app.state.hub.tables[default["table"]].public_info()["seats"]
    ]
    assert len(set(names)) == 3, names
    given = [{"kind": "human"}, {"kind": "bot", "agent": "greedy", "name": "Bo"}]
    given += [{"kind": "bot", "agent": "greedy", "name": "Bo"}]
    made = create(client, players=3, seats=given)
    names = [s["name"] for s in client.app.state.hub.tables[made["table"]].public_info()["seats"]]
    assert names == ["Player 0", "Bo", "Bo"]


def test_packaged_variants_and_the_servers_card_file_are_offered(tmp_path):
    """The real games: each package's variants/*.toml is offered by name, and
    `--cards PATH` applies to the game whose file it is (and to tables)."""
    from cardlab.games import game_info
    from cardlab.web.catalog import Catalog, installed_games

    info = game_info("uptime")
    packaged = sorted(p.stem for p in info.variants_dir().glob("*.toml"))
    cards = info.package_dir() / "cards.toml"
    app = create_app(
        db=tmp_path / "t.db",
        catalog=Catalog({"uptime": installed_games()["uptime"]}),
        bot_delay=0,
        cards=(str(cards),),
        allowed_hosts=HOSTS,
    )
    with TestClient(app) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert [v["name"] for v in games["uptime"]["variants"]] == packaged
        assert str(info.package_dir()) not in c.get("/api/games").text
        made = create(c, game="uptime", players=3)
        table = c.app.state.hub.tables[made["table"]]
        # It deals from the file's bytes, kept with the table (web/store.py).
        assert table.record.settings["cards"] == str(cards.resolve())
        assert table.game.cards_path.read_bytes() == cards.read_bytes()
        if packaged:
            made = create(c, game="uptime", players=3, variant=packaged[0])
            assert c.app.state.hub.tables[made["table"]].game.variant.name == packaged[0]
        close_all()


def test_a_socket_that_stops_reading_is_closed_with_a_reason():
    import asyncio

    async def main() -> list:
        closed: list[int] = []
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        async def close(code: int) -> None:
            closed.append(code)

        conn = Connection(send_text=send, close_socket=close)
        for i in range(200):  # nobody reads: the queue (64) overflows
            conn.push(f"state {i}", state=True)
        await conn.writer()
        return [sent, closed]

    sent, closed = asyncio.run(main())
    assert closed == [1013]
    assert json.loads(sent[-1])["fatal"] and "fell behind" in sent[-1]
