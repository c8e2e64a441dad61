"""Playtest reports in the lobby: served safely, run in the background, one run per game,
the claims gate view, and the lobby's report section in headless Chromium."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser import (
    ARTIFACTS,
    Server,
)
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, toy_catalog

from cardlab.core.errors import CardlabError
from cardlab.web.app import create_app
from cardlab.web.reports import QUICK_SETTINGS, Reports, lab_games, parse_settings

TINY = "--games 6 --side-games 2 --probe-games 2 --ladder-games 0 --workers 1"
"""Settings a test injects so a real lab run takes seconds."""


def ready_lab_game() -> str:
    from cardlab.lab.simulate import engine_ready

    for game in lab_games():
        if engine_ready(game):
            return game
    pytest.skip("no game engine the lab can report on is installed")


def fake_report(root: Path, game: str, claims: list[dict] | None = None) -> None:
    d = root / game
    d.mkdir(parents=True, exist_ok=True)
    claims = claims or [
        {"id": f"{game}.a", "text": "Games end.", "verdict": "holds", "evidence": {}},
        {"id": f"{game}.b", "text": "Seats are fair.", "verdict": "fails", "evidence": {}},
    ]
    rep = {"game": game, "title": game.upper(), "claims": claims, "games_played": 12}
    (d / "report.json").write_text(json.dumps(rep))
    (d / "report.html").write_text("<!doctype html><title>r</title><h1>report</h1>")
    (d / "summary.md").write_text("# summary\n")


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    return tmp_path


def client_for(db_dir: Path, settings: str | None = None) -> TestClient:
    app = create_app(
        db=db_dir / "tables.db",
        catalog=toy_catalog(),
        bot_delay=0,
        report_settings=parse_settings(settings),
        allowed_hosts=HOSTS,
    )
    return TestClient(app)


def test_reports_default_next_to_the_database_and_listed_per_lab_game(app_dir):
    game = ready_lab_game()
    with client_for(app_dir) as c:
        assert c.app.state.reports.root == (app_dir / "reports").resolve()
        body = c.get("/api/reports").json()
        assert body["settings"] == " ".join(QUICK_SETTINGS)
        assert game in body["games"] and "highcard" not in body["games"]
        st = body["games"][game]
        assert st["state"] == "idle" and st["report"] is None
        fake_report(app_dir / "reports", game)
        st = c.get("/api/reports").json()["games"][game]
        assert st["report"] == f"/reports/{game}/report.html"
        assert st["verdicts"] == {"holds": 1, "fails": 1, "needs_data": 0, "untestable": 0}
        lobby = c.get("/").text
        assert 'class="playtest"' in lobby and "Run a fresh playtest" in lobby
        assert 'href="/gate"' in lobby


def test_report_files_are_served_with_their_content_types(app_dir):
    game = ready_lab_game()
    fake_report(app_dir / "reports", game)
    with client_for(app_dir) as c:
        html = c.get(f"/reports/{game}/report.html")
        assert html.status_code == 200 and "<h1>report</h1>" in html.text
        assert html.headers["content-type"] == "text/html; charset=utf-8"
        assert "script-src" not in html.headers["content-security-policy"]  # none allowed
        assert html.headers["x-content-type-options"] == "nosniff"
        js = c.get(f"/reports/{game}/report.json")
        assert js.headers["content-type"] == "application/json" and js.json()["game"] == game
        md = c.get(f"/reports/{game}/summary.md")
        assert md.headers["content-type"] == "text/markdown; charset=utf-8"


def test_missing_report_says_so(app_dir):
    game = ready_lab_game()
    with client_for(app_dir) as c:
        r = c.get(f"/reports/{game}/report.html")
        assert r.status_code == 404 and "No playtest report yet" in r.text


@pytest.mark.parametrize(
    "path",
    [
        "/reports/{game}/..%2F..%2Fsecret.txt",
        "/reports/{game}/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/reports/..%2F..%2F/secret.txt",
        "/reports/%2e%2e/secret.txt",
        "/reports/{game}/..%5C..%5Csecret.txt",
        "/reports/{game}/secret.txt",
        "/reports/{game}/report.html%00.txt",
        "/reports/highcard/report.html",
    ],
)
def test_path_traversal_is_refused(app_dir, path):
    game = ready_lab_game()
    fake_report(app_dir / "reports", game)
    (app_dir / "reports" / game / "secret.txt").write_text("TOP SECRET")
    with client_for(app_dir) as c:
        r = c.get(path.format(game=game))
        assert r.status_code == 404
        assert "TOP SECRET" not in r.text


def test_a_symlink_out_of_the_reports_directory_is_not_followed(app_dir):
    game = ready_lab_game()
    d = app_dir / "reports" / game
    d.mkdir(parents=True)
    os.symlink(app_dir / "secret.txt", d / "report.html")
    reports = Reports(app_dir / "reports", [game])
    assert reports.file(game, "report.html") is None
    assert reports.file(game, "../../secret.txt") is None
    assert reports.file("../" + game, "report.html") is None
    with client_for(app_dir) as c:
        r = c.get(f"/reports/{game}/report.html")
        assert r.status_code == 404 and "TOP SECRET" not in r.text


def test_gate_view_shows_each_verdict_with_its_text_escaped(app_dir):
    game = ready_lab_game()
    fake_report(
        app_dir / "reports",
        game,
        [
            {"id": "x.ends", "text": "It ends <script>alert(1)</script>", "verdict": "holds"},
            {"id": "x.fair", "text": "Seats are fair.", "verdict": "fails"},
            {"id": "x.sample", "text": "The sample scores.", "verdict": "untestable"},
        ],
    )
    with client_for(app_dir) as c:
        page = c.get("/gate").text
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "1 holds, 1 fails, 0 needs data, 1 untestable" in page
    for mark, verdict, text in [
        ("✔", "holds", "It ends"),
        ("✘", "fails", "Seats are fair."),
        ("?", "untestable", "The sample scores."),
    ]:
        assert f'<td class="verdict">{mark} {verdict}</td>' in page and text in page
    others = [g for g in lab_games() if g != game]
    for other in others:  # games without a report say so
        assert f'id="gate-{other}"' in page
    if others:
        assert "No playtest report yet" in page


def operator(c: TestClient) -> dict[str, str]:
    """The headers of the operator's run request: the page's Origin and the token."""
    return {**ORIGIN, "authorization": f"Bearer {c.app.state.operator_token}"}


def test_run_requests_are_checked(app_dir):
    with client_for(app_dir) as c:
        r = c.post("/api/reports/highcard/run", headers=operator(c))
        assert r.status_code == 404 and "no playtest lab for 'highcard'" in r.json()["error"]
        game = ready_lab_game()
        r = c.post(f"/api/reports/{game}/run", headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and "may not start playtests" in r.json()["error"]
        assert c.get("/api/reports").json()["games"][game]["state"] == "idle"


def wait_state(c: TestClient, game: str, seconds: float = 45) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        st = c.get("/api/reports").json()["games"][game]
        if st["state"] != "running":
            return st
        time.sleep(0.2)
    raise AssertionError(f"the {game} run did not finish")


def test_a_failed_run_shows_its_error_line(app_dir):
    game = ready_lab_game()
    with client_for(app_dir, "--players 99 --workers 1") as c:
        assert c.post(f"/api/reports/{game}/run", headers=operator(c)).status_code == 202
        again = c.post(f"/api/reports/{game}/run", headers=operator(c))  # the first starts up
        assert again.status_code == 409
        assert f"a playtest of {game} is already running" in again.json()["error"]
        st = wait_state(c, game)
    assert st["state"] == "failed"
    assert st["error"].startswith("error:") and "99" in st["error"]
    assert st["report"] is None
    assert not any((app_dir / "reports").glob(".*"))  # the work directory is gone


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("--out /etc", "'--out' is not allowed"),
        ("--games", "pairs"),
        ("--games ten", "whole number"),
        ("--games 0", "at least 1"),
        ("--games '1", "No closing quotation"),
    ],
)
def test_bad_report_settings_get_a_clear_error(text, message):
    with pytest.raises(CardlabError, match=message):
        parse_settings(text)


def test_serve_refuses_bad_report_settings(tmp_path):
    from typer.testing import CliRunner

    from cardlab.cli import app

    r = CliRunner().invoke(
        app, ["serve", "--db", str(tmp_path / "t.db"), "--report-settings", "-x 1"]
    )
    assert r.exit_code == 2 and "'-x' is not allowed" in r.output


def test_lobby_runs_a_playtest_and_opens_the_report(browser, tmp_path):
    """Click "Run a fresh playtest" (tiny settings), a second run is refused while it
    runs, and once done the lobby link opens the report without console errors."""
    game = ready_lab_game()
    token = "operator-test-token"
    extra = ("--report-settings", TINY, "--operator-token", token)
    server = Server(tmp_path / "tables.db", extra=extra).start()
    try:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []  # console errors, page errors and failed loads of every page
        context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        context.on("weberror", lambda e: errors.append(str(e.error)))
        context.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)
        page = context.new_page()
        page.goto(f"{server.url}/#operator={token}")  # the printed operator link
        assert "operator" not in page.url  # the lobby took the token out of the address
        panel = page.locator(f"#game-{game}")
        panel.locator(".report-line:has-text('No playtest report yet')").wait_for()
        page.screenshot(path=str(ARTIFACTS / "lobby-no-reports.png"), full_page=True)
        panel.locator("button.run").click()
        panel.locator(".run-status.running").wait_for()
        assert panel.locator("button.run").is_disabled()
        # a second run of the same game while this one runs is refused, clearly
        req = urllib.request.Request(
            f"{server.url}/api/reports/{game}/run",
            method="POST",
            headers={"origin": server.url, "authorization": f"Bearer {token}"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req)
        assert refused.value.code == 409
        assert "already running" in json.loads(refused.value.read())["error"]
        # a real lab run in a niced subprocess: slow when the suite loads both cores
        panel.locator(".run-status.done").wait_for(timeout=180_000)
        link = panel.locator("a.report-link")
        assert link.get_attribute("href") == f"/reports/{game}/report.html"
        assert "claims:" in panel.locator(".verdicts").inner_text()
        page.screenshot(path=str(ARTIFACTS / "lobby-reports.png"), full_page=True)
        with page.context.expect_page() as opened:
            link.click()
        report = opened.value
        report.wait_for_load_state()
        assert "Gate: the rulebook's claims" in report.inner_text("body")
        report.screenshot(path=str(ARTIFACTS / "report-from-lobby.png"))
        page.goto(server.url + "/gate")
        page.locator(f"#gate-{game} table.gate td.verdict").first.wait_for()
        page.screenshot(path=str(ARTIFACTS / "claims-gate.png"), full_page=True)
        assert errors == []
        context.close()
    finally:
        server.kill()


def test_invariants_never_count_among_claims_holding(app_dir):
    game = ready_lab_game()
    claims = [
        {"id": f"{game}.a", "text": "A promise.", "verdict": "needs_data", "kind": "design"},
        {"id": f"{game}.b", "text": "By construction.", "verdict": "holds", "kind": "invariant"},
    ]
    with client_for(app_dir) as c:
        fake_report(app_dir / "reports", game, claims)
        st = c.get("/api/reports").json()["games"][game]
        assert st["verdicts"] == {"holds": 0, "fails": 0, "needs_data": 1, "untestable": 0}
        assert st["invariants"] == 1
        gate = c.get("/gate").text
        assert "1 needs data" in gate and "1 engine invariants" in gate


def _toy_report(monkeypatch: pytest.MonkeyPatch) -> dict:
    """A real report.json of the scaffold's toy game, every section present, in seconds."""
    import cardlab.games as games
    from cardlab.lab.reporting import start_report
    from cardlab.newgame import template_game

    info = template_game("toyescape", title="Toy escape")
    monkeypatch.setitem(games._REGISTERED, info.name, info)
    _, report, _ = start_report(
        info.name, None, games=8, probe_games=3, side_games=2, ladder_games=2,
        ladder_iterations=5, workers=1, progress=False, ablation_games=0, kingmaking_games=2,
    )  # fmt: skip
    return json.loads(json.dumps(report))


