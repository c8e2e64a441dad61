"""`python -m cardlab.web.compare_run JOB_DIR`: one design comparison of the design page,
in a process of its own (web/compare.py starts it, one at a time).

JOB_DIR holds `job.json` (written by `CompareJobs.start`) and the two arms' card files.
The comparison is `cardlab report GAME --cards A --compare cards=A,B` (or, when the two
designs differ in one rule option only, `--compare OPTION=a,b`) played through the lab's
own `start_report`, so the report page is the lab's: arm A's claims, both arms side by
side on the same seeds with their experience against the reference bands and the plots.
Then the claims are read once more under arm B on the same seeds (the report's claims are
its main run's, arm A's), and the two verdict lists go side by side in `result.json`
with the experience table and the comparison's plots, for the design page to draw.

Progress: every run of games the lab plays is announced on stdout as one line
`@progress {"run": LABEL, "total": N}`, then `@progress {"done": k}` as batches finish
(the lab's own progress bar is replaced for this process only: its rich bar on a pipe
shows nothing). Stages say what is being done between runs (`{"stage": ...}`).

The process leads its own process group (the server starts it so); it asks the kernel
for SIGTERM when the server that started it dies, and on SIGTERM it ends its whole group
(the lab's worker processes too), so a killed server leaves no games playing."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

MARK = "@progress "
"""The prefix of a progress line (anything else on stdout is not progress)."""

PR_SET_PDEATHSIG = 1


def emit(**event: Any) -> None:
    sys.stdout.write(MARK + json.dumps(event) + "\n")
    sys.stdout.flush()


PLAYED = [0]
"""Games played by this process so far (every run counted, a replayed one too)."""


class _Feed:
    """Stands in for the lab's progress bar (`backends._progress`): the same
    context manager, reporting on stdout instead of drawing."""

    def __init__(self, enabled: bool, label: str, total: int) -> None:
        self.label, self.total = label, total

    def __enter__(self) -> Callable[[int], None]:
        emit(run=self.label, total=self.total)

        def advance(n: int) -> None:
            PLAYED[0] += int(n)
            emit(done=int(n))

        return advance

    def __exit__(self, *exc: object) -> None:
        return None


def feed_progress() -> None:
    """Send every run's progress to stdout (the lab's bar, replaced in this process)."""
    from cardlab.lab import backends, skill

    for module in (backends, skill):
        if hasattr(module, "_progress"):
            module._progress = _Feed  # type: ignore[attr-defined]


def die_with_parent(parent: int) -> None:
    """SIGTERM when the server dies (Linux), and on SIGTERM the whole process group."""

    def end_group(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            os.killpg(os.getpgrp(), signal.SIGKILL)
        os._exit(143)

    signal.signal(signal.SIGTERM, end_group)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if parent and os.getppid() != parent:  # the server died before the request took
        end_group(signal.SIGTERM, None)


def short_claim(c: dict[str, Any]) -> dict[str, Any]:
    return {"verdict": c.get("verdict"), "note": str(c.get("note") or "")[:400]}


def claims_side_by_side(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row a claim: its words and each arm's verdict (a claim one arm lacks: None)."""
    by_b = {c["id"]: c for c in b}
    rows = []
    for c in a:
        other = by_b.pop(c["id"], None)
        rows.append(
            {
                "id": c["id"],
                "text": c.get("text", ""),
                "kind": c.get("kind", "design"),
                "arms": [short_claim(c), short_claim(other) if other else None],
            }
        )
    for c in by_b.values():
        rows.append(
            {
                "id": c["id"],
                "text": c.get("text", ""),
                "kind": c.get("kind", "design"),
                "arms": [None, short_claim(c)],
            }
        )
    return rows


