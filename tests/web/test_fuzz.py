"""A protocol fuzzer: Hypothesis draws sequences of messages from
several seats, the host, a spectator and strangers (no token, a wrong token, another
seat's token), valid and malformed, at a table whose picks are simultaneous, and
table requests over HTTP. Whatever the sequence:

- the server never answers 500 and never drops a socket without a close frame;
- no frame ever names a card hidden from its audience (checked against the hidden
  ids at the end, which only shrink in this game, and by the seal's own count);
- a refused message changes nothing: not the step, not the held picks, not the seats.

`make fuzz` runs it longer: CARDLAB_FUZZ_EXAMPLES=2000 (default here: 25)."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import HOSTS, ORIGIN, close_all, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.limits import Limits
from cardlab.web.views import LeakGuard, ids_in_text

EXAMPLES = int(os.environ.get("CARDLAB_FUZZ_EXAMPLES", "25"))
PLAYERS = 3
WHO = ["seat0", "seat1", "seat2", "host", "spectator", "stranger", "forged", "swapped"]

ints = st.one_of(st.integers(-3, 20), st.just(2**63), st.booleans(), st.none(), st.text(max_size=3))
chat_texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["x" * 201, "y" * 5000, " \u200b\u202e ", "<script>x</script>", "\n\t"]),
    ints,
    st.lists(st.text(max_size=3), max_size=2),
)
social_messages = [
    # Around the game (social.py, table.undo): chat, mute, undo, rematch, well-formed or
    # not, from every audience; a refusal is an error frame and changes nothing.
    st.fixed_dictionaries({"type": st.just("chat"), "text": chat_texts}),
    st.just({"type": "chat"}),
    st.fixed_dictionaries({"type": st.just("chat"), "text": chat_texts, "seat": ints}),
    st.fixed_dictionaries(
        {"type": st.just("mute"), "seat": ints, "muted": st.one_of(st.booleans(), ints)}
    ),
    st.fixed_dictionaries({"type": st.just("mute"), "seat": ints}),
    st.just({"type": "undo"}),
    st.fixed_dictionaries({"type": st.just("undo"), "seat": ints}),
    st.just({"type": "rematch"}),
    st.fixed_dictionaries({"type": st.just("rematch"), "seat": ints, "token": st.text(max_size=4)}),
]
messages = st.one_of(
    st.fixed_dictionaries({"type": st.just("act"), "action": ints, "seq": st.integers(-1, 12)}),
    st.fixed_dictionaries(
        {"type": st.just("act"), "action": ints, "seq": st.integers(0, 12), "seat": ints}
    ),
    st.just({"type": "sync"}),
    st.fixed_dictionaries({"type": st.just("replay"), "step": ints}),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["hand_to_bot", "hand_back", "allow_reclaim", "revoke"]),
            "seat": ints,
            "agent": st.sampled_from(["greedy", "random", "ismcts", "../x"]),
        }
    ),
    st.just({"type": "reclaim"}),
    st.fixed_dictionaries({"type": st.just("hello"), "seat": ints, "token": st.text(max_size=5)}),
    *social_messages,
    st.sampled_from(
        [
            "{not json",
            "[" * 500 + "]" * 500,
            '{"type": ' + "[" * 40 + "]" * 40 + "}",
            json.dumps({"type": "act", "pad": "x" * 5000}),
            "null",
            '"act"',
            json.dumps({"type": 7}),
            json.dumps({"type": "warp"}),
            "\udcff",
        ]
    ),
)
steps = st.lists(st.tuples(st.sampled_from(WHO), messages), min_size=1, max_size=25)
bodies = st.one_of(
    st.binary(max_size=64),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    ).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(["highcard", "highcard_together", "chess", "/etc/passwd"]),
            "players": ints,
            "options": st.dictionaries(
                st.sampled_from(["double_last", "cards", "variant", "x"]), ints, max_size=2
            ),
            "variant": st.one_of(st.none(), st.text(max_size=10)),
        }
    ).map(lambda v: json.dumps(v).encode()),
)


def hello_for(who: str, tokens: dict[str, str]) -> dict:
    if who.startswith("seat"):
        return {"type": "hello", "seat": int(who[4]), "token": tokens[who]}
    if who in ("host", "spectator"):
        return {"type": "hello", "role": who, "token": tokens[who]}
    if who == "forged":
        return {"type": "hello", "seat": 0, "token": "A" * 43}
    if who == "swapped":
        return {"type": "hello", "seat": 1, "token": tokens["seat0"]}
    return {"type": "hello", "role": "spectator"}


def snapshot(table, hub=None) -> tuple:
    """What a refused message may not change: the step, held picks, seats and, with the
    hub, the chat, the table's settings (mutes, a rematch made) and the live tables."""
    base = (table.seq, dict(table.held), json.dumps(table.seats, sort_keys=True))
    if hub is None:
        return base
    chat = json.dumps(hub.store.load_chat(table.id, 1000))
    settings = json.dumps(table.record.settings, sort_keys=True)
    return (*base, chat, settings, sorted(hub.tables))


