"""The designer's routes: the design page and its versions, playing and printing a
version, and what players said after their games. All of them are the operator's
(the token `cardlab serve` prints), since versions and players' answers are the
designer's; changes also need a page of this server (the Origin check the app owns).

`routes(...)` is what `create_app` mounts: one module a feature, so the app is built
from small route modules."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cardlab.core.errors import CardlabError
from cardlab.web.design import (
    DesignRefused,
    Designs,
    check_design,
    page_payload,
    parse_design,
    play_request,
    print_version,
)
from cardlab.web.feedback import Feedback, summary_answer
from cardlab.web.reports import operator_allowed

DESIGN_BODY = 512 * 1024
"""A design (every card's row) is larger than a table request: its own body limit."""
BODY_SECONDS = 10.0

_NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


async def bounded_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it passes `limit` bytes (never read whole)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def routes(
    hub: Any,
    static: Any,
    operator: str,
    foreign_origin: Callable[[Request, str], Response | None],
    client_key: Callable[[Request], str],
) -> list[Route]:
    """The designer's routes over the hub's store and catalog."""
    designs = Designs(hub.store)
    feedback = Feedback(hub.store)
    hub.feedback = feedback  # the socket's "survey" message keeps its answers here

    def known(game: str) -> bool:
        return game in hub.catalog.names()

    def refused(request: Request, what: str, changes: bool) -> Response | None:
        if changes:
            origin = foreign_origin(request, what)
            if origin is not None:
                return origin
        why = operator_allowed(request.headers.get("authorization"), operator)
        if why is not None:
            return JSONResponse(
                {"error": why.replace("starting a playtest run", what), "operator": True},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="cardlab operator"'},
            )
        if not known(request.path_params["game"]):
            return JSONResponse({"error": "no such game"}, status_code=404)
        return None

    async def body_of(request: Request) -> Any:
        try:
            async with asyncio.timeout(BODY_SECONDS):
                raw = await bounded_body(request, DESIGN_BODY)
        except TimeoutError:
            raise DesignRefused(
                f"the request body did not arrive within {BODY_SECONDS:g} s"
            ) from None
        if raw is None:
            raise DesignRefused(f"the design is too large (limit {DESIGN_BODY} bytes)")
        try:
            return json.loads(raw)
        except ValueError:
            raise DesignRefused("the request body is not JSON") from None

    def refusal(exc: DesignRefused, status: int = 422) -> Response:
        return JSONResponse({"error": str(exc)[:800], "problems": exc.problems}, status_code=status)

    async def design_page(request: Request) -> Response:
        if not known(request.path_params["game"]):
            return JSONResponse({"error": "no such game"}, status_code=404)
        return FileResponse(static / "design.html", headers=_NO_STORE)

    async def api_design(request: Request) -> Response:
        no = refused(request, "reading the design", changes=False)
        if no is not None:
            return no
        game = request.path_params["game"]
        return JSONResponse(page_payload(designs, hub.catalog, game), headers=_NO_STORE)

    async def api_check(request: Request) -> Response:
        no = refused(request, "checking a design", changes=True)
        if no is not None:
            return no
        try:
            check_design(request.path_params["game"], parse_design(await body_of(request)))
        except DesignRefused as exc:
            return refusal(exc)
        return JSONResponse({"ok": True})

    async def api_save(request: Request) -> Response:
        no = refused(request, "saving a design version", changes=True)
        if no is not None:
            return no
        try:
            saved = designs.save(request.path_params["game"], parse_design(await body_of(request)))
        except DesignRefused as exc:
            return refusal(exc)
        return JSONResponse(saved, status_code=201)

    def version_of(request: Request) -> int:
        try:
            return int(request.path_params["version"])
        except ValueError:
            raise DesignRefused("a version is a number") from None

    async def api_print(request: Request) -> Response:
        no = refused(request, "printing a design version", changes=False)
        if no is not None:
            return no
        game = request.path_params["game"]
        try:
            pdf = await asyncio.to_thread(print_version, designs, game, version_of(request))
        except DesignRefused as exc:
            return refusal(exc, 404)
        return Response(
            pdf,
            media_type="application/pdf",
            headers={**_NO_STORE, "Content-Disposition": f'attachment; filename="{game}.pdf"'},
        )

    async def api_play(request: Request) -> Response:
        no = refused(request, "playing a design version", changes=True)
        if no is not None:
            return no
        game = request.path_params["game"]
        try:
            number = version_of(request)
            version = designs.get(game, number)
            spec = play_request(designs, hub.catalog, game, number)
            made = hub.create(
                spec,
                client=client_key(request),
                cards=(version["cards"], f"design version {number} ({version['name']})"),
            )
        except DesignRefused as exc:
            return refusal(exc, 404)
        except CardlabError as exc:
            return JSONResponse({"error": str(exc)[:500]}, status_code=400)
        return JSONResponse(made, status_code=201)

    async def api_feedback(request: Request) -> Response:
        game = request.path_params["game"]
        status, body = summary_answer(
            feedback, game, hub.catalog.names(), request.headers.get("authorization"), operator
        )
        return JSONResponse(body, status_code=status, headers=_NO_STORE)

    return [
        Route("/design/{game}", design_page),
        Route("/api/design/{game}", api_design),
        Route("/api/design/{game}/check", api_check, methods=["POST"]),
        Route("/api/design/{game}/versions", api_save, methods=["POST"]),
        Route("/api/design/{game}/versions/{version}/print.pdf", api_print),
        Route("/api/design/{game}/versions/{version}/play", api_play, methods=["POST"]),
        Route("/api/feedback/{game}", api_feedback),
    ]