MARK = "<inj>"


def _poison(value: object, numbers: bool) -> object:
    """Markup in every field: each string (and, with `numbers`, every number, bool and
    null too) becomes markup the page must show as text."""
    if isinstance(value, dict):
        return {k: _poison(v, numbers) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(v, numbers) for v in value]
    if isinstance(value, str):
        return f"{MARK}{value}"
    return f"{MARK}{value}" if numbers else value


def test_every_report_field_is_escaped_through_one_rendering_path(app_dir, monkeypatch):
    """report.html and the gate page render report.json through the lab's one template
    environment: markup in any field reaches the page as text, never as a tag."""
    from cardlab.lab.html import render

    report = _toy_report(monkeypatch)
    assert report["experience"]["judged"] and report["claims"] == []
    page = render(_poison(report, numbers=False))  # the lab's own numbers stay numbers
    assert MARK not in page and page.count("&lt;inj&gt;") > 100
    game = ready_lab_game()
    d = app_dir / "reports" / game
    d.mkdir(parents=True)
    for numbers in (False, True):  # a tampered report.json may put markup anywhere
        tampered = _poison(report, numbers)
        tampered["claims"] = [{"id": f"{MARK}x", "text": f"{MARK}t", "verdict": f"{MARK}v"}]
        (d / "report.json").write_text(json.dumps(tampered))
        (d / "report.html").write_text("<!doctype html><title>r</title>")
        with client_for(app_dir) as c:
            gate = c.get("/gate").text
        assert MARK not in gate, numbers
        assert "&lt;inj&gt;" in gate and "World-class gate:" in gate
        if numbers:  # the field the page used to print raw
            assert f"&lt;inj&gt;{report['games_played']} games" in gate
