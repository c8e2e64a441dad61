"""Seat tokens travel only in the link's fragment or a socket message,
never a query string: any request whose query names a token is refused (400, saying
links carry the token after '#'), the table page refuses old query links, and the
access log of a real uvicorn server never carries the token."""

from __future__ import annotations

import http.client
import io
import logging
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import WebSocketDenialResponse
from web_support import ORIGIN, create, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.gate import query_has_token, redact_query

STATIC = Path(__file__).resolve().parents[2] / "src" / "cardlab" / "web" / "static"


def test_a_query_string_token_is_refused_on_every_path(client):
    made = create(client)
    token = made["tokens"]["seat0"]
    for path in (
        f"/t/{made['table']}?seat=0&token={token}",
        f"/?token={token}",
        f"/api/games?TOKEN={token}",
        f"/static/table.js?%74oken={token}",
        f"/t/{made['table']}?seat_token={token}",
    ):
        resp = client.get(path)
        assert resp.status_code == 400, path
        assert "after '#'" in resp.text and token not in resp.text, path
    assert client.get(f"/t/{made['table']}").status_code == 200


def test_a_socket_with_a_query_token_is_refused(client):
    made = create(client)
    url = f"/ws/{made['table']}?seat=0&token={made['tokens']['seat0']}"
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(url, headers=ORIGIN),
    ):
        pass
    assert denied.value.status_code == 400


def test_query_token_detection_and_redaction():
    assert query_has_token("seat=0&token=abc") and query_has_token(b"%54oken=abc")
    assert not query_has_token("seat=0") and not query_has_token("")
    line = '127.0.0.1:5 - "GET /t/x?seat=0&token=SECRET&a=1 HTTP/1.1" 400'
    assert redact_query(line) == '127.0.0.1:5 - "GET /t/x?seat=0&token=[redacted]&a=1 HTTP/1.1" 400'
    assert "SECRET" not in redact_query("/ws/x?%74oken=SECRET")


def test_the_table_page_refuses_old_query_links_and_never_sends_them():
    text = (STATIC / "table.js").read_text(encoding="utf-8")
    assert "new URLSearchParams(location.search)" in text
    assert "const params = new URLSearchParams(location.hash.slice(1));" in text
    assert "if (queryToken) {" in text and "Nothing was sent" in text


def test_the_access_log_never_carries_a_token(tmp_path):
    """A real uvicorn server with its own access-log formatting; the request lines
    (HTTP and websocket) are captured as they are written."""
    import socket

    import uvicorn
    from uvicorn.logging import AccessFormatter, DefaultFormatter

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(db=tmp_path / "t.db", catalog=toy_catalog(), bot_delay=0)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, access_log=True, log_level="info")
    server = uvicorn.Server(config)
    out = io.StringIO()
    handlers = []
    for name, fmt in (
        ("uvicorn.access", AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s')),
        ("uvicorn.error", DefaultFormatter("%(message)s")),
    ):
        handler = logging.StreamHandler(out)
        handler.setFormatter(fmt)
        logging.getLogger(name).addHandler(handler)
        handlers.append((name, handler))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.02)
        secret = "SEKRIT-token-text-1234567890"
        base = f"http://127.0.0.1:{port}"
        for path in (f"/t/abc?seat=0&token={secret}", f"/api/games?x=1&%74oken={secret}"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path, timeout=5)
            assert refused.value.code == 400
        assert urllib.request.urlopen(base + "/api/games", timeout=5).status == 200
        for host, query in ((f"127.0.0.1:{port}", f"?token={secret}"), ("attacker.example", "")):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"/ws/abc{query}", headers=_upgrade(host))
            assert conn.getresponse().status == 400  # a websocket handshake refused
            conn.close()
        time.sleep(0.1)
    finally:
        server.should_exit = True
        thread.join(10)
        for name, handler in handlers:
            logging.getLogger(name).removeHandler(handler)
    log = out.getvalue()
    assert "GET /t/abc?seat=0&token=[redacted] HTTP/1.1" in log, log
    assert "/api/games HTTP/1.1" in log
    assert secret not in log
    assert '"WebSocket /ws/abc?token=[redacted]" 400' in log, log
    assert "without completing handshake" not in log, "no spurious ERROR per refusal"


def _upgrade(host: str) -> dict[str, str]:
    return {
        "Host": host,
        "Origin": f"http://{host}",
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
