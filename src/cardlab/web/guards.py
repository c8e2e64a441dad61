"""Slow and noisy clients, below the app: a deadline for each HTTP request and a
budget for the server's log.

What uvicorn (0.54, h11) bounds by itself: an idle keep-alive connection after a
response (`timeout_keep_alive`, our `--keep-alive-timeout`), the size of a request
head (`h11_max_incomplete_event_size`, 16 KiB), websocket frames (`ws_max_size`) and
dead websockets (ping every 20 s, closed after 20 s more without a pong). What it
does not: a connection that opens and sends nothing, or sends its request head a
byte at a time (slowloris), is held forever; its keep-alive timer is armed only
after a response and cancelled by any byte received. `GuardedH11Protocol` adds the
missing deadline: from the moment a connection is made (or a response is done) the
client has `request_timeout` seconds to send a whole request, head and body; a
websocket upgrade ends the deadline (the socket protocol has its own). The app also
gives a request body `BODY_SECONDS` (app.py), for servers run without this protocol.

uvicorn logs a warning for every malformed request; `LogBudget` lets each kind of
message through at a bounded rate and counts what it held back, so a flood of bad
connections writes a bounded number of lines. `install_log_budget` puts one on the
server's loggers (asyncio's included) and, with `handlers=True` once logging is
configured, on every handler, so a line from any logger passes a budget.

At the file-descriptor limit asyncio's accept loop (3.11) does not stop at the
first EMFILE: it tries `backlog` more accepts in the same tick, logging a traceback
and scheduling a restart for each (tens of thousands of lines a second were seen).
`GuardedLoop` stops at the first, logs one line and pauses accepting for a delay
that doubles while the limit lasts (`ACCEPT_PAUSE`); connections wait in the
kernel's backlog meanwhile."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import time
from asyncio import constants
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cardlab.web.limits import Limits

log = logging.getLogger("cardlab.web")

REQUEST_TIMEOUT = Limits.request_timeout
KEEP_ALIVE_TIMEOUT = Limits.keep_alive_timeout


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request (see the module doc)."""

    request_timeout: float = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None
    _upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True  # the socket protocol owns the connection from here
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Armed while the client owes us (part of) a request, disarmed otherwise."""
        if self._upgraded or self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        owes = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
        if owes and self.cycle is not None and not self.cycle.response_complete:
            owes = self.conn.their_state is h11.SEND_BODY  # the app is reading the body
        if not owes:
            self._disarm()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport is None or self.transport.is_closing():
            return
        log.info("closed a connection that sent no whole request in %g s", self.request_timeout)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


def guarded_h11(request_timeout: float = REQUEST_TIMEOUT) -> type[GuardedH11Protocol]:
    """The protocol class to give uvicorn (`http=`), with its deadline."""
    if not request_timeout > 0:
        raise ValueError(f"the request timeout must be above 0 seconds, not {request_timeout!r}")
    return type("GuardedH11", (GuardedH11Protocol,), {"request_timeout": float(request_timeout)})


class LogBudget(logging.Filter):
    """At most `burst` lines of one message template at once, refilled at `per_minute`;
    the first line let through after a quiet spell says how many were held back."""

    def __init__(self, per_minute: float = 30.0, burst: int = 20, kinds: int = 256) -> None:
        super().__init__()
        self.rate, self.burst, self.kinds = per_minute / 60.0, float(burst), kinds
        self._buckets: dict[str, list[float]] = {}  # template -> [tokens, stamp, held]

    def filter(self, record: logging.LogRecord) -> bool:
        # A message's first line is its template: asyncio's start with a fixed text and
        # go on with the socket, the addresses, the traceback.
        key = f"{record.name}:{str(record.msg).split(chr(10), 1)[0][:200]}"
        now = time.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.kinds:  # one budget for all the rarer templates
                key = "(other)"
                bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = [self.burst, now, 0.0]
        tokens = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        bucket[1] = now
        if tokens < 1.0:
            bucket[0] = tokens
            bucket[2] += 1
            return False
        bucket[0] = tokens - 1.0
        if bucket[2]:
            record.msg = f"{record.msg} ({int(bucket[2])} similar lines held back)"
            bucket[2] = 0.0
        return True


BUDGETED = {
    "uvicorn.error": (30.0, 20),
    "uvicorn.access": (6000.0, 200),
    "cardlab.web": (60.0, 40),
    "asyncio": (30.0, 20),
}
"""Logger: (lines a minute, burst) per message template."""

HANDLER_BUDGET = (6000.0, 400)
"""Every handler's budget per logger and template: above the access log's, so it
only ever holds back a flood from a logger without its own budget."""


def install_log_budget(handlers: bool = False) -> None:
    """Attach a LogBudget to the server's loggers once (idempotent); with `handlers`,
    also to every handler of the root and uvicorn loggers and to logging's last
    resort, which every record of every logger reaches (call it after logging is
    configured: configuring replaces the handlers)."""
    for name, (rate, burst) in BUDGETED.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, LogBudget) for f in logger.filters):
            logger.addFilter(LogBudget(rate, burst))
    if not handlers:
        return
    seen: list[logging.Handler] = [h for h in (logging.lastResort,) if h is not None]
    for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access", "asyncio", "cardlab"):
        seen.extend(logging.getLogger(name).handlers)
    for handler in seen:
        if not any(isinstance(f, LogBudget) for f in handler.filters):
            handler.addFilter(LogBudget(*HANDLER_BUDGET))


ACCEPT_PAUSE = (0.05, 2.0)
"""First and longest pause of the accept loop at the file-descriptor limit (seconds)."""

_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class GuardedLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop with an accept loop that backs off at EMFILE (see the
    module doc); everything else is asyncio's own."""

    _accept_pause = 0.0

    def _accept_connection(
        self,
        protocol_factory: Any,
        sock: socket.socket,
        sslcontext: Any = None,
        server: Any = None,
        backlog: int = 100,
        ssl_handshake_timeout: float = constants.SSL_HANDSHAKE_TIMEOUT,
        ssl_shutdown_timeout: float = constants.SSL_SHUTDOWN_TIMEOUT,
    ) -> None:
        for _ in range(backlog):
            try:
                conn, addr = sock.accept()
                conn.setblocking(False)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return  # nobody else is waiting
            except OSError as exc:
                if exc.errno not in _OUT_OF_RESOURCES:
                    raise  # the loop logs it (once) and carries on, as asyncio's does
                first, longest = ACCEPT_PAUSE
                self._accept_pause = min(longest, max(first, self._accept_pause * 2))
                log.warning(
                    "cannot accept connections: %s; pausing accepts for %.2f s",
                    exc.strerror or exc,
                    self._accept_pause,
                )
                self._remove_reader(sock.fileno())  # type: ignore[attr-defined]
                self.call_later(
                    self._accept_pause,
                    self._start_serving,  # type: ignore[attr-defined]
                    protocol_factory,
                    sock,
                    sslcontext,
                    server,
                    backlog,
                    ssl_handshake_timeout,
                    ssl_shutdown_timeout,
                )
                return
            self._accept_pause = 0.0
            self.create_task(
                self._accept_connection2(  # type: ignore[attr-defined]
                    protocol_factory,
                    conn,
                    {"peername": addr},
                    sslcontext,
                    server,
                    ssl_handshake_timeout,
                    ssl_shutdown_timeout,
                )
            )


def uvicorn_options(
    request_timeout: float = REQUEST_TIMEOUT, keep_alive_timeout: int = KEEP_ALIVE_TIMEOUT
) -> dict[str, Any]:
    """The uvicorn.run arguments of the guards: our protocol, loop and timeouts; proxy headers
    off (the app reads X-Forwarded-For itself, from `--forwarded-allow-ips` only)."""
    if keep_alive_timeout < 1:
        raise ValueError(
            f"the keep-alive timeout must be at least 1 second, not {keep_alive_timeout}"
        )
    return {
        "http": guarded_h11(request_timeout),
        "loop": "cardlab.web.guards:GuardedLoop",
        "timeout_keep_alive": keep_alive_timeout,
        "proxy_headers": False,
    }
