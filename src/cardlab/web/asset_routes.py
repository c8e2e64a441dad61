"""A game's assets for the table page: card art, the art index, the game's own view
script and the favicon. Nothing a client sends names a file: a game and a card are
looked up in the catalog, and a view script is the one the game declares."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cardlab.core.registry import UnknownGameError, game_info
from cardlab.web import art
from cardlab.web.catalog import Catalog

log = logging.getLogger("cardlab.web")
CACHED = {"Cache-Control": "max-age=3600"}


def routes(catalog: Catalog, static: Path) -> list[Any]:
    """`/art/{game}/{card}.svg`, `/api/art/{game}`, `/games/{game}/view.js`,
    `/favicon.ico`."""

    async def card_art(request: Request) -> Response:
        svg = art.card_svg(catalog, request.path_params["game"], request.path_params["card"])
        if svg is None:
            return Response(status_code=404)
        return Response(svg, media_type="image/svg+xml", headers=CACHED)

    async def api_art(request: Request) -> Response:
        return JSONResponse(art.art_index(catalog, request.path_params["game"]))

    async def game_view(request: Request) -> Response:
        """A game's table view script, from its own package (`GameInfo.view_script`).

        The client names only the game; the file is the one the game declares,
        so no path a client sends ever reaches the filesystem. A game with no
        view script (or one the registry does not know, a test's toy catalog)
        gets a script that registers nothing, so the table draws it with the
        generic view and the page sees neither a 404 nor a script error."""
        name = request.path_params["game"]
        if name not in catalog.names():
            return Response(status_code=404)
        try:
            path = game_info(name).asset("view_script")
        except UnknownGameError:  # in the catalog, not in the registry: no declaration
            path = None
        except ValueError as exc:  # declared outside its package: never read it
            log.warning("not serving %s's view script: %s", name, exc)
            path = None
        if path is None:
            return Response(
                "// this game has no view script: the generic view draws it\n",
                media_type="text/javascript",
                headers=CACHED,
            )
        return Response(path.read_bytes(), media_type="text/javascript", headers=CACHED)

    async def favicon(request: Request) -> Response:
        # Browsers ask for /favicon.ico on every page (the reports included).
        return FileResponse(
            static / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )

    return [
        Route("/art/{game}/{card}.svg", card_art),
        Route("/api/art/{game}", api_art),
        Route("/games/{game}/view.js", game_view),
        Route("/favicon.ico", favicon),
    ]