def recv_until_marker(ws, marker: str) -> list[str]:
    """Every frame up to the error that answers the marker message (excluded)."""
    frames = []
    for _ in range(200):
        text = ws.receive_text()
        if marker in text:
            return frames
        frames.append(text)
    raise AssertionError("the marker was never answered")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=steps, body=bodies)
def test_no_message_sequence_breaks_the_table(tmp_path_factory, script, body):
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    limits = Limits(syncs_per_second=1000, frames_per_second=1000)
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        message_rate=10_000,
        limits=limits,
        allowed_hosts=HOSTS,
    )
    redactions = LeakGuard.redactions
    with TestClient(app, raise_server_exceptions=False) as client:
        resp = client.post("/api/tables", content=body, headers=ORIGIN)
        assert resp.status_code < 500, resp.text
        # Bots (a seat handed over) wait 10 s: every change comes from the script itself.
        spec = {
            "game": "highcard_together",
            "players": PLAYERS,
            "seats": [{"kind": "human"}] * 3,
            "bot_delay": 10,
        }
        made = client.post("/api/tables", json=spec, headers=ORIGIN).json()
        hub = client.app.state.hub
        roomy(hub)  # every refusal answered, so each can be checked
        table = hub.tables[made["table"]]
        tokens = dict(made["tokens"])
        frames: dict[str, list[str]] = {w: [] for w in WHO}
        with contextlib_exit() as stack:
            sockets = {}
            for step, (who, msg) in enumerate(script):
                if who not in sockets:
                    ws = stack.enter(client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN))
                    ws.send_text(json.dumps(hello_for(who, tokens)))
                    first = json.loads(ws.receive_text())
                    if first["type"] == "error":
                        assert first["fatal"]
                        assert who in ("stranger", "forged", "swapped"), first
                        _expect_close(ws)
                        sockets[who] = None
                        continue
                    frames[who].append(json.dumps(first))
                    sockets[who] = ws
                ws = sockets[who]
                if ws is None:
                    continue
                before = snapshot(table, hub)
                text = msg if isinstance(msg, str) else json.dumps(msg)
                marker = f"fuzz-marker-{step}"
                try:
                    ws.send_text(text)
                    ws.send_text(json.dumps({"type": marker}))
                    got = recv_until_marker(ws, marker)
                except WebSocketDisconnect as closed:
                    assert closed.code == 4409, closed.code  # its link was revoked
                    sockets[who] = None
                    continue
                frames[who].extend(got)
                answers = [json.loads(g) for g in got]
                fatal = [a for a in answers if a.get("type") == "error" and a.get("fatal")]
                if fatal:  # only a revoked link ends a bound socket, with a reason and a code
                    assert fatal[0]["code"] == 4409 and "replaced" in fatal[0]["error"]
                    _expect_close(ws)
                    sockets[who] = None
                    continue
                refused = any(a.get("type") == "error" for a in answers)
                if refused:
                    assert snapshot(table, hub) == before, (who, msg, answers)
                    for a in answers:  # a refusal says why, in words
                        if a.get("type") == "error":
                            assert isinstance(a["error"], str) and len(a["error"]) > 10, a
                            assert "could not handle" not in a["error"], a
                for a in answers:
                    if a.get("type") == "link":
                        tokens[f"seat{a['seat']}"] = a["token"]
        hidden = {
            "seat0": table.state.hidden_card_ids(0),
            "seat1": table.state.hidden_card_ids(1),
            "seat2": table.state.hidden_card_ids(2),
        }
        public = table.state.public_hidden_card_ids()
        for who, texts in frames.items():
            ids = hidden.get(who, public)
            for text in texts:
                assert not ids_in_text(text, ids), (who, text[:200])
        close_all()
    assert LeakGuard.redactions == redactions, "the seal never had to redact"


