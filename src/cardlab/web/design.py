"""The designer's page: a game's cards and rule levers, edited in the browser, kept as
named, dated versions, played at a table and printed, without a command line.

A version is a card file (TOML bytes, as `cardlab cards import` writes it from the
sheet the page edits) and the rule options it sets, checked by loading the game at
every player count before it is kept. Versions live in the server's database beside
the tables (`design_versions`), each with its difference from the one before (or from
the packaged cards for the first), so the designer sees what changed between nights.
When a comparison (web/compare.py) finishes, each arm that is a saved version keeps
its claims' verdicts (`design_verdicts`: how many hold, fail, need data, with the games
an arm, the date and the comparison's report), and the list shows each version's latest.
Everything here is the operator's: the routes that read or change versions take the
operator token (web/app.py).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardlab.core.errors import CardDataError, CardlabError
from cardlab.core.registry import game_info, load_game
from cardlab.sheets.sheet import SheetError, from_rows, pointed, sheet_to_toml, to_rows
from cardlab.web.store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS design_versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    cards BLOB NOT NULL,
    cards_sha256 TEXT NOT NULL,
    options TEXT NOT NULL,
    parent INTEGER,
    diff TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS design_verdicts (
    job TEXT NOT NULL,
    game TEXT NOT NULL,
    version INTEGER NOT NULL,
    at REAL NOT NULL,
    games INTEGER NOT NULL,
    against TEXT NOT NULL,
    holds INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    needs_data INTEGER NOT NULL,
    untestable INTEGER NOT NULL,
    report TEXT NOT NULL,
    PRIMARY KEY (job, version)
);
CREATE INDEX IF NOT EXISTS design_verdicts_version ON design_verdicts (game, version, at);
"""

VERDICTS = ("holds", "fails", "needs_data", "untestable")
"""The claims' verdicts a comparison counts for each arm that is a saved version."""


class DesignRequest(BaseModel):
    """A design as the page sends it: the card sheet's rows and the rule options."""

    model_config = ConfigDict(extra="forbid")
    rows: list[dict[str, str]] = Field(max_length=500)
    options: dict[str, Any] = Field(default_factory=dict)
    name: str = Field(default="", max_length=80)


