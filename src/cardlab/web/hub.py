"""All live tables of one server: creating them, restoring them from the
store at start-up, closing the ones nobody uses, and fanning each change out to
the sockets at a table.

Only live tables stay in memory. A table that finishes is marked finished in the
store and leaves `Hub.tables` at once; one nobody has had open for
`Limits.idle_*` seconds is stopped and marked abandoned. Either is rebuilt
from the store when someone opens it (`Tables.get`), closed (`Table.closed_reason`:
a closed table is a state of a `Table`, which refuses every change with the reason),
and kept in a small most-recently-used cache, so a server holds its live tables plus at most
`ARCHIVE_CACHE` closed ones whatever its database holds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from cardlab.core.errors import CardDataError, CardlabError
from cardlab.web import security
from cardlab.web.botpool import BotPool
from cardlab.web.catalog import Catalog
from cardlab.web.feedback import Feedback
from cardlab.web.limits import Limits, PerClient
from cardlab.web.offers import Offers, scrub, stored_variant, variant_settings
from cardlab.web.store import ABANDONED, FINISHED, LIVE, Store, TableRecord
from cardlab.web.table import IDLE_CLOSED, BotTurns, Refused, Table
from cardlab.web.views import player_view, seal

log = logging.getLogger("cardlab.web")

SEND_QUEUE = 64
"""Frames queued for one socket before it is considered stuck and dropped."""

REPLACED = 4409
"""Close code of a seat (or host) socket replaced by a newer one, or whose link was revoked."""

ERRORS_PER_SECOND, ERROR_BURST = 4.0, 8.0
"""Error frames one socket is sent per second at most (bursts of 8); see Connection."""

ARCHIVE_CACHE = 16
"""Closed (finished or abandoned) tables kept rebuilt in memory, most recently opened."""


class Tables(MutableMapping[str, Table]):
    """`Hub.tables`: iterating, `len` and `values` give the live tables only (they are
    what the caps count); `get` and `[]` also find a closed table, rebuilding it
    read-only from the store on demand (replays keep working)."""

    def __init__(self, reopen: Any) -> None:
        self.live: dict[str, Table] = {}
        self.archive: OrderedDict[str, Table] = OrderedDict()
        self._reopen = reopen

    def __getitem__(self, table_id: str) -> Table:
        table = self.live.get(table_id)
        if table is not None:
            return table
        table = self.archive.get(table_id)
        if table is None:
            table = self._reopen(table_id)
            if table is None:
                raise KeyError(table_id)
        self.keep(table)
        return table

    def keep(self, table: Table) -> None:
        """Put a closed table in the cache of recently opened ones."""
        self.archive[table.id] = table
        self.archive.move_to_end(table.id)
        while len(self.archive) > ARCHIVE_CACHE:
            self.archive.popitem(last=False)

    def __setitem__(self, table_id: str, table: Table) -> None:
        self.archive.pop(table_id, None)
        self.live[table_id] = table

    def __delitem__(self, table_id: str) -> None:
        del self.live[table_id]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.live))

    def __len__(self) -> int:
        return len(self.live)

    def __contains__(self, table_id: object) -> bool:
        if not isinstance(table_id, str):
            return False
        return table_id in self.live or table_id in self.archive or self._reopen(table_id, True)


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
    chat_limiter: security.RateLimiter = field(
        default_factory=lambda: security.RateLimiter(rate=0.5, burst=5.0)
    )
    """Chat: a message every 2 seconds, bursts of 5 (social.chat)."""
    error_limiter: security.RateLimiter = field(
        default_factory=lambda: security.RateLimiter(rate=ERRORS_PER_SECOND, burst=ERROR_BURST)
    )
    """Error frames answering refused messages (Hub.send_error): over this budget only
    the latest refusal waits (`held_error`) and those it replaced are counted
    (`errors_held`, told with the next error frame), so a client that keeps sending
    refused messages gets fewer answers, never a closed socket."""
    errors_held: int = 0
    held_error: str | None = None
    error_timer: asyncio.TimerHandle | None = None
    queue: asyncio.Queue[tuple[int, str, bool] | None] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE)
    )
    closed: bool = False
    state_frames: int = 0
    sent: int = 0
    acting: bool = False
    """True while this socket's own message is handled: frames answering it are not
    held back by the frame budget (its messages are limited on the way in)."""

    def push(self, text: str, state: bool = False, answer: bool = False) -> None:
        """Queue a frame. An `answer` (or any frame pushed while the socket's own
        message is handled) goes out at once and is not counted in the frame
        budget: the budget bounds what the server chose to send, and the client's
        own messages are limited on the way in."""
        if self.closed:
            return
        if state:
            self.state_frames += 1
        number = self.state_frames if state else 0
        try:
            self.queue.put_nowait((number, text, answer or self.acting))
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
            self.queue.put_nowait((0, json.dumps(payload), True))
            self.queue.put_nowait((code, "", True))
        self.closed = True

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            number, text, urgent = item
            if not text:  # a close order
                if self.close_socket is not None:
                    with contextlib.suppress(Exception):
                        await self.close_socket(number)
                return
            if number and number < self.state_frames:
                continue  # a newer state frame is queued behind this one
            if not urgent and not self.frame_limiter.allow():
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
        self.feedback: Feedback | None = None
        """Players' after-game answers (web/feedback.py; set by the app's designer routes)."""
        self.tables = Tables(self._reopen)
        self.sockets: dict[str, set[Connection]] = {}
        self.holders: dict[tuple[str, str], Connection] = {}
        self.creators: dict[str, str] = {}
        self.creation = PerClient(self.limits.creates_per_minute, self.limits.create_burst)
        self.bot_turns = BotTurns()
        self.bot_pool = BotPool(self.limits.bot_workers)
        self.seen: dict[str, float] = {}
        """When each live table last had a socket open (now, while it has one)."""
        self._sweeper: asyncio.Task[None] | None = None

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
        """Rebuild every live stored table by replaying seed + options + action log.
        Finished and abandoned tables stay in the store (rebuilt when opened); a table
        stored before statuses were kept is settled here once."""
        now = time.time()
        for rec in self.store.load_tables((LIVE, None)):
            try:
                table = self._open(rec)
                table.replay_log()
            except Exception:
                log.exception("table %s could not be restored; it stays closed", rec.id)
                continue
            if table.state.is_terminal():
                self.store.set_status(rec.id, FINISHED)
                continue
            if rec.status is None:
                self.store.set_status(rec.id, LIVE)
            self.tables[rec.id] = table
            self.creators[rec.id] = rec.client or rec.id
            self.seen[rec.id] = now  # a restart gives the players time to reconnect
        return len(self.tables)

    def start(self) -> None:
        for table in self.tables.values():
            table.start()
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(
                self._sweep_forever(), name="table-expiry"
            )

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
            self._sweeper = None
        for table in list(self.tables.live.values()) + list(self.tables.archive.values()):
            await table.stop()
        self.bot_pool.shutdown()

    def _open(self, rec: TableRecord, closed: bool = False) -> Table:
        """A table of the store; `closed`: rebuilt to be looked at, never played (a
        finished game is closed by its end, any other by having stood idle)."""
        game = self.offers.make(
            rec.game,
            rec.players,
            rec.options,
            stored_variant(rec.settings),
            cards=self.store.table_cards(rec),
        )
        table = Table(
            rec,
            game,
            self.store,
            rec.settings.get("bot_delay", self.bot_delay),
            self.bot_turns,
            self.bot_pool.lane(rec.client or rec.id),
        )
        if closed:
            table.closed = IDLE_CLOSED if rec.status != FINISHED else None
        table.on_change = self.broadcast
        table.on_private = self.send_seat
        return table

    def _reopen(self, table_id: str, probe: bool = False) -> Any:
        """A closed table rebuilt read-only from the store (None if there is none);
        with `probe`, only whether there is one (a page may be served)."""
        if not isinstance(table_id, str) or len(table_id) > 64:
            return False if probe else None
        if probe:
            return self.store.has_table(table_id)
        rec = self.store.load_table(table_id)
        if rec is None or rec.status == LIVE and table_id in self.tables.live:
            return None
        try:
            table = self._open(rec, closed=True)
            table.replay_log(stored_only=True)
        except Exception:
            log.exception("table %s could not be rebuilt", table_id)
            return None
        if table.closed is None and not table.state.is_terminal():
            table.closed = IDLE_CLOSED  # marked finished, yet its log ends early
        return table

    # -- closing tables -----------------------------------------------------------------
    def _retire(self, table: Table, status: str) -> None:
        """A live table closes: recorded in the store, out of the live set (and its caps);
        sockets still open keep their view of it until they leave."""
        if self.tables.live.get(table.id) is not table:
            return
        self.store.set_status(table.id, status)
        del self.tables.live[table.id]
        self.creators.pop(table.id, None)
        self.seen.pop(table.id, None)
        if status == FINISHED:
            self.tables.keep(table)

    def idle_limit(self, table: Table) -> float:
        lim = self.limits
        moved = self.store.human_moved(table.id)
        return lim.idle_after_first_move if moved else lim.idle_before_first_move

    async def expire(self, now: float | None = None) -> list[str]:
        """Close every live table that has had no seated player connected for longer
        than its idle limit; returns their ids. Spectators and the host do not keep
        a table alive: a socket that only watches cannot hold a table (nor, at the
        server's cap, the server) for ever."""
        now = time.time() if now is None else now
        closed = []
        for tid, table in list(self.tables.live.items()):
            if self.attended(tid):
                self.seen[tid] = now
                continue
            since = self.seen.setdefault(tid, now)
            shortest = min(self.limits.idle_before_first_move, self.limits.idle_after_first_move)
            if now - since <= shortest or now - since <= self.idle_limit(table):
                continue
            await table.stop()
            if table.state.is_terminal():
                self._retire(table, FINISHED)
                continue
            table.closed = IDLE_CLOSED
            self._retire(table, ABANDONED)
            log.info("table %s closed after %.0f s with nobody at it", tid, now - since)
            closed.append(tid)
        return closed

    def attended(self, table_id: str) -> bool:
        """Whether a seated player has a socket open at the table."""
        return any(c.seat is not None for c in self.sockets.get(table_id, ()))

    def next_expiry(self, now: float | None = None) -> float | None:
        """Seconds until the first unattended live table reaches its idle limit (None
        when every live table has a seated player connected)."""
        now = time.time() if now is None else now
        waits = [
            self.seen.get(tid, now) + self.idle_limit(table) - now
            for tid, table in self.tables.live.items()
            if not self.attended(tid)
        ]
        return max(0.0, min(waits)) if waits else None

    def sweep_interval(self) -> float:
        lim = self.limits
        return max(0.05, min(60.0, lim.idle_before_first_move / 10, lim.idle_after_first_move / 10))

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval())
            try:
                await self.expire()
            except Exception:
                log.exception("closing idle tables failed; trying again later")

    # -- creating a table -------------------------------------------------------------
    def live_tables(self, client: str | None = None) -> int:
        return sum(
            1
            for tid, t in self.tables.live.items()
            if not t.state.is_terminal() and (client is None or self.creators.get(tid) == client)
        )

    def create(
        self,
        spec: Any,
        client: str = "local",
        cards: tuple[bytes, str] | None = None,
        version: int | None = None,
    ) -> dict[str, Any]:
        """Validate a new-table request; returns the table id and the secret links.
        Every error text is safe to send: it names the field, never a server path.
        `cards` (bytes, what to call them) deals from a card file the server holds, a
        design version's: never one a request names. `version` is that design
        version's number, kept in the table's settings (`design_version_id`) so the
        designer's figures group tables by it without reading the name."""
        try:
            return self._create(spec, client, cards, version)
        except TooMany:
            raise
        except CardlabError as exc:
            raise CardlabError(scrub(str(exc), self.offers.known_paths())) from None

    def _create(
        self,
        spec: Any,
        client: str,
        cards: tuple[bytes, str] | None = None,
        version: int | None = None,
    ) -> dict[str, Any]:
        """A table request (web/requests.py's TableRequest: shape, types and bounds),
        then what this game and server allow: player count, options, variant, bot
        kinds and strength. A game served with `--cards` deals from the file's bytes
        as they are now, kept with the table (a later edit changes no table made)."""
        from cardlab.web.requests import parse_table_request

        req = parse_table_request(spec)
        lim = self.limits
        self._room_for(client, "you already have")
        cls = self.catalog.game_class(req.game)
        game_name = cls.name if hasattr(cls, "name") else str(req.game)
        players = req.players
        if players is None:
            players = getattr(cls, "default_players", cls.min_players)
        if not cls.min_players <= players <= cls.max_players:
            raise CardlabError(
                f'"players": {game_name} is for {cls.min_players}-{cls.max_players} players, '
                f"not {players}"
            )
        variant = self.offers.variant(game_name, req.variant)
        settings: dict[str, Any] = {"turn_seconds": req.turn_seconds or 0}
        staged, card_bytes, refused = None, None, ""
        path = self.offers.cards.get(game_name)
        if cards is not None:
            card_bytes, called = cards
            refused = f"{called} does not load"
            digest, staged_path = self.store.stage_cards(card_bytes)
            staged = str(staged_path)
            settings.update(cards=called, cards_sha256=digest, design_version=called)
            if version is not None:
                settings["design_version_id"] = version
        elif path is not None:
            refused = (
                f"new {game_name} tables are refused until the operator fixes this server's "
                f"card file for {game_name} (tables in progress keep their cards)"
            )
            try:
                card_bytes = path.read_bytes()
            except OSError:
                raise CardlabError(f"{refused}: it cannot be read") from None
            digest, staged_path = self.store.stage_cards(card_bytes)
            staged = str(staged_path)
            settings.update(cards=str(path), cards_sha256=digest)
        try:
            game = self.offers.make(game_name, players, req.options or {}, variant, cards=staged)
        except CardDataError as exc:
            if staged is None:
                raise
            problem = scrub(str(exc), [(staged, "the card file")])
            raise CardlabError(f"{refused}: {problem}") from None
        seats = _seat_specs(req.seats, game.num_players, lim.max_bot_iterations, game_name)
        settings.update(variant_settings(variant))
        if req.bot_delay is not None:
            settings["bot_delay"] = float(req.bot_delay)
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
            client=client,
        )
        tokens = {
            f"seat{i}": security.new_token() for i, s in enumerate(seats) if s["kind"] == "human"
        }
        tokens["spectator"] = security.new_token()
        tokens["host"] = security.new_token()
        if card_bytes is not None:
            self.store.put_cards(card_bytes)
        self.store.create_table(rec, {role: security.hash_token(t) for role, t in tokens.items()})
        table = self._open(rec)
        self.tables[rec.id] = table
        self.creators[rec.id] = client
        self.seen[rec.id] = time.time()
        table.start()
        return {"table": rec.id, "tokens": tokens}

    def _room_for(self, client: str, who: str) -> None:
        """TooMany when the server or `client` is at its cap of live tables; `who`
        opens the per-client message ("you already have", ...)."""
        lim = self.limits
        if self.live_tables() >= lim.max_tables:
            wait = self.next_expiry()
            soon = math.ceil(wait + self.sweep_interval()) if wait is not None else 60
            when = f"the next idle table closes in {soon} s" if soon < 60 else "try again later"
            raise TooMany(
                f"the server is full ({lim.max_tables} live tables); {when}",
                503,
                max(1, min(60, soon)),
            )
        if self.live_tables(client) >= lim.tables_per_client:
            raise TooMany(
                f"{who} {lim.tables_per_client} unfinished tables on this server; finish one first"
            )

    def check_room(self, client: str) -> None:
        """TooMany unless `client` may make one more table now (a rematch's check; it
        spends the client's creation budget)."""
        self._room_for(client, "the maker of this table already has")
        if not self.creation.allow(client):
            raise TooMany("too many new tables from this table's maker; wait a moment", 429)

    def add_table(self, rec: TableRecord, token_hashes: dict[str, str]) -> Table:
        """Store a new table and start it (a rematch)."""
        self.store.create_table(rec, token_hashes)
        table = self._open(rec)
        self.tables[rec.id] = table
        self.creators[rec.id] = rec.client or rec.id
        self.seen[rec.id] = time.time()
        table.start()
        return table

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
        here = self.sockets.get(table.id, set())
        here.discard(conn)
        if not here:
            self.sockets.pop(table.id, None)
        # The idle clock starts when the last seated player leaves; a watcher coming
        # and going never restarts it.
        if conn.seat is not None and table.id in self.seen and not self.attended(table.id):
            self.seen[table.id] = time.time()
        if conn.role != "spectator":
            key = (table.id, _role_key(conn))
            if self.holders.get(key) is conn:
                del self.holders[key]
                if conn.seat is not None:
                    table.connected[conn.seat] = 0

    def revoke(self, table: Table, seat: int) -> str:
        """A new link for `seat` (for the host alone); the old one stops working and its
        socket is told why, then closed. The seat is marked reissued in every frame from
        now on (`Table.public_info`): whoever opens the new link, the host included,
        plays the seat and sees its hand, and every seat can see that this happened."""
        token = self._replace_link(
            table,
            f"seat{seat}",
            "the host replaced this seat's link at {at}: whoever holds the new link now "
            "plays this seat and sees its cards; ask the host for the new one",
        )
        reissued = set(table.record.settings.get("reissued", [])) | {seat}
        table.record.settings["reissued"] = sorted(reissued)
        self.store.update_settings(table.id, table.record.settings)
        return token

    def revoke_role(self, table: Table, conn: Connection, role: Any) -> str:
        """A new spectator or host link, for the host asking (`conn`) alone. Every other
        socket opened with the old link is told and closed at once; the asker's own
        host socket stays (it proved the link just replaced, and holds the new one)."""
        if role not in ("spectator", "host"):
            raise Refused('revoke takes a "seat" or a "role" of "spectator" or "host"')
        what = "spectator link" if role == "spectator" else "host link"
        message = f"the host replaced this table's {what} at {{at}}; ask the host for the new one"
        return self._replace_link(table, role, message, keep=conn)

    def _replace_link(
        self, table: Table, role: str, message: str, keep: Connection | None = None
    ) -> str:
        """Replace `role`'s link; the old one's hash is kept (in the table's settings) so
        that opening it later is answered with why it stopped working."""
        at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        message = message.format(at=at)
        token = security.new_token()
        old = self.store.token_hash(table.id, role)
        self.store.replace_token(table.id, role, security.hash_token(token))
        if old is not None:
            revoked = dict(table.record.settings.get("revoked") or {})
            revoked[role] = {"hash": old, "why": message}
            table.record.settings["revoked"] = revoked
            self.store.update_settings(table.id, table.record.settings)
        self.drop_sockets(table, role, message, keep)
        return token

    def drop_sockets(
        self, table: Table, role: str, message: str, keep: Connection | None = None
    ) -> None:
        """Close every socket of `table` opened with `role`'s link (a seat's, or the
        spectators'/host's) but `keep`, each told `message` first (close code 4409)."""
        here = self.sockets.get(table.id, set())
        for conn in list(here):
            if conn is keep or _role_key(conn) != role:
                continue
            conn.close_with(message, REPLACED)
            here.discard(conn)
            if self.holders.get((table.id, role)) is conn:
                del self.holders[(table.id, role)]
            if conn.seat is not None:
                table.connected[conn.seat] = 0

    def token_refusal(self, table: Table, role: str, token: Any) -> str:
        """What a hello with a token that does not open `role` is told: why, when it is
        a link the host replaced (so a player whose seat was reissued learns it)."""
        old = (table.record.settings.get("revoked") or {}).get(role)
        if isinstance(old, dict) and security.token_matches(token, old.get("hash")):
            return "this link is not valid any more: " + str(
                old.get("why") or "the host replaced it"
            )
        return "that invitation is not valid for this seat"

    # -- fan-out ----------------------------------------------------------------------
    def view_frame(self, table: Table, seat: int | None) -> str:
        view = player_view(
            table.state, seat, table.public_info(), table.legal_for(seat), table.chosen(seat)
        )
        if seat is not None:
            view["can_undo"] = table.why_no_undo(seat) is None
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
        (and, scrubbed, no server path). Each socket's error frames have their own
        budget (`Connection.error_limiter`) outside the frame budget: over it, only
        the latest refusal waits for the budget (the ones it replaces are counted in
        its `unanswered`), so the last message a client sends is always answered."""
        if conn.error_limiter.allow():
            self._push_error(conn, message)
            return
        if conn.held_error is not None:
            conn.errors_held += 1  # replaced by a newer refusal: not answered by itself
        conn.held_error = message
        if conn.error_timer is None:
            conn.error_timer = asyncio.get_running_loop().call_later(
                1.0 / conn.error_limiter.rate, self._flush_error, conn
            )

    def _flush_error(self, conn: Connection) -> None:
        conn.error_timer = None
        if conn.closed or conn.held_error is None:
            return
        if not conn.error_limiter.allow():
            conn.error_timer = asyncio.get_running_loop().call_later(
                1.0 / conn.error_limiter.rate, self._flush_error, conn
            )
            return
        message, conn.held_error = conn.held_error, None
        self._push_error(conn, message)

    def _push_error(self, conn: Connection, message: str) -> None:
        payload: dict[str, Any] = {
            "type": "error",
            "error": scrub(message, self.offers.known_paths()),
        }
        if conn.errors_held:
            payload["unanswered"] = conn.errors_held  # refusals not answered since the last
            conn.errors_held = 0
        if conn.table is None:
            conn.push(json.dumps(payload), answer=True)
        else:
            conn.push(seal(conn.table.state, conn.seat, payload), answer=True)

    async def broadcast(self, table: Table) -> None:
        frames: dict[int | None, str] = {}
        for conn in list(self.sockets.get(table.id, ())):
            if conn.seat not in frames:
                frames[conn.seat] = self.view_frame(table, conn.seat)
            conn.push(frames[conn.seat], state=True)
        if table.state.is_terminal():
            self._retire(table, FINISHED)  # the last frame is out: it leaves the live set


def _role_key(conn: Connection) -> str:
    return f"seat{conn.seat}" if conn.seat is not None else conn.role


def _seat_specs(
    raw: list[Any] | None, players: int, max_iterations: int, game: str | None = None
) -> list[dict[str, Any]]:
    """The per-seat choices (requests.py's HumanSeat / BotSeat, already checked for
    shape): one per player, each bot of a kind that plays `game`
    (agents.base.kinds_for_game) and of a strength the server allows (searching bots
    at most `max_iterations` per decision, the server's cap)."""
    from cardlab.agents import make_agent
    from cardlab.agents.base import agent_kinds, kinds_for_game
    from cardlab.web.requests import BotSeat, HumanSeat

    allowed = kinds_for_game(game) if game is not None else None
    if raw is None:
        human = HumanSeat(kind="human", name=None)
        raw = [human] + [BotSeat(kind="bot", agent="greedy", name=None)] * (players - 1)
    if len(raw) != players:
        raise CardlabError(
            f'"seats" must list exactly {players} seats (one per player), not {len(raw)}'
        )
    seats: list[dict[str, Any]] = []
    for i, seat in enumerate(raw):
        name = security.clean_name(seat.name)
        if isinstance(seat, HumanSeat):
            seats.append({"kind": "human", "name": name or f"Player {i}"})
            continue
        agent = seat.agent
        if allowed is not None and agent not in allowed:
            known = agent in agent_kinds()
            raise CardlabError(
                f"seats[{i}].agent: "
                + (
                    f"{agent!r} bots do not play {game}"
                    if known
                    else f"unknown agent kind {agent[:40]!r}"
                )
                + f"; bots for {game}: "
                + ", ".join(allowed)
            )
        params = seat.params.model_dump(exclude_none=True) if seat.params else {}
        iterations = params.get("iterations")
        if iterations is not None and not 1 <= iterations <= max_iterations:
            raise CardlabError(
                f"seats[{i}].params.iterations: must be 1..{max_iterations} "
                f"(this server's cap), not {iterations}"
            )
        bot = make_agent(agent, seed=0, **params)  # raises a clear error for unknown kinds
        searches = getattr(bot, "iterations", None)
        if isinstance(searches, int) and searches > max_iterations:
            raise CardlabError(
                f"seats[{i}]: a {agent} bot searches {searches} iterations; this server allows "
                f'at most {max_iterations} (give "params": {{"iterations": N}})'
            )
        label = agent + (f" ({iterations} it.)" if iterations else "")
        seats.append({"kind": "bot", "agent": agent, "params": params, "name": name})
        if not name:
            seats[-1]["name"], seats[-1]["default"] = f"{label} bot", True
    return _distinct_bot_names(seats)


def _distinct_bot_names(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A bot nobody named is called after its kind ("greedy bot"); where two seats
    would then share a name, each such bot takes its seat number ("greedy bot 1",
    "greedy bot 2"), so the winner line never reads "greedy bot and greedy bot share
    the win". Names people gave are kept as given."""
    counts: dict[str, int] = {}
    for seat in seats:
        counts[seat["name"]] = counts.get(seat["name"], 0) + 1
    for i, seat in enumerate(seats):
        if seat.pop("default", False) and counts[seat["name"]] > 1:
            seat["name"] = f"{seat['name']} {i}"
    return seats
