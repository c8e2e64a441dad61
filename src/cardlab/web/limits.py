"""How much of the server one client may use: the bounds and their defaults.

The defaults keep a small public server (2 cores) responsive for the people
playing on it; `cardlab serve` has a flag for each (see docs/web.md). Whatever
the bound, a refusal says which bound and how to get past it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

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
    spectators_per_table: int = 12
    """Spectator sockets at one table (each seat and the host have exactly one)."""
    syncs_per_second: float = 4.0
    """Full re-sends (sync, replay) one socket may ask for per second (bursts of twice that)."""
    frames_per_second: float = 10.0
    """Frames one socket is sent per second at most (bursts of 20); a socket behind
    gets only the newest state (frames are whole snapshots, so none is lost)."""
    bot_workers: int = 1
    """Processes in which bots search (ISMCTS and other slow bots); quick bots decide inline."""


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
