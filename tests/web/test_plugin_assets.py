"""The table serves a plugin's own assets from the plugin's package, safely:
its view script at /games/<game>/view.js (the one `GameInfo.view_script`
declares; the client names only the game), its rules document in the lobby's
Rules pane, its personas as the only extra bots offered to it; a game without a
view script is drawn by the generic view with no 404 and no script error, and
the lobby's own words name no game. The toy is a plugin scaffolded outside
cardlab's tree (tests/plugin_support.py), registered in-process."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parents[1]))

from web_support import HOSTS, ORIGIN, close_all, create, seat_socket, toy_catalog  # noqa: E402

from cardlab.core.plugin import GameInfo  # noqa: E402
from cardlab.core.registry import all_infos, register_game  # noqa: E402
from cardlab.web.app import create_app  # noqa: E402
from cardlab.web.catalog import Catalog  # noqa: E402
from plugin_support import ART_MARK, RULES_MARK, plugin  # noqa: E402

GENERIC = "// this game has no view script: the generic view draws it\n"


@pytest.fixture
def plugins(tmp_path: Path) -> Iterator[tuple[GameInfo, GameInfo]]:
    """`viewtoy` brings rules, a view script, a persona and card art; `baretoy` none of
    them (it keeps only the template's engine and card file)."""
    with (
        plugin(tmp_path, "viewtoy", personas=True, art=True) as full,
        plugin(tmp_path, "baretoy", rules=False, view=False) as baretoy,
    ):
        yield full, baretoy


@pytest.fixture
def app_client(plugins, tmp_path: Path) -> Iterator[TestClient]:
    catalog = Catalog({**Catalog().games, **toy_catalog().games})  # the registry's and highcard
    app = create_app(db=tmp_path / "t.db", catalog=catalog, bot_delay=0, allowed_hosts=HOSTS)
    with TestClient(app) as c:
        yield c
        close_all()


def test_the_view_script_is_the_one_the_plugin_declares(plugins, app_client) -> None:
    full, _ = plugins
    resp = app_client.get("/games/viewtoy/view.js")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/javascript")
    assert resp.content == (full.package_dir() / "web" / "view.js").read_bytes()
    assert 'GameViews.register("viewtoy"' in resp.text
    # declared elsewhere in the package: that file, found through the GameInfo
    other = full.package_dir() / "table" / "draw.js"
    other.parent.mkdir()
    other.write_text('GameViews.register("viewtoy", {scoreLabel: "Stars"});\n', "utf-8")
    register_game(dataclasses.replace(full, view_script="table/draw.js"))
    assert app_client.get("/games/viewtoy/view.js").text == other.read_text("utf-8")


def test_a_game_without_a_view_script_gets_the_generic_view(app_client) -> None:
    for name in ("baretoy", "highcard"):  # no file; in the catalog but not the registry
        resp = app_client.get(f"/games/{name}/view.js")
        assert resp.status_code == 200 and resp.text == GENERIC, name
        assert resp.headers["content-type"].startswith("text/javascript")


def test_a_view_script_declared_outside_the_package_is_never_read(
    plugins, app_client, tmp_path: Path
) -> None:
    full, _ = plugins
    outside = tmp_path / "outside.js"
    outside.write_text("alert('from outside the package')\n", "utf-8")
    rel = Path("..") / ".." / ".." / outside.relative_to(outside.anchor)
    register_game(dataclasses.replace(full, view_script=str(rel)))
    resp = app_client.get("/games/viewtoy/view.js")
    assert resp.status_code == 200 and resp.text == GENERIC


@pytest.mark.parametrize(
    "path",
    [
        "/games/nosuchgame/view.js",
        "/games/../view.js",
        "/games/%2e%2e/view.js",
        "/games/..%2f..%2fpyproject.toml/view.js",
        "/games/viewtoy%2f..%2f..%2fsrc/view.js",
        "/games/viewtoy%2fweb/view.js",
        "/games/%2fetc%2fpasswd/view.js",
        "/games/VIEWTOY/view.js",
        "/games/viewtoy/rules.md",
        "/games/viewtoy/../rules.md",
        "/games/viewtoy/web/view.js",
    ],
)
def test_nothing_else_is_reachable_through_the_game_segment(app_client, path: str) -> None:
    resp = app_client.get(path)
    assert resp.status_code == 404, (path, resp.status_code, resp.text[:80])
    assert RULES_MARK not in resp.text and "GameViews" not in resp.text


def test_the_rules_pane_shows_the_plugins_own_rules_md(app_client) -> None:
    resp = app_client.get("/api/rules/viewtoy")
    assert resp.status_code == 200 and RULES_MARK in resp.text
    assert "<h1>VIEWTOY (plugin toy): rules</h1>" in resp.text
    bare = app_client.get("/api/rules/baretoy").text
    assert "still being written" in bare and RULES_MARK not in bare
    assert app_client.get("/api/rules/nosuchgame").status_code == 404


def test_the_lobby_offers_a_plugin_its_personas_and_nobody_else_them(app_client) -> None:
    games = {g["name"]: g for g in app_client.get("/api/games").json()["games"]}
    assert {"viewtoy", "baretoy"} <= set(games)
    bots = {name: {b["kind"] for b in g["bots"]} for name, g in games.items()}
    assert "viewtoy_lowball" in bots["viewtoy"] and {"random", "greedy"} <= bots["viewtoy"]
    assert all("viewtoy_lowball" not in kinds for n, kinds in bots.items() if n != "viewtoy")
    assert games["viewtoy"]["pitch"].startswith("Lay one secret card")
    refused = app_client.post(
        "/api/tables",
        json={
            "game": "baretoy",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "agent": "viewtoy_lowball"}],
        },
        headers=ORIGIN,
    )
    assert refused.status_code == 400 and "viewtoy_lowball" in refused.text


