"""Playtest reports in the lobby: serve the lab's latest report per game, run a fresh
one in a background process, and summarise the claims gate.

Layout of the reports directory (default `<database dir>/reports`)::

    <reports>/<game>/report.html, report.json, summary.md   the latest finished report
    <reports>/.<game>.running/                               a run in progress (never served)

A run is `python -m cardlab.cli report GAME --out <reports>/.<game>.running --quiet
<settings>` in its own process (lower CPU priority than the server), awaited with
asyncio so the event loop keeps serving tables. Only when it succeeds does its directory
replace `<reports>/<game>/`, so the lobby link always opens a complete report: the old
report is moved aside (`.<game>.old`), the new one renamed into place, and only then is
the old one deleted; a server stopped between the two renames puts the old one back at
its next start. A failed run leaves the previous report in place and says it failed.

Starting a run is the operator's alone (`operator_allowed`: the token `cardlab serve`
prints, sent as `Authorization: Bearer T`). Runs go one at a time; a game already
running or queued is not queued again, and at most `MAX_QUEUE` wait. A run's process
leads its own process group, and stopping the server ends the whole group (the lab's
worker processes too).

Only the three file names above, under a game the lab knows, are ever served, and the
resolved path must lie inside the reports directory (symlinks cannot lead out)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import hmac
import json
import logging
import os
import shlex
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.web.offers import scrub

log = logging.getLogger("cardlab.web.reports")

QUICK_SETTINGS: tuple[str, ...] = (
    "--games",
    "300",
    "--side-games",
    "100",
    "--probe-games",
    "100",
    "--ladder-games",
    "10",
    "--ladder-iterations",
    "100",
)
"""`cardlab report` settings of a lobby run: quick enough for a designer to wait for."""

ALLOWED_FLAGS = frozenset(
    {
        "--games",
        "--players",
        "--side-games",
        "--probe-games",
        "--ladder-games",
        "--ladder-iterations",
        "--workers",
        "--seed",
    }
)
"""Settings `cardlab serve --report-settings` may pass on (each takes a whole number)."""
ZERO_OK = frozenset({"--ladder-games", "--seed"})

FILES = {
    "report.html": "text/html; charset=utf-8",
    "report.json": "application/json",
    "summary.md": "text/markdown; charset=utf-8",
}
"""The files of a report that are served, with their content types."""

REPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'"
"""The report HTML is self-contained (inline CSS, plots as data: URIs) and has no script."""


def parse_settings(text: str | None) -> tuple[str, ...]:
    """`"--games 20 --ladder-games 0"` -> validated argv for `cardlab report`."""
    if text is None:
        return QUICK_SETTINGS
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise CardlabError(f"--report-settings {text!r}: {exc}") from None
    if len(words) % 2:
        raise CardlabError(f"--report-settings {text!r}: expected pairs of --flag NUMBER")
    out: list[str] = []
    for flag, value in zip(words[::2], words[1::2], strict=True):
        if flag not in ALLOWED_FLAGS:
            allowed = ", ".join(sorted(ALLOWED_FLAGS))
            raise CardlabError(f"--report-settings: {flag!r} is not allowed (allowed: {allowed})")
        if not value.isdigit():
            raise CardlabError(f"--report-settings: {flag} needs a whole number, not {value!r}")
        if int(value) == 0 and flag not in ZERO_OK:
            raise CardlabError(f"--report-settings: {flag} must be at least 1")
        out += [flag, value]
    return tuple(out)


def lab_games() -> list[str]:
    """Games the playtest lab can report on."""
    from cardlab.lab.gate import all_games

    return all_games()


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:500] if lines else ""


class RunRefused(CardlabError):
    """A run that may not start now (already running, unknown game)."""


MAX_QUEUE = 3
"""Runs that may wait behind the one running."""


def operator_allowed(authorization: str | None, operator_token: str) -> str | None:
    """None when an `Authorization: Bearer T` header carries the operator token, else
    why not (compared as SHA-256 digests in constant time)."""
    if not authorization:
        return (
            "starting a playtest run needs the operator token (the one `cardlab serve` "
            "printed), sent as 'Authorization: Bearer TOKEN'"
        )
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return "the Authorization header must be 'Bearer TOKEN' (the operator token)"
    given = hashlib.sha256(token.strip().encode("utf-8", "replace")).digest()
    wanted = hashlib.sha256(operator_token.encode("utf-8")).digest()
    if not operator_token or not hmac.compare_digest(given, wanted):
        return "that is not this server's operator token"
    return None


class Reports:
    """The reports directory of one server and the runs it started."""

    def __init__(
        self,
        root: str | Path,
        games: list[str],
        settings: tuple[str, ...] = QUICK_SETTINGS,
        titles: dict[str, str] | None = None,
    ) -> None:
        self.root = Path(root).resolve()
        self.titles = titles or {}
        known = set(lab_games())
        self.games = [g for g in games if g in known]
        self.settings = settings
        self._runs: dict[str, dict[str, Any]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.queue: list[str] = []
        """Games waiting for their run: one run at a time, so the tables keep a core."""
        self._procs: dict[str, asyncio.subprocess.Process] = {}
        self._cache: dict[str, tuple[float, dict[str, Any] | None]] = {}
        self.max_queue = MAX_QUEUE
        self.command = [sys.executable, "-m", "cardlab.cli", "report"]
        """The report command (a test swaps in a stand-in); GAME and flags follow."""
        self._recover()

    def _recover(self) -> None:
        """Put back a report a stopped swap left aside, and drop half-written runs."""
        for game in self.games:
            final, old = self.root / game, self.root / f".{game}.old"
            with contextlib.suppress(OSError):
                if old.is_dir() and not final.exists():
                    old.rename(final)
                    log.warning("playtest report of %s restored after an interrupted swap", game)
            shutil.rmtree(old, ignore_errors=True)
            shutil.rmtree(self.root / f".{game}.running", ignore_errors=True)

    # --- files ------------------------------------------------------------------
    def file(self, game: str, name: str) -> Path | None:
        """The path of a servable report file, or None (unknown game or file, outside root)."""
        if game not in self.games or name not in FILES:
            return None
        path = (self.root / game / name).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return path

    def latest(self, game: str) -> dict[str, Any] | None:
        """The latest finished report's report.json, or None."""
        path = self.file(game, "report.json")
        if path is None:
            return None
        try:
            mtime = path.stat().st_mtime
            cached = self._cache.get(game)
            if cached is None or cached[0] != mtime:
                cached = (mtime, json.loads(path.read_text(encoding="utf-8")))
                self._cache[game] = cached
            return cached[1]
        except (OSError, json.JSONDecodeError):
            return None

    # --- status -----------------------------------------------------------------
    def status(self, game: str) -> dict[str, Any]:
        run = dict(self._runs.get(game, {"state": "idle"}))
        if game in self.queue:
            run["position"] = self.queue.index(game) + 1
        report = self.file(game, "report.html")
        run["game"] = game
        run["report"] = f"/reports/{game}/report.html" if report else None
        run["report_at"] = _iso(report.stat().st_mtime) if report else None
        rep = self.latest(game) if report else None
        if rep is not None:
            claims = rep.get("claims", [])
            run["games_played"] = rep.get("games_played")
            run["verdicts"] = verdict_counts(claims)
            run["invariants"] = sum(1 for c in claims if c.get("kind") == "invariant")
        return run

    def all_status(self) -> dict[str, Any]:
        running = [g for g, r in self._runs.items() if r.get("state") == "running"]
        return {
            "settings": " ".join(self.settings),
            "running": running[0] if running else None,
            "queue": list(self.queue),
            "games": {g: self.status(g) for g in self.games},
        }

    # --- runs -------------------------------------------------------------------
    def start(self, game: str) -> dict[str, Any]:
        """Start a fresh report of `game` in the background; refuse a second one."""
        if game not in self.games:
            raise RunRefused(
                f"no playtest lab for {game!r}; reports exist for: {', '.join(self.games)}"
            )
        current = self._runs.get(game)
        if current is not None and current["state"] == "running":
            raise RunRefused(
                f"a playtest of {game} is already running (started {current['started']}); "
                "wait for it to finish"
            )
        if game in self.queue:
            raise RunRefused(
                f"a playtest of {game} is already queued (place {self.queue.index(game) + 1})"
            )
        now = _iso(dt.datetime.now().timestamp())
        if any(r.get("state") == "running" for r in self._runs.values()):
            if len(self.queue) >= self.max_queue:
                raise RunRefused(
                    f"{len(self.queue)} playtest runs are already waiting (the limit); "
                    "try again when one has finished"
                )
            self.queue.append(game)
            self._runs[game] = {"state": "queued", "queued": now}
        else:
            self._begin(game)
        return self.status(game)

    def _begin(self, game: str) -> None:
        self._runs[game] = {"state": "running", "started": _iso(dt.datetime.now().timestamp())}
        self._tasks[game] = asyncio.get_running_loop().create_task(self._run_then_next(game))

    async def _run_then_next(self, game: str) -> None:
        try:
            await self._run(game)
        finally:
            self._tasks.pop(game, None)
            if self.queue and not self._stopping:
                self._begin(self.queue.pop(0))

    _stopping = False

    async def _run(self, game: str) -> None:
        run = self._runs[game]
        work = self.root / f".{game}.running"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            shutil.rmtree(work, ignore_errors=True)
            cmd = [*self.command, game, "--out", str(work)]
            proc = await asyncio.create_subprocess_exec(
                *cmd,
                "--quiet",
                *self.settings,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # its own process group: stop() ends its workers too
            )
            self._procs[game] = proc
            with contextlib.suppress(OSError):  # the tables come first
                os.setpriority(os.PRIO_PROCESS, proc.pid, 10)
            out, err = await proc.communicate()
            if proc.returncode != 0 or not (work / "report.html").is_file():
                text = err.decode(errors="replace") or out.decode(errors="replace")
                raise RuntimeError(_last_line(text) or f"report exited with {proc.returncode}")
            final = self.root / game
            old = self.root / f".{game}.old"
            shutil.rmtree(old, ignore_errors=True)
            if final.exists():
                final.rename(old)
            work.rename(final)
            shutil.rmtree(old, ignore_errors=True)
            run.update(state="done", finished=_iso(dt.datetime.now().timestamp()))
            log.info("playtest report of %s done", game)
        except asyncio.CancelledError:
            run.update(state="failed", error="the server stopped during the run")
            raise
        except Exception as exc:  # noqa: BLE001 - any failure is shown in the lobby
            # The lobby is public: the error line must not show the server's paths.
            error = "the server stopped during the run" if self._stopping else scrub(str(exc))
            run.update(state="failed", finished=_iso(dt.datetime.now().timestamp()), error=error)
            log.warning("playtest report of %s failed: %s", game, exc)
        finally:
            self._procs.pop(game, None)
            shutil.rmtree(work, ignore_errors=True)

    def pids(self) -> list[int]:
        """Process ids of the runs in progress (for the shutdown test)."""
        return [p.pid for p in self._procs.values()]

    async def stop(self) -> None:
        """Stop runs in progress (the server is shutting down): each run's whole process
        group is sent SIGTERM, then SIGKILL if it is still there a moment later."""
        self._stopping = True
        self.queue.clear()
        procs = list(self._procs.values())
        for proc in procs:
            _signal_group(proc.pid, signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 3.0)
            _signal_group(proc.pid, signal.SIGKILL)  # whatever of the group is left
        for task in list(self._tasks.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- the claims gate ----------------------------------------------------------
    def gate_html(self) -> str:
        """One page: each game's world-class verdict (its experience against the reference
        bands, the metrics outside with their evidence and a replayable game) and its claim
        verdicts, from its latest report, rendered by the lab's template engine so every
        field of report.json is escaped, whatever its type."""
        from cardlab.lab.html import render_gate

        games: list[dict[str, Any]] = []
        for game in self.games:
            rep = self.latest(game)
            title = self.titles.get(game) or str((rep or {}).get("title", game))
            if not isinstance(rep, dict):
                games.append({"game": game, "title": title, "report": None})
                continue
            claims = [c for c in rep.get("claims", []) if isinstance(c, dict)]
            counts = verdict_counts(claims)
            invariants = [c for c in claims if c.get("kind") == "invariant"]
            broken = sum(1 for c in invariants if c.get("verdict") == "fails")
            summary = "design claims: " + ", ".join(
                f"{n} {v.replace('_', ' ')}" for v, n in counts.items()
            )
            if invariants:
                summary += (
                    f"; {len(invariants)} engine invariants (regression checks, not findings)"
                    + (f", {broken} broken" if broken else "")
                )
            when = self.status(game)["report_at"] or ""
            games.append(
                {
                    "game": game,
                    "title": title,
                    "report": rep,
                    "when": when.replace("T", " ").replace("+00:00", " UTC"),
                    "summary": summary,
                    "claims": [
                        {
                            "id": c.get("id"),
                            "verdict": c.get("verdict"),
                            "text": c.get("text", ""),
                            "mark": VERDICTS.get(str(c.get("verdict")), "?"),
                            "css": _verdict_class(c),
                        }
                        for c in claims
                    ],
                }
            )
        return render_gate(games)


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pid, sig)


VERDICTS = {"holds": "✔", "fails": "✘", "needs_data": "…", "untestable": "?"}
"""A mark beside each verdict word, so the verdict never rests on colour alone."""


def verdict_counts(claims: list[dict[str, Any]]) -> dict[str, int]:
    """Verdicts of the design claims only: an invariant (true by the engine's
    construction) is a regression check and never counts among claims holding."""
    design = [c for c in claims if c.get("kind") != "invariant"]
    return {v: sum(1 for c in design if c.get("verdict") == v) for v in VERDICTS}


def _verdict_class(claim: dict[str, Any]) -> str:
    v = str(claim.get("verdict"))
    return f"v-{v}" if v in VERDICTS else "v-unknown"
