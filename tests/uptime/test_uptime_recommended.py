"""UPTIME's recommended ruleset (packaged variant `lab`): it is marked
recommended with the lab's finding on the rules as written, and it sets the first-seat
levers differently at 3 players, where one card more per place left the first seat
38.5% of wins (docs/rules/uptime.md "The recommended ruleset")."""

from __future__ import annotations

import re

import pytest

import cardlab
from cardlab.core.variants import load_variant
from cardlab.games import game_info
from cardlab.testing import check_game

FIRST_SEAT_LEVERS = ("later_seat_bonus", "starting_hand", "draw_cards")


@pytest.fixture(scope="module")
def lab():
    info = game_info("uptime")
    return load_variant(f"{info.variants_dir()}/lab.toml", info)


def test_the_variant_is_the_recommended_ruleset_with_a_finding(lab):
    assert lab.recommended is True
    # the lobby shows this beside the rules as written: the as-written stall share, in words
    assert re.match(r"As written, \d+ in \d+ games stall", lab.finding), lab.finding
    assert "\n" not in lab.finding


def test_three_players_get_their_own_first_seat_settings(lab):
    three, four = lab.options_for(3), lab.options_for(4)
    assert {k: three[k] for k in FIRST_SEAT_LEVERS} == {
        "later_seat_bonus": 2,
        "starting_hand": 2,
        "draw_cards": 4,
    }
    assert {k: four[k] for k in FIRST_SEAT_LEVERS} == {
        "later_seat_bonus": 1,
        "starting_hand": 3,
        "draw_cards": 3,
    }
    # everything else is the same ruleset at every count
    assert {k: v for k, v in three.items() if k not in FIRST_SEAT_LEVERS} == {
        k: v for k, v in four.items() if k not in FIRST_SEAT_LEVERS
    }
    # each per-count setting says why, with a measured figure
    for name in FIRST_SEAT_LEVERS:
        assert re.search(r"\d+\.\d%", lab.per_players_why[3][name]), name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_loaded_with_the_variant_plays_its_count_settings(lab, players):
    game = cardlab.load_game("uptime", players=players, variant="lab")
    assert {k: game.options[k] for k in lab.options_for(players)} == lab.options_for(players)


def test_three_players_deal_two_four_and_six():
    """The seated first player gets 2 cards, the next 4, the last 6. A Power Surge dealt
    on the way stops the deal for a free material choice, so only deals that reach the
    first turn without one are counted (most do; at least a quarter here)."""
    game = cardlab.load_game("uptime", players=3, variant="lab")
    dealt = []
    for seed in range(40):
        obs = game.new_initial_state(seed).public_observation()
        if obs["decision_kind"] != "turn":
            continue
        first, seats = obs["first_player"], obs["players"]
        dealt.append(
            [
                seats[(first + k) % 3]["hand_materials"] + seats[(first + k) % 3]["hand_patches"]
                for k in range(3)
            ]
        )
    assert len(dealt) >= 10, len(dealt)
    assert all(sizes == [2, 4, 6] for sizes in dealt), dealt


def test_the_contract_holds_under_the_three_player_settings():
    check_game(cardlab.load_game("uptime", players=3, variant="lab"), games=2, seed=11)
