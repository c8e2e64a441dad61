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

from cardlab.core import CardlabError
from cardlab.core.registry import all_infos
from cardlab.lab.backends import RunResult
from cardlab.lab.simulate import GameRecord, SimSpec


def _schema() -> Any:  # a pyarrow Schema (pyarrow is untyped)
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
            ("seat_decisions", pa.list_(pa.int32())),
            ("seat_forced", pa.list_(pa.int32())),
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
    relation = duckdb.sql(
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
    )
    assert relation is not None, "a SELECT always yields a relation"
    rows = relation.fetchall()
    cols = ["run_id", "game", "players", "seed", "options", "cards", "cards_sha256"]
    cols += ["agents", "games"]
    cols += ["mean_decisions", "errors", "file"]
    return [dict(zip(cols, row, strict=True)) for row in rows]


VIEWS = {
    "games": "one row a game: run, seed, seats, options, end reason, rounds, winners",
    "seats": "one row a seat a game: agent, points, rank, won, and the seat's own counters",
    "rounds": "one row a round boundary a game: every seat's points then, the sole leader",
    "curves": "one row a tenth of a game a resource: its mean over that tenth",
}
"""The views `cardlab runs DIR --sql` queries (docs/lab.md "Facts without code")."""


def _lowest_wins_games() -> list[str]:
    """Games whose fewest points win: a seat's rank counts from the bottom there."""
    try:
        return sorted(i.name for i in all_infos() if getattr(i, "lowest_wins", False))
    except Exception:  # a broken plugin must not stop a query over other games' runs
        return []


def connect_views(directory: str | Path) -> Any:
    """A DuckDB connection with the views of `VIEWS` over DIR/*.parquet.

    - `games`: run_id, game, players, run_seed, game_index, seed, seats (agents in seat
      order), options (JSON), cards, first_player, end_reason, rounds, turns, decisions,
      tiebreak, winners (seat numbers from 0), winner (the sole winner, NULL on a shared
      win), scores, lead_changes, eval_lead_changes, decided_at, winner_max_deficit, error.
    - `seats`: run_id, game, players, game_index, seed, seat (0 = first in seat order),
      agent, points, rank (1 = best; tied points share a rank; the fewest points rank
      first in a lowest-wins game), won, first (the seat that decided first), turns,
      noop_turns, cards_acquired, card_points, point_sources (a map: final-table column
      -> points), actions (a map: action kind -> times chosen).
    - `rounds`: run_id, game, game_index, seed, round (1 = after the first round), final
      (the last entry: the final scores), scores, leader (the seat alone on most points,
      NULL when tied).
    - `curves`: run_id, game, game_index, seed, resource (each of the game's `resources`
      hook's names, and `branching`: legal options), tenth (1..10), value.
    """
    import duckdb

    pattern = str(Path(directory) / "*.parquet").replace("'", "''")
    lowest = ", ".join("'" + g.replace("'", "''") + "'" for g in _lowest_wins_games())
    low = f"game IN ({lowest})" if lowest else "false"
    con = duckdb.connect()
    con.execute(f"CREATE VIEW raw AS SELECT * FROM read_parquet('{pattern}', union_by_name=true)")
    con.execute(
        """
        CREATE VIEW games AS SELECT run_id, game, players, run_seed, "index" AS game_index,
            seed, agents AS seats, options, cards, first_player, end_reason, rounds, turns,
            decisions, tiebreak, winners,
            CASE WHEN len(winners) = 1 THEN winners[1] END AS winner, scores,
            lead_changes, eval_lead_changes, decided_at, winner_max_deficit, error
        FROM raw
        """
    )
    con.execute(
        f"""
        CREATE VIEW seats AS
        WITH s AS (SELECT *, unnest(range(players)) AS seat FROM raw WHERE error IS NULL)
        SELECT run_id, game, players, "index" AS game_index, seed, seat,
            agents[seat + 1] AS agent, scores[seat + 1] AS points,
            1 + len(list_filter(scores, lambda x: CASE WHEN {low} THEN x < scores[seat + 1]
                                                 ELSE x > scores[seat + 1] END)) AS rank,
            list_contains(winners, seat) AS won, first_player = seat AS first,
            seat_turns[seat + 1] AS turns, seat_noop[seat + 1] AS noop_turns,
            len(acquired[seat + 1]) AS cards_acquired,
            coalesce(list_sum(map_values(card_points[seat + 1])), 0) AS card_points,
            point_sources[seat + 1] AS point_sources, seat_actions[seat + 1] AS actions
        FROM s
        """
    )
    con.execute(
        """
        CREATE VIEW rounds AS
        WITH r AS (
            SELECT run_id, game, "index" AS game_index, seed, round_scores,
                unnest(range(1, len(round_scores) + 1)) AS round
            FROM raw WHERE error IS NULL
        )
        SELECT run_id, game, game_index, seed, round, round = len(round_scores) AS final,
            round_scores[round] AS scores,
            CASE WHEN len(list_filter(round_scores[round],
                                      lambda x: x = list_max(round_scores[round]))) = 1
                 THEN list_position(round_scores[round], list_max(round_scores[round])) - 1
            END AS leader
        FROM r
        """
    )
    con.execute(
        """
        CREATE VIEW curves AS
        WITH named AS (
            SELECT run_id, game, "index" AS game_index, seed,
                unnest(map_keys(resource_curves)) AS resource,
                unnest(map_values(resource_curves)) AS points
            FROM raw WHERE error IS NULL
            UNION ALL
            SELECT run_id, game, "index", seed, 'branching', branching_curve
            FROM raw WHERE error IS NULL
        ), t AS (SELECT *, unnest(range(1, len(points) + 1)) AS tenth FROM named)
        SELECT run_id, game, game_index, seed, resource, tenth, points[tenth] AS value FROM t
        """
    )
    return con


def query(directory: str | Path, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run `sql` over the views of `connect_views`: (column names, rows). A bad query is
    a CardlabError with DuckDB's message and the views' names."""
    import duckdb

    if not sorted(Path(directory).glob("*.parquet")):
        raise CardlabError(f"no runs in {directory} (cardlab simulate ... --out {directory})")
    con = connect_views(directory)
    try:
        cur = con.execute(sql)
        cols = [d[0] for d in cur.description or []]
        return cols, cur.fetchall()
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0]
        raise CardlabError(f"--sql: {first} (views: {', '.join(VIEWS)})") from None
    finally:
        con.close()
