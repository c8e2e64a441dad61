"""All live tables of one server: creating them, restoring them from the
store at start-up, and fanning each change out to the sockets at a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.web import security
from cardlab.web.botpool import BotPool
from cardlab.web.catalog import Catalog
from cardlab.web.limits import Limits, PerClient
from cardlab.web.offers import Offers, scrub, stored_variant, variant_settings
from cardlab.web.store import Store, TableRecord
from cardlab.web.table import BotTurns, Table
from cardlab.web.views import player_view, seal

log = logging.getLogger("cardlab.web")

SEND_QUEUE = 64
"""Frames queued for one socket before it is considered stuck and dropped."""

REPLACED = 4409
"""Close code of a seat (or host) socket replaced by a newer one, or whose link was revoked."""


class TooMany(CardlabError):
    """A bound of `Limits` was reached; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 429, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


@dataclass(eq=False)
class Connection:
    """One socket, bound at hello to one seat (or to the spectator view or the host).

    Frames go out through `writer` in order, at most `frames_per_second` (bursts of
    twice that); a state frame that a newer one overtakes in the queue is skipped
    (frames are whole snapshots, so a slow or greedy socket loses nothing but
    intermediate pictures)."""

    send_text: Any
    close_socket: Any = None
    table: Table | None = None
    seat: int | None = None
    role: str = "none"
    limiter: security.RateLimiter = field(default_factory=security.RateLimiter)
    sync_limiter: security.RateLimiter = field(
        default_factory=lambda: security.RateLimiter(rate=1.0, burst=4.0)
    )
    frame_limiter: security.RateLimiter = field(
        default_factory=lambda: security.RateLimiter(rate=10.0, burst=20.0)
    )
    queue: asyncio.Queue[tuple[int, str] | None] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE)
    )
    closed: bool = False
    state_frames: int = 0
    sent: int = 0
    acting: bool = False
    """True while this socket's own message is handled: frames answering it are not
    held back by the frame budget (its messages are limited on the way in)."""

    def push(self, text: str, state: bool = False) -> None:
        if self.closed:
            return
        if state:
            self.state_frames += 1
        number = self.state_frames if state else 0
        try:
            self.queue.put_nowait((-number if self.acting else number, text))
        except asyncio.QueueFull:
            # A socket that stopped reading: drop what it missed and close it with a
            # reason (1013: try again), so its page reconnects and gets a fresh frame.
            log.warning("closing a socket that stopped reading")
            while not self.queue.empty():
                self.queue.get_nowait()
            self.close_with("this connection fell behind; reconnecting gets the table", 1013)

    def close_with(self, message: str, code: int) -> None:
        """Tell the client why, then close the socket (from the writer, after pending frames)."""
        payload = {"type": "error", "error": message, "fatal": True, "code": code}
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait((0, json.dumps(payload)))
            self.queue.put_nowait((code, ""))
        self.closed = True

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            number, text = item
            if not text:  # a close order
                if self.close_socket is not None:
                    with contextlib.suppress(Exception):
                        await self.close_socket(number)
                return
            urgent, number = number < 0, abs(number)
            if number and number < self.state_frames:
                continue  # a newer state frame is queued behind this one
            if not self.frame_limiter.allow() and not urgent:
                # Over budget: wait for the budget, unless a newer frame overtakes this one.
                while not self.frame_limiter.allow():
                    await asyncio.sleep(0.005)
                    if number and number < self.state_frames:
                        break
                else:
                    await self.send_text(text)
                    self.sent += 1
                continue
            await self.send_text(text)
            self.sent += 1


