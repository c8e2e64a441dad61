"""Table features players expect: chat, the host's mute,
rematch and undo, over real sockets on the toy game."""

from __future__ import annotations

import json
import random

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.social import CHAT_LIMIT
from cardlab.web.undo import sight, why_not_undoable


def host_socket(client, made):
    return SeatSocket(client, made["table"], {"role": "host", "token": made["tokens"]["host"]})


def spectator_socket(client, made):
    token = made["tokens"]["spectator"]
    return SeatSocket(client, made["table"], {"role": "spectator", "token": token})


def chat_frame(sock):
    return sock.recv_until(lambda m: m["type"] in ("chat", "error"))


# -- chat -------------------------------------------------------------------------------
def test_chat_reaches_every_socket_cleaned_and_as_text(client):
    made = create(client, players=2, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}])
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    watch = spectator_socket(client, made)
    for s in (a, b, watch):
        s.state()
    a.send({"type": "chat", "text": "  <b>hi</b>\u202e\u200b\n\nthere  "})
    for s in (a, b, watch):
        line = chat_frame(s)["messages"][0]
        # control and bidi/format characters gone, whitespace runs one space; the
        # text is carried as text (the client never inserts it as HTML)
        assert line["text"] == "<b>hi</b> there"
        assert line["who"] == "Ada" and line["seat"] == 0
    # a newcomer gets the stored history


def test_chat_limits_spectators_and_empty(client):
    made = create(client, players=2)
    a = seat_socket(client, made, 0)
    watch = spectator_socket(client, made)
    a.state()
    watch.state()
    a.send({"type": "chat", "text": "x" * (CHAT_LIMIT + 1)})
    assert f"at most {CHAT_LIMIT} characters" in a.error()["error"]
    a.send({"type": "chat", "text": " \u200b "})
    assert "empty" in a.error()["error"]
    a.send({"type": "chat", "text": 5})
    assert '"text" must be a string' in a.error()["error"]
    watch.send({"type": "chat", "text": "hello"})
    assert "spectators read the chat" in watch.error()["error"]


def test_chat_is_rate_limited(client):
    made = create(client, players=2)
    a = seat_socket(client, made, 0)
    a.state()
    for k in range(6):
        a.send({"type": "chat", "text": f"m{k}"})
    got = [chat_frame(a) for _ in range(6)]
    assert [g["messages"][0]["text"] for g in got[:5]] == [f"m{k}" for k in range(5)]
    assert "too many chat messages" in got[5]["error"]


def test_host_mutes_and_unmutes_a_seat(client):
    made = create(client, players=2)
    host, b = host_socket(client, made), seat_socket(client, made, 1)
    host.state()
    b.state()
    b.send({"type": "mute", "seat": 1})
    assert "only the host can mute" in b.error()["error"]
    host.send({"type": "mute", "seat": 1, "muted": True})
    assert b.recv_until(lambda m: m["type"] == "state")["table"]["muted"] == [1]
    b.send({"type": "chat", "text": "let me speak"})
    assert "muted your seat" in b.error()["error"]
    host.send({"type": "chat", "text": "behave"})
    assert chat_frame(b)["messages"][0]["who"] == "Host"
    host.send({"type": "mute", "seat": 1, "muted": False})
    b.recv_until(lambda m: m["type"] == "state" and m["table"]["muted"] == [])
    b.send({"type": "chat", "text": "thanks"})
    assert chat_frame(b)["messages"][0]["text"] == "thanks"


def test_chat_goes_through_the_seal(client):
    """A hidden card id typed into the chat is redacted for every seat it is hidden from
    (a player revealing their own hand by chat is out of scope; the seal still runs)."""
    made = create(client, players=2)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    view = a.state()
    b.state()
    mine = view["obs"]["hand"][0]["id"]
    a.send({"type": "chat", "text": f"I hold {mine}"})
    assert chat_frame(a)["messages"][0]["text"] == f"I hold {mine}"
    assert chat_frame(b)["messages"][0]["text"] == "I hold (hidden)"


# -- undo -------------------------------------------------------------------------------
def act(sock, view, k=0):
    move = view["legal"][k]
    sock.send({"type": "act", "action": move["action"], "seq": view["seq"]})


def test_undo_allowed_until_another_seat_acts_and_never_after_a_reveal(client):
    made = create(client, players=2)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    view = a.state()
    b.state()
    assert view["current_player"] == 0 and view["can_undo"] is False
    act(a, view)
    after = a.state(1)
    # a card laid face down told nobody anything: undo is offered (U: table rule)
    assert after["can_undo"] is True
    a.send({"type": "undo"})
    back = a.recv_until(lambda m: m["type"] == "state" and m["seq"] == 0)
    assert back["obs"]["hand"] == view["obs"]["hand"] and back["legal"] == view["legal"]
    b.send({"type": "undo"})
    assert "cannot undo" in b.error()["error"]
    act(a, back)
    vb = b.state(1)
    a.state(1)
    act(b, vb)  # seat 1 lays the second card: the round is shown to all
    vb2 = b.state(2)
    assert vb2["can_undo"] is False
    b.send({"type": "undo"})
    assert "changed what seat" in b.error()["error"]
    a.send({"type": "undo"})
    assert "cannot undo" in a.error()["error"]


