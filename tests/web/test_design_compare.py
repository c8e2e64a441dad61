"""Comparing two designs from the design page, and tables of a saved version from the
lobby's form, over HTTP: a comparison request is checked field by field (a bad one is a
422 naming the field), is the operator's, refuses the same design twice and two designs
that differ in more than one thing, and only one runs at a time; a version's table made
from the lobby's form deals the version's cards under its options and names it."""

from __future__ import annotations

import calendar
import collections
import sqlite3
import sys
import time

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, close_all, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.compare import CompareRequest, parse_compare
from cardlab.web.design import SCHEMA, VERDICTS, Designs
from cardlab.web.store import Store

TOKEN = "compare-token"
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
        c.portal.call(app.state.hub.design_compare.stop)
        close_all()


def _save(client, name, tower="2", options=None):
    rows = client.get("/api/design/uptime", headers=OPERATOR).json()["sheet"]["rows"]
    rows = [dict(r, count=tower) if r.get("name") == "Tower" else r for r in rows]
    body = {"rows": rows, "name": name, "options": options or {}}
    saved = client.post("/api/design/uptime/versions", json=body, headers=OPERATOR)
    assert saved.status_code == 201, saved.text
    return saved.json()["id"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"b": 1}, "a", "Field required"),
        ({"a": "as written", "b": True}, "b", "a version number"),
        ({"a": "the old one", "b": 1}, "a", "'the old one'"),
        ({"a": "as written", "b": 1, "games": 5}, "games", "10 to 1000 games"),
        ({"a": "as written", "b": 1, "games": 5000}, "games", "10 to 1000 games"),
        ({"a": "as written", "b": 1, "games": "20"}, "games", "integer"),
        ({"a": "as written", "b": 1, "colour": "red"}, "colour", "Extra inputs"),
    ],
)
def test_a_bad_compare_body_is_refused_naming_the_field(app_client, body, field, words):
    client, _ = app_client
    got = client.post("/api/design/uptime/compare", json=body, headers=OPERATOR)
    assert got.status_code == 422, got.text
    error = got.json()["error"]
    assert f"compare field '{field}'" in error and words in error, error


def test_comparing_is_the_operators_and_refuses_what_it_cannot_compare(app_client):
    client, app = app_client
    body = {"a": "as written", "b": 1, "games": 20}
    assert client.post("/api/design/uptime/compare", json=body, headers=ORIGIN).status_code == 401
    no_origin = {"authorization": f"Bearer {TOKEN}"}
    assert (
        client.post("/api/design/uptime/compare", json=body, headers=no_origin).status_code == 403
    )
    assert client.get("/api/design/uptime/compare").status_code == 401
    missing = client.post("/api/design/uptime/compare", json=body, headers=OPERATOR)
    assert missing.status_code == 404 and "no version 1" in missing.json()["error"]
    towers = _save(client, "two Towers")
    same = client.post(
        "/api/design/uptime/compare", json={"a": towers, "b": towers}, headers=OPERATOR
    )
    assert same.status_code == 422 and "pick two designs" in same.json()["error"]
    both = _save(client, "two Towers, hand limit", options={"hand_limit": 6})
    mixed = client.post(
        "/api/design/uptime/compare", json={"a": "as written", "b": both}, headers=OPERATOR
    )
    assert mixed.status_code == 422, mixed.text
    assert "their cards and in the rule option(s) hand_limit" in mixed.json()["error"]
    # the same cards, one rule option apart: the lab compares that option
    jobs = app.state.hub.design_compare
    plan = jobs.plan("uptime", CompareRequest(a=towers, b=both, games=20))
    assert plan["what"] == "hand_limit" and plan["values"] == ["0", "6"]
    plan = jobs.plan("uptime", parse_compare({"a": "as written", "b": towers}))
    assert plan["what"] == "cards" and plan["values"] == ["as-written.toml", "v1-two-Towers.toml"]


