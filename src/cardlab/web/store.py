"""Durable tables in SQLite (WAL). A table is stored as what makes it: game,
player count, rule options, seed, seat setup, hashed tokens and the numbered
action log. The live state is never stored; it is rebuilt by replaying the
log, so a restarted server restores every table exactly and the primary key
(table, seq) makes it impossible to record an action twice."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardDataError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    settings TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    table_id TEXT NOT NULL REFERENCES tables(id),
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, role)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS held (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    batch INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER,
    who TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS card_files (
    sha256 TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    kind TEXT NOT NULL,
    options INTEGER NOT NULL,
    seconds REAL NOT NULL,
    at REAL NOT NULL
);
"""
"""`held`: a seat's early choice in a simultaneous decision (secret, never sent to
another seat), kept until the engine reaches the seat, so a restart loses no move.
`chat`: a table's chat, numbered, the latest `CHAT_KEEP` kept (cleaned text; a
seat of None is the host).
`decisions`: each human decision's think time, for `cardlab calibrate`.

`tables.status` (added by `_migrate` to older databases): "live", "finished" or
"abandoned" (closed after `Limits.idle_*` with nobody connected); NULL only on a
table stored before statuses were kept (settled once at start-up). Only live tables
are rebuilt at start-up; the others are read-only and rebuilt on demand.
`tables.client`: the per-client key of whoever made the table (its cap survives a
restart).
`card_files`: the bytes of every card file a table was made with, by SHA-256; a
table's `settings.cards_sha256` names its file, so a restart (or a replay) deals
from the cards the table was made with, whatever the file on disk says now.
`settings.cards` keeps the path only to say which file it was.

`PRAGMA user_version` is the schema's version (`SCHEMA_VERSION`); `_migrate` brings
an older database up to it (new columns and tables; tables made before card data
was kept get it from their file once, at the first start that sees them)."""

SCHEMA_VERSION = 2

STATUS_COLUMNS = (("status", "TEXT"), ("closed", "REAL"), ("client", "TEXT"))
LIVE, FINISHED, ABANDONED = "live", "finished", "abandoned"
CHAT_KEEP = 200
"""Chat messages kept per table (older ones are deleted as new ones come)."""