def test_a_plugin_plays_a_whole_game_at_the_table_with_its_persona(app_client) -> None:
    made = create(
        app_client,
        game="viewtoy",
        players=3,
        seats=[
            {"kind": "human"},
            {"kind": "bot", "agent": "viewtoy_lowball"},
            {"kind": "bot", "agent": "greedy"},
        ],
    )
    assert app_client.get(f"/t/{made['table']}").status_code == 200
    me = seat_socket(app_client, made, 0)
    view = me.state()
    assert view["obs"]["game"] == "viewtoy" and view["obs"]["seat"] == 0
    while not view["terminal"]:
        if view["legal"]:
            me.send({"type": "act", "action": view["legal"][0]["action"], "seq": view["seq"]})
        view = me.state(view["seq"] + 1)
    assert view["final"]["winners"] and len(view["final"]["returns"]) == 3


def test_the_lobby_page_names_no_game(app_client) -> None:
    page = app_client.get("/").text
    head = page.split("<main", 1)[0]
    assert re.search(r"<title>cardlab[^<]*</title>", head)
    for info in all_infos():
        for word in {info.name, info.title}:
            assert word.lower() not in head.lower(), word
    assert not re.search(r"\b(?:two|three|four|five) new\b", head, re.IGNORECASE)


def test_card_faces_come_from_the_plugins_art_or_the_plain_face(app_client) -> None:
    from cardlab.core.registry import load_game

    for name, own in (("viewtoy", True), ("baretoy", False)):
        card = load_game(name, players=2).cards.cards[0]
        index = app_client.get(f"/api/art/{name}").json()
        assert card.id in index["cards"] and index["backs"] == ["Card"]
        face = app_client.get(f"/art/{name}/{card.id}.svg")
        assert face.status_code == 200 and face.headers["content-type"] == "image/svg+xml"
        assert (ART_MARK in face.text) is own and card.id in face.text
        assert app_client.get(f"/art/{name}/back-Card.svg").status_code == 200
    assert app_client.get("/art/viewtoy/nosuchcard.svg").status_code == 404
    assert app_client.get("/art/nosuchgame/tc01.svg").status_code == 404


def installed_like(src: Path, name: str) -> None:
    """Make `src` (a scaffold's src folder) look installed to a process that has it on
    its path: a dist-info with the game's entry point, as `pip install` writes it, so
    the server subprocess finds the plugin exactly as it finds a third party's."""
    dist = src / f"{name}-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[cardlab.games]\n{name} = {name}.rules:GAME_INFO\n", "utf-8"
    )


def test_in_a_browser_the_view_script_draws_and_a_game_without_one_loads_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headless Chromium at a `cardlab serve` that finds two plugins by entry point:
    `orbitview`'s own web/view.js draws its banner ("Round 1 of 3"); `orbitbare` has no
    view script and its table loads with no failed request and no script error, drawn
    by the generic view (its round as a plain chip)."""
    from browser import CHROMIUM, CHROMIUM_ARGS, Server, need_browser

    need_browser()
    from playwright.sync_api import sync_playwright

    from cardlab.newgame import scaffold

    paths = []
    for name in ("orbitview", "orbitbare"):
        src = scaffold(name, tmp_path / name) / "src"
        if name == "orbitbare":
            (src / name / "web" / "view.js").unlink()
        installed_like(src, name)
        paths.append(str(src))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    server = Server(tmp_path / "tables.db").start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            seen = {}
            for name in ("orbitview", "orbitbare"):
                seats = [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}]
                made = server.create(game=name, players=2, bot_delay=0, seats=seats)
                page = browser.new_page()
                problems: list[str] = []
                page.on("pageerror", lambda exc, p=problems: p.append(f"script error: {exc}"))
                page.on(
                    "response",
                    lambda r, p=problems: (
                        p.append(f"{r.status} {r.url}") if r.status >= 400 else None
                    ),
                )
                page.goto(server.seat_url(made, 0))
                page.wait_for_selector(".move:not([disabled])")
                page.wait_for_load_state("networkidle")
                assert problems == [], (name, problems)
                seen[name] = page.inner_text("body")
                page.close()
            browser.close()
    finally:
        server.kill()
    assert "Round 1 of 3" in seen["orbitview"]
    assert "Round 1 of 3" not in seen["orbitbare"] and "Rounds" in seen["orbitbare"]
