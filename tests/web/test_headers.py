"""Security headers on every page, pages without inline script or style, and the
pages' own scripts working under the strict policy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_support import create

from cardlab.web import headers

STATIC = Path(headers.__file__).parent / "static"


def check_page_headers(resp) -> None:
    h = resp.headers
    csp = h["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert h["x-frame-options"] == "DENY"
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"
    assert "camera=()" in h["permissions-policy"]


def test_every_html_page_sends_the_security_headers(client):
    made = create(client)
    pages = ["/", f"/t/{made['table']}", "/t/nosuchtable", "/gate", "/api/rules/highcard"]
    for path in pages:
        resp = client.get(path)
        assert resp.headers["content-type"].startswith("text/html"), path
        check_page_headers(resp)


def test_other_responses_are_nosniff_and_unframable(client):
    for path in ["/api/games", "/static/table.js", "/static/style.css", "/favicon.ico"]:
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert resp.headers["x-content-type-options"] == "nosniff"
        assert resp.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in resp.headers["content-security-policy"]


def test_the_static_pages_have_no_inline_script_or_style():
    for page in STATIC.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
            assert "src=" in tag, f"{page.name}: inline <script>"
        assert not re.search(r"<style\b", text, flags=re.I), f"{page.name}: <style>"
        assert not re.search(r"\sstyle\s*=", text, flags=re.I), f"{page.name}: style attribute"
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.I), f"{page.name}: event attribute"
    for script in STATIC.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert "eval(" not in text and "new Function" not in text, script.name


def test_the_pages_work_under_their_policy_in_a_real_browser(tmp_path):
    """No bypass here: the lobby lists the games and a seat link opens the table with
    its moves, and the browser reports no policy violation."""
    from browser import CHROMIUM, CHROMIUM_ARGS, Server, need_browser

    need_browser()
    from playwright.sync_api import sync_playwright

    server = Server(tmp_path / "tables.db").start()
    try:
        made = server.create(
            game="runway", players=2, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}]
        )
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                violations: list[str] = []
                page.on(
                    "console",
                    lambda m: violations.append(m.text) if "Content Security" in m.text else None,
                )
                page.goto(server.url)
                page.locator(".game").first.wait_for()
                page.goto(server.seat_url(made, 0))
                page.locator("#moves button").first.wait_for(timeout=15_000)
                assert violations == []
            finally:
                browser.close()
    finally:
        server.kill()


@pytest.mark.parametrize("path", ["/", "/gate"])
def test_csp_names_the_socket_origin_of_this_host_only(tmp_path, path):
    from starlette.testclient import TestClient
    from web_support import HOSTS, toy_catalog

    from cardlab.web.app import create_app

    app = create_app(tmp_path / "t.db", toy_catalog(), allowed_hosts=(*HOSTS, "table.example"))
    client = TestClient(app)
    csp = client.get(path, headers={"host": "table.example:8000"}).headers[
        "content-security-policy"
    ]
    assert "ws://table.example:8000" in csp and "wss://table.example:8000" in csp
    evil = client.get(path, headers={"host": "x; script-src *"}).headers["content-security-policy"]
    assert "script-src *" not in evil
