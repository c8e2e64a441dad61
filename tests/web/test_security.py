"""Each bad input of SECURITY.md is refused with a clear error and changes nothing."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect
from web_support import ORIGIN, SeatSocket, create, seat_socket

from cardlab.web.views import ids_in_text


def table_seq(client, made) -> int:
    return client.app.state.hub.tables[made["table"]].seq


def fatal(sock: SeatSocket) -> str:
    msg = sock.recv()
    assert msg["type"] == "error" and msg.get("fatal")
    with pytest.raises(WebSocketDisconnect):
        sock.recv()
    return msg["error"]


def test_seat_sees_own_hand_only(client):
    made = create(client)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    va, vb = a.state(), b.state()
    hub = client.app.state.hub
    state = hub.tables[made["table"]].state
    assert {c["id"] for c in va["obs"]["hand"]} == set(state.zones()["private:0:hand"])
    assert {c["id"] for c in vb["obs"]["hand"]} == set(state.zones()["private:1:hand"])
    assert va["legal"] and not vb["legal"], "only the seat to move gets moves"
    assert "seed" not in json.dumps(va).lower()


def test_wrong_token_is_refused(client):
    made = create(client)
    sock = SeatSocket(client, made["table"], {"seat": 0, "token": "guess"})
    assert "not valid" in fatal(sock)


def test_another_seats_token_does_not_open_this_seat(client):
    made = create(client)
    sock = SeatSocket(client, made["table"], {"seat": 1, "token": made["tokens"]["seat0"]})
    assert "not valid" in fatal(sock)


def test_claiming_another_seat_after_hello_is_refused(client):
    made = create(client)
    a = seat_socket(client, made, 0)
    view = a.state()
    legal = view["legal"][0]["action"]
    a.send({"type": "act", "seat": 1, "action": legal, "seq": 0})
    assert "cannot speak for seat 1" in a.error()["error"]
    a.send({"type": "hello", "seat": 1, "token": made["tokens"]["seat0"]})
    assert "cannot speak for seat 1" in a.error()["error"]
    a.send({"type": "hello", "token": made["tokens"]["seat1"]})
    assert "already bound" in a.error()["error"]
    assert table_seq(client, made) == 0


def test_illegal_stale_and_out_of_turn_actions_change_nothing(client):
    made = create(client)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    view = a.state()
    b.state()
    hand = {c["value"] for c in view["obs"]["hand"]}
    illegal = next(v for v in range(16) if v not in hand)
    for bad, reason in [
        ({"type": "act", "action": illegal, "seq": 0}, "not one of your legal moves"),
        ({"type": "act", "action": "1", "seq": 0}, "whole number"),
        ({"type": "act", "action": min(hand), "seq": 5}, "stale move"),
        ({"type": "act", "action": min(hand)}, '"seq"'),
    ]:
        a.send(bad)
        assert reason in a.error()["error"]
    b.send({"type": "act", "action": 0, "seq": 0})
    assert "not your decision" in b.error()["error"]
    assert table_seq(client, made) == 0
    a.send({"type": "act", "action": min(hand), "seq": 0})
    assert a.state(seq=1)["seq"] == 1
    a.send({"type": "act", "action": min(hand), "seq": 0})  # the same click again
    again = a.error()["error"]
    assert "stale move" in again
    assert table_seq(client, made) == 1, "a repeated message is never applied twice"


def test_garbage_huge_and_binary_frames_get_clear_errors(client):
    made = create(client)
    a = seat_socket(client, made, 0)
    a.state()
    for raw, reason in [
        ("{not json", "not valid JSON"),
        ("[1,2]", '"type"'),
        (json.dumps({"type": "warp"}), "unknown message type"),
        (json.dumps({"type": "act", "pad": "x" * 10000}), "message too large"),
    ]:
        a.send(raw)
        assert reason in a.error()["error"]
    a.ws.send_bytes(b"\x00\x01")
    assert "binary frames" in a.error()["error"]
    assert table_seq(client, made) == 0
    a.send({"type": "sync"})
    assert a.state()["seq"] == 0, "the socket still works after bad frames"


def test_flooding_socket_is_limited_while_others_are_served(client):
    made = create(client)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    a.state()
    b.state()
    for _ in range(100):
        a.send({"type": "ping"})
    assert "too many messages" in a.error()["error"]
    b.send({"type": "sync"})
    assert b.state()["seq"] == 0


def test_unknown_table_creates_nothing(client):
    before = client.app.state.store.count_tables()
    sock = SeatSocket(client, "no-such-table", {"seat": 0, "token": "x"})
    assert "no such table" in fatal(sock)
    assert client.app.state.store.count_tables() == before
    assert "no-such-table" not in client.app.state.hub.tables


@pytest.mark.parametrize("headers", [{"origin": "https://evil.example"}, {}])
def test_foreign_or_missing_origin_is_refused(client, headers):
    made = create(client)
    sock = SeatSocket(
        client, made["table"], {"seat": 0, "token": made["tokens"]["seat0"]}, headers=headers
    )
    assert "origin" in fatal(sock)


def test_spectator_needs_the_invitation_and_sees_public_view_only(client):
    made = create(client)
    bad = SeatSocket(client, made["table"], {"role": "spectator", "token": made["tokens"]["seat0"]})
    assert "not valid" in fatal(bad)
    spec = SeatSocket(
        client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    view = spec.state()
    assert "hand" not in view["obs"] and view["you"] is None and view["legal"] == []
    spec.send({"type": "act", "action": 0, "seq": 0})
    assert "spectators" in spec.error()["error"]


def test_spectator_gets_the_engines_public_view_and_no_secret_pick(client):
    """The spectator's obs is the engine's public_observation(), unfiltered by the
    server; after seat 0 lays a card face down its frame names no hand or pick."""
    made = create(client)
    a = seat_socket(client, made, 0)
    spec = SeatSocket(
        client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    view = a.state()
    spec.state()
    spec.frames.clear()
    pick = view["legal"][0]["action"]
    a.send({"type": "act", "action": pick, "seq": 0})
    seen = spec.state(1)
    state = client.app.state.hub.tables[made["table"]].state
    assert seen["obs"] == state.public_observation()
    assert seen["obs"]["seat"] is None and seen["obs"]["picked"] == [True, False]
    zones = state.zones()
    assert zones["private:0:pick"] == [f"tc{pick:02d}"] and zones["private:1:hand"]
    private = {cid for key, ids in zones.items() if key.startswith("private:") for cid in ids}
    assert private | set(zones["hidden:deck"]) == state.public_hidden_card_ids()
    assert spec.frames
    for text in spec.frames:
        assert ids_in_text(text, private | set(zones["hidden:deck"])) == set()
    # the same search finds seat 0's pick in seat 0's own frame
    assert ids_in_text(json.dumps(a.state(1)), set(zones["private:0:pick"]))


def test_tokens_never_reach_the_logs(client, caplog):
    caplog.set_level("DEBUG")
    made = create(client)
    a = seat_socket(client, made, 0)
    a.state()
    SeatSocket(client, made["table"], {"seat": 1, "token": "wrong"}).recv()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert all(t not in text for t in made["tokens"].values())


def test_origin_header_is_enough_for_same_host(client):
    made = create(client)
    sock = SeatSocket(
        client, made["table"], {"seat": 0, "token": made["tokens"]["seat0"]}, headers=ORIGIN
    )
    assert sock.state()["you"] == 0
