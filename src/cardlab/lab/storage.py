"""Runs on disk: one Parquet file per run, one row per game, read with DuckDB.

A file is named by its run id (a hash of the spec, so re-running the same
spec replaces its file instead of duplicating rows); the spec and timing
travel in the file's key-value metadata. Any SQL over many runs is then one
`read_parquet('DIR/*.parquet')` away."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cardlab.lab.backends import RunResult
from cardlab.lab.simulate import GameRecord, SimSpec


def _schema():  # type: ignore[no-untyped-def]
    import pyarrow as pa

    counts = pa.map_(pa.string(), pa.int64())
    return pa.schema(
        [
            ("run_id", pa.string()),
            ("run_seed", pa.int64()),
            ("game", pa.string()),
            ("players", pa.int32()),
            ("options", pa.string()),
            ("agents", pa.list_(pa.string())),
            ("index", pa.int32()),
            ("seed", pa.int64()),
            ("cards", pa.string()),
            ("cards_sha256", pa.string()),
            ("first_player", pa.int32()),
            ("scores", pa.list_(pa.float64())),
            ("winners", pa.list_(pa.int32())),
            ("decisions", pa.int32()),
            ("turns", pa.int32()),
            ("rounds", pa.int32()),
            ("end_reason", pa.string()),
            ("tiebreak", pa.string()),
            ("acquired", pa.list_(pa.list_(pa.string()))),
            ("card_points", pa.list_(pa.map_(pa.string(), pa.float64()))),
            ("kind_decisions", counts),
            ("kind_legal", counts),
            ("kind_forced", counts),
            ("kind_extra_options", counts),
            ("kind_turns", counts),
            ("kind_noop", counts),
            ("seat_turns", pa.list_(pa.int32())),
            ("seat_noop", pa.list_(pa.int32())),
            ("seat_actions", pa.list_(counts)),
            ("dead_turns", pa.int32()),
            ("lead_changes", pa.int32()),
            ("eval_lead_changes", pa.int32()),
            ("winner_max_deficit", pa.float64()),
            ("decided_at", pa.float64()),
            ("branching_curve", pa.list_(pa.float64())),
            ("resource_curves", pa.map_(pa.string(), pa.list_(pa.float64()))),
            ("picks", pa.map_(pa.string(), pa.list_(pa.int32()))),
            ("point_sources", pa.list_(pa.map_(pa.string(), pa.float64()))),
            ("round_scores", pa.list_(pa.list_(pa.float64()))),
            ("tallies", pa.map_(pa.string(), pa.float64())),
            ("error", pa.string()),
        ]
    )


MAP_FIELDS = (
    "kind_decisions",
    "kind_legal",
    "kind_forced",
    "kind_extra_options",
    "kind_turns",
    "kind_noop",
    "resource_curves",
    "picks",
    "tallies",
)


def run_id(spec: SimSpec, backend: str = "local") -> str:
    """Stable id of a spec on a backend: same spec and backend, same id, same file.
    The backend is part of the id so a Ray run never overwrites the local run of
    the same spec in one `--out` (their records are equal, their timings are not)."""
    text = json.dumps(asdict(spec), sort_keys=True)
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    return f"{spec.game}-{spec.players}p-s{spec.seed}-{backend}-{digest}"


def _row(record: GameRecord, rid: str, run_seed: int) -> dict[str, Any]:
    row = record.to_row()
    row["run_id"], row["run_seed"] = rid, run_seed
    for name in MAP_FIELDS:
        row[name] = list(row[name].items())
    row["card_points"] = [list(seat.items()) for seat in row["card_points"]]
    row["seat_actions"] = [list(seat.items()) for seat in row["seat_actions"]]
    row["point_sources"] = [list(seat.items()) for seat in row["point_sources"]]
    return row


def write_run(result: RunResult, out_dir: str | Path) -> Path:
    """Write `result` to OUT_DIR/<run_id>.parquet and return the path."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rid = run_id(result.spec, result.backend)
    rows = [_row(r, rid, result.spec.seed) for r in result.records]
    meta = {
        "spec": json.dumps(asdict(result.spec), sort_keys=True),
        "elapsed_s": f"{result.elapsed_s:.3f}",
        "workers": str(result.workers),
        "backend": result.backend,
        "cards": result.spec.cards or "",
        "cards_sha256": result.spec.cards_sha256,
        "variant": result.spec.variant or "",
        "variant_sha256": result.spec.variant_sha256,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    schema = _schema().with_metadata({f"cardlab.{k}": v for k, v in meta.items()})
    table = pa.Table.from_pylist(rows, schema=schema)
    path = out / f"{rid}.parquet"
    pq.write_table(table, path)
    return path


def read_records(path: str | Path) -> list[GameRecord]:
    """The records of one stored run (the inverse of `write_run`)."""
    import pyarrow.parquet as pq

    rows = pq.read_table(path).to_pylist()
    fields = set(GameRecord.__dataclass_fields__)
    records = []
    for row in rows:
        for name in MAP_FIELDS:
            row[name] = dict(row.get(name) or [])
        row["card_points"] = [dict(seat) for seat in row["card_points"]]
        row["seat_actions"] = [dict(seat) for seat in row["seat_actions"]]
        row["point_sources"] = [dict(seat) for seat in row.get("point_sources") or []]
        records.append(GameRecord(**{k: v for k, v in row.items() if k in fields}))
    return records


def list_runs(directory: str | Path) -> list[dict[str, Any]]:
    """One summary per stored run in `directory`, via DuckDB."""
    import duckdb

    files = sorted(Path(directory).glob("*.parquet"))
    if not files:
        return []
    pattern = str(Path(directory) / "*.parquet")
    rows = duckdb.sql(
        f"""
        SELECT run_id, any_value(game) AS game, any_value(players) AS players,
               any_value(run_seed) AS seed, any_value(options) AS options,
               any_value(cards) AS cards, any_value(cards_sha256) AS cards_sha256,
               any_value(array_to_string(agents, ',')) AS agents, count(*) AS games,
               round(avg(decisions), 1) AS mean_decisions,
               count(*) FILTER (WHERE error IS NOT NULL) AS errors,
               any_value(filename) AS file
        FROM read_parquet('{pattern}', filename = true)
        GROUP BY run_id ORDER BY run_id
        """
    ).fetchall()
    cols = ["run_id", "game", "players", "seed", "options", "cards", "cards_sha256"]
    cols += ["agents", "games"]
    cols += ["mean_decisions", "errors", "file"]
    return [dict(zip(cols, row, strict=True)) for row in rows]