def test_undo_survives_a_restart(db):
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c1:
        made = create(c1, players=2)
        a = seat_socket(c1, made, 0)
        view = a.state()
        act(a, view, 1)
        a.state(1)
        a.send({"type": "undo"})
        a.recv_until(lambda m: m["type"] == "state" and m["seq"] == 0)
        act(a, view, 0)  # a different move in its place
        done = a.state(1)
        close_all()
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c2:
        a = seat_socket(c2, made, 0)
        again = a.state()
        assert again["seq"] == 1
        assert json.dumps(again["obs"], sort_keys=True) == json.dumps(done["obs"], sort_keys=True)
        assert again["can_undo"] is True  # the restart judged the last move again
        a.send({"type": "undo"})
        assert a.recv_until(lambda m: m["type"] == "state" and m["seq"] == 0)["seq"] == 0
        close_all()


def test_undo_refused_once_a_bot_has_acted(client):
    made = create(client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "agent": "greedy"}])
    a = seat_socket(client, made, 0)
    view = a.state()
    act(a, view)
    a.recv_until(lambda m: m["type"] == "state" and m["seq"] >= 2)  # the bot answered
    a.send({"type": "undo"})
    assert "cannot undo" in a.error()["error"]


def test_a_move_that_draws_from_a_deck_is_never_undoable():
    """Every UPTIME move (random play) that takes a card out of a hidden zone is judged
    a draw; a move that changes no audience's hidden set is undoable."""
    pytest.importorskip("cardlab.games.uptime")
    from cardlab.games import game_class

    game = game_class("uptime")(2)
    rng = random.Random(5)
    draws = quiet = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and draws + quiet < 400:
            before = sight(state, 2)
            state.apply_action(rng.choice(state.legal_actions()))
            after = sight(state, 2)
            reason = why_not_undoable(before, after)
            if before.in_hidden_zones - after.in_hidden_zones:
                draws += 1
                assert reason is not None and "drew a card" in reason
            elif before == after:
                quiet += 1
                assert reason is None
    assert draws and quiet


# -- rematch ----------------------------------------------------------------------------
def play_out(socks, views):
    while True:
        cur = next(iter(views.values()))
        if cur["terminal"]:
            return cur
        seat = cur["current_player"]
        act(socks[seat], views[seat])
        views = {s: socks[s].state(cur["seq"] + 1) for s in socks}


def test_rematch_same_seats_new_seed_links_to_each_asker_only(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    made = create(client, players=2, seats=seats)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    views = {0: a.state(), 1: b.state()}
    a.send({"type": "rematch"})
    assert "once the game is over" in a.error()["error"]
    final = play_out({0: a, 1: b}, views)
    a.send({"type": "rematch"})
    link = a.recv_until(lambda m: m["type"] == "rematch_link")
    assert link["seat"] == 0 and link["table"] != made["table"]
    offered = b.recv_until(lambda m: m["type"] in ("rematch_offered", "rematch_link"))
    assert offered == {"type": "rematch_offered", "by": "Ada"}  # no link for another seat
    assert link["token"] not in "".join(b.frames)
    b.send({"type": "rematch"})
    link_b = b.recv_until(lambda m: m["type"] == "rematch_link")
    assert link_b["table"] == link["table"] and link_b["seat"] == 1
    new_a = SeatSocket(client, link["table"], {"seat": 0, "token": link["token"]})
    fresh = new_a.state()
    assert fresh["seq"] == 0 and not fresh["terminal"]
    assert [s["name"] for s in fresh["table"]["seats"]] == ["Ada", "Bo"]
    assert fresh["table"]["players"] == final["table"]["players"]
    assert fresh["table"]["options"] == final["table"]["options"]
    assert "seed" not in fresh["table"]  # a new secret seed, never shown while live
    new_b = SeatSocket(client, link["table"], {"seat": 1, "token": link_b["token"]})
    new_b.state()
    # the old seat link does not open the new table
    old = SeatSocket(client, link["table"], {"seat": 1, "token": made["tokens"]["seat1"]})
    assert old.recv()["fatal"]


def test_rematch_counts_against_the_makers_limits(db):
    from cardlab.web.limits import Limits

    app = create_app(
        db=db,
        catalog=toy_catalog(),
        bot_delay=0,
        allowed_hosts=HOSTS,
        limits=Limits(tables_per_client=1),
    )
    with TestClient(app) as c:
        made = create(c, players=2)
        a, b = seat_socket(c, made, 0), seat_socket(c, made, 1)
        play_out({0: a, 1: b}, {0: a.state(), 1: b.state()})
        a.send({"type": "rematch"})
        link = a.recv_until(lambda m: m["type"] == "rematch_link")
        # the maker now has one unfinished table (the rematch): a new one is refused
        resp = c.post(
            "/api/tables",
            json={"game": "highcard", "players": 2},
            headers={"origin": "http://testserver"},
        )
        assert resp.status_code == 429
        assert link["table"]
        close_all()
