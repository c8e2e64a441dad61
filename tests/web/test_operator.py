"""Operator actions need the operator. A playtest run needs the
operator token in an Authorization header; runs queue one at a time with a limit;
a run never removes the previous report until the new one is complete; stopping
the server ends a run's whole process group."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, toy_catalog

from cardlab.web import reports as reports_mod
from cardlab.web.app import create_app
from cardlab.web.reports import Reports, RunRefused, operator_allowed

GAMES = ["alpha", "beta", "gamma", "delta", "epsilon"]


def app_for(tmp_path: Path, **kw) -> TestClient:
    return TestClient(
        create_app(
            db=tmp_path / "t.db", catalog=toy_catalog(), bot_delay=0, allowed_hosts=HOSTS, **kw
        )
    )


@pytest.fixture
def fake_games(monkeypatch):
    monkeypatch.setattr(reports_mod, "lab_games", lambda: list(GAMES))


def bearer(token: str) -> dict[str, str]:
    return {**ORIGIN, "authorization": f"Bearer {token}"}


def test_a_run_needs_the_operator_token_in_a_header(tmp_path, fake_games, monkeypatch):
    started: list[str] = []

    async def fake_run(self, game):
        started.append(game)
        self._runs[game].update(state="done")

    monkeypatch.setattr(Reports, "_run", fake_run)
    with app_for(tmp_path, operator_token="s3cret-operator") as c:
        c.app.state.reports.games = list(GAMES)
        r = c.post("/api/reports/alpha/run", headers=ORIGIN)
        assert r.status_code == 401 and "needs the operator token" in r.json()["error"]
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert c.post("/api/reports/alpha/run", headers=bearer("guess")).status_code == 401
        basic = {**ORIGIN, "authorization": "Basic czNjcmV0LW9wZXJhdG9y"}
        assert "must be 'Bearer TOKEN'" in c.post("/api/reports/alpha/run", headers=basic).text
        # never from a query string
        r = c.post("/api/reports/alpha/run?operator=s3cret-operator", headers=ORIGIN)
        assert r.status_code == 401
        assert started == []
        assert (
            c.post("/api/reports/alpha/run", headers=bearer("s3cret-operator")).status_code == 202
        )
        # a foreign page is refused even with the token
        evil = {"origin": "http://evil.example", "authorization": "Bearer s3cret-operator"}
        assert c.post("/api/reports/alpha/run", headers=evil).status_code == 403
    assert started == ["alpha"]


def test_without_a_given_token_each_app_makes_a_fresh_one(tmp_path):
    one, two = app_for(tmp_path), app_for(tmp_path)
    assert len(one.app.state.operator_token) >= 24
    assert one.app.state.operator_token != two.app.state.operator_token
    assert (
        operator_allowed(f"Bearer {one.app.state.operator_token}", one.app.state.operator_token)
        is None
    )
    assert operator_allowed("Bearer x", "") is not None  # an empty operator token opens nothing


def test_serve_prints_the_operator_link_once_and_passes_the_guards(tmp_path, monkeypatch):
    import uvicorn
    from typer.testing import CliRunner

    from cardlab.cli import app

    seen: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app_, **kw: seen.update(kw, app=app_))
    monkeypatch.delenv("CARDLAB_OPERATOR_TOKEN", raising=False)
    r = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "t.db"), "--port", "8123"])
    assert r.exit_code == 0, r.output
    token = seen["app"].state.operator_token
    assert r.output.count(token) == 1
    assert f"http://127.0.0.1:8123/#operator={token}" in r.output  # in the fragment
    assert seen["proxy_headers"] is False and seen["timeout_keep_alive"] == 5
    assert seen["http"].request_timeout == 10.0
    monkeypatch.setenv("CARDLAB_OPERATOR_TOKEN", "from-the-env")
    r = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "t.db")])
    assert seen["app"].state.operator_token == "from-the-env"
    assert "from-the-env" not in r.output  # a token the operator chose is not printed


def test_runs_queue_one_at_a_time_up_to_a_limit(tmp_path, fake_games, monkeypatch):
    asyncio.run(_queue(tmp_path, monkeypatch))


async def _queue(tmp_path: Path, monkeypatch) -> None:
    release = asyncio.Event()
    order: list[str] = []

    async def fake_run(self, game):
        order.append(game)
        await release.wait()
        self._runs[game].update(state="done")

    monkeypatch.setattr(Reports, "_run", fake_run)
    reports = Reports(tmp_path / "reports", list(GAMES))
    reports.start("alpha")
    for game in ("beta", "gamma", "delta"):
        assert reports.start(game)["state"] == "queued"
    with pytest.raises(RunRefused, match="already waiting"):
        reports.start("epsilon")
    with pytest.raises(RunRefused, match="already running"):
        await asyncio.sleep(0)
        reports.start("alpha")
    with pytest.raises(RunRefused, match="already queued"):
        reports.start("beta")
    release.set()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if not reports.queue and len(order) == 4:
            break
    assert order == ["alpha", "beta", "gamma", "delta"]
    await reports.stop()


def report_dir(root: Path, game: str, marker: str) -> None:
    d = root / game
    d.mkdir(parents=True)
    for name in ("report.html", "report.json", "summary.md"):
        (d / name).write_text(marker if name != "report.json" else '{"games_played": 5000}')


def test_a_failed_run_leaves_the_previous_report(tmp_path, fake_games):
    asyncio.run(_failed_run(tmp_path))


async def _failed_run(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    report_dir(root, "alpha", "the operator's 5,000-game report")
    reports = Reports(root, list(GAMES))
    reports.command = [sys.executable, "-c", "import sys; sys.exit('error: no lab here')"]
    reports.start("alpha")
    for _ in range(200):
        await asyncio.sleep(0.05)
        if reports.status("alpha")["state"] != "running":
            break
    st = reports.status("alpha")
    assert st["state"] == "failed" and "no lab here" in st["error"]
    assert (root / "alpha" / "report.html").read_text() == "the operator's 5,000-game report"
    assert st["games_played"] == 5000
    assert sorted(p.name for p in root.iterdir()) == ["alpha"]  # no work dir left


def test_an_interrupted_swap_puts_the_old_report_back(tmp_path, fake_games):
    root = tmp_path / "reports"
    report_dir(root, ".alpha.old", "old")
    (root / ".alpha.running").mkdir()
    reports = Reports(root, list(GAMES))
    assert reports.file("alpha", "report.html").read_text() == "old"
    assert sorted(p.name for p in root.iterdir()) == ["alpha"]


SPAWNER = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
open(sys.argv[1], "w").write(str(child.pid))
time.sleep(60)
"""


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_stopping_the_server_ends_its_report_run_and_bot_workers(tmp_path, fake_games):
    pidfile = tmp_path / "child.pid"
    with app_for(tmp_path, operator_token="op") as c:
        reports = c.app.state.reports
        reports.games = list(GAMES)
        reports.command = [sys.executable, "-c", SPAWNER, str(pidfile)]
        assert c.post("/api/reports/alpha/run", headers=bearer("op")).status_code == 202
        pool = c.app.state.hub.bot_pool
        assert pool._executor().submit(os.getpid).result(timeout=60) != os.getpid()
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = [*reports.pids(), int(pidfile.read_text()), *pool.pids()]
        assert len(pids) == 3 and all(alive(p) for p in pids)
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in pids if alive(p)] == []
    assert reports.status("alpha")["error"] == "the server stopped during the run"
