"""The table API's request bodies as typed models, and the OpenAPI document built
from them (`GET /api/openapi.json`).

The models check the shape of a request the same for every game: unknown fields
refused by name, strict types (a whole number is a JSON integer, never `true`,
`"3"` or `3.5`) and the bounds that hold on any server. What depends on the game
and the server (the player count, the option values, the bot kinds, the
strongest bot) is checked after, by the hub, against `GET /api/games`, which
lists each of those. Every refusal names the field (``seats[1].params.iterations``)
and what it may be."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.json_schema import models_json_schema

from cardlab.core.errors import CardlabError

MAX_SEATS = 64
"""More seats than any game has; the game's own count is checked after."""


class RequestError(CardlabError):
    """A request body that does not fit its model; the text names the field."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class HumanSeat(_Body):
    """A seat for a person: its link (a token) is in the answer's `tokens`."""

    kind: Literal["human"]
    name: str | None = Field(
        None, max_length=200, description="Shown at the table; cleaned, 24 characters kept."
    )


class BotParams(_Body):
    """A bot's settings. Only searching bots (ISMCTS) take any."""

    iterations: int | None = Field(
        None,
        ge=1,
        description="Searches per decision, 1 to the server's `max_bot_iterations` "
        "(GET /api/games, `limits`); the lobby's strengths are quick 100, solid 400, "
        "strong 1500.",
    )


class BotSeat(_Body):
    """A seat played by the server: a bot kind that plays this game."""

    kind: Literal["bot"]
    agent: str = Field(
        "greedy",
        max_length=64,
        description="A bot kind of this game: GET /api/games, `games[].bots[].kind`.",
    )
    params: BotParams | None = None
    name: str | None = Field(None, max_length=200, description="Shown at the table.")


Seat = Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]


class TableRequest(_Body):
    """`POST /api/tables`: a new table. Everything but `game` has a default."""

    game: str = Field(max_length=64, description="A game's `name` from GET /api/games.")
    players: int | None = Field(
        None,
        ge=1,
        le=MAX_SEATS,
        description="The player count: the game's min_players..max_players "
        "(default its default_players).",
    )
    options: dict[str, bool | int | str] | None = Field(
        None,
        description="Rule options by name: each one's `grid` (the listed values) or, "
        "where it has one, any whole number in its `range` (GET /api/games).",
    )
    variant: str | None = Field(
        None, max_length=200, description="A variant by name (GET /api/games `variants`)."
    )
    seats: list[Seat] | None = Field(
        None,
        max_length=MAX_SEATS,
        description="One per player, in seat order (default: a human, then greedy bots).",
    )
    turn_seconds: float | None = Field(
        None, ge=0, le=3600, description="Seconds a human has per decision; 0 (default): no timer."
    )
    bot_delay: float | None = Field(
        None, ge=0, le=10, description="Seconds a bot waits before moving (default the server's)."
    )


class TableMade(_Body):
    """`POST /api/tables` answered 201: the table and a secret link token per audience."""

    table: str
    tokens: dict[str, str] = Field(
        description="`seatN` for each human seat, `spectator` and `host`; a link is "
        "/t/TABLE#seat=N&token=T (or #role=spectator / #role=host)."
    )


class Refusal(_Body):
    """Any 4xx answer: what was wrong, naming the field."""

    error: str


FIELDS = {
    "table request": sorted(TableRequest.model_fields),
    "human seat": sorted(HumanSeat.model_fields),
    "bot seat": sorted(BotSeat.model_fields),
    "bot params": sorted(BotParams.model_fields),
}


def parse_table_request(body: Any) -> TableRequest:
    """A decoded JSON body as a TableRequest, or a RequestError naming the field."""
    if not isinstance(body, dict):
        raise RequestError("the request must be a JSON object (a table request)")
    try:
        return TableRequest.model_validate(body)
    except ValidationError as exc:
        raise RequestError(describe(exc, body)) from None