@dataclass
class TableRecord:
    """Everything needed to rebuild a table (the seed never leaves the server)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    created: float = field(default_factory=time.time)
    status: str | None = LIVE
    client: str | None = None


@dataclass(frozen=True)
class ActionRecord:
    seq: int
    seat: int
    action: int
    by: str


class Store:
    """One SQLite connection used from the event loop thread (guarded by a lock
    so the benchmark's and tests' helper threads may read safely)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a killed process (our restart
        # promise); only an OS crash or power cut could lose the last commits.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._cards_dir: Path | None = None
        self._db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Bring a database made by an older server up to `SCHEMA_VERSION`: the status
        columns (version 1), the card files (version 2, made by SCHEMA's CREATE)."""
        with self._lock:
            have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            for name, kind in STATUS_COLUMNS:
                if name not in have:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
            self._db.execute("CREATE INDEX IF NOT EXISTS tables_status ON tables(status, created)")
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version < SCHEMA_VERSION:
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self._cards_dir is not None:
            shutil.rmtree(self._cards_dir, ignore_errors=True)
            self._cards_dir = None

    # -- card files ---------------------------------------------------------------------
    def put_cards(self, data: bytes) -> str:
        """Keep a card file's bytes (once per content); returns its SHA-256."""
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO card_files VALUES (?,?,?)", (digest, data, time.time())
            )
        return digest

    def card_data(self, digest: str) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT data FROM card_files WHERE sha256=?", (digest,)
            ).fetchone()
        return bytes(row[0]) if row else None

    def stage_cards(self, data: bytes) -> tuple[str, Path]:
        """A card file's bytes as a file the engines can load (they load by path),
        in this store's private directory, named by its SHA-256; (digest, path)."""
        digest = hashlib.sha256(data).hexdigest()
        if self._cards_dir is None:
            self._cards_dir = Path(tempfile.mkdtemp(prefix="cardlab-cards-"))
        path = self._cards_dir / f"{digest}.toml"
        if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            tmp = path.with_suffix(".part")
            tmp.write_bytes(data)
            tmp.replace(path)
        return digest, path

    def table_cards(self, rec: TableRecord) -> str | None:
        """The card file a stored table deals from: its stored bytes, staged (None for
        a table made with the game's own cards). A table stored before card data was
        kept gets its file's bytes now, once, and keeps them from then on."""
        digest = rec.settings.get("cards_sha256")
        if digest is None:
            path = rec.settings.get("cards")
            if not path:
                return None
            try:
                data = Path(path).read_bytes()
            except OSError as exc:
                raise CardDataError(f"table {rec.id}: card file {path} cannot be read") from exc
            digest = self.put_cards(data)
            rec.settings["cards_sha256"] = digest
            self.update_settings(rec.id, rec.settings)
        kept = self.card_data(digest)
        if kept is None:
            raise CardDataError(f"table {rec.id}: its card data ({digest[:12]}) is missing")
        return str(self.stage_cards(kept)[1])

    def games_with_cards(self, path: str | Path) -> set[str]:
        """The games of stored tables made with the card file at `path`."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT game FROM tables WHERE json_extract(settings, '$.cards') = ?",
                (str(Path(path).resolve()),),
            ).fetchall()
        return {str(r[0]) for r in rows}

    def journal_mode(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    def create_table(self, rec: TableRecord, token_hashes: dict[str, str]) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, game, players, options, seed, seats, settings, "
                "created, status, client) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    rec.id,
                    rec.game,
                    rec.players,
                    json.dumps(rec.options),
                    rec.seed - (1 << 64) if rec.seed >= 1 << 63 else rec.seed,  # 64 bits
                    json.dumps(rec.seats),
                    json.dumps(rec.settings),
                    rec.created,
                    rec.status or LIVE,
                    rec.client,
                ),
            )
            self._db.executemany(
                "INSERT INTO tokens VALUES (?,?,?)",
                [(rec.id, role, digest) for role, digest in token_hashes.items()],
            )

    def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self._lock:
            self._db.execute("UPDATE tables SET seats=? WHERE id=?", (json.dumps(seats), table_id))

    def append_action(self, table_id: str, seq: int, seat: int, action: int, by: str) -> None:
        """Commit one action; raises sqlite3.IntegrityError if `seq` is taken."""
        with self._lock:
            self._db.execute(
                "INSERT INTO actions VALUES (?,?,?,?,?,?)",
                (table_id, seq, seat, action, by, time.time()),
            )

    def update_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """A table's settings changed (a muted seat, the rematch it led to)."""
        with self._lock:
            self._db.execute(
                "UPDATE tables SET settings=? WHERE id=?", (json.dumps(settings), table_id)
            )

    def delete_last_action(self, table_id: str, seq: int, seat: int) -> bool:
        """Undo: delete action `seq` of `seat` if it is a human's and the log's last row,
        in one transaction; whether a row was deleted."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            top = self._db.execute(
                "SELECT MAX(seq) FROM actions WHERE table_id=?", (table_id,)
            ).fetchone()[0]
            if top != seq:
                return False
            cur = self._db.execute(
                "DELETE FROM actions WHERE table_id=? AND seq=? AND seat=? AND by='human'",
                (table_id, seq, seat),
            )
            return cur.rowcount == 1

    def add_chat(self, table_id: str, seat: int | None, who: str, text: str) -> dict[str, Any]:
        """Store one chat message (keeping the latest `CHAT_KEEP`); returns it."""
        at = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            top = self._db.execute(
                "SELECT MAX(n) FROM chat WHERE table_id=?", (table_id,)
            ).fetchone()[0]
            n = 0 if top is None else int(top) + 1
            self._db.execute(
                "INSERT INTO chat VALUES (?,?,?,?,?,?)", (table_id, n, seat, who, text, at)
            )
            self._db.execute(
                "DELETE FROM chat WHERE table_id=? AND n<=?", (table_id, n - CHAT_KEEP)
            )
        return {"n": n, "seat": seat, "who": who, "text": text, "at": round(at, 3)}

    def load_chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest `limit` chat messages of a table, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT n, seat, who, text, at FROM chat WHERE table_id=? ORDER BY n DESC LIMIT ?",
                (table_id, limit),
            ).fetchall()
        keys = ("n", "seat", "who", "text", "at")
        return [dict(zip(keys, r, strict=True)) for r in reversed(rows)]

    def replace_token(self, table_id: str, role: str, token_hash: str) -> None:
        """A new link for `role` (the host revoked the old one)."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO tokens VALUES (?,?,?)", (table_id, role, token_hash)
            )

    def hold(self, table_id: str, seat: int, batch: int, action: int) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO held VALUES (?,?,?,?)", (table_id, seat, batch, action)
            )

    def drop_held(self, table_id: str, seat: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM held WHERE table_id=? AND seat=?", (table_id, seat))

    def load_held(self, table_id: str) -> list[tuple[int, int, int]]:
        """(seat, batch, action) of each held choice."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, batch, action FROM held WHERE table_id=? ORDER BY seat", (table_id,)
            ).fetchall()
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    def record_decision(
        self, game: str, kind: str, options: int, seconds: float, players: int
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO decisions VALUES (?,?,?,?,?,?)",
                (game, players, kind, options, seconds, time.time()),
            )

    def token_hash(self, table_id: str, role: str) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT token_hash FROM tokens WHERE table_id=? AND role=?", (table_id, role)
            ).fetchone()
        return row[0] if row else None

    def load_tables(self, statuses: tuple[str | None, ...] | None = None) -> list[TableRecord]:
        """Stored tables, oldest first: all of them, or those with one of `statuses`
        (None in it: tables from before statuses were kept)."""
        args: tuple[str, ...]
        where, args = "", ()
        if statuses is not None:
            named = tuple(s for s in statuses if s is not None)
            parts = [f"status IN ({','.join('?' * len(named))})"] if named else []
            if None in statuses:
                parts.append("status IS NULL")
            where = " WHERE " + (" OR ".join(parts) or "0")
            args = named
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM tables{where} ORDER BY created", args
            ).fetchall()
        return [_record(r) for r in rows]

    def load_table(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE id=?", (table_id,)
            ).fetchone()
        return _record(row) if row else None

    def has_table(self, table_id: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM tables WHERE id=?", (table_id,)).fetchone()
        return row is not None

    def set_status(self, table_id: str, status: str) -> None:
        """A table finished or was abandoned (stamped with the time it was closed)."""
        closed = None if status == LIVE else time.time()
        with self._lock:
            self._db.execute(
                "UPDATE tables SET status=?, closed=? WHERE id=?", (status, closed, table_id)
            )

    def human_moved(self, table_id: str) -> bool:
        """Whether a person (not a bot or the turn timer) has made a move at the table."""
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM actions WHERE table_id=? AND by='human' LIMIT 1", (table_id,)
            ).fetchone()
        return row is not None

    def count_status(self) -> dict[str | None, int]:
        with self._lock:
            rows = self._db.execute("SELECT status, COUNT(*) FROM tables GROUP BY status")
            return {status: int(n) for status, n in rows.fetchall()}

    def load_actions(self, table_id: str) -> list[ActionRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, seat, action, by FROM actions WHERE table_id=? ORDER BY seq",
                (table_id,),
            ).fetchall()
        return [ActionRecord(*r) for r in rows]

    def count_tables(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    # -- for features with tables of their own (web/feedback.py) ---------------------------
    def run_script(self, script: str) -> None:
        """Run `script` (CREATE TABLE IF NOT EXISTS ...) on the store's database."""
        with self._lock:
            self._db.executescript(script)

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement on the store's connection under its lock; its rows."""
        with self._lock, self._db:
            return list(self._db.execute(sql, params).fetchall())


_COLUMNS = "id, game, players, options, seed, seats, settings, created, status, client"


def _record(r: Any) -> TableRecord:
    return TableRecord(
        r[0],
        r[1],
        r[2],
        json.loads(r[3]),
        r[4] % (1 << 64),  # a 64-bit seed is stored as SQLite's signed 64-bit INTEGER
        json.loads(r[5]),
        json.loads(r[6]),
        r[7],
        status=r[8],
        client=r[9],
    )


def decision_times(db_path: str | Path) -> list[dict[str, Any]]:
    """Every recorded human decision of a table database: game, players, kind,
    options (how many legal moves it had), seconds (think time), at (Unix time).

    For `cardlab calibrate`. Opens the database read-only; a database without
    records (or from before they were kept) gives an empty list."""
    uri = Path(db_path).resolve().as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return []
    try:
        rows = db.execute(
            "SELECT game, players, kind, options, seconds, at FROM decisions ORDER BY at"
        ).fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()
    keys = ("game", "players", "kind", "options", "seconds", "at")
    return [dict(zip(keys, row, strict=True)) for row in rows]