def _expect_close(ws) -> None:
    try:
        ws.receive_text()
    except WebSocketDisconnect:
        return
    raise AssertionError("a refused hello must close the socket")


class contextlib_exit:
    """Enter websocket contexts as they are opened; exit them all at the end."""

    def __enter__(self):
        self.cms = []
        return self

    def enter(self, cm):
        ws = cm.__enter__()
        self.cms.append(cm)
        return ws

    def __exit__(self, *exc):
        for cm in reversed(self.cms):
            try:
                cm.__exit__(None, None, None)
            except Exception:  # noqa: BLE001, S112 - the server may have closed it already
                continue
        return False


# -- chat, mute, undo and rematch ------------------------------------------
SOCIAL_WHO = ["seat0", "seat1", "host", "spectator"]
social_steps = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(SOCIAL_WHO), st.one_of(*social_messages)),
        st.just(("move", None)),
        st.just(("undo-mine", None)),  # the last mover asks to take its move back
    ),
    min_size=1,
    max_size=30,
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=social_steps)
def test_chat_mute_undo_and_rematch_refusals_change_nothing(tmp_path_factory, script):
    """A two-human table played forward by "move" steps (so undo and rematch meet both a
    live and a finished game) while every audience sends chat, mute, undo and rematch
    messages, good and bad: each refusal is an error frame in words and leaves the step,
    the chat, the mutes, the rematch and the set of tables as they were; a rematch link
    reaches its asker only, and never a spectator."""
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        message_rate=10_000,
        limits=Limits(syncs_per_second=1000, frames_per_second=1000),
        allowed_hosts=HOSTS,
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        hub = client.app.state.hub
        roomy(hub)  # every refusal answered, so each can be checked
        spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=spec, headers=ORIGIN).json()
        table = hub.tables[made["table"]]
        frames: dict[str, list[str]] = {w: [] for w in SOCIAL_WHO}
        links: list[tuple[str, str]] = []
        with contextlib_exit() as stack:
            socks = {}
            for who in SOCIAL_WHO:
                ws = stack.enter(client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN))
                ws.send_text(json.dumps(hello_for(who, made["tokens"])))
                frames[who].append(ws.receive_text())
                socks[who] = ws
            last = "seat0"
            for step, (who, msg) in enumerate(script):
                if who == "move":
                    if table.state.is_terminal():
                        continue
                    seat = table.state.current_player()
                    move = table.legal_for(seat)[0]["action"]
                    who, msg = f"seat{seat}", {"type": "act", "action": move, "seq": table.seq}
                    last = who
                elif who == "undo-mine":
                    who, msg = last, {"type": "undo"}
                ws = socks[who]
                before = snapshot(table, hub)
                marker = f"fuzz-marker-{step}"
                ws.send_text(json.dumps(msg))
                ws.send_text(json.dumps({"type": marker}))
                got = recv_until_marker(ws, marker)
                frames[who].extend(got)
                answers = [json.loads(g) for g in got]
                errors = [a for a in answers if a.get("type") == "error"]
                assert not any(a.get("fatal") for a in errors), (who, msg, errors)
                kind = msg.get("type") if isinstance(msg, dict) else "?"
                event(
                    f"{kind} {'refused' if errors else 'accepted'}"
                )  # --hypothesis-show-statistics
                if errors:
                    assert snapshot(table, hub) == before, (who, msg, answers)
                    for a in errors:
                        assert isinstance(a["error"], str) and len(a["error"]) > 10, a
                        assert "could not handle" not in a["error"], a
                for a in answers:
                    if a.get("type") == "rematch_link":
                        assert who != "spectator", a
                        links.append((who, a["token"]))
            for who, ws in socks.items():  # frames still on their way
                ws.send_text(json.dumps({"type": "fuzz-marker-end"}))
                frames[who].extend(recv_until_marker(ws, "fuzz-marker-end"))
        for asker, token in links:
            for who, texts in frames.items():
                if who != asker:
                    assert not any(token in t for t in texts), (asker, who)
        close_all()


