"""Security headers on every HTTP response of the table server.

Every page is built from files in `static/` with no inline script or style, so
the Content-Security-Policy allows scripts, styles and connections to this
origin only. Pages may not be framed (clickjacking a "hand to bot" button),
never send a Referer (seat tokens live in links), and may not use the camera,
microphone or location. A response that sets its own policy (the playtest
reports' self-contained HTML) keeps it."""

from __future__ import annotations

import re
from typing import Any

PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'{ws}; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'; object-src 'none'"
)
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
_HOST = re.compile(r"^[A-Za-z0-9.\-\[\]:]{1,255}$")

COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", PERMISSIONS.encode()),
]


def page_csp(host: str | None) -> str:
    """The page policy; sockets to this same host are named too (older browsers
    do not count ws: as 'self')."""
    ws = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return PAGE_CSP.format(ws=ws)


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = None
        for key, value in scope.get("headers", ()):
            if key == b"host":
                host = value.decode("latin-1")
                break

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {name for name, _ in COMMON}
                ]
                names = {k.lower() for k, _ in headers}
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                headers += COMMON
                if b"content-security-policy" in names:
                    headers = [
                        (k, v + b"; frame-ancestors 'none'")
                        if k.lower() == b"content-security-policy" and b"frame-ancestors" not in v
                        else (k, v)
                        for k, v in headers
                    ]
                else:
                    if kind.startswith(b"text/html"):
                        headers.append((b"content-security-policy", page_csp(host).encode()))
                    elif kind.startswith(b"image/svg"):
                        headers.append((b"content-security-policy", SVG_CSP.encode()))
                    else:
                        headers.append((b"content-security-policy", b"frame-ancestors 'none'"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