class DesignRefused(CardlabError):
    """A design that cannot be kept or played: `problems` say where (row, column)."""

    def __init__(self, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


def packaged_doc(game: str) -> dict[str, Any]:
    path = game_info(game).asset("cards")
    if path is None:
        raise DesignRefused(f"game {game!r} has no card file to design with")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def sheet_of(doc: dict[str, Any]) -> dict[str, Any]:
    columns, rows = to_rows(doc)
    return {"columns": columns, "rows": rows}


def check_design(game: str, req: DesignRequest) -> tuple[bytes, dict[str, Any]]:
    """The card file bytes and the options of a design the game accepts at every player
    count; DesignRefused naming the sheet's row and column (or the option) otherwise."""
    template = packaged_doc(game)
    rows: list[dict[str, str | None]] = [dict(r) for r in req.rows]
    columns = list(dict.fromkeys(k for r in req.rows for k in r))
    text = _csv_text(columns, req.rows)
    try:
        doc = from_rows(rows, template, "the sheet")
    except SheetError as exc:
        raise DesignRefused(str(exc), _problems(exc)) from None
    data = sheet_to_toml(doc).encode("utf-8")
    info = game_info(game)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.toml"
        path.write_bytes(data)
        for players in range(info.min_players, info.max_players + 1):
            try:
                load_game(game, players, cards=str(path), **req.options)
            except CardDataError as exc:
                told = CardDataError(str(exc).replace(f"{path}: ", ""), exc.locations)
                err = pointed(told, text, "the sheet")
                raise DesignRefused(str(err), _problems(err)) from None
            except CardlabError as exc:  # an unknown option or a value it does not take
                raise DesignRefused(str(exc), [{"option": True, "message": str(exc)}]) from None
    return data, dict(req.options)


def _csv_text(columns: list[str], rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _problems(err: SheetError) -> list[dict[str, Any]]:
    """A refusal as the page marks it: each cell it names (sheet row, column)."""
    if not err.cells:
        return [{"message": str(err)}]
    return [{"row": r, "column": c, "message": str(err)} for r, c in err.cells]


def diff_docs(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two card files, card by card, in words."""
    out: list[str] = []
    for key in dict.fromkeys([*before, *after]):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            names_a = {str(e.get("name", i)): e for i, e in enumerate(a) if isinstance(e, dict)}
            names_b = {str(e.get("name", i)): e for i, e in enumerate(b) if isinstance(e, dict)}
            for name in names_a.keys() - names_b.keys():
                out.append(f"{key}: removed {name}")
            for name in names_b.keys() - names_a.keys():
                out.append(f"{key}: added {name}")
            for name in names_a.keys() & names_b.keys():
                ea, eb = names_a[name], names_b[name]
                for field in dict.fromkeys([*ea, *eb]):
                    if ea.get(field) != eb.get(field):
                        out.append(f"{key} {name}: {field} {ea.get(field)!r} -> {eb.get(field)!r}")
        else:
            out.append(f"{key}: {a!r} -> {b!r}")
    return sorted(out)


def diff_options(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [
        f"option {k}: {before.get(k, 'as written')!r} -> {after.get(k, 'as written')!r}"
        for k in sorted(set(before) | set(after))
        if before.get(k) != after.get(k)
    ]


class Designs:
    """A game's design versions in the server's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.run_script(SCHEMA)

    def save(self, game: str, req: DesignRequest) -> dict[str, Any]:
        """Check and keep a design as a new version; returns it with its diff."""
        name = " ".join(req.name.split())
        if not name:
            raise DesignRefused("a version needs a name (e.g. 'more Computers')")
        data, options = check_design(game, req)
        prev = self.latest(game)
        before_doc = tomllib.loads(prev["cards"].decode("utf-8")) if prev else packaged_doc(game)
        before_options = json.loads(prev["options"]) if prev else {}
        after_doc = tomllib.loads(data.decode("utf-8"))
        diff = diff_docs(before_doc, after_doc) + diff_options(before_options, options)
        self.store.run(
            "INSERT INTO design_versions (game, name, created, cards, cards_sha256, options, "
            "parent, diff) VALUES (?,?,?,?,?,?,?,?)",
            (
                game,
                name,
                time.time(),
                data,
                hashlib.sha256(data).hexdigest(),
                json.dumps(options),
                prev["id"] if prev else None,
                json.dumps(diff),
            ),
        )
        saved = self.latest(game)
        assert saved is not None
        return self.describe(saved)

    def latest(self, game: str) -> dict[str, Any] | None:
        rows = self.store.run(
            f"SELECT {_FIELDS} FROM design_versions WHERE game=? ORDER BY id DESC LIMIT 1", (game,)
        )
        return _row(rows[0]) if rows else None

    def get(self, game: str, version: int) -> dict[str, Any]:
        rows = self.store.run(
            f"SELECT {_FIELDS} FROM design_versions WHERE game=? AND id=?", (game, version)
        )
        if not rows:
            raise DesignRefused(f"no version {version} of {game}")
        return _row(rows[0])

    def versions(self, game: str) -> list[dict[str, Any]]:
        rows = self.store.run(
            f"SELECT {_FIELDS} FROM design_versions WHERE game=? ORDER BY id DESC", (game,)
        )
        return [self.describe(_row(r)) for r in rows]

    def record_verdicts(
        self,
        game: str,
        version: int,
        job: str,
        *,
        games: int,
        against: str,
        counts: dict[str, int],
        report: str,
        at: float | None = None,
    ) -> None:
        """Keep what a finished comparison found of `version`'s claims (one row a
        comparison and version: recording the same comparison again replaces it)."""
        self.store.run(
            "INSERT OR REPLACE INTO design_verdicts (job, game, version, at, games, against, "
            "holds, fails, needs_data, untestable, report) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                job,
                game,
                int(version),
                time.time() if at is None else float(at),
                int(games),
                against,
                *(int(counts.get(k, 0)) for k in VERDICTS),
                report,
            ),
        )

    def latest_verdicts(self, game: str, version: int) -> dict[str, Any] | None:
        """The latest comparison's verdicts of `version`, or None (never compared)."""
        rows = self.store.run(
            "SELECT job, at, games, against, holds, fails, needs_data, untestable, report "
            "FROM design_verdicts WHERE game=? AND version=? ORDER BY at DESC, rowid DESC "
            "LIMIT 1",
            (game, int(version)),
        )
        if not rows:
            return None
        job, at, games, against, *counts, report = rows[0]
        got = dict(zip(VERDICTS, (int(n) for n in counts), strict=True))
        return {
            "job": job,
            "at": round(float(at), 3),
            "date": time.strftime("%Y-%m-%d", time.gmtime(float(at))),
            "games": int(games),
            "against": against,
            **got,
            "claims": sum(got.values()),
            "report": report,
            "text": verdicts_text(got, int(games), float(at)),
        }

    def describe(self, v: dict[str, Any]) -> dict[str, Any]:
        """A version as the page lists it (no card bytes), with its latest verdicts."""
        verdicts = self.latest_verdicts(v["game"], v["id"])
        return {
            "id": v["id"],
            "name": v["name"],
            "created": round(v["created"], 3),
            "created_text": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(v["created"])),
            "cards_sha256": v["cards_sha256"],
            "options": json.loads(v["options"]),
            "parent": v["parent"],
            "diff": json.loads(v["diff"]),
            "verdicts": verdicts,
            "verdicts_text": verdicts["text"] if verdicts else NOT_COMPARED,
        }

    def page(self, game: str) -> dict[str, Any]:
        """What the design page opens with: the latest version's sheet (the packaged
        cards before any), its options, and every version."""
        latest = self.latest(game)
        doc = tomllib.loads(latest["cards"].decode("utf-8")) if latest else packaged_doc(game)
        return {
            "game": game,
            "sheet": sheet_of(doc),
            "options": json.loads(latest["options"]) if latest else {},
            "from": self.describe(latest) if latest else None,
            "versions": self.versions(game),
        }


NOT_COMPARED = "not yet compared"


def verdicts_text(counts: dict[str, int], games: int, at: float) -> str:
    """The list's line, e.g. "claims: 7 hold, 1 fails · 20 games an arm · 2026-12-03"."""
    words = {
        "holds": ("holds", "hold"),
        "fails": ("fails", "fail"),
        "needs_data": ("needs data", "need data"),
        "untestable": ("untestable", "untestable"),
    }
    parts = [
        f"{n} {words[k][0] if n == 1 else words[k][1]}"
        for k in VERDICTS
        if (n := int(counts.get(k, 0)))
    ]
    day = time.strftime("%Y-%m-%d", time.gmtime(at))
    return f"claims: {', '.join(parts) or 'none read'} · {games} games an arm · {day}"


_FIELDS = "id, game, name, created, cards, cards_sha256, options, parent, diff"


def _row(r: tuple[Any, ...]) -> dict[str, Any]:
    return dict(zip(_FIELDS.split(", "), r, strict=True))


def parse_design(body: Any) -> DesignRequest:
    try:
        return DesignRequest.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "body"
        raise DesignRefused(f"design field {where!r}: {err.get('msg', 'invalid')}") from None


# ---- what the routes answer (web/app.py wires them, behind the operator token) ---------
def page_payload(designs: Designs, catalog: Any, game: str) -> dict[str, Any]:
    """`GET /api/design/{game}`: the sheet, the options with their specs, the versions."""
    described = catalog.describe(game)
    return {
        **designs.page(game),
        "title": described["title"],
        "option_specs": described["options"],
    }


def print_version(designs: Designs, game: str, version: int) -> bytes:
    """The 9-up PDF of a version's cards and options (its rules sheet names the
    changes), named after the version on its cover through the card file's name."""
    from cardlab.printing.game_pdf import print_game  # the print extra: heavy, on demand

    v = designs.get(game, version)
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / f"{game}-version-{version}.toml"
        cards.write_bytes(v["cards"])
        out = print_game(
            game,
            cards=cards,
            out=Path(tmp) / "cards.pdf",
            options=json.loads(v["options"]),
            source=f"design version {version} ({v['name']}), cards {v['cards_sha256'][:12]}",
        )
        return out.read_bytes()


def play_request(designs: Designs, catalog: Any, game: str, version: int) -> dict[str, Any]:
    """The table a version opens: the designer in seat 0, greedy bots in the others, at
    the game's default player count, with the version's options."""
    v = designs.get(game, version)
    described = catalog.describe(game)
    players = int(described["default_players"])
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Designer"}]
    seats += [{"kind": "bot", "agent": "greedy"} for _ in range(players - 1)]
    return {"game": game, "players": players, "seats": seats, "options": json.loads(v["options"])}
