"""What every request passes before any route: the Host allow-list and the rule
that a seat token never travels in a query string.

Why a Host allow-list: a server bound to 127.0.0.1 is still reachable from any web
page its operator opens, through DNS rebinding (attacker.example resolves to
127.0.0.1 after the page loaded, so the page's requests carry
`Host: attacker.example:PORT` and `Origin: http://attacker.example:PORT`, which a
plain same-origin check accepts). Refusing every Host the operator did not name
closes that. An IP literal cannot be rebound, so a server bound to all interfaces
(0.0.0.0 or ::) also accepts its callers' IP literals (players on the LAN).

Why no token in a query string: a request line lands in access logs, proxies and
browser history; links carry the token after '#', which never leaves the browser.
Both checks cover HTTP and websocket requests (a refused websocket handshake is
answered 400 where the server supports denial responses, else closed)."""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote_plus

LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""Names a server always answers to (any port): the machine itself."""

WILDCARD_BINDS = ("0.0.0.0", "::", "[::]", "")


def split_host(value: str) -> tuple[str, str | None]:
    """('name', 'port' or None) of a Host header or allow-list entry, the name
    lower-cased without a trailing dot; an IPv6 literal keeps its brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, None
        name, rest = value[: end + 1], value[end + 1 :]
        return name, (rest[1:] if rest.startswith(":") else None)
    if value.count(":") > 1:  # a bare IPv6 literal (an operator's entry)
        return f"[{value}]", None
    name, _, port = value.partition(":")
    return name.rstrip("."), (port or None)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AllowedHosts:
    """The names this server answers to. An entry without a port allows any port;
    `name:port` allows that port only; `*` allows every Host (no check: only behind
    a proxy that checks Host itself). `any_ip`: every IP literal is allowed (a
    server bound to all interfaces; rebinding needs a name)."""

    names: frozenset[str]
    exact: frozenset[str]
    any_host: bool = False
    any_ip: bool = False

    @classmethod
    def build(cls, entries: Iterable[str], any_ip: bool = False) -> AllowedHosts:
        names, exact, any_host = set(LOCAL_NAMES), set(), False
        for raw in entries:
            if not isinstance(raw, str) or not raw.strip():
                raise ValueError(f"allowed host {raw!r} is empty or not a name")
            if raw.strip() == "*":
                any_host = True
                continue
            if "/" in raw or "@" in raw or any(c.isspace() for c in raw.strip()):
                raise ValueError(
                    f"allowed host {raw!r} must be a host name or address, optionally with "
                    ":port (no scheme, path or user)"
                )
            name, port = split_host(raw)
            if port is None:
                names.add(name)
            elif port.isdigit():
                exact.add(f"{name}:{port}")
            else:
                raise ValueError(f"allowed host {raw!r}: the port must be a number")
        return cls(frozenset(names), frozenset(exact), any_host, any_ip)

    @classmethod
    def for_bind(cls, bind: str, extra: Iterable[str] = ()) -> AllowedHosts:
        """`cardlab serve`'s default: the bound address and the localhost names, plus
        the operator's `--allowed-host` names. Bound to all interfaces: the machine's
        host names and any IP literal instead of the (meaningless) bound address."""
        if bind.strip() in WILDCARD_BINDS:
            own = {socket.gethostname(), socket.getfqdn()}
            return cls.build([*(n for n in own if n), *extra], any_ip=True)
        return cls.build([bind, *extra])

    def allows(self, host: str | None) -> bool:
        if self.any_host:
            return True
        if not host:
            return False
        name, port = split_host(host)
        if port is not None and not port.isdigit():
            return False
        if name in self.names or (port is not None and f"{name}:{port}" in self.exact):
            return True
        return self.any_ip and _is_ip(name)

    def describe(self) -> str:
        shown = sorted(self.names) + sorted(self.exact)
        return ", ".join(shown) + (", any IP address" if self.any_ip else "")


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def query_has_token(query: bytes | str) -> bool:
    """True when a query string carries a token parameter (any case, any encoding)."""
    text = query.decode("latin-1") if isinstance(query, bytes) else query
    if "token=" in text.lower():
        return True
    return any("token" in key.lower() for key, _ in parse_qsl(text, keep_blank_values=True))


TOKEN_IN_QUERY = (
    "a seat token may not be sent in a URL's query string (it would land in logs); "
    "links carry the token after '#' (e.g. /t/TABLE#seat=0&token=...): ask the host for "
    "a current link"
)


class RequestGate:
    """ASGI middleware: refuse (400) a Host not in the allow-list and a query string
    carrying a token, on HTTP and websocket requests alike."""

    def __init__(self, app: Any, hosts: AllowedHosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if not self.hosts.allows(host):
            shown = "no Host header" if host is None else f"Host {host[:80]!r}"
            await _refuse(scope, receive, send, f"{shown} is not a name of this server")
            return
        if query_has_token(scope.get("query_string", b"")):
            await _refuse(scope, receive, send, TOKEN_IN_QUERY)
            return
        await self.app(scope, receive, send)


async def _refuse(scope: Any, receive: Any, send: Any, message: str) -> None:
    body = message.encode("utf-8")
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    # A websocket handshake: answer it with a plain 400 if the server can, else close.
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008})


_QUERY = re.compile(r"\?([^\s\"#]*)")


def _redact_pair(pair: str) -> str:
    key, eq, _ = pair.partition("=")
    return f"{key}=[redacted]" if eq and "token" in unquote_plus(key).lower() else pair


def redact_query(text: str) -> str:
    """`text` with the value of every token-named query parameter replaced."""
    if "?" not in text:
        return text
    return _QUERY.sub(
        lambda m: "?" + "&".join(_redact_pair(p) for p in m.group(1).split("&")), text
    )


class RedactTokens(logging.Filter):
    """Every token value in a logged request line becomes `[redacted]` (uvicorn's
    access log and its websocket lines print the path with its query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact_query(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact_query(record.msg)
        return True


DENIAL_NOISE = "ASGI callable returned without completing handshake."


class DenialNoise(logging.Filter):
    """Drops uvicorn's spurious ERROR after a websocket denial response (its
    websockets-sansio protocol never marks a denied handshake complete: Kludex/uvicorn
    PR 3138, open). In this app only the gate returns before accepting a socket, so
    the line means a refusal already logged as "connection rejected (400 ...)"; left
    in, every refused handshake would be an ERROR line for log alerts."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != DENIAL_NOISE


LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def install_log_filter() -> None:
    """Attach RedactTokens to uvicorn's loggers, and DenialNoise to its error log,
    once (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, DenialNoise) for f in errors.filters):
        errors.addFilter(DenialNoise())
