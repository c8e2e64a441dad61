"""The Host allow-list on every HTTP and websocket request, and the
Origin checks compared against it (DNS rebinding: Host and Origin both attacker.example)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from web_support import HOSTS, ORIGIN, create, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.gate import AllowedHosts

EVIL = {"host": "attacker.example:8000", "origin": "http://attacker.example:8000"}


@pytest.fixture
def report_client(tmp_path):
    app = create_app(
        db=tmp_path / "t.db",
        catalog=toy_catalog(),
        bot_delay=0,
        allowed_hosts=HOSTS,
        report_settings=("--games", "4"),
    )
    with TestClient(app) as c:
        yield c


def test_rebinding_table_creation_is_refused(client):
    spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
    resp = client.post("/api/tables", json=spec, headers=EVIL)
    assert resp.status_code == 400 and "attacker.example" in resp.text
    assert not client.app.state.hub.tables, "nothing was created"
    assert client.post("/api/tables", json=spec, headers=ORIGIN).status_code == 201


def test_rebinding_report_run_is_refused(report_client):
    resp = report_client.post("/api/reports/highcard/run", headers=EVIL)
    assert resp.status_code == 400 and "not a name of this server" in resp.text
    status = report_client.app.state.reports.all_status()
    assert status["running"] is None and not status["queue"], "no run was started or queued"


def test_rebinding_socket_is_refused(client):
    made = create(client)
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(f"/ws/{made['table']}", headers=EVIL),
    ):
        pass
    assert denied.value.status_code == 400
    hello = {"type": "hello", "seat": 0, "token": made["tokens"]["seat0"]}
    with client.websocket_connect(f"/ws/{made['table']}", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(hello))
        assert json.loads(ws.receive_text())["type"] == "state"


def test_every_page_checks_host(client):
    for path in ("/", "/api/games", "/static/table.js", "/favicon.ico"):
        assert client.get(path).status_code == 200, path
        refused = client.get(path, headers={"host": "attacker.example"})
        assert refused.status_code == 400, path
        assert "Host 'attacker.example' is not a name of this server" in refused.text


def test_foreign_origin_with_allowed_host_is_refused(client):
    """Host is ours but the page is not: the same-origin check still refuses (403)."""
    spec = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}
    resp = client.post("/api/tables", json=spec, headers={"origin": "http://attacker.example"})
    assert resp.status_code == 403


def test_default_allows_localhost_names_only(tmp_path):
    app = create_app(db=tmp_path / "t.db", catalog=toy_catalog(), bot_delay=0)
    with TestClient(app) as c:
        for host in ("localhost:8000", "127.0.0.1:9", "[::1]:8000", "LOCALHOST", "localhost."):
            assert c.get("/api/games", headers={"host": host}).status_code == 200, host
        for host in ("testserver", "attacker.example", "localhost.attacker.example", "10.0.0.1"):
            assert c.get("/api/games", headers={"host": host}).status_code == 400, host


def test_allowed_hosts_parsing_and_bind_defaults():
    hosts = AllowedHosts.build(["cards.example.org", "lan.box:8080"])
    assert hosts.allows("cards.example.org:443") and hosts.allows("CARDS.example.org")
    assert hosts.allows("lan.box:8080") and not hosts.allows("lan.box:8081")
    assert not hosts.allows(None) and not hosts.allows("") and not hosts.allows("x:y")
    bound = AllowedHosts.for_bind("192.168.1.5", ["play.example"])
    assert bound.allows("192.168.1.5:8000") and bound.allows("play.example")
    assert not bound.allows("192.168.1.6:8000") and not bound.allows("attacker.example")
    wild = AllowedHosts.for_bind("0.0.0.0")
    assert wild.allows("192.168.1.6:8000") and wild.allows("[fe80::1]:8000")
    assert not wild.allows("attacker.example:8000"), "a name must still be named"
    for bad in ("http://x.example", "x.example/path", "", "x.example:port"):
        with pytest.raises(ValueError, match="allowed host"):
            AllowedHosts.build([bad])


def test_origin_check_compares_against_the_allow_list():
    from cardlab.web.security import same_origin

    hosts = AllowedHosts.build(["play.example"])
    evil = ("http://attacker.example:8000", "attacker.example:8000", frozenset())
    assert same_origin(*evil), "Host and Origin agree: the old check alone accepts rebinding"
    assert not same_origin(*evil, hosts)
    assert same_origin("http://play.example:8000", "play.example:8000", frozenset(), hosts)
    assert same_origin(
        "https://other.example", "play.example", frozenset({"https://other.example"}), hosts
    )


def test_serve_refuses_a_malformed_allowed_host():
    from typer.testing import CliRunner

    from cardlab.cli import app

    result = CliRunner().invoke(app, ["serve", "--allowed-host", "http://play.example/"])
    assert result.exit_code == 2
    assert "allowed host 'http://play.example/' must be a host name" in result.output