# -- Host, query tokens, foreign bot kinds, hand-back sequences -----------------
HOST_VALUES = ["testserver", "testserver:80", "localhost:8000", "attacker.example", "", None]
ORIGIN_VALUES = ["http://testserver", "http://attacker.example", "null", None]
QUERIES = ["", "a=1", "token=x", "seat=0&token=x", "%74oken=x", "Seat_Token=y"]
KINDS = ["greedy", "random", "ismcts", "auctioneer", "points", "builder", "../x", "nonesuch"]
requests = st.tuples(
    st.sampled_from(["/", "/api/games", "/api/tables", "/static/lobby.js", "/t/none", "/ws/"]),
    st.sampled_from(HOST_VALUES),
    st.sampled_from(ORIGIN_VALUES),
    st.sampled_from(QUERIES),
    st.lists(st.sampled_from(KINDS), min_size=1, max_size=2),
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(reqs=st.lists(requests, min_size=1, max_size=8))
def test_foreign_hosts_query_tokens_and_foreign_bots_are_refused(tmp_path_factory, reqs):
    from cardlab.agents.base import kinds_for_game
    from cardlab.web.gate import AllowedHosts, query_has_token

    hosts = AllowedHosts.build(HOSTS)
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    app = create_app(db=db, catalog=toy_catalog(), bot_delay=10, allowed_hosts=HOSTS)
    allowed = kinds_for_game("highcard")
    with TestClient(app, raise_server_exceptions=False) as client:
        hub = client.app.state.hub
        spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=spec, headers=ORIGIN).json()
        for path, host, origin, query, kinds in reqs:
            headers = {k: v for k, v in (("host", host), ("origin", origin)) if v is not None}
            url = path + (f"?{query}" if query else "")
            before = len(hub.tables)
            sent_host = "testserver" if host is None else host  # TestClient's default
            gate = not hosts.allows(sent_host) or query_has_token(query)
            if path == "/ws/":
                _fuzz_socket(client, made, url, headers, gate, origin == f"http://{sent_host}")
                continue
            if path == "/api/tables":
                seats = [{"kind": "human"}] + [{"kind": "bot", "agent": k} for k in kinds]
                body = {"game": "highcard", "players": len(seats), "seats": seats}
                resp = client.post(url, json=body, headers=headers)
            else:
                resp = client.get(url, headers=headers)
            assert resp.status_code < 500, resp.text
            if gate:
                assert resp.status_code == 400, (url, headers, resp.text)
                assert len(hub.tables) == before
                continue
            if path != "/api/tables":
                assert resp.status_code in (200, 404), (url, resp.status_code)
                continue
            same = origin is not None and origin == f"http://{sent_host}"
            foreign = [k for k in kinds if k not in allowed]
            if not same:
                assert resp.status_code == 403 and len(hub.tables) == before
            elif foreign:
                assert resp.status_code == 400 and ", ".join(allowed) in resp.json()["error"]
                assert len(hub.tables) == before
            else:
                assert resp.status_code == 201, resp.text
        close_all()


