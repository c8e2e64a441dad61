"""Each game is offered only the bots that play it (lobby and API), a
foreign kind is refused with a 400 naming the allowed ones, and a bot that raises is
logged once and replaced by the quick bot (greedy), not by random play."""

from __future__ import annotations

import asyncio
import logging
import random
import time

import pytest
from web_support import ORIGIN, toy_catalog

from cardlab.agents import agent_view, make_agent
from cardlab.agents.base import agent_kinds, kinds_for_game
from cardlab.web.offers import Offers
from cardlab.web.store import Store, TableRecord
from cardlab.web.table import Table


def test_the_lobby_offers_each_game_only_its_bots(client):
    games = client.get("/api/games").json()["games"]
    assert games
    for game in games:
        offered = [b["kind"] for b in game["bots"]]
        assert offered == kinds_for_game(game["name"]), game["name"]
    by_name = {g["name"]: [b["kind"] for b in g["bots"]] for g in games}
    if "runway" in by_name:
        assert "auctioneer" not in by_name["runway"] and "points" not in by_name["runway"]


def test_a_foreign_bot_kind_is_refused_naming_the_allowed_ones(client):
    names = {g["name"] for g in client.get("/api/games").json()["games"]}
    if "runway" not in names or "auctioneer" not in agent_kinds():
        pytest.skip("RUNWAY or UPTIME's personas are not installed")
    spec = {
        "game": "runway",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "agent": "auctioneer"}],
    }
    resp = client.post("/api/tables", json=spec, headers=ORIGIN)
    assert resp.status_code == 400
    error = resp.json()["error"]
    assert "'auctioneer' bots do not play runway" in error
    assert ", ".join(kinds_for_game("runway")) in error
    spec["seats"][1]["agent"] = kinds_for_game("runway")[0]
    assert client.post("/api/tables", json=spec, headers=ORIGIN).status_code == 201


def test_an_unknown_kind_is_refused_for_the_toy_game_too(client):
    spec = {
        "game": "highcard",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "agent": "nonesuch"}],
    }
    resp = client.post("/api/tables", json=spec, headers=ORIGIN)
    assert resp.status_code == 400 and "greedy, ismcts, random" in resp.json()["error"]


def test_a_failing_bot_is_logged_once_and_greedy_plays_for_it(tmp_path, caplog):
    rec = TableRecord(
        id="t1",
        game="highcard",
        players=2,
        options={},
        seed=2**63 + 5,
        seats=[{"kind": "bot", "agent": "random", "params": {}, "name": "r"}] * 2,
        settings={},
    )
    store = Store(tmp_path / "t.db")
    store.create_table(rec, {})
    game = Offers(toy_catalog()).make("highcard", 2, {}, None)
    table = Table(rec, game, store, 0.0)

    async def broken(*args, **kwargs) -> int:
        raise RuntimeError("this bot is broken")

    table._decide = broken  # type: ignore[method-assign]

    async def main() -> None:
        table.start()
        deadline = time.monotonic() + 20
        while not table.state.is_terminal() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        await table.stop()

    with caplog.at_level(logging.INFO, logger="cardlab.web"):
        asyncio.run(main())
    assert table.state.is_terminal()
    failures = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failures) == 2, "once per seat, not once a move"
    assert all("greedy plays for it" in r.getMessage() for r in failures)
    chosen = 0
    for seq, action in enumerate(table.state.history()):
        before = table.state_at(seq)
        seat = before.current_player()
        if len(before.legal_actions()) == 1:
            continue
        view = agent_view(before, seat, random.Random(table.bot_seed(seat, seq, "view")))
        greedy = make_agent("greedy", seed=table.bot_seed(seat, seq, "fallback"))
        assert action == greedy.step(view), f"step {seq} is greedy's move"
        chosen += 1
    assert chosen >= 2
    store.close()
