"""Seat tokens, Origin checks, message limits and the per-socket rate limit.

Tokens are 32 random bytes from `secrets`; only their SHA-256 is stored (a
stolen database cannot be used to sit at a table) and they are compared in
constant time. Tokens travel in the URL *fragment* and the first socket
message, never in a request line, so access logs never contain them."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cardlab.core.rng import fresh_seed
from cardlab.web.gate import AllowedHosts

MAX_MESSAGE_BYTES = 4096
"""Largest message a client may send; every legitimate message is under 200 bytes."""

HARD_FRAME_LIMIT = 64 * 1024
"""uvicorn drops the connection above this; between the two limits we answer with an error."""

MAX_DEPTH = 8
"""Deepest nesting of arrays and objects a client may send (a table request needs 4).
Checked on the raw text before any JSON is decoded, so a deeply nested message
cannot exhaust the decoder's recursion."""

NAME_LIMIT = 24
"""Longest seat name, in characters, after cleaning."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: Any, stored_hash: str | None) -> bool:
    """Constant-time check of a presented token against a stored hash."""
    if stored_hash is None or not isinstance(token, str) or len(token) > 200:
        # Still do the comparison so a missing record costs the same time.
        hmac.compare_digest(hash_token("x"), hash_token("y"))
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_table_id() -> str:
    """Table ids are public (they name the table in links) but unguessable."""
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    """A table's seed: 64 bits from `secrets` (core.rng.fresh_seed). It deals every
    hidden card, so it never leaves the server while the game is live."""
    return fresh_seed()


def origin_allowed(
    origin: str | None, host: str | None, extra: frozenset[str], hosts: AllowedHosts | None = None
) -> bool:
    """A browser socket must come from a page this server served (same host:port,
    a name in the Host allow-list `hosts`), or from an origin the operator listed
    with --allow-origin. A rebinding page (Host and Origin both attacker.example)
    fails the allow-list even though the two agree."""
    if not origin:
        return False
    if origin in extra:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not host or parts.netloc != host:
        return False
    return hosts is None or hosts.allows(parts.netloc)


class BadMessage(ValueError):
    """A client message we refuse; the text is sent back to that client."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in JSON `text`, read without decoding it
    (brackets inside strings do not count; malformed text gives some finite answer)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group(0) in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def decode_json(text: str, what: str, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` behind a depth check; every failure is a BadMessage."""
    depth = json_depth(text)
    if depth > max_depth:
        raise BadMessage(f"{what} is nested {depth} deep (limit {max_depth})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadMessage(f"{what} is not valid JSON ({exc.msg} at position {exc.pos})") from None
    except (RecursionError, ValueError) as exc:  # belt and braces: never a 500
        raise BadMessage(f"{what} cannot be decoded ({type(exc).__name__})") from None


def parse_message(text: str | bytes | None) -> dict[str, Any]:
    """Decode one client message or raise BadMessage with a clear reason."""
    if text is None:
        raise BadMessage("binary frames are not accepted; send JSON text")
    if isinstance(text, bytes):
        raise BadMessage("binary frames are not accepted; send JSON text")
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large: {size} bytes (limit {MAX_MESSAGE_BYTES})")
    msg = decode_json(text, "message")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise BadMessage('message must be a JSON object with a "type" field')
    return msg


def int_field(msg: dict[str, Any], name: str) -> int:
    value = msg.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadMessage(f'"{name}" must be a whole number, not {json.dumps(value)[:40]}')
    return value


@dataclass
class RateLimiter:
    """A token bucket per socket: `rate` messages a second, bursts up to `burst`.
    A flooding socket has its extra messages refused while others are served."""

    rate: float = 10.0
    burst: float = 20.0
    tokens: float = -1.0
    stamp: float = 0.0
    refused: int = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def ready(self, now: float | None = None) -> bool:
        """Whether `allow` would let one through now (spends nothing)."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            return self.burst >= 1
        return min(self.burst, self.tokens + (now - self.stamp) * self.rate) >= 1


def parse_json_body(body: bytes) -> Any:
    """A request body (already size-checked) as JSON, depth-checked before decoding."""
    try:
        text = (body or b"{}").decode("utf-8")
    except UnicodeDecodeError:
        raise BadMessage("request body is not valid JSON (not UTF-8 text)") from None
    return decode_json(text, "request body")


def clean_name(raw: Any, limit: int = NAME_LIMIT) -> str:
    """A seat name safe to show: no format characters (Unicode Cf: bidi overrides and
    isolates, zero-width joiners), no control characters, whitespace runs as one
    space, at most `limit` characters."""
    if not isinstance(raw, str):
        raw = "" if raw is None else str(raw)
    kept = []
    for ch in unicodedata.normalize("NFC", raw[: limit * 8]):
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Cc", "Cs", "Co", "Cn"):
            kept.append(" " if ch in "\t\n\r" else "")
        elif cat in ("Zl", "Zp", "Zs"):
            kept.append(" ")
        else:
            kept.append(ch)
    return " ".join("".join(kept).split())[:limit].strip()


def same_origin(
    origin: str | None, host: str | None, extra: frozenset[str], hosts: AllowedHosts | None = None
) -> bool:
    """A state-changing POST must carry an Origin of this server (or an allowed one);
    a missing Origin is refused too (browsers always send it on POST)."""
    return origin_allowed(origin, host, extra, hosts)