def test_one_comparison_runs_at_a_time(app_client):
    client, app = app_client
    towers = _save(client, "two Towers")
    jobs = app.state.hub.design_compare
    jobs.command = [sys.executable, "-c", "import time; time.sleep(30)"]  # a stand-in run
    first = client.post(
        "/api/design/uptime/compare", json={"a": "as written", "b": towers}, headers=OPERATOR
    )
    assert first.status_code == 202 and first.json()["state"] == "running"
    assert first.json()["labels"] == ["the cards as written", "version 1 (two Towers)"]
    second = client.post(
        "/api/design/uptime/compare", json={"b": "as written", "a": towers}, headers=OPERATOR
    )
    assert second.status_code == 409 and "already running" in second.json()["error"]
    status = client.get(f"/api/design/uptime/compare/{first.json()['id']}", headers=OPERATOR)
    assert status.status_code == 200 and status.json()["report"] is None
    assert client.get(f"/design/uptime/compare/{first.json()['id']}/report.html").status_code == 404
    [pid] = jobs.pids()
    client.portal.call(jobs.stop)
    assert jobs.pids() == []
    with pytest.raises(ProcessLookupError):
        import os

        os.kill(pid, 0)
    listed = client.get("/api/design/uptime/compare", headers=OPERATOR).json()
    assert listed["jobs"][0]["state"] == "failed" and listed["games"]["max"] == 1000


def test_a_table_from_the_lobby_form_deals_the_versions_cards(app_client):
    client, app = app_client
    version = _save(client, "two Towers", options={"hand_limit": 6})
    listed = client.get("/api/design/uptime/versions", headers=OPERATOR).json()["versions"]
    assert [(v["id"], v["name"], v["options"]) for v in listed] == [
        (version, "two Towers", {"hand_limit": 6})
    ]
    assert client.get("/api/design/uptime/versions").status_code == 401
    spec = {
        "game": "uptime",
        "players": 3,
        "options": {"draw_cards": 3},
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "agent": "greedy"},
            {"kind": "human"},
        ],  # fmt: skip
        "turn_seconds": 0,
        "bot_delay": 0,
    }
    url = f"/api/design/uptime/versions/{version}/table"
    assert client.post(url, json=spec, headers=ORIGIN).status_code == 401
    refused = client.post(url, json={**spec, "variant": "lab"}, headers=OPERATOR)
    assert refused.status_code == 400 and "variant" in refused.json()["error"]
    bad = client.post(url, json={**spec, "players": 9}, headers=OPERATOR)
    assert bad.status_code == 400 and '"players"' in bad.json()["error"]
    made = client.post(url, json=spec, headers=OPERATOR)
    assert made.status_code == 201, made.text
    assert {"seat0", "seat2", "spectator", "host"} <= set(made.json()["tokens"])
    table = app.state.hub.tables[made.json()["table"]]
    names = [table.game.table.name[c] for c in range(table.game.table.count)]
    assert names.count("Tower") == 2  # the version's cards (one Tower as written)
    assert table.game.options["hand_limit"] == 6 and table.game.options["draw_cards"] == 3
    assert table.game.num_players == 3
    assert table.record.settings["cards"] == "design version 1 (two Towers)"
    assert table.record.settings["design_version_id"] == 1  # kept as a number, not read back
    assert "design version 1 (two Towers)" in table.replay_command()
    assert (
        client.post("/api/design/uptime/versions/99/table", json=spec, headers=OPERATOR).status_code
        == 404
    )


def _finish(client, job_id, seconds=180.0):
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = client.get(f"/api/design/uptime/compare/{job_id}", headers=OPERATOR).json()
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError(f"the comparison did not finish in {seconds:g} s")