def _fuzz_socket(client, made, url: str, headers: dict, gate: bool, same: bool) -> None:
    """A handshake with these headers: denied (400) by the gate, else accepted and then
    refused (fatal frame) unless the Origin is this server's."""
    from starlette.testclient import WebSocketDenialResponse

    url = url.replace("/ws/", f"/ws/{made['table']}", 1)
    try:
        with client.websocket_connect(url, headers=headers) as ws:
            assert not gate, (url, headers)
            ws.send_text(json.dumps(hello_for("seat0", made["tokens"])))
            first = json.loads(ws.receive_text())
            if same:
                assert first["type"] == "state", first
            else:
                assert first["type"] == "error" and first["fatal"], first
                assert "may not open table sockets" in first["error"]
    except WebSocketDenialResponse as denied:
        assert gate and denied.status_code == 400, (url, headers)


HAND = st.sampled_from(
    [
        ("seat0", {"type": "hand_to_bot", "seat": 0, "agent": "greedy"}),
        ("seat0", {"type": "reclaim"}),
        ("host", {"type": "hand_to_bot", "seat": 0, "agent": "random"}),
        ("host", {"type": "hand_back", "seat": 0}),
        ("host", {"type": "allow_reclaim", "seat": 0}),
        ("host", {"type": "hand_to_bot", "seat": 1, "agent": "greedy"}),
        ("host", {"type": "hand_back", "seat": 1}),
        ("seat1", {"type": "reclaim"}),
        ("seat0", {"type": "sync"}),
    ]
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=st.lists(HAND, min_size=2, max_size=30))
def test_hand_back_sequences_never_let_a_bot_move_for_a_human(tmp_path_factory, script):
    """Bots move at once (no delay) while seats are handed over and back as fast as the
    sockets can send: every bot move recorded was made while the seat was a bot's."""
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    app = create_app(
        db=db, catalog=toy_catalog(), bot_delay=0, message_rate=10_000, allowed_hosts=HOSTS
    )
    wrong: list[str] = []
    with TestClient(app, raise_server_exceptions=False) as client:
        hub = client.app.state.hub
        roomy(hub)  # every refusal answered, so each can be checked
        append = hub.store.append_action

        def checked(table_id: str, seq: int, seat: int, action: int, by: str) -> None:
            if by == "bot" and not hub.tables[table_id].is_bot(seat):
                wrong.append(f"step {seq}: bot move for human seat {seat}")
            append(table_id, seq, seat, action, by)

        hub.store.append_action = checked
        spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=spec, headers=ORIGIN).json()
        with contextlib_exit() as stack:
            socks = {}
            for who in ("seat0", "seat1", "host"):
                ws = stack.enter(client.websocket_connect(f"/ws/{made['table']}", headers=ORIGIN))
                ws.send_text(json.dumps(hello_for(who, made["tokens"])))
                assert json.loads(ws.receive_text())["type"] == "state"
                socks[who] = ws
            for step, (who, msg) in enumerate(script):
                socks[who].send_text(json.dumps(msg))
                if step % 3 == 2:  # sometimes wait for the answer, sometimes not
                    socks[who].send_text(json.dumps({"type": f"fuzz-marker-{step}"}))
                    recv_until_marker(socks[who], f"fuzz-marker-{step}")
            for ws in socks.values():
                ws.send_text(json.dumps({"type": "fuzz-marker-end"}))
                recv_until_marker(ws, "fuzz-marker-end")
        table = hub.tables[made["table"]]
        for rec in hub.store.load_actions(table.id):
            assert rec.by in ("human", "bot", "timer")
        close_all()
    assert wrong == []