def experience_side_by_side(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The comparison's experience table: each metric against its band, per arm (with
    its unit: a "share" reads as a percentage, anything else as a number)."""
    judged = [((v.get("experience") or {}).get("judged") or {}) for v in values]
    profile = ((values[0].get("experience") or {}).get("profile") or {}) if values else {}
    units = {k: m.get("unit", "") for k, m in (profile.get("metrics") or {}).items()}
    if not judged or not judged[0].get("metrics"):
        return []
    rows = []
    for metric in judged[0]["metrics"]:
        arms = []
        for j in judged:
            x = next((m for m in j.get("metrics", []) if m["metric"] == metric["metric"]), None)
            arms.append(
                None
                if x is None
                else {
                    "value": x.get("value"),
                    "interval": x.get("interval"),
                    "reading": x.get("reading"),
                    "evidence": x.get("evidence", ""),
                }
            )
        rows.append(
            {
                "metric": metric["metric"],
                "title": metric.get("title", metric["metric"]),
                "group": metric.get("group", ""),
                "band": metric.get("band", ""),
                "unit": units.get(metric["metric"], ""),
                "arms": arms,
            }
        )
    return rows


def comparison_plots(report: dict[str, Any], labels: list[str]) -> dict[str, str]:
    """The comparison's two charts (data: URIs), drawn by the lab's plot functions as
    the report draws them: the arms' figures side by side, and minutes per game."""
    from cardlab.lab import plots
    from cardlab.lab.findings import is_simultaneous

    c = report["compare"]
    values = [dict(v, value=label) for v, label in zip(c["values"], labels, strict=True)]
    out = {
        "compare": plots.side_by_side(
            values, "value", " vs ".join(labels), is_simultaneous(report)
        ),
        "minutes": plots.length_histogram(
            [
                {"label": label, "length": v["length"]}
                for v, label in zip(values, labels, strict=True)
            ],
            "minutes",
            "estimated minutes per game",
            "minutes (time model)",
        ),
    }
    return {k: v for k, v in out.items() if v}


def _fork(work: Callable[[], object]) -> int:
    """`work` in a forked child (no thread runs here between the lab's runs); its pid."""
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            work()
        except BaseException:  # noqa: BLE001 - the parent reports it
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    return pid


def _joined(pid: int) -> bool:
    """Whether the forked child ended well."""
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def run(job_dir: Path) -> dict[str, Any]:
    from cardlab.core.errors import CardlabError
    from cardlab.lab.claims import evaluate
    from cardlab.lab.reporting import save_report, start_report

    job = json.loads((job_dir / "job.json").read_text(encoding="utf-8"))
    what, values, labels = job["what"], list(job["values"]), list(job["labels"])
    games = int(job["games"])
    options = {str(k): str(v) for k, v in job["options"].items()}
    cards = values[0] if what == "cards" else job.get("cards")
    if what != "cards":
        options[what] = values[0]
    out = job_dir / "report"
    start = time.perf_counter()
    emit(stage=f"playing {labels[0]} and the comparison")
    ctx, report, _ = start_report(
        job["game"],
        out,
        games=games,
        side_games=games,
        probe_games=games,
        ablation_games=0,
        ladder_games=0,
        kingmaking_games=0,
        cards=cards,
        options=options,
        compare=(what, values),
        workers=job.get("workers"),
        progress=True,
    )
    emit(stage=f"checking the claims under {labels[1]}")
    # arm B's claims on the same seeds: the runs cache is kept (the comparison's arm-B
    # run is the main run of these claims), a game's own studies are not
    other = dataclasses.replace(
        ctx,
        cards=values[1] if what == "cards" else ctx.cards,
        options={**ctx.options, what: values[1]} if what != "cards" else dict(ctx.options),
        used=[],
        probe_errors=[],
        _studies={},
    )
    # The report's page (a dozen plots: seconds of one core) is written meanwhile by a
    # forked copy of this process, while arm B's claims play.
    writer = _fork(lambda: save_report(out, report, None))
    claims_b = evaluate(other)
    emit(stage="writing the report and its plots")
    if not _joined(writer) or not (out / "report.html").is_file():
        raise CardlabError("the report page was not written")
    result = {
        "game": job["game"],
        "what": what,
        "values": values,
        "labels": labels,
        "games": games,
        "primary": [
            p["primary"]["sentence"]
            for p in report["compare"].get("paired", [])
            if p.get("primary")
        ],
        "openings": [p.get("opening", "") for p in report["compare"].get("paired", [])],
        "claims": claims_side_by_side(report.get("claims", []), claims_b),
        "experience": experience_side_by_side(report["compare"]["values"]),
        "plots": comparison_plots(report, list(job.get("short") or labels)),
        "games_played": PLAYED[0],
        "elapsed_s": round(time.perf_counter() - start, 1),
    }
    (job_dir / "result.json").write_text(json.dumps(result, default=str), encoding="utf-8")
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cardlab.web.compare_run JOB_DIR", file=sys.stderr)
        return 2
    die_with_parent(int(os.environ.get("CARDLAB_COMPARE_PARENT", "0") or 0))
    feed_progress()
    job_dir = Path(argv[0]).resolve()
    os.chdir(job_dir)  # the arms are named by their card files, relative to here
    from cardlab.core.errors import CardlabError

    try:
        result = run(job_dir)
    except CardlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    emit(finished=True, games_played=result["games_played"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
