"""Whole games over sockets: bots, durability, restart, hand-over, timer, replay."""

from __future__ import annotations

import json
import sqlite3

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.games import list_games
from cardlab.web.app import create_app


def play_to_end(
    socks: dict[int, SeatSocket], views: dict[int, dict], stop_at: int | None = None
) -> dict:
    """Each seat clicks its first legal move when asked, until the end (or step `stop_at`)."""
    while True:
        view = max(views.values(), key=lambda v: v["seq"])
        if view["terminal"] or (stop_at is not None and view["seq"] >= stop_at):
            return view
        seat = view["current_player"]
        mine = views[seat] if views[seat]["seq"] == view["seq"] else socks[seat].state(view["seq"])
        socks[seat].send({"type": "act", "action": mine["legal"][0]["action"], "seq": mine["seq"]})
        for s, sock in socks.items():
            views[s] = sock.state(view["seq"] + 1)


def test_human_and_bots_finish_and_every_action_is_committed_before_broadcast(client, db):
    made = create(
        client,
        players=3,
        seats=[
            {"kind": "human"},
            {"kind": "bot", "agent": "greedy"},
            {"kind": "bot", "agent": "random"},
        ],
    )
    me = seat_socket(client, made, 0)
    view = me.state()
    while not view["terminal"]:
        if view["legal"]:
            me.send({"type": "act", "action": view["legal"][-1]["action"], "seq": view["seq"]})
        view = me.state(view["seq"] + 1)
        with sqlite3.connect(db) as conn:  # a second reader sees the step already committed
            stored = conn.execute(
                "SELECT COUNT(*) FROM actions WHERE table_id=?", (made["table"],)
            ).fetchone()[0]
        assert stored >= view["seq"]
    assert view["final"]["winners"] and len(view["final"]["returns"]) == 3
    assert view["final"]["info"]["end_reason"] == "all rounds played"


def test_restart_restores_tables_exactly_and_applies_nothing_twice(db):
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c1:
        made = create(c1, players=2)
        socks = {s: seat_socket(c1, made, s) for s in (0, 1)}
        views = {s: socks[s].state() for s in (0, 1)}
        mid = play_to_end(socks, views, stop_at=3)
        before = {s: json.dumps(views[s]["obs"], sort_keys=True) for s in (0, 1)}
        close_all()
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c2:
        socks = {s: seat_socket(c2, made, s) for s in (0, 1)}
        views = {s: socks[s].state() for s in (0, 1)}
        assert views[0]["seq"] == mid["seq"] == 3
        assert {s: json.dumps(views[s]["obs"], sort_keys=True) for s in (0, 1)} == before
        seat = views[0]["current_player"]
        # the click that was in flight when the server died arrives again: refused as stale
        socks[seat].send({"type": "act", "action": views[seat]["legal"][0]["action"], "seq": 2})
        assert "stale move" in socks[seat].error()["error"]
        final = play_to_end(socks, views)
        assert final["terminal"]
        close_all()
    with sqlite3.connect(db) as conn:
        seqs = [
            r[0]
            for r in conn.execute(
                "SELECT seq FROM actions WHERE table_id=? ORDER BY seq", (made["table"],)
            )
        ]
    assert seqs == list(range(final["seq"]))


def test_host_hands_a_leaving_seat_to_a_bot_and_the_bot_finishes_it(client):
    made = create(client, players=2, seats=[{"kind": "bot", "agent": "random"}, {"kind": "human"}])
    host = SeatSocket(client, made["table"], {"role": "host", "token": made["tokens"]["host"]})
    host.state()
    host.send({"type": "hand_to_bot", "seat": 1, "agent": "greedy"})
    final = host.recv_until(lambda m: m["type"] == "state" and m["terminal"])
    assert final["table"]["seats"][1]["kind"] == "bot"


