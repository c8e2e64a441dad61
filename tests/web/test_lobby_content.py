"""The lobby's words come from the games:
pitches from GameInfo, the Rules pane from each game's howto.md, options in
players' words; no web module lists a game by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardlab.games import game_info, list_games
from cardlab.web import lobby
from cardlab.web.catalog import Catalog

WEB = Path(lobby.__file__).parent
GAMES = list_games()


def test_no_web_module_names_a_game():
    files = [WEB / "lobby.py", WEB / "catalog.py", *(WEB / "static").glob("*.js")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name in GAMES:
            assert not re.search(rf"\b{name}\b", text), f"{path.name} names {name}"


@pytest.mark.parametrize("name", GAMES)
def test_the_pitch_is_the_games_own(name):
    assert lobby.PITCHES.get(name, "") == game_info(name).pitch != ""
    assert name in dict(lobby.PITCHES)


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_pane_is_written_for_players_with_the_designer_doc_one_click_away(name):
    html = lobby.rules_html(name)
    assert html.startswith('<div class="howto"><h1>How to play')
    for heading in ("Setup", "Scoring", "Table options"):
        assert f"<h2>{heading}" in html, heading
    assert "turn" in html.lower() or "deal" in html.lower()
    assert html.count('<details class="designer-rules">') == 1
    howto = html.split('<details class="designer-rules">')[0]
    # players' words: no source paths, test names or card ids before the fold
    assert not re.search(r"\b(?:src/|tests?/|test_\w+|\w+\.py)\b", howto)
    assert not re.search(r"\b(?:up|rw|sc|sb)\d\d\b", howto)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_explained_in_players_words(name):
    described = Catalog().describe(name)
    for opt in described["options"]:
        assert opt.get("about"), f"{name}: option {opt['name']} has no player words in howto.md"
        assert "_" not in opt["about"], opt


def test_a_game_without_howto_gets_the_designer_doc_or_a_note(monkeypatch):
    monkeypatch.setattr(lobby, "howto_markdown", lambda game: None)
    monkeypatch.setattr(lobby, "rules_markdown", lambda game: "# Rules\n\ntext")
    assert lobby.rules_html("x").startswith("<h1>Rules")
    monkeypatch.setattr(lobby, "rules_markdown", lambda game: None)
    assert "still being written" in lobby.rules_html("x")
    assert lobby.option_words("x") == {}
