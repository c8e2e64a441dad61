"""Simultaneous decisions at the browser table and think times:
every seat picks at once, early picks stay secret until the
engine reaches them, the reveal waits for the last pick, a restart loses none."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, SeatSocket, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.store import decision_times
from cardlab.web.views import ids_in_text


def together(client, players=3, **spec):
    made = create(client, game="highcard_together", players=players, **spec)
    socks = {s: seat_socket(client, made, s) for s in range(players)}
    views = {s: socks[s].state() for s in range(players)}
    return made, socks, views


def chosen_frame(sock):
    return sock.recv_until(lambda m: m["type"] == "state" and m.get("chosen"))


def table_of(client, made):
    return client.app.state.hub.tables[made["table"]]


def test_every_seat_with_a_hand_may_pick_now(client):
    made, socks, views = together(client)
    for s in range(3):
        assert views[s]["legal"], f"seat {s} is offered its pick at once"
        assert {m["action"] for m in views[s]["legal"]} == {
            c["value"] for c in views[s]["obs"]["hand"]
        }
        assert views[s]["chosen"] is None
    assert views[0]["current_player"] == 0


def test_an_early_pick_is_held_secretly_and_applied_in_seat_order(client):
    made, socks, views = together(client)
    spectator = SeatSocket(
        client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    spectator.state()
    table = table_of(client, made)
    hub = client.app.state.hub
    pushed = {id(c): c.state_frames for c in hub.sockets[made["table"]] if c.seat != 2}
    pick2 = views[2]["legal"][0]["action"]
    socks[2].send({"type": "act", "action": pick2, "seq": 0})
    mine = chosen_frame(socks[2])
    assert mine["seq"] == 0 and mine["legal"] == []
    after = {id(c): c.state_frames for c in hub.sockets[made["table"]] if c.seat != 2}
    assert after == pushed, "the early pick sent the other seats and the spectator nothing"
    assert mine["chosen"] == {"action": pick2, "label": f"lay Card {pick2} face down"}
    assert table.seq == 0 and table.held == {2: pick2}
    # nobody else hears of it: no frame at all goes to the others
    for s in (0, 1):
        socks[s].send({"type": "sync"})
        seen = socks[s].state()
        assert seen["chosen"] is None and seen["obs"]["picked"] == [False, False, False]
        assert f"tc{pick2:02d}" not in json.dumps(seen)
    spectator.send({"type": "sync"})
    assert spectator.state()["obs"]["picked"] == [False, False, False]
    # a second pick from the same seat is refused, the held one stands
    socks[2].send({"type": "act", "action": views[2]["legal"][1]["action"], "seq": 0})
    assert "already chosen" in socks[2].error()["error"]
    # seat 1 picks (early too), then seat 0: the engine takes all three in order
    socks[1].send({"type": "act", "action": views[1]["legal"][0]["action"], "seq": 0})
    chosen_frame(socks[1])
    socks[0].send({"type": "act", "action": views[0]["legal"][0]["action"], "seq": 0})
    after = socks[0].state(3)
    assert after["seq"] == 3 and table.held == {}
    reveal = next(e for e in reversed(after["obs"]["log"]) if e["kind"] == "reveal")
    assert len(reveal["cards"]) == 3 and f"tc{pick2:02d}" in json.dumps(reveal)
    by = [r.by for r in table.store.load_actions(table.id)]
    assert by == ["human", "human", "human"]


def test_the_reveal_waits_for_the_last_pick(client):
    made, socks, views = together(client)
    table = table_of(client, made)
    socks[0].send({"type": "act", "action": views[0]["legal"][0]["action"], "seq": 0})
    socks[0].state(1)
    socks[2].send({"type": "act", "action": views[2]["legal"][0]["action"], "seq": 0})
    socks[2].state()
    assert (
        table.seq == 1
        and table.state.current_player() == 1
        and table.held == {2: views[2]["legal"][0]["action"]}
    )
    assert table.state.round == 0, "no reveal before seat 1 picks"
    # seat 1 picks on its first view (seq 0): still current, since the decision began at 0
    socks[1].send({"type": "act", "action": views[1]["legal"][0]["action"], "seq": 0})
    final = socks[1].state(3)
    assert final["obs"]["round"] == 2


def test_moves_outside_the_pick_are_refused_and_change_nothing(client):
    made, socks, views = together(client)
    table = table_of(client, made)
    hand = {m["action"] for m in views[1]["legal"]}
    illegal = next(v for v in range(16) if v not in hand)
    socks[1].send({"type": "act", "action": illegal, "seq": 0})
    assert "not one of your legal moves" in socks[1].error()["error"]
    socks[1].send({"type": "act", "action": min(hand), "seq": 5})
    assert "stale move" in socks[1].error()["error"]
    assert table.seq == 0 and table.held == {}


def test_a_held_pick_survives_a_restart(db):
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c1:
        made, socks, views = together(c1)
        pick = views[2]["legal"][0]["action"]
        socks[2].send({"type": "act", "action": pick, "seq": 0})
        chosen_frame(socks[2])
        close_all()
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS)
    ) as c2:
        table = table_of(c2, made)
        assert table.held == {2: pick}
        s2 = seat_socket(c2, made, 2)
        assert chosen_frame(s2)["chosen"]["action"] == pick
        s0, s1 = seat_socket(c2, made, 0), seat_socket(c2, made, 1)
        for sock in (s0, s1):
            view = sock.state()
            sock.send({"type": "act", "action": view["legal"][0]["action"], "seq": 0})
        s0.state(3)
        assert table.state.history()[2] == pick
        close_all()


def test_bots_keep_their_seat_order_and_humans_pick_around_them(client):
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "human"}, {"kind": "human"}]
    made = create(client, game="highcard_together", players=3, seats=seats, bot_delay=0.3)
    s2 = seat_socket(client, made, 2)
    view = s2.state()
    assert view["legal"], "seat 2 picks while seat 0's bot thinks"
    s2.send({"type": "act", "action": view["legal"][0]["action"], "seq": view["seq"]})
    chosen_frame(s2)
    s1 = seat_socket(client, made, 1)
    v1 = s1.state()
    s1.send({"type": "act", "action": v1["legal"][0]["action"], "seq": v1["seq"]})
    done = s1.state(3)
    assert done["obs"]["round"] == 2


def test_think_times_are_recorded_for_calibration(client, db):
    made, socks, views = together(client, players=2)
    socks[1].send({"type": "act", "action": views[1]["legal"][0]["action"], "seq": 0})
    chosen_frame(socks[1])
    socks[0].send({"type": "act", "action": views[0]["legal"][0]["action"], "seq": 0})
    socks[0].state(2)
    rows = decision_times(db)
    assert len(rows) == 2
    for row in rows:
        assert row["game"] == "highcard_together" and row["players"] == 2
        assert row["kind"] == "pick" and row["options"] == 3
        assert 0 <= row["seconds"] < 30
    assert decision_times(db.parent / "missing.db") == []


@pytest.mark.parametrize("players", [3, 4])
def test_supercomputer_picks_are_simultaneous_and_secret(fast_client, players):
    """Real engine: every human seat may pick at once; other seats' frames never
    carry a held pick's card, and the pick phase ends only with the last pick."""
    made = create(fast_client, game="supercomputer", players=players)
    socks = {s: seat_socket(fast_client, made, s) for s in range(players)}
    views = {s: socks[s].state() for s in range(players)}
    table = table_of(fast_client, made)
    kind = table.state.decision_kind()
    assert kind in ("pick", "choose_build")
    for s in range(players):
        assert views[s]["legal"], (s, kind)
    last = players - 1
    choice = views[last]["legal"][0]
    socks[last].send({"type": "act", "action": choice["action"], "seq": views[last]["seq"]})
    held = chosen_frame(socks[last])
    assert held["chosen"]["action"] == choice["action"] and held["legal"] == []
    for s in range(players - 1):
        socks[s].send(
            {"type": "act", "action": views[s]["legal"][0]["action"], "seq": views[s]["seq"]}
        )
    view0 = socks[0].state(players)
    assert view0["seq"] >= players and table.state.history()[players - 1] == choice["action"]
    # over the picks that follow, no frame of another seat named a held card early
    for s in range(players - 1):
        hidden = table.state.hidden_card_ids(s)
        for text in socks[s].frames:
            assert not ids_in_text(text, hidden)