# -- undo, rematch and revoke at live, finished and closed tables ----------------------------
AROUND_WHO = ["seat0", "seat1", "host", "spectator"]
roles = st.one_of(st.sampled_from(["spectator", "host", "seat0", "", "HOST"]), ints)
revoke_messages = [
    st.fixed_dictionaries({"type": st.just("revoke"), "seat": ints}),
    st.fixed_dictionaries({"type": st.just("revoke"), "role": roles}),
    st.just({"type": "revoke", "role": "spectator"}),
    st.just({"type": "revoke", "role": "host"}),
    st.just({"type": "revoke", "seat": 1}),
    st.just({"type": "revoke"}),
    st.fixed_dictionaries({"type": st.just("revoke"), "seat": ints, "role": roles}),
]
around_steps = st.lists(
    st.one_of(
        st.tuples(
            st.sampled_from(AROUND_WHO),
            st.one_of(*revoke_messages, *social_messages[5:], st.just({"type": "sync"})),
        ),
        st.just(("move", None)),
        st.just(("undo-mine", None)),
    ),
    min_size=1,
    max_size=20,
)


def roomy(hub) -> None:
    """Every per-socket budget of the hub's sockets out of the way (a scripted client
    sends faster than any person; every refusal must be answered to be checked)."""
    from cardlab.web.security import RateLimiter

    make = hub.new_connection

    def new_connection(*args, **kwargs):
        conn = make(*args, **kwargs)
        for name, value in list(vars(conn).items()):
            if isinstance(value, RateLimiter):
                setattr(conn, name, RateLimiter(rate=1e6, burst=2e6))
        return conn

    hub.new_connection = new_connection


def links_of(hub, table_id: str) -> tuple:
    return tuple(
        hub.store.token_hash(table_id, role) for role in ("seat0", "seat1", "spectator", "host")
    )


def _bring_to(kind: str, client, hub, made) -> None:
    """Play a two-human table to its end (finished) or let it stand idle (closed)."""
    import time

    table = hub.tables[made["table"]]
    if kind == "finished":
        while not table.state.is_terminal():
            seat = table.state.current_player()
            action = table.legal_for(seat)[0]["action"]
            client.portal.call(table.submit, seat, action, table.seq, "human")
    elif kind == "closed":
        assert client.portal.call(hub.expire, time.time() + 10**6) == [made["table"]]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(kind=st.sampled_from(["live", "finished", "closed"]), script=around_steps)
