"""The lab's routes: the lobby's playtest reports and the claims gate page, and the
button that starts a fresh run (the operator's). Split from the app so that each
route module holds one concern; `create_app` mounts them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from cardlab.web.reports import FILES, REPORT_CSP, Reports, RunRefused, operator_allowed

NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def routes(
    reports: Reports,
    operator: str,
    foreign_origin: Callable[[Request, str], Response | None],
) -> list[Any]:
    """`GET /api/reports`, `POST /api/reports/{game}/run` (operator token),
    `GET /reports/{game}/{name}` (a report's own files only) and `GET /gate`."""

    async def api_reports(request: Request) -> Response:
        return JSONResponse(reports.all_status(), headers=NO_STORE)

    async def api_report_run(request: Request) -> Response:
        refused = foreign_origin(request, "start playtests")
        if refused is not None:
            return refused
        why = operator_allowed(request.headers.get("authorization"), operator)
        if why is not None:
            return JSONResponse(
                {"error": why, "operator": True},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="cardlab operator"'},
            )
        game = request.path_params["game"]
        try:
            status = reports.start(game)
        except RunRefused as exc:
            code = 409 if game in reports.games else 404
            return JSONResponse({"error": str(exc)}, status_code=code)
        return JSONResponse(status, status_code=202)

    async def report_file(request: Request) -> Response:
        game, name = request.path_params["game"], request.path_params["name"]
        path = reports.file(game, name)
        if path is None:
            known = game in reports.games and name in FILES
            text = "No playtest report yet" if known else "No such report file"
            return HTMLResponse(
                f"<!doctype html><title>{text}</title><h1>{text}</h1>"
                '<p><a href="/">Back to the lobby</a></p>',
                status_code=404,
            )
        headers = {**NO_STORE, "X-Content-Type-Options": "nosniff"}
        if name.endswith(".html"):
            headers["Content-Security-Policy"] = REPORT_CSP
        return FileResponse(path, media_type=FILES[name], headers=headers)

    async def gate_page(request: Request) -> Response:
        return HTMLResponse(reports.gate_html(), headers=NO_STORE)

    return [
        Route("/api/reports", api_reports),
        Route("/api/reports/{game}/run", api_report_run, methods=["POST"]),
        Route("/reports/{game}/{name}", report_file),
        Route("/gate", gate_page),
    ]
