"""The table as players meet it: who has made a secret choice is
public, what they chose is not; a turn timer that runs out plays the quick bot's move."""

from __future__ import annotations

import json
import time

from web_support import SeatSocket, create, seat_socket

import cardlab.web.table_clock as table_clock
from cardlab.web.views import ids_in_text


def table_of(client, made):
    return client.app.state.hub.tables[made["table"]]


def test_every_audience_sees_who_has_chosen_early_but_never_what(fast_client):
    """SUPER COMPUTER's picks: seat 2 picks before its turn in seat order (the pick is
    held by the table). Every frame since, of every seat and the spectator, lists seat 2
    among the seats that have chosen; no frame but seat 2's own names the held pick
    (its label or the card's id)."""
    made = create(fast_client, game="supercomputer", players=3)
    socks = {s: seat_socket(fast_client, made, s) for s in range(3)}
    views = {s: socks[s].state() for s in range(3)}
    spectator = SeatSocket(
        fast_client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    spectator.state()
    table = table_of(fast_client, made)
    assert all(v["table"]["chosen_seats"] == [] for v in views.values())
    pick = views[2]["legal"][0]
    socks[2].send({"type": "act", "action": pick["action"], "seq": views[2]["seq"]})
    own = socks[2].recv_until(lambda m: m["type"] == "state" and m.get("chosen"))
    assert table.held == {2: pick["action"]}
    assert own["table"]["chosen_seats"] == [2]
    # the held card: the card of seat 2's own cards (hand, builds offered) its choice names
    you = views[2]["obs"]["you"]
    mine = [c for k in ("hand", "build_offer") for c in (you.get(k) or []) if isinstance(c, dict)]
    held_ids = {c["id"] for c in mine if c.get("name") and c["name"] in pick["label"]}
    assert held_ids, pick
    others = {0: socks[0], 1: socks[1], "spectator": spectator}
    hub = fast_client.app.state.hub
    for who in (0, 1, None):  # the frame each audience gets now (sync, reconnect, update)
        frame = json.loads(hub.view_frame(table, who))
        assert frame["table"]["chosen_seats"] == [2], who
        assert frame.get("chosen") is None, who
        assert pick["label"] not in json.dumps(frame) and not ids_in_text(
            json.dumps(frame), held_ids
        )
    for sock in others.values():
        sock.send({"type": "sync"})
        sock.state()
    for who, sock in others.items():
        for text in sock.frames:
            assert pick["label"] not in text, (who, "names the held pick's label")
            assert not ids_in_text(text, held_ids), (who, "names the held card")
    # once every seat has chosen, nobody is held and the list is empty again
    for s in (0, 1):
        socks[s].send({"type": "act", "action": views[s]["legal"][0]["action"], "seq": 0})
    after = socks[0].state(views[0]["seq"] + 3)
    assert after["table"]["chosen_seats"] == [] and table.held == {}


def test_a_timer_that_runs_out_plays_the_quick_bots_move(fast_client, monkeypatch):
    """The clock runs out on a human seat: greedy decides for it, from a redeal of what
    the seat cannot see (never the true state), and that move is played (by "timer")."""
    asked: list[tuple[str, bool, int]] = []
    real = table_clock.make_agent

    def recording(kind, **kwargs):
        agent = real(kind, **kwargs)
        if kind != "greedy":
            return agent
        step = agent.step

        def spy(view):
            action = step(view)
            asked.append((kind, view is table.state, action))
            return action

        agent.step = spy
        return agent

    monkeypatch.setattr(table_clock, "make_agent", recording)
    made = create(
        fast_client,
        game="runway",
        players=3,
        turn_seconds=1,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
    )
    table = table_of(fast_client, made)
    socks = {s: seat_socket(fast_client, made, s) for s in range(3)}
    for s in socks.values():
        s.state()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        records = table.store.load_actions(table.id)
        timed = [r for r in records if r.by == "timer"]
        if timed and asked:
            break
        time.sleep(0.1)
    records = table.store.load_actions(table.id)
    timed = [r for r in records if r.by == "timer"]
    assert timed, "the clock ran out and a move was made for the seat"
    assert asked, "greedy was asked"
    assert not any(true_state for _, true_state, _ in asked), "greedy saw a redeal"
    # every timer move with more than one option is the move greedy chose
    assert timed[0].action == asked[0][2], (timed[0], asked[0])
    json.dumps([r.action for r in records])  # the log is plain ints


def test_a_variant_marked_recommended_is_offered_as_such_with_its_finding(tmp_path):
    """`recommended = true` and `finding` in a variant file reach the lobby's offer; a
    wrong type is refused naming the key."""
    import pytest

    from cardlab.core.errors import CardlabError
    from cardlab.core.variants import load_variant
    from cardlab.web.catalog import Catalog
    from cardlab.web.offers import Offers

    good = tmp_path / "tryout.toml"
    good.write_text(
        'game = "runway"\ntitle = "RUNWAY, tryout"\nrecommended = true\n'
        'finding = "As written, the generalist wins 27%."\n[options]\ncash_penalty = 0\n'
    )
    offers = Offers(Catalog(), variants=[str(good)])
    offer = next(v for v in offers.describe("runway") if v["name"] == "tryout")
    assert offer["recommended"] is True and offer["finding"].startswith("As written")
    assert "recommended = true" in load_variant(good).to_toml()
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "runway"\nrecommended = "yes"\n')
    with pytest.raises(CardlabError, match="'recommended'"):
        load_variant(bad)
