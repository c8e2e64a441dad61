"""The shelf's games are ordinary plugins: found by entry point, their rules documents
and card files inside their packages, every rule of each rules.md pinned by a test."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import cardlab
from cardlab.games import game_info

SHELF = {"hearts": "H", "ohhell": "O", "war": "W", "crazyeights": "C"}
HERE = Path(__file__).parent


@pytest.mark.parametrize("name", sorted(SHELF))
def test_a_shelf_game_is_found_by_its_entry_point_like_any_plugin(name):
    found = {ep.name: ep.value for ep in entry_points(group="cardlab.games")}
    assert found[name] == f"cardlab_shelf.{name}.rules:GAME_INFO"
    info = game_info(name)
    assert info.package == f"cardlab_shelf.{name}"
    for asset in ("rulebook", "howto", "cards"):
        path = info.asset(asset)
        assert path is not None and Path(path).is_file(), asset
    assert info.score_direction == ("lowest" if name == "hearts" else "highest")


@pytest.mark.parametrize(("name", "letter"), sorted(SHELF.items()))
def test_every_rule_is_cited_by_a_test(name, letter):
    rules = Path(game_info(name).asset("rulebook")).read_text("utf-8")
    numbered = set(re.findall(rf"^\| ({letter}\d+) \|", rules, re.M))
    assert numbered, name
    tests = (HERE / f"test_shelf_{name}.py").read_text("utf-8")
    cited = set(re.findall(rf"\b{letter}\d+\b", " ".join(re.findall(r"#.*", tests))))
    assert numbered <= cited, f"{name}: rules no test cites: {sorted(numbered - cited)}"


def test_the_shelf_has_a_luck_only_game_and_a_lowest_wins_game():
    war = cardlab.load_game("war")
    assert war.num_distinct_actions == 1
    assert game_info("hearts").lowest_wins
