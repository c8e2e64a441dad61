"""The lobby API and table creation."""

from __future__ import annotations

import sqlite3

from web_support import ORIGIN, create


def test_games_list_counts_options_and_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    toy = games["highcard"]
    assert (toy["min_players"], toy["max_players"]) == (2, 4)
    assert toy["options"] == [
        {
            "name": "double_last",
            "allowed": [False, True],
            "type": "boolean",
            "grid": [False, True],
            "range": None,
            "default": False,
            "doc": "last round scores double",
            "ruling": "",
        },
        {
            "name": "sabotage",
            "allowed": [False, True],
            "type": "boolean",
            "grid": [False, True],
            "range": None,
            "default": False,
            "doc": "the round's winner picks a seat to lose a point",
            "ruling": "",
        },
        {
            "name": "may_pass",
            "allowed": [False, True],
            "type": "boolean",
            "grid": [False, True],
            "range": None,
            "default": False,
            "doc": "pass instead of laying; all passing ends the game",
            "ruling": "",
        },
        {  # the template's rule lever: its passage, purpose and range
            "name": "round_bonus",
            "allowed": [0, 1, 2],
            "type": "integer",
            "grid": [0, 1, 2],  # the suggested values; any whole number in range is taken
            "range": [0, 5],
            "default": 0,
            "doc": "points the round's winner scores on top of its card (0: as written)",
            "ruling": "lever",
            "lever": True,
            "passage": "R2: the highest value scores its value",
            "purpose": "make taking rounds pay, not only laying the highest cards",
            "low": 0,
            "high": 5,
            "says": "The round's winner scores its card's value plus {value}.",
        },
    ]
    assert {"random", "greedy"} <= {b["kind"] for b in toy["bots"]}


def test_lobby_and_rules_pages(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>cardlab" in page.text
    assert "still being written" in client.get("/api/rules/highcard").text
    assert client.get("/api/rules/nosuchgame").status_code == 404


def test_rules_markdown_is_rendered_without_raw_html(tmp_path, monkeypatch):
    from cardlab.web import lobby

    doc = "# Rules\n\n**bold** <script>alert(1)</script>\n"
    monkeypatch.setattr(lobby, "rules_markdown", lambda game: doc if game == "highcard" else None)
    html = lobby.rules_html("highcard")
    assert "<h1>Rules</h1>" in html and "<strong>bold</strong>" in html
    assert "<script>" not in html


def test_create_returns_a_link_token_per_human_seat(client, db):
    made = create(
        client,
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "human"}],
    )
    assert set(made["tokens"]) == {"seat0", "seat2", "spectator", "host"}
    assert client.get(f"/t/{made['table']}").status_code == 200
    raw = db.read_bytes() + (db.parent / (db.name + "-wal")).read_bytes()
    for token in made["tokens"].values():
        assert token.encode() not in raw, "tokens are stored hashed only"


def test_bad_table_requests_are_refused_with_reasons(client, db):
    cases = [
        ({"game": "chess"}, "unknown game"),
        ({"game": "highcard", "players": 9}, "2-4 players"),
        ({"game": "highcard", "players": 2, "options": {"double_last": "maybe"}}, "double_last"),
        ({"game": "highcard", "players": 2, "seats": [{"kind": "human"}]}, "exactly 2 seats"),
        (
            {
                "game": "highcard",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "agent": "nope"}],
            },
            "unknown agent kind",
        ),
        ({"game": "highcard", "players": 2, "turn_seconds": -1}, "turn_seconds"),
    ]
    for spec, reason in cases:
        resp = client.post("/api/tables", json=spec, headers=ORIGIN)
        assert resp.status_code == 400 and reason in resp.json()["error"], (spec, resp.text)
    garbage = client.post("/api/tables", content=b"{not json", headers=ORIGIN)
    assert garbage.status_code == 400 and "not valid JSON" in garbage.json()["error"]
    huge = client.post("/api/tables", content=b"x" * 20000, headers=ORIGIN)
    assert huge.status_code == 413
    foreign = client.post(
        "/api/tables", json={"game": "highcard"}, headers={"origin": "https://evil.example"}
    )
    assert foreign.status_code == 403
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0


def test_unknown_table_page_is_404(client):
    assert client.get("/t/doesnotexist").status_code == 404


def test_database_is_in_wal_mode(client):
    assert client.app.state.store.journal_mode() == "wal"


def test_aligned_table_cells_carry_a_class_not_an_inline_style():
    """The pages' CSP refuses inline style, so an aligned markdown table column is a class."""
    from cardlab.web import lobby

    doc = "| card | points |\n|:---|---:|\n| Seed | 3 |\n"
    html = lobby._markdown().render(doc)
    assert "style=" not in html
    assert (
        '<th class="align-right">points</th>' in html and '<td class="align-left">Seed</td>' in html
    )
    assert "style=" not in lobby.rules_html("highcard")
