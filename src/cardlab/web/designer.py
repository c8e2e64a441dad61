"""The designer's routes: the design page and its versions, playing and printing a
version, a table from a version (the lobby's form), comparing two designs in the
background (web/compare.py), and what players said after their games. All of them are
the operator's (the token `cardlab serve` prints), since versions and players' answers
are the designer's; changes also need a page of this server (the Origin check the app
owns). A comparison's finished report is the one exception: a link by its random id.

`routes(...)` is what `create_app` mounts: one module a feature, so the app is built
from small route modules."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from cardlab.core.errors import CardlabError
from cardlab.web.compare import (
    REPORT_FILES,
    CompareJobs,
    CompareRefused,
    default_root,
    parse_compare,
)
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
from cardlab.web.reports import REPORT_CSP, operator_allowed

DESIGN_BODY = 512 * 1024
"""A design (every card's row) is larger than a table request: its own body limit."""
BODY_SECONDS = 10.0
SMALL_BODY = 16 * 1024
"""A comparison or a table request: the table API's own body limit."""

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
    jobs = CompareJobs(default_root(hub.store.path), designs, hub.catalog)
    # Reachable for tests. A comparison in progress ends with the server without a call
    # to `jobs.stop()`: its task is cancelled with the event loop (ending its process
    # group), and the run asks the kernel to end it when the server's process dies.
    hub.design_compare = jobs

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

    async def body_of(request: Request, limit: int = DESIGN_BODY) -> Any:
        try:
            async with asyncio.timeout(BODY_SECONDS):
                raw = await bounded_body(request, limit)
        except TimeoutError:
            raise DesignRefused(
                f"the request body did not arrive within {BODY_SECONDS:g} s"
            ) from None
        if raw is None:
            what = "the design" if limit == DESIGN_BODY else "the request"
            raise DesignRefused(f"{what} is too large (limit {limit} bytes)")
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
        payload = page_payload(designs, hub.catalog, game)
        said = {g["version"]: g for g in feedback.summary(game)["versions"] if g["version"]}
        for v in payload["versions"]:
            if v["verdicts"] and not jobs.kept(v["verdicts"]["job"]):
                v["verdicts"]["report"] = None  # a pruned comparison's report is gone
            # what players at this version's tables said, beside those tables' bots
            v["players"] = said.get(v["id"])
        return JSONResponse(payload, headers=_NO_STORE)

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
                version=number,
            )
        except DesignRefused as exc:
            return refusal(exc, 404)
        except CardlabError as exc:
            return JSONResponse({"error": str(exc)[:500]}, status_code=400)
        return JSONResponse(made, status_code=201)

    async def api_versions(request: Request) -> Response:
        """The versions as the lobby's form offers them (no sheet, no card bytes)."""
        no = refused(request, "reading the design versions", changes=False)
        if no is not None:
            return no
        listed = [
            {
                k: v[k]
                for k in ("id", "name", "created_text", "options", "cards_sha256", "verdicts_text")
            }
            for v in designs.versions(request.path_params["game"])
        ]
        return JSONResponse({"versions": listed}, headers=_NO_STORE)

    async def api_version_table(request: Request) -> Response:
        """A table of the lobby's form (players, seats, options, timer, pace) dealing a
        version's cards under its options (the form's changes over them), as "Play this
        version" deals them: the table, its replay and its report name the version."""
        no = refused(request, "opening a table with a design version", changes=True)
        if no is not None:
            return no
        game = request.path_params["game"]
        try:
            number = version_of(request)
            version = designs.get(game, number)
        except DesignRefused as exc:
            return refusal(exc, 404)
        try:
            spec = await body_of(request, SMALL_BODY)
        except DesignRefused as exc:
            return refusal(exc, 400)
        if not isinstance(spec, dict):
            return JSONResponse({"error": "a table request is a JSON object"}, status_code=400)
        if spec.get("game", game) != game:
            return JSONResponse(
                {"error": f'"game": this is a version of {game}, not {spec.get("game")!r}'},
                status_code=400,
            )
        if spec.get("variant") not in (None, "", "as written"):
            return JSONResponse(
                {"error": '"variant": a design version deals its own cards: leave it out'},
                status_code=400,
            )
        given = spec.get("options") or {}
        if not isinstance(given, dict):
            return JSONResponse({"error": '"options" must be an object'}, status_code=400)
        spec = {k: v for k, v in spec.items() if k != "variant"}
        spec.update(game=game, options={**json.loads(version["options"]), **given})
        try:
            made = hub.create(
                spec,
                client=client_key(request),
                cards=(version["cards"], f"design version {number} ({version['name']})"),
                version=number,
            )
        except CardlabError as exc:
            status = int(getattr(exc, "status", 400))
            return JSONResponse({"error": str(exc)[:500]}, status_code=status)
        return JSONResponse(made, status_code=201)

    async def api_compare(request: Request) -> Response:
        no = refused(request, "comparing design versions", changes=True)
        if no is not None:
            return no
        game = request.path_params["game"]
        try:
            req = parse_compare(await body_of(request, SMALL_BODY))
            started = jobs.start(game, req)
        except CompareRefused as exc:
            return JSONResponse({"error": str(exc)[:800]}, status_code=exc.status)
        except DesignRefused as exc:
            return refusal(exc, 400)
        return JSONResponse(started, status_code=202, headers=_NO_STORE)

    async def api_compares(request: Request) -> Response:
        no = refused(request, "reading the design comparisons", changes=False)
        if no is not None:
            return no
        from cardlab.web.compare import DEFAULT_GAMES, MAX_GAMES, MIN_GAMES

        return JSONResponse(
            {
                "jobs": jobs.listing(request.path_params["game"]),
                "games": {"min": MIN_GAMES, "max": MAX_GAMES, "default": DEFAULT_GAMES},
            },
            headers=_NO_STORE,
        )

    async def api_compare_status(request: Request) -> Response:
        no = refused(request, "reading a design comparison", changes=False)
        if no is not None:
            return no
        status = jobs.status(request.path_params["game"], request.path_params["job"])
        if status is None:
            return JSONResponse({"error": "no such comparison"}, status_code=404)
        return JSONResponse(status, headers=_NO_STORE)

    async def compare_file(request: Request) -> Response:
        """A finished comparison's report: a link to whoever holds the job's random id
        (only the operator's status gives it out), self-contained and script-free."""
        game, job, name = (request.path_params[k] for k in ("game", "job", "name"))
        path = jobs.file(game, job, name)
        if path is None:
            return HTMLResponse(
                "<!doctype html><title>No such comparison</title><h1>No such comparison</h1>"
                '<p><a href="/">Back to the lobby</a></p>',
                status_code=404,
                headers=_NO_STORE,
            )
        headers = {**_NO_STORE, "X-Content-Type-Options": "nosniff", "X-Robots-Tag": "noindex"}
        if name.endswith(".html"):
            headers["Content-Security-Policy"] = REPORT_CSP
        return FileResponse(path, media_type=REPORT_FILES[name], headers=headers)

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
        Route("/api/design/{game}/versions", api_versions, methods=["GET"]),
        Route("/api/design/{game}/versions/{version}/table", api_version_table, methods=["POST"]),
        Route("/api/design/{game}/compare", api_compare, methods=["POST"]),
        Route("/api/design/{game}/compare", api_compares, methods=["GET"]),
        Route("/api/design/{game}/compare/{job}", api_compare_status),
        Route("/design/{game}/compare/{job}/{name}", compare_file),
        Route("/api/design/{game}/versions/{version}/print.pdf", api_print),
        Route("/api/design/{game}/versions/{version}/play", api_play, methods=["POST"]),
        Route("/api/feedback/{game}", api_feedback),
    ]
