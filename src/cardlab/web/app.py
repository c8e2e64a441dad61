"""The Starlette application: lobby and table pages, table creation, the socket, and
the route modules mounted beside them (a game's assets, the lab's reports, the
designer's pages)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from cardlab.core.errors import CardlabError
from cardlab.web import asset_routes, designer, lobby, report_routes, requests, security
from cardlab.web.catalog import Catalog
from cardlab.web.gate import AllowedHosts, RequestGate, install_log_filter
from cardlab.web.guards import install_log_budget
from cardlab.web.headers import SecurityHeaders
from cardlab.web.hub import Hub, TooMany
from cardlab.web.limits import ClientAddress, Limits, SocketCount
from cardlab.web.offers import Offers
from cardlab.web.reports import QUICK_SETTINGS, Reports
from cardlab.web.sockets import table_socket
from cardlab.web.store import Store

log = logging.getLogger("cardlab.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
BODY_SECONDS = 10.0
"""A request body must arrive whole within this (a trickled body is answered 408)."""


def create_app(
    db: str | Path = "cardlab.db",
    catalog: Catalog | None = None,
    bot_delay: float = 0.8,
    allowed_origins: tuple[str, ...] = (),
    message_rate: float = 20.0,
    reports_dir: str | Path | None = None,
    report_settings: tuple[str, ...] | None = None,
    limits: Limits | None = None,
    cards: tuple[str, ...] = (),
    variants: tuple[str, ...] = (),
    operator_token: str | None = None,
    forwarded_allow_ips: str | tuple[str, ...] = (),
    allowed_hosts: Iterable[str] | AllowedHosts | None = None,
    log_budget: bool = False,
) -> Starlette:
    """The app for one database. Tables in it are restored when the app starts.

    Playtest reports live in `reports_dir` (default: `reports/` next to the database);
    `report_settings` are the `cardlab report` flags of a lobby run (default: quick).
    `cards` and `variants` are the operator's files (`cardlab serve --cards/--variant`);
    no request can name a file. `limits` bound what one client may use, a client
    being its address, or the one a proxy in `forwarded_allow_ips` names in
    X-Forwarded-For (IPv6 by /64). Starting a playtest run needs `operator_token`
    (a fresh random one if not given: `app.state.operator_token`).
    `allowed_hosts`: the names (Host header) this server answers to besides the
    localhost names (see gate.py; `cardlab serve` adds the bound address).
    `log_budget`: at start-up, bound every log handler's lines (guards.py; `cardlab
    serve` asks for it: by then the server has configured its logging)."""
    client_address = ClientAddress(forwarded_allow_ips)
    operator = operator_token or secrets.token_urlsafe(24)
    store = Store(db)
    catalog = catalog or Catalog()
    hub = Hub(
        store,
        catalog,
        bot_delay=bot_delay,
        message_rate=message_rate,
        limits=limits,
        offers=Offers(catalog, cards, variants, used_by=store.games_with_cards),
    )
    origins = frozenset(allowed_origins)
    hosts = (
        allowed_hosts
        if isinstance(allowed_hosts, AllowedHosts)
        else AllowedHosts.build(allowed_hosts or ())
    )
    install_log_filter()
    reports = Reports(
        reports_dir if reports_dir is not None else Path(db).resolve().parent / "reports",
        hub.catalog.names(),
        report_settings if report_settings is not None else QUICK_SETTINGS,
        {name: hub.catalog.describe(name)["title"] for name in hub.catalog.names()},
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        install_log_budget(handlers=log_budget)
        restored = hub.restore()
        log.info("restored %d table(s) from %s", restored, db)
        hub.start()
        yield
        await reports.stop()
        await hub.stop()
        store.close()

    async def home(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html", headers=_NO_STORE)

    async def api_games(request: Request) -> Response:
        games = []
        for name in hub.catalog.names():
            entry = hub.catalog.describe(name)
            entry["pitch"] = lobby.PITCHES.get(name, "")
            # Variants by name (no path): a table request may name one in "variant".
            entry["variants"] = hub.offers.describe(name)
            games.append(entry)
        limits = hub.limits
        return JSONResponse(
            {
                "games": games,
                "limits": {
                    "max_bot_iterations": limits.max_bot_iterations,
                    "bot_iterations": [1, limits.max_bot_iterations],
                    "tables_per_client": limits.tables_per_client,
                    "sockets_per_client": limits.sockets_per_client,
                    "turn_seconds": [0, 3600],
                    "bot_delay": [0, 10],
                },
                "schema": "/api/openapi.json",
            }
        )

    async def api_openapi(request: Request) -> Response:
        return JSONResponse(requests.openapi(hub.limits.max_bot_iterations))

    async def api_rules(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in hub.catalog.names():
            return JSONResponse({"error": f"unknown game {name!r}"}, status_code=404)
        return HTMLResponse(lobby.rules_html(name))

    def foreign_origin(request: Request, what: str) -> Response | None:
        """Side effects need a page of this server: a missing or foreign Origin is 403."""
        origin = request.headers.get("origin")
        if not security.same_origin(origin, request.headers.get("host"), origins, hosts):
            shown = "no Origin header" if origin is None else f"origin {origin[:80]!r}"
            return JSONResponse(
                {"error": f"{shown} may not {what}: use a page of this server"}, status_code=403
            )
        return None

    async def api_create(request: Request) -> Response:
        refused = foreign_origin(request, "create tables")
        if refused is not None:
            return refused
        try:
            async with asyncio.timeout(BODY_SECONDS):
                body = await _bounded_body(request)
        except TimeoutError:
            return JSONResponse(
                {"error": f"the request body did not arrive within {BODY_SECONDS:g} s"},
                status_code=408,
            )
        if body is None:
            return JSONResponse(
                {"error": f"request too large (limit {MAX_BODY} bytes)"}, status_code=413
            )
        client = client_address.key(request.scope)
        try:
            spec = security.parse_json_body(body)
            made = hub.create(spec, client=client)
        except TooMany as exc:
            headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
            return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)
        except (CardlabError, security.BadMessage, TypeError, ValueError) as exc:
            return JSONResponse({"error": str(exc)[:500]}, status_code=400)
        return JSONResponse(made, status_code=201)

    async def table_page(request: Request) -> Response:
        if request.path_params["table_id"] not in hub.tables:
            return HTMLResponse(
                "<!doctype html><title>No such table</title><h1>No such table</h1>"
                '<p><a href="/">Back to the lobby</a></p>',
                status_code=404,
            )
        return FileResponse(STATIC / "table.html", headers=_NO_STORE)

    sockets = SocketCount(hub.limits.sockets_per_client)

    async def socket(ws: WebSocket) -> None:
        client = client_address.key(ws.scope)
        await table_socket(ws, hub, origins, hosts, client=client, counts=sockets)

    routes: list[Any] = [
        Route("/", home),
        Route("/api/games", api_games),
        Route("/api/openapi.json", api_openapi),
        Route("/api/rules/{game}", api_rules),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/t/{table_id}", table_page),
        WebSocketRoute("/ws/{table_id}", socket),
        *asset_routes.routes(hub.catalog, STATIC),
        *report_routes.routes(reports, operator, foreign_origin),
        *designer.routes(
            hub, STATIC, operator, foreign_origin, lambda r: client_address.key(r.scope)
        ),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    # Before any route runs; inside SecurityHeaders, so its refusals get the headers too.
    app.add_middleware(RequestGate, hosts=hosts)
    app.add_middleware(SecurityHeaders)
    app.state.hub = hub
    app.state.store = store
    app.state.reports = reports
    app.state.operator_token = operator
    app.state.client_address = client_address
    app.state.sockets = sockets
    return app


_NO_STORE = report_routes.NO_STORE


async def _bounded_body(request: Request) -> bytes | None:
    """The request body, or None as soon as it passes MAX_BODY (never read whole)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
