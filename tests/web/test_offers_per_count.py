"""A variant's per-player-count options reach the lobby: `[players.N.options]`
are in the offer the lobby reads, and the option fields show the value the table will
play at the chosen count, the same merge the server applies (`Variant.options_for`)."""

from __future__ import annotations

from pathlib import Path

from browser import (
    Server,
)

from cardlab.web.catalog import Catalog
from cardlab.web.offers import Offers

# A tryout variant of a game seating 2-4: one lever at every count, another value at 4.
TRYOUT = """\
game = "runway"
title = "RUNWAY, per-count tryout"
about = "Cash penalty 0, but 2 with four players."

[options]
cash_penalty = 0

[players.4.options]
cash_penalty = 2
breadth_bonus = 3
"""

PLAIN = """\
game = "runway"
title = "RUNWAY, plain tryout"

[options]
cash_penalty = 0
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def offer(tmp_path: Path, name: str, text: str) -> dict:
    offers = Offers(Catalog(), variants=[str(write(tmp_path, name, text))], packaged=False)
    (described,) = offers.describe("runway")
    return described


def test_the_offer_carries_the_options_set_at_one_count(tmp_path):
    described = offer(tmp_path, "tryout.toml", TRYOUT)
    assert described["options"] == {"cash_penalty": 0}
    assert described["options_by_players"] == {"4": {"cash_penalty": 2, "breadth_bonus": 3}}


def test_a_variant_without_per_count_options_describes_as_before(tmp_path):
    assert "options_by_players" not in offer(tmp_path, "plain.toml", PLAIN)


def test_the_table_plays_what_the_offer_says_at_each_count(tmp_path):
    """The offer's merge is the server's: a table made from the variant at each count has
    the options `options` + `options_by_players[count]` say."""
    path = write(tmp_path, "tryout.toml", TRYOUT)
    offers = Offers(Catalog(), variants=[str(path)], packaged=False)
    (described,) = offers.describe("runway")
    variant = offers.variant("runway", described["name"])
    for players in (2, 3, 4):
        expected = {
            **described["options"],
            **described.get("options_by_players", {}).get(str(players), {}),
        }
        game = offers.make("runway", players, {}, variant)
        assert {k: game.options[k] for k in expected} == expected, players
    assert offers.make("runway", 4, {}, variant).options["cash_penalty"] == 2
    assert offers.make("runway", 3, {}, variant).options["cash_penalty"] == 0


def test_uptime_offers_its_three_player_settings():
    """The packaged recommended ruleset sets the first-seat levers differently at 3
    players; the lobby's offer says so (values pinned in tests/uptime)."""
    (lab,) = [o for o in Offers(Catalog()).describe("uptime") if o["name"] == "lab"]
    assert lab["recommended"] is True and lab["finding"]
    three = lab["options_by_players"]["3"]
    assert three["later_seat_bonus"] != lab["options"]["later_seat_bonus"]
    assert "4" not in lab["options_by_players"]


def test_the_lobby_field_shows_the_value_at_the_chosen_count(browser, tmp_path):
    """Choosing the variant at 3 players shows its [options] value; switching to 4 shows
    the 4-player value, marked as such; a field the player changed keeps its value
    across a count change; and the request sends only what the player changed."""
    path = write(tmp_path, "tryout.toml", TRYOUT)
    server = Server(tmp_path / "t.db", extra=("--variant", str(path))).start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url)
        panel = page.locator("#game-runway")
        panel.locator("select[name=variant]").wait_for(state="attached")
        panel.locator("details.new-table > summary").click()
        panel.locator("details.rule-options > summary").click()
        panel.locator("details.rule-changes > summary").click()  # the levers' fold
        players = panel.locator("select[name=players]")
        penalty = panel.locator("select[name='opt:cash_penalty']")
        breadth = panel.locator("select[name='opt:breadth_bonus']")
        panel.locator("select[name=variant]").select_option("tryout")
        players.select_option("3")
        assert penalty.input_value() == "0" and breadth.input_value() == "1"
        mark = panel.locator("label:has(select[name='opt:cash_penalty']) .variant-mark")
        assert mark.text_content() == " · set by the variant"
        players.select_option("4")
        assert penalty.input_value() == "2" and breadth.input_value() == "3"
        assert mark.text_content() == " · set by the variant for 4 players"
        players.select_option("2")
        assert penalty.input_value() == "0" and breadth.input_value() == "1"
        # the player's own choice survives a count change; untouched fields follow it
        breadth.select_option("2")
        players.select_option("4")
        assert breadth.input_value() == "2" and penalty.input_value() == "2"
        # as written: the rulebook's values at every count
        panel.locator("select[name=variant]").select_option("")
        assert penalty.input_value() == "1" and breadth.input_value() == "1"
        panel.locator("select[name=variant]").select_option("tryout")
        assert penalty.input_value() == "2"
        with page.expect_request("**/api/tables") as req:
            panel.locator("button[type=submit]").click()
        body = req.value.post_data_json
        assert body["players"] == 4 and body["variant"] == "tryout"
        assert body["options"] == {}, "the variant's per-count values are not re-sent"
        page.close()
    finally:
        server.kill()
