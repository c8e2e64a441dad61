"""`cardlab calibrate`: fit the time model's ranges on think times people recorded.

The browser table records each human decision (game, players, decision kind, number
of legal options, seconds) in its SQLite database (`decisions` table; read through
`cardlab.web.store.decision_times`). For each decision kind of the game with enough
records:

- forced moves (one option) give the `forced` range;
- the others are fitted as seconds = base + per_option x (options - 2, at least 0):
  `per_option` is the least-squares slope (not below 0), and the base's range runs
  from the 25th to the 75th percentile of (seconds - per_option x extra options):
  the quick and the slow half of the table's decisions.

Think times over `MAX_SECONDS` (someone left the table) are dropped. Kinds with fewer
than `MIN_RECORDS` records keep their declared (guessed) range, and the file's
`source` says which kinds were fitted, so the report can say "fitted on N decisions".
Round overheads are not decisions and stay as declared.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from cardlab.core import CardlabError
from cardlab.core.plugin import GameInfo
from cardlab.core.registry import game_info
from cardlab.lab.command_options import fail

MIN_RECORDS = 10
MAX_SECONDS = 300.0


def read_decisions(db_path: str | Path) -> list[dict[str, Any]]:
    """Recorded decisions from a table database, read by its documented schema (the
    web store's `decisions` table), so the lab needs nothing from the web."""
    if not Path(db_path).exists():
        raise CardlabError(f"--db {db_path}: no such database")
    uri = Path(db_path).resolve().as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return []
    try:
        rows = db.execute("SELECT game, players, kind, options, seconds FROM decisions").fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()
    keys = ("game", "players", "kind", "options", "seconds")
    return [dict(zip(keys, row, strict=True)) for row in rows]


def _quartiles(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive")
    return (round(max(0.0, q[0]), 2), round(max(0.0, q[2]), 2))


def _slope(xs: list[float], ys: list[float]) -> float:
    if len(set(xs)) < 2:
        return 0.0
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mx) ** 2 for x in xs)
    return max(0.0, num / den)


def fit(info: GameInfo, records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A `--time-model` file's contents fitted on `records` of `info`'s game."""
    known = {k.name for k in info.decision_kinds}
    mine = [
        r for r in records if r.get("game") == info.name and 0 <= float(r["seconds"]) <= MAX_SECONDS
    ]
    forced = [float(r["seconds"]) for r in mine if int(r["options"]) <= 1]
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for r in mine:
        if int(r["options"]) > 1 and r["kind"] in known:
            by_kind.setdefault(r["kind"], []).append(r)
    kinds: dict[str, Any] = {}
    used = 0
    for kind, rows in sorted(by_kind.items()):
        if len(rows) < MIN_RECORDS:
            continue
        extra = [max(0.0, float(r["options"]) - 2) for r in rows]
        secs = [float(r["seconds"]) for r in rows]
        b = _slope(extra, secs)
        base = [s - b * e for s, e in zip(secs, extra, strict=True)]
        kinds[kind] = {"seconds": list(_quartiles(base)), "per_option": [round(b, 3)] * 2}
        used += len(rows)
    out: dict[str, Any] = {"kinds": kinds}
    if len(forced) >= MIN_RECORDS:
        out["forced"] = list(_quartiles(forced))
        used += len(forced)
    guessed = sorted(known - set(kinds))
    source = f"fitted on {used} decisions" if used else "guessed"
    if used and guessed:
        source += f" ({', '.join(sorted(kinds))}); guessed for {', '.join(guessed)}"
    out["source"] = source
    out["fitted_on"] = used
    ignored = sorted({r["kind"] for r in mine} - known)
    if ignored:
        out["source"] += f"; ignored records of unknown kinds {', '.join(ignored)}"
    return out


def calibrate(
    game: str,
    db: Path = Path("cardlab.db"),
    out: Path | None = None,
) -> None:
    """Fit GAME's decision-time ranges on the think times recorded at the browser table."""
    try:
        info = game_info(game)
        model = fit(info, read_decisions(db))
    except CardlabError as exc:
        fail(exc)
    target = out or Path(f"time-model-{game}.json")
    target.write_text(json.dumps(model, indent=1) + "\n")
    typer.echo(
        f"{target}: {model['source']}. Use it with: cardlab report {game} --time-model {target}"
    )


def register(app: typer.Typer) -> None:
    def command(
        game: Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")],
        db: Annotated[Path, typer.Option(help="The browser table's database.")] = Path(
            "cardlab.db"
        ),
        out: Annotated[
            Path | None, typer.Option(help="Where to write the fitted time model (JSON).")
        ] = None,
    ) -> None:
        """Fit GAME's seconds-per-decision ranges on think times recorded at the browser table."""
        calibrate(game, db, out)

    app.command("calibrate")(command)
