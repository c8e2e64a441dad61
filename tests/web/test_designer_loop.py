"""The designer's loop over HTTP and the table socket: the design routes are the
operator's (401 without the token, 403 from a foreign page), a design is checked and
saved as a version, a version plays at a table that deals its cards and prints as a
PDF, and at the game's end a human seat answers the survey, which the operator reads
summed up and no other seat ever receives."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.feedback import parse_answer
from cardlab.web.store import TableRecord

TOKEN = "designer-token"
OPERATOR = {"authorization": f"Bearer {TOKEN}", **ORIGIN}


@pytest.fixture
def app_client(tmp_path):
    app = create_app(
        db=tmp_path / "d.db",
        catalog=toy_catalog(),
        bot_delay=0,
        allowed_hosts=HOSTS,
        operator_token=TOKEN,
        message_rate=10_000,
    )
    with TestClient(app) as c:
        yield c, app
        close_all()


def test_the_design_routes_are_the_operators(app_client):
    client, _ = app_client
    assert client.get("/api/design/uptime").status_code == 401
    assert (
        client.get("/api/design/uptime", headers={"authorization": "Bearer wrong"}).status_code
        == 401
    )
    assert (
        client.post(
            "/api/design/uptime/versions",
            json={"rows": []},
            headers={"authorization": f"Bearer {TOKEN}"},
        ).status_code
        == 403
    )
    assert client.get("/api/feedback/uptime").status_code == 401
    assert client.get("/api/design/nosuchgame", headers=OPERATOR).status_code == 404
    assert client.get("/design/uptime").status_code == 200


def test_a_version_is_checked_saved_played_and_printed(app_client):
    client, app = app_client
    page = client.get("/api/design/uptime", headers=OPERATOR).json()
    rows = page["sheet"]["rows"]
    assert page["versions"] == [] and any(o["name"] == "hand_limit" for o in page["option_specs"])
    bad = [dict(r, count="99") if r.get("name") == "Copper" else r for r in rows]
    got = client.post("/api/design/uptime/check", json={"rows": bad}, headers=OPERATOR)
    assert got.status_code == 422 and got.json()["problems"][0]["column"] == "count"
    two = [dict(r, count="2") if r.get("name") == "Tower" else r for r in rows]
    assert client.post("/api/design/uptime/check", json={"rows": two}, headers=OPERATOR).json() == {
        "ok": True
    }
    saved = client.post(
        "/api/design/uptime/versions", json={"rows": two, "name": "two Towers"}, headers=OPERATOR
    )
    assert saved.status_code == 201 and saved.json()["diff"] == ["computer Tower: count 1 -> 2"]
    version = saved.json()["id"]
    made = client.post(f"/api/design/uptime/versions/{version}/play", json={}, headers=OPERATOR)
    assert made.status_code == 201, made.text
    table = app.state.hub.tables[made.json()["table"]]
    assert [table.game.table.name[c] for c in range(table.game.table.count)].count("Tower") == 2
    assert table.record.settings["cards"] == "design version 1 (two Towers)"
    assert "design version 1 (two Towers)" in table.replay_command()
    pdf = client.get(f"/api/design/uptime/versions/{version}/print.pdf", headers=OPERATOR)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_a_player_answers_the_survey_and_only_the_operator_reads_it(app_client):
    client, _ = app_client
    made = create(client, game="highcard", players=2)
    a, b = seat_socket(client, made, 0), seat_socket(client, made, 1)
    views = {0: a.state(), 1: b.state()}
    a.send({"type": "survey", "fun": 5})
    assert "over" in a.error()["error"]  # not before the end
    socks = {0: a, 1: b}
    while not views[0]["terminal"]:
        cur = views[0]
        seat = cur["current_player"]
        move = views[seat]["legal"][0]
        socks[seat].send({"type": "act", "action": move["action"], "seq": cur["seq"]})
        views = {s: sock.state(cur["seq"] + 1) for s, sock in socks.items()}
    a.send(
        {"type": "survey", "fun": 4, "length": "too_long", "confusing": "who leads", "text": "fun!"}
    )
    saved = a.recv_until(lambda m: m["type"] == "survey")
    assert saved["saved"] is True
    summary = client.get("/api/feedback/highcard", headers=OPERATOR).json()
    assert summary["answers"] == 1 and summary["confusing"] == ["who leads"]
    assert summary["play"]["humans"]["seats"] == 2
    b.send({"type": "sync"})
    b.state()
    assert not any("who leads" in f for f in b.frames)  # another seat never receives it


def test_players_answers_are_listed_per_version_beside_the_bots(app_client):
    """Survey answers from tables of a design version are summed up for that version
    (the table's record names it), apart from the game's own cards' tables, with the
    human seats' and the bot seats' points and wins of the same games."""
    client, app = app_client
    rows = client.get("/api/design/uptime", headers=OPERATOR).json()["sheet"]["rows"]
    two = [dict(r, count="2") if r.get("name") == "Tower" else r for r in rows]
    saved = client.post(
        "/api/design/uptime/versions", json={"rows": two, "name": "two Towers"}, headers=OPERATOR
    )
    version = saved.json()["id"]
    other = client.post(
        "/api/design/uptime/versions",
        json={"rows": two, "name": "hand limit", "options": {"hand_limit": 6}},
        headers=OPERATOR,
    ).json()["id"]
    store, feedback = app.state.hub.store, app.state.hub.feedback
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "agent": "greedy"}]
    plays = {
        "v1": ([10.0, 4.0], {0}, 5, f"design version {version} (two Towers)"),
        "v2": ([3.0, 8.0], {1}, 3, f"design version {version} (two Towers)"),
        "own": ([1.0, 9.0], {1}, 1, None),
    }
    for table_id, (points, won, fun, label) in plays.items():
        # what the hub keeps for a version's table: its name and its number
        settings = {"design_version": label, "design_version_id": version, "cards": label}
        settings = settings if label else {}
        store.create_table(TableRecord(table_id, "uptime", 2, {}, 1, seats, settings), {})
        play = {
            "seats": [
                {"human": s == 0, "points": points[s], "won": s in won, "decisions": 4,
                 "kinds": {"buy": 4}}
                for s in range(2)
            ],
            "length": 20,
        }  # fmt: skip
        answer = parse_answer({"fun": fun, "length": "right", "confusing": f"rule {table_id}"})
        feedback.record(table_id, 0, "uptime", answer, play)
    listed = {
        v["id"]: v for v in client.get("/api/design/uptime", headers=OPERATOR).json()["versions"]
    }
    said = listed[version]["players"]
    assert said["answers"] == 2 and said["fun"]["mean"] == 4 and said["length"]["right"] == 2
    assert said["confusing"] == ["rule v1", "rule v2"]
    assert said["play"]["games"] == 2
    assert said["play"]["humans"]["win_share"] == 0.5 and said["play"]["bots"]["win_share"] == 0.5
    assert said["play"]["humans"]["mean_points"] == 6.5
    assert said["play"]["bots"]["mean_points"] == 6.0
    assert listed[other]["players"] is None  # no table of it answered yet
    summary = client.get("/api/feedback/uptime", headers=OPERATOR).json()
    assert summary["answers"] == 3  # the game's own figures count every table
    by = {g["label"]: (g["version"], g["answers"]) for g in summary["versions"]}
    assert by == {
        f"design version {version} (two Towers)": (version, 2),
        "the game's cards (no design version)": (None, 1),
    }
