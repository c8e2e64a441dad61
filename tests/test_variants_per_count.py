"""Per-player-count options in a variant ([players.N.options]): they override
[options] at that count only, `-o` wins over both, bad input names file and key,
and the file round-trips through to_toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import cardlab
from cardlab.core.variants import VariantError, load_variant, parse_variant
from cardlab.games import game_info

TEXT = """game = "uptime"
title = "per count"

[options]
later_seat_bonus = 1
starting_hand = 3

[options_why]
later_seat_bonus = "base"

[players.3.options]
later_seat_bonus = 2

[players.3.options_why]
later_seat_bonus = "3p first seat"
"""


@pytest.fixture
def variant_file(tmp_path: Path) -> Path:
    path = tmp_path / "per_count.toml"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_count_override_applies_only_at_that_count(variant_file: Path) -> None:
    three = cardlab.load_game("uptime", 3, variant=str(variant_file))
    four = cardlab.load_game("uptime", 4, variant=str(variant_file))
    assert three.options["later_seat_bonus"] == 2
    assert four.options["later_seat_bonus"] == 1
    assert three.options["starting_hand"] == four.options["starting_hand"] == 3


def test_command_option_wins_over_both(variant_file: Path) -> None:
    game = cardlab.load_game("uptime", 3, variant=str(variant_file), later_seat_bonus=0)
    assert game.options["later_seat_bonus"] == 0


def test_round_trips_through_to_toml(variant_file: Path) -> None:
    info = game_info("uptime")
    v = load_variant(variant_file, info)
    again = parse_variant(tomllib.loads(v.to_toml()), str(variant_file), info)
    assert again.per_players == {3: {"later_seat_bonus": 2}}
    assert again.per_players_why == {3: {"later_seat_bonus": "3p first seat"}}
    assert again.options_for(3) == {"later_seat_bonus": 2, "starting_hand": 3}
    assert again.options_for(4) == v.options


@pytest.mark.parametrize(
    ("section", "expect"),
    [
        ("[players.9.options]\nstarting_hand = 3\n", r"players\.9.*not 9"),
        ("[players.x.options]\nstarting_hand = 3\n", "not a player count"),
        ("[players.3.options]\nno_such = 1\n", r"players\.3\.options.*no_such"),
        ("[players.3.options]\nlater_seat_bonus = 99\n", r"players\.3\.options.*later_seat_bonus"),
        ("[players.3.options_why]\nstarting_hand = 'x'\n", r"players\.3.*starting_hand"),
        ("[players.3]\nextras = 1\n", "unknown key 'extras'"),
    ],
)
def test_bad_count_or_value_names_file_and_key(tmp_path: Path, section: str, expect: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "uptime"\n\n' + section, encoding="utf-8")
    with pytest.raises(VariantError, match=expect) as err:
        load_variant(path, game_info("uptime"))
    assert str(path) in str(err.value)
