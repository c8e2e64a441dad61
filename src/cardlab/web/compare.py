"""The design page's "compare with ...": two designs of a game (two saved versions, or a
version and the cards as written) played as a paired A/B in the background, with a
progress feed, and the result: the lab's comparison report, and the two arms' claims
and experience side by side.

A comparison is a job: `CompareJobs.start` writes each arm's card file into the job's
directory (`<database dir>/design-compare/<job>/`, as the version keeps them in
`design_versions`) with `job.json`, and runs `python -m cardlab.web.compare_run JOB_DIR`
(web/compare_run.py) in its own process group at a lower CPU priority, so the tables
keep their core. Its stdout is the progress feed (`@progress {...}` lines: a run of games
and its total, games done, the stage); the job's status counts games done against the
total the last comparison of the game played at that size (the first one guesses, and
says the total is estimated). When it succeeds the job's directory holds the lab's
report (`report/report.html`, `report.json`, `summary.md`) and `result.json`, and each
arm that is a saved version keeps its claims' verdicts in the database
(`Designs.record_verdicts`), for the versions list.

The lab compares one changed thing on the same seeds: card files (`--compare cards=A,B`)
under the same rule options, or one rule option under the same cards. Two designs that
differ in their cards and in their options, or in two options, are refused with the
difference named; so are the same design twice.

Bounds: one comparison runs at a time on a server (a second is refused while it runs,
409), each plays `MIN_GAMES`..`MAX_GAMES` games a configuration, and the last
`MAX_KEPT` finished comparisons are kept (older ones deleted, with their files).

Everything here is the operator's: starting and reading a job take the operator token
(designer.py). The report page itself is served at `/design/<game>/compare/<job>/<file>`
to whoever holds the job's id: a random 16-byte name only the status (the operator's)
gives out, so it opens as a plain link in a new tab, where no Authorization header goes."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import json
import logging
import math
import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cardlab.core.errors import CardlabError
from cardlab.core.registry import game_info
from cardlab.web.design import VERDICTS, DesignRefused, Designs
from cardlab.web.offers import scrub

log = logging.getLogger("cardlab.web.compare")

AS_WRITTEN = "as written"
MIN_GAMES = 10
MAX_GAMES = 1000
"""Games per configuration of a comparison: enough to read, few enough to wait for."""
DEFAULT_GAMES = 200
MAX_RUNNING = 1
"""Comparisons running at once on a server (each uses every core it is given)."""
MAX_KEPT = 8
"""Finished comparisons kept with their reports (the oldest go first)."""
GAMES_PER_SIZE = 32.0
"""The first comparison of a game guesses it plays about this many runs of `games`
games (the main run, the claims' probes, each player count, the arms, arm B's claims);
later ones use what the last one of that game played."""
REPORT_FILES = {
    "report.html": "text/html; charset=utf-8",
    "report.json": "application/json",
    "summary.md": "text/markdown; charset=utf-8",
}
_JOB_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
MARK = "@progress "


class CompareRefused(CardlabError):
    """A comparison that cannot start: `status` is the HTTP status that says why."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def _arm_value(v: Any) -> int | str:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f'a version number (e.g. 3) or "{AS_WRITTEN}"')
    if isinstance(v, int):
        if v < 1:
            raise ValueError(f'a version number (e.g. 3) or "{AS_WRITTEN}", not {v}')
        return v
    if v.strip().lower() in (AS_WRITTEN, "as-written", "packaged", "default"):
        return AS_WRITTEN
    raise ValueError(f'a version number (e.g. 3) or "{AS_WRITTEN}", not {v[:40]!r}')


class CompareRequest(BaseModel):
    """`POST /api/design/<game>/compare`: arm A, arm B, games a configuration."""

    model_config = ConfigDict(extra="forbid")
    a: int | str = Field(description=f'a version number, or "{AS_WRITTEN}" (the packaged cards)')
    b: int | str = Field(description=f'a version number, or "{AS_WRITTEN}"')
    games: int = Field(
        DEFAULT_GAMES, ge=MIN_GAMES, le=MAX_GAMES, strict=True, description="games per arm"
    )

    @field_validator("a", "b", mode="before")
    @classmethod
    def _arm(cls, v: Any) -> int | str:
        return _arm_value(v)