@pytest.mark.slow  # a real comparison: about 15 s
def test_a_finished_comparison_leaves_each_versions_verdicts_in_the_list(tmp_path):
    """A real comparison (10 games an arm) of two saved versions: each keeps its claims'
    verdicts, counted from the comparison's result, in the versions list; a version never
    compared says so; the verdicts survive a new server on the same database, and an
    older database (versions only) gains the verdicts' table when opened."""
    db = tmp_path / "d.db"

    def app_on(path):
        return create_app(
            db=path,
            catalog=toy_catalog(),
            bot_delay=0,
            allowed_hosts=HOSTS,
            operator_token=TOKEN,
            message_rate=10_000,
        )

    app = app_on(db)
    with TestClient(app) as client:
        one = _save(client, "two Towers")
        two = _save(client, "three Towers", tower="3")
        never = _save(client, "one Tower, hand limit 6", tower="1", options={"hand_limit": 6})
        before = client.get("/api/design/uptime", headers=OPERATOR).json()["versions"]
        assert [(v["id"], v["verdicts"], v["verdicts_text"]) for v in before] == [
            (never, None, "not yet compared"),
            (two, None, "not yet compared"),
            (one, None, "not yet compared"),
        ]
        started = client.post(
            "/api/design/uptime/compare", json={"a": one, "b": two, "games": 10}, headers=OPERATOR
        )
        assert started.status_code == 202, started.text
        job = started.json()["id"]
        status = _finish(client, job)
        assert status["state"] == "done", status.get("error")
        claims = status["result"]["claims"]
        assert len(claims) >= 3
        page = client.get("/api/design/uptime", headers=OPERATOR).json()
        listed = {v["id"]: v for v in page["versions"]}
        for arm, version in enumerate((one, two)):
            got = listed[version]["verdicts"]
            want = collections.Counter(c["arms"][arm]["verdict"] for c in claims if c["arms"][arm])
            assert {k: got[k] for k in VERDICTS} == {k: want.get(k, 0) for k in VERDICTS}
            assert got["claims"] == sum(want.values()) >= 3
            assert got["games"] == 10 and got["job"] == job
            assert got["report"] == f"/design/uptime/compare/{job}/report.html"
            assert client.get(got["report"]).status_code == 200
            day = time.strftime("%Y-%m-%d", time.gmtime())
            assert got["date"] == day
            text = listed[version]["verdicts_text"]
            assert text.startswith("claims: ") and text.endswith(f" · 10 games an arm · {day}")
            if want.get("holds"):
                assert f"{want['holds']} hold" in text
        assert listed[one]["verdicts"]["against"] == "version 2 (three Towers)"
        assert listed[two]["verdicts"]["against"] == "version 1 (two Towers)"
        assert listed[never]["verdicts"] is None
        assert listed[never]["verdicts_text"] == "not yet compared"
        lobby = client.get("/api/design/uptime/versions", headers=OPERATOR).json()["versions"]
        assert {v["id"]: v["verdicts_text"] for v in lobby} == {
            k: v["verdicts_text"] for k, v in listed.items()
        }
        client.portal.call(app.state.hub.design_compare.stop)
    close_all()
    # a new server on the same database: the verdicts are still there (and so is the
    # comparison's report, recovered from its directory)
    again = app_on(db)
    with TestClient(again) as client:
        reopened = client.get("/api/design/uptime", headers=OPERATOR).json()["versions"]
        assert [(v["id"], v["verdicts"], v["verdicts_text"]) for v in reopened] == [
            (v["id"], v["verdicts"], v["verdicts_text"]) for v in page["versions"]
        ]
    close_all()
    # the store alone, re-opened: the same rows
    store = Store(str(db))
    try:
        designs = Designs(store)
        assert designs.latest_verdicts("uptime", one) == listed[one]["verdicts"]
        assert designs.latest_verdicts("uptime", never) is None
    finally:
        store.close()


def test_an_older_database_gains_the_verdicts_table_and_the_latest_comparison_wins(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as old:  # a database from before verdicts were kept
        old.executescript(SCHEMA.split("CREATE TABLE IF NOT EXISTS design_verdicts")[0])
        old.execute(
            "INSERT INTO design_versions (game, name, created, cards, cards_sha256, options, "
            "parent, diff) VALUES ('uptime', 'old one', 1.0, x'00', 'ab', '{}', NULL, '[]')"
        )
    store = Store(str(db))
    try:
        designs = Designs(store)
        (v,) = designs.versions("uptime")
        assert (v["verdicts"], v["verdicts_text"]) == (None, "not yet compared")
        counts = {"holds": 7, "fails": 1, "needs_data": 0, "untestable": 0}
        at = calendar.timegm((2026, 12, 3, 12, 0, 0))
        designs.record_verdicts(
            "uptime", v["id"], "first", games=20, against="x", counts=counts, report="/r1", at=at
        )
        (v,) = designs.versions("uptime")
        assert v["verdicts_text"] == "claims: 7 hold, 1 fails · 20 games an arm · 2026-12-03"
        later = {"holds": 1, "fails": 0, "needs_data": 2, "untestable": 1}
        designs.record_verdicts(
            "uptime", v["id"], "second", games=50, against="y", counts=later, report="/r2",
            at=at + 86400,
        )  # fmt: skip
        (v,) = designs.versions("uptime")
        assert v["verdicts"]["job"] == "second" and v["verdicts"]["report"] == "/r2"
        assert (
            v["verdicts_text"]
            == "claims: 1 holds, 2 need data, 1 untestable · 50 games an arm · 2026-12-04"
        )
    finally:
        store.close()