def describe(exc: ValidationError, body: Any) -> str:
    """The first problem of a failed validation, as a person would say it."""
    err = exc.errors(include_url=False)[0]
    loc = tuple(err["loc"])
    kind = err["type"]
    where = _where(loc[:-1] if kind == "extra_forbidden" else loc)
    got = _shown(err.get("input"))
    if kind == "extra_forbidden":
        field = str(loc[-1])[:40]
        model = _model_at(loc[:-1], body)
        hint = ""
        if model == "bot seat" and field == "iterations":
            hint = ' (give it as "params": {"iterations": N})'
        head = f"{where}: unknown field {field!r}" if where else f"unknown field {field!r}"
        return f"{head}; a {model} has " + ", ".join(FIELDS[model]) + hint
    if kind == "union_tag_not_found":
        return f'{where}: "kind" is missing; it must be "human" or "bot"'
    if kind == "union_tag_invalid":
        return f'{where}: "kind" must be "human" or "bot", not {_shown(err["ctx"]["tag"])}'
    if kind == "missing":
        return f"{where}: missing (required)"
    ctx = err.get("ctx") or {}
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        low, high = _bounds(loc)
        span = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
        return f"{where}: must be {span}, not {got}"
    if kind in ("too_long", "string_too_long"):
        return f"{where}: too long (at most {ctx.get('max_length')})"
    if kind == "int_type":
        return f"{where}: must be a whole number (a JSON integer), not {got}"
    if kind in ("float_type", "float_parsing"):
        return f"{where}: must be a number, not {got}"
    if kind == "string_type":
        return f"{where}: must be a string, not {got}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{where}: must be a JSON object, not {got}"
    if kind == "list_type":
        return f"{where}: must be a list, not {got}"
    if kind == "literal_error":
        return f"{where}: must be {ctx.get('expected')}, not {got}"
    if where.startswith("options."):
        return f"{where}: must be true/false, a whole number or a string, not {got}"
    return f"{where}: {err['msg']}"


def _where(loc: tuple[Any, ...]) -> str:
    """("seats", 1, "bot", "params", "iterations") -> seats[1].params.iterations"""
    if loc[:1] == ("options",) and len(loc) > 1:
        return f"options.{str(loc[1])[:40]}"  # past it: which type of the union failed
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("human", "bot") and i > 0 and isinstance(loc[i - 1], int):
            continue  # the union's tag, not a field
        else:
            out += ("." if out else "") + str(part)
    return out


def _model_at(loc: tuple[Any, ...], body: Any) -> str:
    if not loc:
        return "table request"
    if loc[-1] == "params":
        return "bot params"
    return "bot seat" if loc[-1] == "bot" or "bot" in loc else "human seat"


def _bounds(loc: tuple[Any, ...]) -> tuple[float, float | None]:
    schema = {
        "turn_seconds": (0, 3600),
        "bot_delay": (0, 10),
        "players": (1, MAX_SEATS),
    }
    return schema.get(str(loc[-1]), (1, None))


def _shown(value: Any) -> str:
    import json

    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return repr(value)[:40]


def openapi(max_bot_iterations: int) -> dict[str, Any]:
    """The table API as OpenAPI 3.1: the request and answer bodies are the models
    above (their JSON Schema), the server's own cap on bots written in."""
    _, defs = models_json_schema(
        [(m, "validation") for m in (TableRequest, TableMade, Refusal)],
        ref_template="#/components/schemas/{model}",
    )
    schemas = defs["$defs"]
    iterations = schemas["BotParams"]["properties"]["iterations"]
    for branch in iterations.get("anyOf", [iterations]):
        if branch.get("type") == "integer":
            branch["maximum"] = max_bot_iterations

    def answer(model: str, why: str) -> dict[str, Any]:
        return {
            "description": why,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model}"}}},
        }

    refusals = {
        "400": answer("Refusal", "the request is malformed or names something not offered"),
        "403": answer("Refusal", "no Origin of this server (use a page of this server)"),
        "413": answer("Refusal", "the body is over 16 KiB"),
        "429": answer("Refusal", "this address has too many tables, or made them too fast"),
        "503": answer("Refusal", "the server is full; Retry-After says when to try again"),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cardlab table API",
            "version": "1",
            "description": "Tables for the browser: make one, then open its socket "
            "/ws/TABLE with a token (docs/web.md, the socket protocol).",
        },
        "paths": {
            "/api/tables": {
                "post": {
                    "summary": "Make a table",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/TableRequest"},
                                "example": EXAMPLE,
                            }
                        },
                    },
                    "responses": {"201": answer("TableMade", "the table is made"), **refusals},
                }
            },
            "/api/games": {
                "get": {
                    "summary": "The games, their options (each one's grid and range), "
                    "player counts, bot kinds and variants, and the server's limits",
                    "responses": {"200": {"description": "the catalogue"}},
                }
            },
            "/api/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": {"description": "OpenAPI 3.1"}},
                }
            },
        },
        "components": {"schemas": schemas},
    }


EXAMPLE = {
    "game": "uptime",
    "players": 3,
    "options": {},
    "seats": [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "agent": "ismcts", "params": {"iterations": 100}},
        {"kind": "bot", "agent": "greedy"},
    ],
    "turn_seconds": 0,
    "bot_delay": 0.8,
}