def test_undo_rematch_and_revoke_at_live_finished_and_closed_tables(tmp_path_factory, kind, script):
    """Every audience sends undo, rematch and revoke (well-formed or not, every role)
    while the last mover takes moves back, at a live table, a finished one and one closed
    after standing idle (rebuilt from the store): a refusal is an error frame in words
    that changes nothing (step, seats, settings, chat, links); a closed table refuses
    each of them as closed and never changes a link; a new link reaches the host alone
    and a rematch link its asker alone; the link a revoke replaced is refused at once."""
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        message_rate=10_000,
        limits=Limits(syncs_per_second=1000, frames_per_second=1000),
        allowed_hosts=HOSTS,
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        hub = client.app.state.hub
        roomy(hub)
        spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=spec, headers=ORIGIN).json()
        _bring_to(kind, client, hub, made)
        tokens = dict(made["tokens"])
        frames: dict[str, list[str]] = {w: [] for w in AROUND_WHO}
        secrets: list[tuple[str, str]] = []  # (who may see it, token)
        with contextlib_exit() as stack:
            socks: dict[str, object] = {}

            def sock_for(who: str):
                if socks.get(who) is None:
                    ws = stack.enter(
                        client.websocket_connect(f"/ws/{made['table']}", headers=ORIGIN)
                    )
                    ws.send_text(json.dumps(hello_for(who, tokens)))
                    first = json.loads(ws.receive_text())
                    assert first["type"] == "state", (who, first)
                    frames[who].append(json.dumps(first))
                    socks[who] = ws
                return socks[who]

            for who in AROUND_WHO:
                sock_for(who)
            table = hub.tables[made["table"]]
            assert (table.closed_reason() is None) == (kind == "live")
            last = "seat0"
            for step, (who, msg) in enumerate(script):
                if who == "move":
                    if table.closed_reason() is not None:
                        continue
                    seat = table.state.current_player()
                    move = table.legal_for(seat)[0]["action"]
                    who, msg = f"seat{seat}", {"type": "act", "action": move, "seq": table.seq}
                    last = who
                elif who == "undo-mine":
                    who, msg = last, {"type": "undo"}
                ws = sock_for(who)
                before = (*snapshot(table, hub), links_of(hub, table.id))
                marker = f"fuzz-marker-{step}"
                ws.send_text(json.dumps(msg))
                ws.send_text(json.dumps({"type": marker}))
                got = recv_until_marker(ws, marker)
                frames[who].extend(got)
                answers = [json.loads(g) for g in got]
                errors = [a for a in answers if a.get("type") == "error"]
                event(f"{kind} {msg['type']} {'refused' if errors else 'accepted'}")
                assert not any(a.get("fatal") for a in errors), (who, msg, errors)
                if errors:
                    assert (*snapshot(table, hub), links_of(hub, table.id)) == before, (who, msg)
                    for a in errors:
                        assert isinstance(a["error"], str) and len(a["error"]) > 10, a
                        assert "could not handle" not in a["error"], a
                if kind == "closed" and msg["type"] in ("undo", "rematch", "revoke", "chat"):
                    assert errors and "this table is closed" in errors[0]["error"], (msg, errors)
                if kind == "finished" and msg["type"] == "undo":
                    assert errors and "this table is closed" in errors[0]["error"], (msg, errors)
                if kind != "live":
                    assert table.closed_reason() is not None
                for a in answers:
                    if a.get("type") == "rematch_link":
                        assert who != "spectator", a
                        secrets.append((who, a["token"]))
                    if a.get("type") == "link":
                        assert who == "host", a
                        secrets.append(("host", a["token"]))
                        role = f"seat{a['seat']}" if "seat" in a else a["role"]
                        old, tokens[role] = tokens[role], a["token"]
                        # the replaced link is refused at once
                        probe = hello_for(role, {role: old})
                        with client.websocket_connect(f"/ws/{made['table']}", headers=ORIGIN) as p:
                            p.send_text(json.dumps(probe))
                            refused = json.loads(p.receive_text())
                            assert refused["type"] == "error" and refused["fatal"], refused
                            assert "replaced" in refused["error"], refused
                        if role != who and socks.get(role) is not None:
                            # its socket was told why, then closed
                            frames[role].extend(recv_until_fatal(socks[role]))
                            socks[role] = None
            for who, ws in socks.items():  # frames still on their way
                if ws is None:
                    continue
                ws.send_text(json.dumps({"type": "fuzz-marker-end"}))
                frames[who].extend(recv_until_marker(ws, "fuzz-marker-end"))
        for owner, token in secrets:
            for who, texts in frames.items():
                if who != owner:
                    assert not any(token in t for t in texts), (owner, who)
        close_all()


def recv_until_fatal(ws) -> list[str]:
    """Every frame up to and including the fatal one a revoked socket is told with."""
    got = []
    for _ in range(200):
        text = ws.receive_text()
        got.append(text)
        frame = json.loads(text)
        if frame.get("type") == "error" and frame.get("fatal"):
            assert frame["code"] == 4409 and "replaced" in frame["error"], frame
            return got
    raise AssertionError("a revoked socket was never told")