def test_a_seat_that_handed_itself_to_a_bot_can_reclaim_it(client):
    made = create(client, players=2, bot_delay=10)
    seat = seat_socket(client, made, 0)
    seat.state()
    seat.send({"type": "hand_to_bot", "seat": 0, "agent": "greedy"})
    handed = seat.recv_until(
        lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "bot"
    )
    assert handed["legal"] == [], "a bot seat is never offered moves"
    seat.send({"type": "reclaim"})
    back = seat.recv_until(
        lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human"
    )
    assert back["legal"]


def test_only_host_or_the_seat_itself_can_hand_over(client):
    made = create(client, players=2)
    a = seat_socket(client, made, 0)
    a.state()
    a.send({"type": "hand_to_bot", "seat": 1})
    assert "only the host" in a.error()["error"]


def test_turn_timer_moves_for_a_sleeping_seat(client):
    made = create(client, players=2, turn_seconds=0.2)
    a = seat_socket(client, made, 0)
    first = a.state()
    assert first["table"]["turn_seconds"] == 0.2
    later = a.state(first["seq"] + 2)
    assert later["seq"] >= 2, "the clock played for both seats"


def test_replay_opens_after_the_game_and_shows_each_step_as_the_seat_saw_it(client):
    made = create(client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    a = seat_socket(client, made, 0)
    view = a.state()
    a.send({"type": "replay", "step": 0})
    assert "when the game is over" in a.error()["error"]
    while not view["terminal"]:
        if view["legal"]:
            a.send({"type": "act", "action": view["legal"][0]["action"], "seq": view["seq"]})
        view = a.state(view["seq"] + 1)
    steps = []
    for k in range(view["seq"] + 1):
        a.send({"type": "replay", "step": k})
        steps.append(a.recv_until(lambda m: m["type"] == "replay"))
    assert [s["step"] for s in steps] == list(range(view["seq"] + 1))
    assert len(steps[0]["obs"]["hand"]) == 3 and steps[-1]["obs"]["hand"] == []
    assert steps[-1]["obs"] == view["obs"]


@pytest.mark.parametrize("game", ["highcard", *list_games()])
def test_no_frame_ever_carries_a_card_hidden_from_its_seat(fast_client, game):
    """Every frame every seat receives over a whole game, checked against the
    true state's hidden ids at that moment (all seats human, so the state only
    moves when the test clicks)."""
    from cardlab.web.views import LeakGuard, ids_in_text

    client = fast_client

    hub = client.app.state.hub
    cls = hub.catalog.game_class(game)
    players = max(cls.min_players, min(cls.max_players, 3))
    made = create(client, game=game, players=players)
    table = hub.tables[made["table"]]
    socks = {s: seat_socket(client, made, s) for s in range(players)}
    spectator = SeatSocket(
        client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    redactions = LeakGuard.redactions
    views = {s: socks[s].state() for s in socks}
    spectator.state()
    frames = 0
    while True:
        hidden = {s: table.state.hidden_card_ids(s) for s in socks}
        # a spectator may know no more than any seat, and nothing the engine calls hidden
        public_hidden = set().union(*hidden.values()) | table.state.public_hidden_card_ids()
        for s, sock in socks.items():
            for text in sock.frames:
                assert not ids_in_text(text, hidden[s]), (
                    f"seat {s} saw {ids_in_text(text, hidden[s])}"
                )
            frames += len(sock.frames)
            sock.frames.clear()
        for text in spectator.frames:
            assert not ids_in_text(text, public_hidden), (
                f"spectator saw {ids_in_text(text, public_hidden)}"
            )
        frames += len(spectator.frames)
        spectator.frames.clear()
        if views[0]["terminal"]:
            break
        seat = views[0]["current_player"]
        move = views[seat]["legal"][len(views[seat]["legal"]) // 2]["action"]
        socks[seat].send({"type": "act", "action": move, "seq": views[seat]["seq"]})
        seq = views[seat]["seq"] + 1
        views = {s: socks[s].state(seq) for s in socks}
        watched = spectator.state(seq)
        # the engine's public view, sent as it is: nothing filtered on the way
        assert watched["obs"] == json.loads(json.dumps(table.state.public_observation()))
    assert frames > 10
    assert LeakGuard.redactions == redactions, (
        "the engine's own views were clean; the guard never fired"
    )
