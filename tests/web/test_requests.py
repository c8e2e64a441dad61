"""The table API as a schema: the create-table body is a typed model (unknown fields
refused, strict whole numbers, bounds), each refusal names the field and what it
may be, the schema is published as OpenAPI, `/api/games` gives every option's grid
and range, and the lobby's own requests pass. Bad requests change no table."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, close_all, create, seat_socket, toy_catalog

from cardlab.web.app import create_app
from cardlab.web.limits import Limits
from cardlab.web.requests import EXAMPLE, TableRequest, parse_table_request


def post(client, body):
    return client.post("/api/tables", json=body, headers=ORIGIN)


TWO = [{"kind": "human"}, {"kind": "human"}]


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({"game": "highcard", "colour": 1}, ["unknown field 'colour'", "bot_delay, game"]),
        (
            {"game": "highcard", "seats": [{"kind": "human", "file": "x"}, {"kind": "human"}]},
            ["seats[0]: unknown field 'file'", "a human seat has kind, name"],
        ),
        (
            {"game": "highcard", "seats": [{"kind": "human"}, {"kind": "bot", "iterations": 9}]},
            ["seats[1]: unknown field 'iterations'", '"params": {"iterations": N}'],
        ),
        (
            {
                "game": "highcard",
                "seats": [{"kind": "human"}, {"kind": "bot", "params": {"depth": 3}}],
            },
            ["seats[1].params: unknown field 'depth'", "bot params has iterations"],
        ),
        ({"game": "highcard", "players": "2"}, ["players: must be a whole number", '"2"']),
        ({"game": "highcard", "players": True}, ["players: must be a whole number", "true"]),
        ({"game": "highcard", "players": 2.0}, ["players: must be a whole number", "2.0"]),
        (
            {"game": "highcard", "seats": [{"kind": "human"}, {"kind": "robot"}]},
            ['seats[1]: "kind" must be "human" or "bot"', '"robot"'],
        ),
        (
            {
                "game": "highcard",
                "seats": [{"kind": "human"}, {"kind": "bot", "params": {"iterations": True}}],
            },
            ["seats[1].params.iterations: must be a whole number"],
        ),
        ({"game": "highcard", "turn_seconds": -1}, ["turn_seconds: must be from 0 to 3600"]),
        ({"game": "highcard", "bot_delay": 11}, ["bot_delay: must be from 0 to 10"]),
        ({"game": "highcard", "options": {"double_last": [1]}}, ["options.double_last"]),
        ({"game": "highcard", "players": 9}, ['"players": highcard is for 2-4 players']),
        ({"game": "highcard", "seats": [{"kind": "human"}]}, ["exactly 2 seats", "not 1"]),
        ([1, 2], ["must be a JSON object"]),
    ],
)
def test_refusals_name_the_field_and_what_it_may_be(client, body, names):
    resp = post(client, body)
    assert resp.status_code == 400, resp.text
    error = resp.json()["error"]
    for name in names:
        assert name in error, error


def test_the_lobbys_requests_pass(db):
    """What web/static/lobby.js sends: its one-click Play request (a human and the
    default bots, turn_seconds 0, bot_delay 0.8, maybe a variant) and the form's
    (players, changed options only, named or unnamed humans, bots with or without
    an iteration count, turn_seconds and bot_delay as numbers)."""
    many = Limits(tables_per_client=500, max_tables=500, creates_per_minute=1e4, create_burst=500)
    with TestClient(
        create_app(db=db, catalog=toy_catalog(), limits=many, allowed_hosts=HOSTS)
    ) as client:
        lobby_requests_pass(client)


def lobby_requests_pass(client) -> None:
    games = client.get("/api/games").json()["games"]
    for game in games:
        bots = game["bots"]
        ismcts = next((b for b in bots if b.get("strengths")), None)
        seats = [{"kind": "human"}]
        for i in range(1, game["default_players"]):
            if ismcts and i == 1:
                it = ismcts["strengths"]["solid"]
                seats.append({"kind": "bot", "agent": ismcts["kind"], "params": {"iterations": it}})
            else:
                seats.append({"kind": "bot", "agent": bots[0]["kind"]})
        play = {
            "game": game["name"],
            "players": game["default_players"],
            "options": {},
            "seats": seats,
            "turn_seconds": 0,
            "bot_delay": 0.8,
        }
        if game["variants"]:
            play["variant"] = game["variants"][0]["name"]
        assert post(client, play).status_code == 201, (game["name"], post(client, play).text)
        form = dict(play, seats=[{"kind": "human", "name": "Ada"}] + seats[1:], turn_seconds=60)
        form.pop("variant", None)
        opt = game["options"][0] if game["options"] else None
        if opt:
            form["options"] = {opt["name"]: opt["grid"][-1]}
        assert post(client, form).status_code == 201, (game["name"], post(client, form).text)


def test_games_give_every_options_grid_and_range(client):
    body = client.get("/api/games").json()
    assert body["limits"]["bot_iterations"] == [1, body["limits"]["max_bot_iterations"]]
    assert body["schema"] == "/api/openapi.json"
    seen_range = False
    for game in body["games"]:
        for opt in game["options"]:
            assert opt["grid"] == opt["allowed"] and opt["grid"][0] == opt["default"]
            assert opt["type"] in ("boolean", "integer", "string")
            assert opt["range"] is None or (
                opt["type"] == "integer" and opt["range"][0] <= opt["range"][1]
            )
            seen_range |= opt["range"] is not None
    names = {g["name"] for g in body["games"]}
    if "uptime" in names:
        assert seen_range, "UPTIME's levers have ranges"


def test_the_schema_is_published_as_openapi(client):
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    post_op = doc["paths"]["/api/tables"]["post"]
    ref = post_op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schemas = doc["components"]["schemas"]
    table = schemas[ref.rsplit("/", 1)[1]]
    assert table["additionalProperties"] is False
    assert set(table["properties"]) == set(TableRequest.model_fields)
    assert {"HumanSeat", "BotSeat", "BotParams", "TableMade", "Refusal"} <= set(schemas)
    iterations = schemas["BotParams"]["properties"]["iterations"]
    cap = client.get("/api/games").json()["limits"]["max_bot_iterations"]
    assert any(b.get("maximum") == cap for b in iterations["anyOf"])
    assert {"201", "400", "429", "503"} <= set(post_op["responses"])
    parse_table_request(EXAMPLE)  # the documented example is a valid request
    for schema in schemas.values():
        for prop in schema.get("properties", {}).values():
            assert "$ref" in prop or "anyOf" in prop or "type" in prop or "const" in prop, prop


def test_bad_requests_change_no_table_in_progress(client):
    made = create(client)
    seat = seat_socket(client, made, 0)
    before = seat.state()
    for body in (
        {"game": "highcard", "players": True},
        {"game": "highcard", "seats": "all"},
        {"game": "highcard", "options": {"double_last": "maybe"}},
        {"game": "highcard", "table": made["table"]},
    ):
        assert post(client, body).status_code == 400
    seat.send({"type": "sync"})
    after = seat.state()
    assert after["seq"] == before["seq"] and after["legal"] == before["legal"]
    assert client.app.state.hub.live_tables() == 1
    close_all()
