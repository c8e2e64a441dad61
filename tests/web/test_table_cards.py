"""A table keeps its cards: it stores the card file's bytes (and SHA-256) when it is
made, and a restart replays it from them whatever the file says now; a card file
that no longer loads refuses only new tables of its game, with a clear message, and
the server starts; an older database is migrated and its tables get their card
data once."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import HOSTS, ORIGIN, close_all, create, seat_socket
from web_toygame import HighCardInTurn

from cardlab.core.errors import CardlabError
from cardlab.web.app import create_app
from cardlab.web.catalog import Catalog, installed_games
from cardlab.web.store import SCHEMA_VERSION, Store


@pytest.fixture
def uptime_cards(tmp_path: Path) -> Path:
    from cardlab.games import game_info

    path = tmp_path / "my-cards.toml"
    path.write_bytes((game_info("uptime").package_dir() / "cards.toml").read_bytes())
    return path


def serve(db: Path, cards: str) -> TestClient:
    catalog = Catalog({"uptime": installed_games()["uptime"], "highcard": HighCardInTurn})
    return TestClient(
        create_app(db=db, catalog=catalog, bot_delay=0, cards=(cards,), allowed_hosts=HOSTS)
    )


def play_one_move(c: TestClient, made: dict) -> dict:
    """Seat 0 or 1 makes a move; returns seat 0's frame after it."""
    for seat in (0, 1):
        sock = seat_socket(c, made, seat)
        frame = sock.state()
        if frame["legal"]:
            sock.send({"type": "act", "action": frame["legal"][0]["action"], "seq": frame["seq"]})
            sock.state(frame["seq"] + 1)
            break
    close_all()
    return seat0_view(c, made)


def seat0_view(c: TestClient, made: dict) -> dict:
    """Seat 0's frame but the table's facts (which seats are connected just now)."""
    view = seat_socket(c, made, 0).state()
    close_all()
    view.pop("table")
    return view


def card_bytes(c: TestClient, made: dict) -> bytes:
    return c.app.state.hub.tables[made["table"]].game.cards_path.read_bytes()


def renamed(path: Path) -> None:
    path.write_text(path.read_text().replace('"Silicon"', '"Germanium"'))


def test_a_restart_replays_the_cards_a_table_was_made_with(tmp_path, uptime_cards):
    db = tmp_path / "t.db"
    original = uptime_cards.read_bytes()
    with serve(db, f"uptime={uptime_cards}") as c:
        made = create(c, game="uptime", players=2)
        before = play_one_move(c, made)
        table = c.app.state.hub.tables[made["table"]]
        assert card_bytes(c, made) == original
        digest = table.record.settings["cards_sha256"]
        assert digest == hashlib.sha256(original).hexdigest()
        assert c.app.state.store.card_data(digest) == original
    renamed(uptime_cards)  # the operator edits the file between two runs
    with serve(db, f"uptime={uptime_cards}") as c:
        assert card_bytes(c, made) == original, "the table deals from its stored cards"
        assert seat0_view(c, made) == before
        fresh = create(c, game="uptime", players=2)
        assert card_bytes(c, fresh) == uptime_cards.read_bytes() != original
        from cardlab.games.uptime.cards import deck_names

        names = deck_names(c.app.state.hub.tables[fresh["table"]].game.cards)
        assert "Germanium" in names, "a new table takes the file as it is now"
        close_all()


