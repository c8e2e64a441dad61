"""How much of the server one client may use: the bounds and their defaults.

The defaults keep a small public server (2 cores) responsive for the people
playing on it; `cardlab serve` has a flag for each (see docs/web.md). Whatever
the bound, a refusal says which bound and how to get past it."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardlab.web.security import RateLimiter


@dataclass(frozen=True)
class Limits:
    max_bot_iterations: int = 1500
    """Strongest bot a table may have: ISMCTS iterations per decision (the lobby's "strong")."""
    tables_per_client: int = 8
    """Live (unfinished) tables one client address may have made."""
    max_tables: int = 100
    """Live tables on the whole server."""
    creates_per_minute: float = 6.0
    """Table creations per client address per minute (bursts of `create_burst`)."""
    create_burst: int = 4
    sockets_per_client: int = 32
    """Table sockets one client address may have open at once (seats, host and
    spectators, at every table): room for a household or a classroom behind one
    address, not for one client holding the server's tables open."""
    spectators_per_table: int = 12
    """Spectator sockets at one table (each seat and the host have exactly one)."""
    syncs_per_second: float = 4.0
    """Full re-sends (sync, replay) one socket may ask for per second (bursts of twice that)."""
    frames_per_second: float = 10.0
    """Frames one socket is sent per second at most (bursts of 20); a socket behind
    gets only the newest state (frames are whole snapshots, so none is lost)."""
    bot_workers: int = 1
    """Processes in which bots search (ISMCTS and other slow bots); quick bots decide inline."""
    idle_before_first_move: float = 30 * 60.0
    """Seconds a live table may have no socket open before any human has moved: then it
    is closed and recorded as abandoned (so nobody can fill the server with tables and
    walk away)."""
    idle_after_first_move: float = 24 * 3600.0
    """The same once a human has moved (a game left overnight survives)."""
    request_timeout: float = 10.0
    """Seconds a client has to send one whole HTTP request, head and body (guards.py)."""
    keep_alive_timeout: int = 5
    """Seconds an idle keep-alive HTTP connection stays open (uvicorn's timeout_keep_alive)."""


@dataclass
class PerClient:
    """A token bucket per client address (table creation), forgetting idle clients."""

    rate_per_minute: float
    burst: int
    buckets: dict[str, RateLimiter] = field(default_factory=dict)

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        if len(self.buckets) > 10_000:  # forget the oldest idle addresses
            idle = [k for k, b in self.buckets.items() if now - b.stamp > 600]
            for k in idle:
                del self.buckets[k]
        bucket = self.buckets.setdefault(
            client, RateLimiter(rate=self.rate_per_minute / 60.0, burst=float(self.burst))
        )
        return bucket.allow(now)

    def retry_after(self, client: str) -> int:
        bucket = self.buckets.get(client)
        if bucket is None or bucket.rate <= 0:
            return 60
        return max(1, int((1 - bucket.tokens) / bucket.rate) + 1)


class SocketCount:
    """Open table sockets per client address, against `Limits.sockets_per_client`."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = {}

    def take(self, client: str) -> bool:
        """Count one more socket for `client`, unless it is at the cap."""
        held = self.open.get(client, 0)
        if held >= self.cap:
            return False
        self.open[client] = held + 1
        return True

    def give(self, client: str) -> None:
        held = self.open.get(client, 0) - 1
        if held > 0:
            self.open[client] = held
        else:
            self.open.pop(client, None)


class ClientAddress:
    """The key every per-client limit counts under: the peer's address, or the client a
    trusted proxy names in X-Forwarded-For (only a peer in `forwarded_allow_ips`, the
    operator's `--trusted-proxy`, is believed; by default none), with IPv6 grouped by
    /64 (one host, or one home network, usually holds a whole /64) and IPv4-mapped
    IPv6 read as IPv4."""

    def __init__(self, forwarded_allow_ips: str | Iterable[str] = ()) -> None:
        items = (
            [p.strip() for p in forwarded_allow_ips.split(",")]
            if isinstance(forwarded_allow_ips, str)
            else [str(p).strip() for p in forwarded_allow_ips]
        )
        items = [p for p in items if p]
        self.trust_all = "*" in items
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in items:
            if item == "*":
                continue
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(
                    f"--trusted-proxy: {item!r} is not an IP address or network "
                    "(give a comma-separated list such as 127.0.0.1,10.0.0.0/8, or *)"
                ) from None

    def trusted(self, host: str) -> bool:
        if self.trust_all:
            return True
        ip = _ip(host)
        return ip is not None and any(ip in net for net in self.networks)

    def key(self, scope: Mapping[str, Any]) -> str:
        """The client key of an ASGI request or websocket scope."""
        client = scope.get("client")
        peer = str(client[0]) if client else ""
        host = peer
        if peer and (self.trust_all or self.networks) and self.trusted(peer):
            named = _forwarded_for(scope.get("headers") or ())
            # The rightmost address no trusted proxy added is the client (the ones to
            # its left were sent by the client itself and prove nothing).
            for addr in reversed(named):
                host = addr
                if not self.trusted(addr):
                    break
        return group(host) if host else "unknown"


def group(host: str) -> str:
    """An address as a per-client key: IPv4 as is, IPv6 by its /64."""
    ip = _ip(host)
    if ip is None:
        return host[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = host.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None


def _forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    values = [v.decode("latin-1") for k, v in headers if k.lower() == b"x-forwarded-for"]
    named = [a.strip() for v in values for a in v.split(",")]
    return [a for a in named if _ip(a) is not None][-32:]