def parse_compare(body: Any) -> CompareRequest:
    """The request, or CompareRefused (422) naming the field and what it may be."""
    if not isinstance(body, dict):
        raise CompareRefused('the request body is a JSON object: {"a": ..., "b": ..., "games": N}')
    try:
        return CompareRequest.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "body"
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if where == "games":
            msg += f" (a comparison plays {MIN_GAMES} to {MAX_GAMES} games an arm)"
        raise CompareRefused(f"compare field {where!r}: {msg}") from None


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:32] or "version"


def _option_text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


class CompareJobs:
    """The comparisons of one server: their directories, processes and status."""

    def __init__(self, root: str | Path, designs: Designs, catalog: Any) -> None:
        self.root = Path(root).resolve()
        self.designs, self.catalog = designs, catalog
        self.jobs: dict[str, dict[str, Any]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._procs: dict[str, asyncio.subprocess.Process] = {}
        self._results: dict[str, dict[str, Any]] = {}
        self.max_running = MAX_RUNNING
        self.command = [sys.executable, "-m", "cardlab.web.compare_run"]
        self._recover()

    # --- the directory ------------------------------------------------------------
    def _recover(self) -> None:
        """Finished comparisons come back after a restart; half-run ones are dropped."""
        with contextlib.suppress(OSError):
            self.root.mkdir(parents=True, exist_ok=True)
        if not self.root.is_dir():
            return
        for path in self.root.iterdir():
            if not path.is_dir() or not _JOB_ID.fullmatch(path.name):
                continue
            try:
                job = json.loads((path / "status.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                shutil.rmtree(path, ignore_errors=True)
                continue
            if job.get("state") == "done" and (path / "report" / "report.html").is_file():
                self.jobs[path.name] = job
            else:
                shutil.rmtree(path, ignore_errors=True)
        self._prune()

    def _plans(self) -> dict[str, float]:
        try:
            plans = json.loads((self.root / "plans.json").read_text(encoding="utf-8"))
            return {str(k): float(v) for k, v in plans.items()}
        except (OSError, ValueError, AttributeError, TypeError):
            return {}

    def _learn(self, game: str, games: int, played: int) -> None:
        plans = self._plans()
        plans[game] = round(played / max(1, games), 3)
        with contextlib.suppress(OSError):
            (self.root / "plans.json").write_text(json.dumps(plans), encoding="utf-8")

    def _prune(self) -> None:
        done = [j for j in self.jobs.values() if j.get("state") in ("done", "failed")]
        done.sort(key=lambda j: j.get("finished_ts", 0.0), reverse=True)
        for job in done[MAX_KEPT:]:
            self.jobs.pop(job["id"], None)
            self._results.pop(job["id"], None)
            shutil.rmtree(self.root / job["id"], ignore_errors=True)

    # --- the two arms -------------------------------------------------------------
    def _arm(self, game: str, which: int | str) -> dict[str, Any]:
        """An arm's card bytes, parsed cards, options (defaults left out) and names."""
        defaults = {o["name"]: o.get("default") for o in self.catalog.describe(game)["options"]}
        if which == AS_WRITTEN:
            path = game_info(game).asset("cards")
            if path is None:
                raise CompareRefused(f"{game} has no card file to compare")
            data, options = path.read_bytes(), {}
            label, short, stem = "the cards as written", "as written", "as-written"
        else:
            try:
                v = self.designs.get(game, int(which))
            except DesignRefused as exc:
                raise CompareRefused(str(exc), 404) from None
            data, options = v["cards"], json.loads(v["options"])
            label = f"version {v['id']} ({v['name']})"
            short, stem = f"version {v['id']}", f"v{v['id']}-{_slug(v['name'])}"
        kept = {k: val for k, val in options.items() if k not in defaults or defaults[k] != val}
        return {
            "which": which,
            "data": data,
            "doc": tomllib.loads(data.decode("utf-8")),
            "options": kept,
            "defaults": defaults,
            "label": label,
            "short": short,
            "file": f"{stem}.toml",
        }

    def plan(self, game: str, req: CompareRequest) -> dict[str, Any]:
        """What the lab compares: the cards (same options) or one option (same cards)."""
        if req.a == req.b:
            raise CompareRefused(f"a and b are both {_arm_name(req.a)}: pick two designs")
        a, b = self._arm(game, req.a), self._arm(game, req.b)
        same_cards = a["doc"] == b["doc"]
        keys = sorted(set(a["options"]) | set(b["options"]))
        differ = [
            k
            for k in keys
            if a["options"].get(k, a["defaults"].get(k))
            != b["options"].get(k, b["defaults"].get(k))
        ]
        if same_cards and not differ:
            raise CompareRefused(
                f"{a['label']} and {b['label']} are the same design (the same cards and "
                "rule options): nothing to compare"
            )
        if not differ:
            return {
                "what": "cards",
                "values": [a["file"], b["file"]],
                "options": {k: _option_text(v) for k, v in a["options"].items()},
                "cards": None,
                "arms": [a, b],
            }
        if same_cards and len(differ) == 1:
            (name,) = differ
            shared = {k: _option_text(v) for k, v in a["options"].items() if k != name}
            return {
                "what": name,
                "values": [
                    _option_text(a["options"].get(name, a["defaults"].get(name))),
                    _option_text(b["options"].get(name, b["defaults"].get(name))),
                ],
                "options": shared,
                "cards": "cards.toml",
                "arms": [a, b],
            }
        changed = ", ".join(differ)
        raise CompareRefused(
            f"{a['label']} and {b['label']} differ in "
            + ("their cards and in the rule option(s) " if not same_cards else "the rule options ")
            + f"{changed}: the lab compares one change on the same seeds (the cards under "
            "the same rules, or one rule option under the same cards); save a version that "
            "changes one of them and compare that"
        )

    # --- jobs ---------------------------------------------------------------------
    def running(self) -> list[dict[str, Any]]:
        return [j for j in self.jobs.values() if j["state"] == "running"]

    def start(self, game: str, req: CompareRequest) -> dict[str, Any]:
        """Start a comparison in the background; CompareRefused when it may not."""
        busy = self.running()
        if len(busy) >= self.max_running:
            cur = busy[0]
            raise CompareRefused(
                f"a comparison is already running ({cur['labels'][0]} against "
                f"{cur['labels'][1]} of {cur['game']}, {cur['done']} of about {cur['total']} "
                f"games); {self.max_running} runs at a time: wait for it to finish",
                409,
            )
        plan = self.plan(game, req)
        job_id = secrets.token_urlsafe(16)
        work = self.root / job_id
        a, b = plan["arms"]
        labels = [a["label"], b["label"]]
        try:
            work.mkdir(parents=True)
            if plan["what"] == "cards":
                (work / a["file"]).write_bytes(a["data"])
                (work / b["file"]).write_bytes(b["data"])
            else:
                (work / "cards.toml").write_bytes(a["data"])
            (work / "job.json").write_text(
                json.dumps(
                    {
                        "game": game,
                        "what": plan["what"],
                        "values": plan["values"],
                        "labels": labels,
                        "short": [a["short"], b["short"]],
                        "options": plan["options"],
                        "cards": plan["cards"],
                        "games": req.games,
                        "workers": None,
                    }
                ),
                encoding="utf-8",
            )
        except OSError as exc:
            shutil.rmtree(work, ignore_errors=True)
            log.warning("design comparison not started: %s", exc)
            raise CompareRefused(
                "the server cannot write the comparison's files (see its log)", 503
            ) from None
        ratio = self._plans().get(game)
        now = time.time()
        job: dict[str, Any] = {
            "id": job_id,
            "game": game,
            "state": "running",
            "a": a["which"],
            "b": b["which"],
            "labels": labels,
            "what": plan["what"],
            "values": plan["values"],
            "games": req.games,
            "done": 0,
            "estimate": math.ceil((ratio or GAMES_PER_SIZE) * req.games),
            "estimated": ratio is None,
            "run": None,
            "run_done": 0,
            "run_total": 0,
            "stage": "starting",
            "started": _iso(now),
            "started_ts": now,
        }
        job["total"] = job["estimate"]
        self.jobs[job_id] = job
        self._tasks[job_id] = asyncio.get_running_loop().create_task(self._run(job_id))
        return self.status(game, job_id) or {}

    async def _run(self, job_id: str) -> None:
        job, work = self.jobs[job_id], self.root / job_id
        tail: collections.deque[str] = collections.deque(maxlen=20)
        proc: asyncio.subprocess.Process | None = None
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.command,
                str(work),
                cwd=str(work),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # its own process group: ended whole
                env={**os.environ, "CARDLAB_COMPARE_PARENT": str(os.getpid())},
                limit=1 << 20,
            )
            self._procs[job_id] = proc
            with contextlib.suppress(OSError):  # the tables come first
                os.setpriority(os.PRIO_PROCESS, proc.pid, 10)
            assert proc.stdout is not None and proc.stderr is not None
            await asyncio.gather(self._read_feed(job, proc.stdout), _read_tail(proc.stderr, tail))
            code = await proc.wait()
            if code != 0 or not (work / "report" / "report.html").is_file():
                raise RuntimeError(_last_error(tail) or f"the comparison exited with {code}")
            self._learn(job["game"], job["games"], job["done"])
            job.update(state="done", total=job["done"], stage="done", estimated=False)
            self._keep_verdicts(job_id)
            log.info("design comparison %s of %s done", job_id[:6], job["game"])
        except asyncio.CancelledError:
            job.update(state="failed", error="the server stopped during the comparison")
            raise
        except Exception as exc:  # noqa: BLE001 - any failure is shown on the page
            job.update(state="failed", error=scrub(str(exc))[:500])
            log.warning("design comparison %s of %s failed: %s", job_id[:6], job["game"], exc)
        finally:
            if proc is not None and proc.returncode is None:
                _signal_group(proc.pid, signal.SIGTERM)
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(proc.wait(), 3.0)
                _signal_group(proc.pid, signal.SIGKILL)
            self._procs.pop(job_id, None)
            self._tasks.pop(job_id, None)
            finished = time.time()
            job.update(finished=_iso(finished), finished_ts=finished)
            job["elapsed_s"] = round(finished - job["started_ts"], 1)
            if job["state"] == "done":
                with contextlib.suppress(OSError):
                    (work / "status.json").write_text(json.dumps(job), encoding="utf-8")
            else:
                shutil.rmtree(work, ignore_errors=True)
            self._prune()

    def _keep_verdicts(self, job_id: str) -> None:
        """Each arm that is a saved version keeps its claims' verdicts in the database
        (design_verdicts, beside the versions), so the versions list shows them after
        the comparison's own files are pruned or the server restarts."""
        job, result = self.jobs[job_id], self.result(job_id)
        if not result:
            return
        claims = result.get("claims") or []
        for i, which in enumerate((job["a"], job["b"])):
            if which == AS_WRITTEN:
                continue
            counts = {k: 0 for k in VERDICTS}
            for claim in claims:
                arm = (claim.get("arms") or [None, None])[i]
                if arm and arm.get("verdict") in counts:
                    counts[arm["verdict"]] += 1
            try:
                self.designs.record_verdicts(
                    job["game"],
                    int(which),
                    job_id,
                    games=int(result.get("games", job["games"])),
                    against=job["labels"][1 - i],
                    counts=counts,
                    report=f"/design/{job['game']}/compare/{job_id}/report.html",
                )
            except Exception as exc:  # noqa: BLE001 - the comparison itself is done
                log.warning("verdicts of comparison %s not kept: %s", job_id[:6], exc)

    def kept(self, job_id: str) -> bool:
        """Whether a finished comparison's report is still kept (not pruned)."""
        job = self.jobs.get(job_id)
        return job is not None and job.get("state") == "done"

    async def _read_feed(self, job: dict[str, Any], stream: asyncio.StreamReader) -> None:
        async for raw in stream:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith(MARK):
                continue
            try:
                event = json.loads(line[len(MARK) :])
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            if "run" in event:
                job.update(run=str(event["run"])[:80], run_done=0, run_total=int(event["total"]))
            elif "done" in event:
                n = int(event["done"])
                job["done"] += n
                job["run_done"] += n
            elif "stage" in event:
                job["stage"] = str(event["stage"])[:120]
            left = max(0, job["run_total"] - job["run_done"])
            job["total"] = max(job["estimate"], job["done"] + left)

    # --- what the routes answer ------------------------------------------------------
    def status(self, game: str, job_id: str) -> dict[str, Any] | None:
        job = self.jobs.get(job_id)
        if job is None or job["game"] != game:
            return None
        out = {k: v for k, v in job.items() if not k.endswith("_ts")}
        out["report"] = None
        if job["state"] == "done":
            out["report"] = f"/design/{game}/compare/{job_id}/report.html"
            out["result"] = self.result(job_id)
        return out

    def listing(self, game: str) -> list[dict[str, Any]]:
        """The game's comparisons, newest first (without their results)."""
        jobs = [j for j in self.jobs.values() if j["game"] == game]
        jobs.sort(key=lambda j: j.get("started_ts", 0.0), reverse=True)
        out = []
        for j in jobs:
            s = {k: v for k, v in j.items() if not k.endswith("_ts")}
            s["report"] = (
                f"/design/{game}/compare/{j['id']}/report.html" if j["state"] == "done" else None
            )
            out.append(s)
        return out

    def result(self, job_id: str) -> dict[str, Any] | None:
        if job_id not in self._results:
            try:
                text = (self.root / job_id / "result.json").read_text(encoding="utf-8")
                self._results[job_id] = json.loads(text)
            except (OSError, ValueError):
                return None
        return self._results[job_id]

    def file(self, game: str, job_id: str, name: str) -> Path | None:
        """A finished comparison's report file, or None (unknown, running, outside)."""
        if not _JOB_ID.fullmatch(job_id) or name not in REPORT_FILES:
            return None
        job = self.jobs.get(job_id)
        if job is None or job["game"] != game or job["state"] != "done":
            return None
        path = (self.root / job_id / "report" / name).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return path

    def pids(self) -> list[int]:
        return [p.pid for p in self._procs.values()]

    async def stop(self) -> None:
        """End every comparison in progress (the server is stopping)."""
        for task in list(self._tasks.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _arm_name(which: int | str) -> str:
    return "the cards as written" if which == AS_WRITTEN else f"version {which}"


async def _read_tail(stream: asyncio.StreamReader, tail: collections.deque[str]) -> None:
    async for raw in stream:
        line = raw.decode("utf-8", "replace").rstrip()
        if line.strip():
            tail.append(line[:500])


def _last_error(tail: collections.deque[str]) -> str:
    """The line that says what went wrong: an `error:` line, else the last one."""
    lines = list(tail)
    for line in reversed(lines):
        if line.startswith("error:") or "Error:" in line:
            return line.removeprefix("error: ").strip()
    return lines[-1].strip() if lines else ""


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pid, sig)


def default_root(store_path: str) -> Path:
    """Comparisons live beside the database (a private temporary one for `:memory:`)."""
    if store_path == ":memory:":
        return Path(tempfile.mkdtemp(prefix="cardlab-compare-"))
    return Path(store_path).resolve().parent / "design-compare"