class Hub:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        bot_delay: float = 0.8,
        message_rate: float = 20.0,
        limits: Limits | None = None,
        offers: Offers | None = None,
    ) -> None:
        self.store = store
        self.message_rate = message_rate
        self.catalog = catalog
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.offers = offers or Offers(catalog)
        self.tables: dict[str, Table] = {}
        self.sockets: dict[str, set[Connection]] = {}
        self.holders: dict[tuple[str, str], Connection] = {}
        self.creators: dict[str, str] = {}
        self.creation = PerClient(self.limits.creates_per_minute, self.limits.create_burst)
        self.bot_turns = BotTurns()
        self.bot_pool = BotPool(self.limits.bot_workers)

    def new_connection(self, send_text: Any, close_socket: Any) -> Connection:
        """Per socket: `message_rate` messages a second (bursts of twice that), and
        the sync and frame budgets of `limits`."""
        lim = self.limits
        return Connection(
            send_text=send_text,
            close_socket=close_socket,
            limiter=security.RateLimiter(rate=self.message_rate, burst=2 * self.message_rate),
            sync_limiter=security.RateLimiter(
                rate=lim.syncs_per_second, burst=2 * lim.syncs_per_second
            ),
            frame_limiter=security.RateLimiter(
                rate=lim.frames_per_second, burst=2 * lim.frames_per_second
            ),
        )

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
        self.bot_pool.shutdown()

    def _open(self, rec: TableRecord) -> Table:
        game = self.offers.make(
            rec.game,
            rec.players,
            rec.options,
            stored_variant(rec.settings),
            cards=rec.settings.get("cards"),
        )
        table = Table(
            rec,
            game,
            self.store,
            rec.settings.get("bot_delay", self.bot_delay),
            self.bot_turns,
            self.bot_pool,
        )
        table.on_change = self.broadcast
        table.on_private = self.send_seat
        return table

    # -- creating a table -------------------------------------------------------------
    def live_tables(self, client: str | None = None) -> int:
        return sum(
            1
            for tid, t in self.tables.items()
            if not t.state.is_terminal() and (client is None or self.creators.get(tid) == client)
        )

    def create(self, spec: Any, client: str = "local") -> dict[str, Any]:
        """Validate a new-table request; returns the table id and the secret links.
        Every error text is safe to send: it names the field, never a server path."""
        try:
            return self._create(spec, client)
        except TooMany:
            raise
        except CardlabError as exc:
            raise CardlabError(scrub(str(exc), self.offers.known_paths())) from None

    def _create(self, spec: Any, client: str) -> dict[str, Any]:
        if not isinstance(spec, dict):
            raise CardlabError("the request must be a JSON object")
        unknown = sorted(set(spec) - SPEC_KEYS)
        if unknown:
            raise CardlabError(
                f"unknown field {str(unknown[0])[:40]!r}; a table request has "
                + ", ".join(sorted(SPEC_KEYS))
            )
        lim = self.limits
        if self.live_tables() >= lim.max_tables:
            raise TooMany(
                f"the server is full ({lim.max_tables} live tables); try again later", 503, 60
            )
        if self.live_tables(client) >= lim.tables_per_client:
            raise TooMany(
                f"you already have {lim.tables_per_client} unfinished tables on this server; "
                "finish one first"
            )
        name = spec.get("game")
        cls = self.catalog.game_class(name)
        game_name = cls.name if hasattr(cls, "name") else str(name)
        players = spec.get("players", getattr(cls, "default_players", cls.min_players))
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise CardlabError('"options" must be an object of name: value')
        variant = self.offers.variant(game_name, spec.get("variant"))
        game = self.offers.make(game_name, players, options, variant)
        seats = _seat_specs(spec.get("seats"), game.num_players, lim.max_bot_iterations)
        turn_seconds = spec.get("turn_seconds", 0) or 0
        if (
            not isinstance(turn_seconds, int | float)
            or isinstance(turn_seconds, bool)
            or not 0 <= turn_seconds <= 3600
        ):
            raise CardlabError('"turn_seconds" must be between 0 (no timer) and 3600')
        settings: dict[str, Any] = {"turn_seconds": turn_seconds, **variant_settings(variant)}
        cards = self.offers.cards.get(game_name)
        if cards is not None:
            settings["cards"] = str(cards)
        delay = spec.get("bot_delay")
        if delay is not None:
            if (
                not isinstance(delay, int | float)
                or isinstance(delay, bool)
                or not 0 <= delay <= 10
            ):
                raise CardlabError('"bot_delay" must be between 0 and 10 seconds')
            settings["bot_delay"] = float(delay)
        # Only a valid request spends the client's creation budget.
        if not self.creation.allow(client):
            raise TooMany(
                f"too many new tables from your address (limit {lim.creates_per_minute:g} a "
                "minute); wait a moment",
                429,
                self.creation.retry_after(client),
            )
        rec = TableRecord(
            id=security.new_table_id(),
            game=game_name,
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
        self.creators[rec.id] = client
        table.start()
        return {"table": rec.id, "tokens": tokens}

    def check_token(self, table: Table, role: str, token: Any) -> bool:
        return security.token_matches(token, self.store.token_hash(table.id, role))

    # -- seats and links --------------------------------------------------------------
    def attach(self, conn: Connection) -> str | None:
        """Register a bound socket. A seat or the host has one live socket: a newer one
        replaces the older, which is told why. Returns a refusal (spectators full)."""
        table = conn.table
        assert table is not None
        if conn.role == "spectator":
            watching = sum(1 for c in self.sockets.get(table.id, ()) if c.role == "spectator")
            if watching >= self.limits.spectators_per_table:
                return (
                    f"this table already has {self.limits.spectators_per_table} spectators; "
                    "try again later"
                )
        else:
            key = (table.id, _role_key(conn))
            old = self.holders.get(key)
            if old is not None and old is not conn:
                old.close_with(
                    "this seat was opened in another window or device; this one is closed",
                    REPLACED,
                )
                self.sockets.get(table.id, set()).discard(old)
            self.holders[key] = conn
        self.sockets.setdefault(table.id, set()).add(conn)
        if conn.seat is not None:
            table.connected[conn.seat] = 1
            table.connected_since[conn.seat] = time.time()
        return None

    def detach(self, conn: Connection) -> None:
        table = conn.table
        if table is None or conn.role == "none":
            return
        self.sockets.get(table.id, set()).discard(conn)
        if conn.role != "spectator":
            key = (table.id, _role_key(conn))
            if self.holders.get(key) is conn:
                del self.holders[key]
                if conn.seat is not None:
                    table.connected[conn.seat] = 0

    def revoke(self, table: Table, seat: int) -> str:
        """A new link for `seat`; the old one stops working and its socket is closed."""
        token = security.new_token()
        self.store.replace_token(table.id, f"seat{seat}", security.hash_token(token))
        conn = self.holders.pop((table.id, f"seat{seat}"), None)
        if conn is not None:
            conn.close_with(
                "the host replaced this seat's link; ask the host for the new one", REPLACED
            )
            self.sockets.get(table.id, set()).discard(conn)
            table.connected[seat] = 0
        return token

    # -- fan-out ----------------------------------------------------------------------
    def view_frame(self, table: Table, seat: int | None) -> str:
        view = player_view(
            table.state, seat, table.public_info(), table.legal_for(seat), table.chosen(seat)
        )
        return seal(table.state, seat, view)

    def send_view(self, conn: Connection) -> None:
        """A frame answering the socket's own request (sync, a refused move, a hello)."""
        assert conn.table is not None
        acting, conn.acting = conn.acting, True
        try:
            conn.push(self.view_frame(conn.table, conn.seat), state=True)
        finally:
            conn.acting = acting

    def send_seat(self, table: Table, seat: int) -> None:
        """A frame for one seat only (its own early choice was accepted)."""
        conn = self.holders.get((table.id, f"seat{seat}"))
        if conn is not None:
            self.send_view(conn)

    def send_error(self, conn: Connection, message: str) -> None:
        """Errors go through the same seal as views: they may name no hidden card
        (and, scrubbed, no server path)."""
        payload = {"type": "error", "error": scrub(message, self.offers.known_paths())}
        if conn.table is None:
            conn.push(json.dumps(payload))
        else:
            conn.push(seal(conn.table.state, conn.seat, payload))

    async def broadcast(self, table: Table) -> None:
        frames: dict[int | None, str] = {}
        for conn in list(self.sockets.get(table.id, ())):
            if conn.seat not in frames:
                frames[conn.seat] = self.view_frame(table, conn.seat)
            conn.push(frames[conn.seat], state=True)


SPEC_KEYS = frozenset(
    {"game", "players", "options", "variant", "seats", "turn_seconds", "bot_delay"}
)
"""The fields of a table request (anything else is refused by name)."""


def _role_key(conn: Connection) -> str:
    return f"seat{conn.seat}" if conn.seat is not None else conn.role


def _seat_specs(raw: Any, players: int, max_iterations: int) -> list[dict[str, Any]]:
    """Check the per-seat choices: a human, or a bot of a known kind and strength
    (searching bots at most `max_iterations` per decision, the server's cap)."""
    from cardlab.agents import make_agent

    if raw is None:
        raw = [{"kind": "human"}] + [{"kind": "bot", "agent": "greedy"}] * (players - 1)
    if not isinstance(raw, list) or len(raw) != players:
        raise CardlabError(f'"seats" must list exactly {players} seats')
    seats = []
    for i, seat in enumerate(raw):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
            raise CardlabError(f'seat {i}: "kind" must be "human" or "bot"')
        extra = sorted(set(seat) - {"kind", "name", "agent", "params"})
        if extra:
            raise CardlabError(f"seat {i}: unknown field {str(extra[0])[:40]!r}")
        name = security.clean_name(seat.get("name"))
        if seat["kind"] == "human":
            seats.append({"kind": "human", "name": name or f"Player {i}"})
            continue
        agent = seat.get("agent", "greedy")
        if not isinstance(agent, str):
            raise CardlabError(f'seat {i}: "agent" must name a bot kind')
        params = seat.get("params") or {}
        if not isinstance(params, dict) or set(params) - {"iterations"}:
            raise CardlabError(f'seat {i}: bots take only an "iterations" parameter')
        iterations = params.get("iterations")
        if iterations is not None and (
            not isinstance(iterations, int)
            or isinstance(iterations, bool)
            or not 1 <= iterations <= max_iterations
        ):
            raise CardlabError(
                f"seat {i}: iterations must be 1..{max_iterations} (this server's cap)"
            )
        bot = make_agent(agent, seed=0, **params)  # raises a clear error for unknown kinds
        searches = getattr(bot, "iterations", None)
        if isinstance(searches, int) and searches > max_iterations:
            raise CardlabError(
                f"seat {i}: a {agent} bot searches {searches} iterations; this server allows "
                f'at most {max_iterations} (give "params": {{"iterations": N}})'
            )
        label = agent + (f" ({iterations} it.)" if iterations else "")
        seats.append(
            {"kind": "bot", "agent": agent, "params": params, "name": name or f"{label} bot"}
        )
    return seats
