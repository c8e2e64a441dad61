"""All live tables of one server: creating them, restoring them from the
store at start-up, and fanning each change out to the sockets at a table."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.web import security
from cardlab.web.catalog import Catalog
from cardlab.web.store import Store, TableRecord
from cardlab.web.table import BotTurns, Table
from cardlab.web.views import player_view, seal

log = logging.getLogger("cardlab.web")

SEND_QUEUE = 64
"""Frames queued for one socket before it is considered stuck and dropped."""


@dataclass(eq=False)
class Connection:
    """One socket, bound at hello to one seat (or to the spectator view)."""

    send_text: Any
    table: Table | None = None
    seat: int | None = None
    role: str = "none"
    limiter: security.RateLimiter = field(default_factory=security.RateLimiter)
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    closed: bool = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            log.warning("dropping a socket that stopped reading")

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.closed:
                return
            await self.send_text(text)


class Hub:
    def __init__(
        self, store: Store, catalog: Catalog, bot_delay: float = 0.8, message_rate: float = 20.0
    ) -> None:
        self.store = store
        self.message_rate = message_rate
        self.catalog = catalog
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.sockets: dict[str, set[Connection]] = {}
        self.bot_turns = BotTurns()

    def new_limiter(self) -> security.RateLimiter:
        """Per socket: `message_rate` messages a second, bursts of twice that."""
        return security.RateLimiter(rate=self.message_rate, burst=2 * self.message_rate)

    # -- start and stop ---------------------------------------------------------------
    def restore(self) -> int:
        """Rebuild every stored table by replaying seed + options + action log."""
        for rec in self.store.load_tables():
            try:
                table = self._open(rec)
                table.replay_log()
            except Exception:
                log.exception("table %s could not be restored; it stays closed", rec.id)
                continue
            self.tables[rec.id] = table
        return len(self.tables)

    def start(self) -> None:
        for table in self.tables.values():
            table.start()

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.stop()

    def _open(self, rec: TableRecord) -> Table:
        game = self.catalog.load(rec.game, rec.players, rec.options)
        table = Table(
            rec, game, self.store, rec.settings.get("bot_delay", self.bot_delay), self.bot_turns
        )
        table.on_change = self.broadcast
        return table

    # -- creating a table -------------------------------------------------------------
    def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Validate a new-table request; returns the table id and the secret links."""
        if not isinstance(spec, dict):
            raise CardlabError("the request must be a JSON object")
        cls = self.catalog.game_class(spec.get("game"))
        players = spec.get("players", getattr(cls, "default_players", cls.min_players))
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise CardlabError('"options" must be an object of name: value')
        game = cls(players, **options)
        seats = _seat_specs(spec.get("seats"), game.num_players, spec.get("game"), self.catalog)
        turn_seconds = spec.get("turn_seconds", 0) or 0
        if not isinstance(turn_seconds, int | float) or not 0 <= turn_seconds <= 3600:
            raise CardlabError('"turn_seconds" must be between 0 (no timer) and 3600')
        settings: dict[str, Any] = {"turn_seconds": turn_seconds}
        delay = spec.get("bot_delay")
        if delay is not None:
            if not isinstance(delay, int | float) or not 0 <= delay <= 10:
                raise CardlabError('"bot_delay" must be between 0 and 10 seconds')
            settings["bot_delay"] = float(delay)
        rec = TableRecord(
            id=security.new_table_id(),
            game=cls.name if hasattr(cls, "name") else spec["game"],
            players=game.num_players,
            options=game.options,
            seed=security.new_seed(),
            seats=seats,
            settings=settings,
            created=time.time(),
        )
        tokens = {
            f"seat{i}": security.new_token() for i, s in enumerate(seats) if s["kind"] == "human"
        }
        tokens["spectator"] = security.new_token()
        tokens["host"] = security.new_token()
        self.store.create_table(rec, {role: security.hash_token(t) for role, t in tokens.items()})
        table = self._open(rec)
        self.tables[rec.id] = table
        table.start()
        return {"table": rec.id, "tokens": tokens}

    def check_token(self, table: Table, role: str, token: Any) -> bool:
        return security.token_matches(token, self.store.token_hash(table.id, role))

    # -- fan-out ----------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        assert conn.table is not None
        self.sockets.setdefault(conn.table.id, set()).add(conn)
        if conn.seat is not None:
            conn.table.connected[conn.seat] = conn.table.connected.get(conn.seat, 0) + 1

    def detach(self, conn: Connection) -> None:
        table = conn.table
        if table is None:
            return
        self.sockets.get(table.id, set()).discard(conn)
        if conn.seat is not None:
            table.connected[conn.seat] = max(0, table.connected.get(conn.seat, 0) - 1)

    def view_frame(self, table: Table, seat: int | None) -> str:
        return seal(table.state, seat, player_view(table.state, seat, table.public_info()))

    def send_view(self, conn: Connection) -> None:
        assert conn.table is not None
        conn.push(self.view_frame(conn.table, conn.seat))

    def send_error(self, conn: Connection, message: str) -> None:
        """Errors go through the same seal as views: they may name no hidden card."""
        payload = {"type": "error", "error": message}
        if conn.table is None:
            import json

            conn.push(json.dumps(payload))
        else:
            conn.push(seal(conn.table.state, conn.seat, payload))

    async def broadcast(self, table: Table) -> None:
        frames: dict[int | None, str] = {}
        for conn in list(self.sockets.get(table.id, ())):
            if conn.seat not in frames:
                frames[conn.seat] = self.view_frame(table, conn.seat)
            conn.push(frames[conn.seat])


def _seat_specs(raw: Any, players: int, game: Any, catalog: Catalog) -> list[dict[str, Any]]:
    """Check the per-seat choices: a human, or a bot of a known kind and strength."""
    from cardlab.agents import make_agent

    if raw is None:
        raw = [{"kind": "human"}] + [{"kind": "bot", "agent": "greedy"}] * (players - 1)
    if not isinstance(raw, list) or len(raw) != players:
        raise CardlabError(f'"seats" must list exactly {players} seats')
    seats = []
    for i, seat in enumerate(raw):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
            raise CardlabError(f'seat {i}: "kind" must be "human" or "bot"')
        name = str(seat.get("name") or "")[:24].strip()
        if seat["kind"] == "human":
            seats.append({"kind": "human", "name": name or f"Player {i}"})
            continue
        agent = seat.get("agent", "greedy")
        params = seat.get("params") or {}
        if not isinstance(params, dict) or set(params) - {"iterations"}:
            raise CardlabError(f'seat {i}: bots take only an "iterations" parameter')
        iterations = params.get("iterations")
        if iterations is not None and (
            not isinstance(iterations, int) or not 1 <= iterations <= 5000
        ):
            raise CardlabError(f"seat {i}: iterations must be 1..5000")
        make_agent(agent, seed=0, **params)  # raises a clear error for unknown kinds
        label = agent + (f" ({iterations} it.)" if iterations else "")
        seats.append(
            {"kind": "bot", "agent": agent, "params": params, "name": name or f"{label} bot"}
        )
    return seats