@pytest.mark.parametrize("named", [True, False])
def test_a_broken_card_file_refuses_only_new_tables_of_its_game(tmp_path, uptime_cards, named):
    db = tmp_path / "t.db"
    spec = f"uptime={uptime_cards}" if named else str(uptime_cards)
    original = uptime_cards.read_bytes()
    with serve(db, spec) as c:
        made = create(c, game="uptime", players=2)
        before = play_one_move(c, made)
    uptime_cards.write_text("[[materials]]\nname = 3\n")  # an invalid edit
    with serve(db, spec) as c:  # the server starts
        assert c.app.state.hub.offers.broken.keys() == {"uptime"}
        assert seat0_view(c, made) == before, "the table in progress plays on"
        resp = c.post("/api/tables", json={"game": "uptime", "players": 2}, headers=ORIGIN)
        error = resp.json()["error"]
        assert resp.status_code == 400 and "new uptime tables are refused" in error
        assert "tables in progress keep their cards" in error
        assert str(tmp_path) not in error and "cardlab-cards" not in error
        create(c, game="highcard", players=2)  # other games are served
        uptime_cards.write_bytes(original)
        create(c, game="uptime", players=2)  # fixed: new tables again, no restart
        close_all()


def made_digest(c: TestClient, made: dict) -> str:
    return c.app.state.hub.tables[made["table"]].record.settings["cards_sha256"]


def test_a_bare_path_that_fits_no_game_and_no_table_still_stops_the_server(tmp_path):
    bad = tmp_path / "nothing.toml"
    bad.write_text("x = 1\n")
    catalog = Catalog({"highcard": HighCardInTurn, **installed_games()})
    with pytest.raises(CardlabError, match="not a card file of any game served"):
        create_app(db=tmp_path / "t.db", catalog=catalog, cards=(str(bad),), allowed_hosts=HOSTS)


def test_an_older_database_is_migrated_and_its_tables_keep_their_cards(tmp_path, uptime_cards):
    db = tmp_path / "t.db"
    with serve(db, f"uptime={uptime_cards}") as c:
        made = create(c, game="uptime", players=2)
        before = play_one_move(c, made)
        original = card_bytes(c, made)
    with sqlite3.connect(db) as conn:  # as a server before card data was kept left it
        conn.execute("DROP TABLE card_files")
        (raw,) = conn.execute("SELECT settings FROM tables WHERE id=?", (made["table"],)).fetchone()
        settings = json.loads(raw)
        del settings["cards_sha256"]
        conn.execute(
            "UPDATE tables SET settings=? WHERE id=?", (json.dumps(settings), made["table"])
        )
        conn.execute("PRAGMA user_version=0")
    with serve(db, f"uptime={uptime_cards}") as c:  # first start: card data from the file
        assert c.app.state.store.schema_version() == SCHEMA_VERSION
        assert made_digest(c, made) == hashlib.sha256(uptime_cards.read_bytes()).hexdigest()
        assert seat0_view(c, made) == before
    renamed(uptime_cards)
    with serve(db, f"uptime={uptime_cards}") as c:  # from then on: the stored bytes
        assert card_bytes(c, made) == original
        assert seat0_view(c, made) == before


def test_card_files_are_kept_once_per_content(tmp_path):
    store = Store(tmp_path / "s.db")
    a = store.put_cards(b"x = 1\n")
    assert store.put_cards(b"x = 1\n") == a and store.card_data(a) == b"x = 1\n"
    digest, path = store.stage_cards(b"x = 1\n")
    assert digest == a and path.read_bytes() == b"x = 1\n"
    path.write_bytes(b"tampered")
    assert store.stage_cards(b"x = 1\n")[1].read_bytes() == b"x = 1\n"
    store.close()
    assert not path.exists(), "the staged files leave with the store"


def test_a_rematch_deals_from_the_cards_of_its_table(tmp_path, uptime_cards):
    db = tmp_path / "t.db"
    original = uptime_cards.read_bytes()
    with serve(db, f"uptime={uptime_cards}") as c:
        hub = c.app.state.hub
        made = create(c, game="uptime", players=2)
        renamed(uptime_cards)
        from cardlab.web.social import make_rematch

        table = hub.tables[made["table"]]
        again = c.portal.call(make_rematch, hub, table)
        assert hub.tables[again].game.cards_path.read_bytes() == original
        uptime_cards.write_text("not = [toml")  # even once the file is broken
        third = c.portal.call(make_rematch, hub, table)
        assert hub.tables[third].game.cards_path.read_bytes() == original
