"""R9 as a designer's number: the Shock count is card data (0-12), a tunable with a range.

The packaged file holds one `[[shocks]]` entry with `count = 6`;
an older file listing six entries loads to the same box (same ids, same deal). Every
part that counts Shocks (deck, flips, zones, views, encoding, art) follows the file.
"""

from __future__ import annotations

import random
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runway_kit import BENCH, HANDS3

from cardlab import CardDataError, load_game
from cardlab.adapters.encoding import encode_state, feature_names
from cardlab.core.variants import CardChange, Variant, VariantError, parse_variant
from cardlab.games import game_info
from cardlab.games.runway.actions import SECTOR0, SHOCK_CARDS
from cardlab.games.runway.art import faces
from cardlab.games.runway.cards import PACKAGED, SHOCK_RANGE
from cardlab.games.runway.scenarios import from_setup
from cardlab.testing import check_game, random_game

TEXT = PACKAGED.read_text(encoding="utf-8")
PATH = "shocks[Shock].count"


def _variant(count: int) -> Variant:
    return parse_variant(
        {
            "game": "runway",
            "title": f"{count} Shocks",
            "changes": [{"path": PATH, "value": count, "why": "test"}],
        },
        f"shocks-{count}.toml",
        game_info("runway"),
    )


def test_r9_shock_count_is_a_tunable_with_its_range():
    """The tunable names the card path the variant syntax reads, with the range 0-12."""
    tunables = {t.target: t for t in game_info("runway").tunables}
    shock = tunables[f"cards:{PATH}"]
    assert (shock.low, shock.high, shock.step) == (0, 12, 1) == (*SHOCK_RANGE, 1)


@pytest.mark.parametrize("count", [3, 10])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r9_variant_shock_counts_pass_the_conformance_check(count, players):
    """A variant with 3 and with 10 Shocks plays through check_game at every player count."""
    game = load_game("runway", players=players, variant=_variant(count))
    assert len(game.cards.shock_names) == count
    report = check_game(game, games=2, seed=count + players, checks_every=4)
    assert report.games_played == 2 and report.decisions > 0


@pytest.mark.parametrize("count", [0, 12])
def test_r9_the_ends_of_the_range_play(count):
    """0 and 12 Shocks: the ends of the range play at 2 and 4 players."""
    for players in (2, 4):
        game = load_game("runway", players=players, variant=_variant(count))
        check_game(game, games=1, seed=count, checks_every=6)


@pytest.mark.parametrize("count", [0, 3, 10, 12])
def test_r9_every_shock_is_in_the_deal_deck_and_ids_stay_put(count):
    """The Deal deck holds 12 Deals + `count` Shocks; the first six Shocks keep the box's
    ids rw44-rw49, later ones are rw54-rw59, and the Sector cards stay rw50-rw53."""
    game = load_game("runway", players=3, variant=_variant(count))
    s = game.new_initial_state(5)
    zones = s.zones()
    shocks = [
        cid
        for key in ("hidden:deal_deck", "public:shocks_under_deal_in_play")
        for cid in zones[key]
        if cid not in {f"rw{d}" for d in range(32, 44)}
    ] + zones["public:shocks_under_next_deal"]
    expected = [f"rw{x}" for x in SHOCK_CARDS[:count]]
    assert sorted(shocks) == sorted(expected)
    assert zones["public:sectors"] == [f"rw{SECTOR0 + i}" for i in range(4)]
    art = {f.id: f.category for f in faces(game.cards)}
    assert [i for i, c in art.items() if c == "Shock"] == expected
    assert [i for i, c in art.items() if c == "Sector"] == ["rw50", "rw51", "rw52", "rw53"]
    assert set(art) >= {cid for ids in zones.values() for cid in ids}
    obs = s.observation(0)
    assert obs["deal_deck_count"] == 12 + count - 2 - len(s.shocks_in_play) - len(s.next_shocks)


def test_r9_shocks_are_counted_through_a_whole_game():
    """Over a random game with 10 Shocks, Shocks under Deals, spent and left in the deck
    always add up to 10 (the R9 audit, at a count other than six)."""
    game = load_game("runway", players=4, variant=_variant(10))
    s = game.new_initial_state(11)
    rng = random.Random(3)
    seen = 0
    while not s.is_terminal():
        in_deck = sum(1 for x in s.deal_deck if x in SHOCK_CARDS)
        total = in_deck + len(s.shocks_in_play) + len(s.next_shocks) + len(s.spent_shocks)
        assert total == 10
        seen = max(seen, len(s.spent_shocks))
        s.apply_action(rng.choice(s.legal_actions()))
    assert seen > 0


def test_r9_old_files_with_six_entries_load_to_the_same_box(tmp_path):
    """A file listing the six Shocks one entry each (the old form) is the same box: the
    same Shock ids and the same deal from the same seed."""
    old = TEXT.replace('name = "Shock"\ncount = 6', "\n".join(['name = "Shock"\n[[shocks]]'] * 6))
    old = old.rsplit("[[shocks]]", 1)[0]
    assert tomllib.loads(old)["shocks"] == [{"name": "Shock"}] * 6
    path = tmp_path / "old.toml"
    path.write_text(old, encoding="utf-8")
    a = load_game("runway", players=3, cards=path)
    b = load_game("runway", players=3)
    assert a.cards.shock_names == b.cards.shock_names == ("Shock",) * 6
    assert a.cards.shock_cards == tuple(range(44, 50))
    assert a.new_initial_state(9).zones() == b.new_initial_state(9).zones()


def test_r9_bad_shock_counts_are_refused_with_file_card_and_range(tmp_path):
    """A variant outside 0-12 is refused with the range; a card file whose entries add
    up to more than 12 names the file, the card and the range; a negative count is
    refused field by field."""
    with pytest.raises(VariantError, match=r"shocks\[Shock\]\.count.*13.*0\.\.12"):
        _variant(13)
    too_many = TEXT.replace("count = 6", "count = 8") + '\n[[shocks]]\nname = "Crash"\ncount = 5\n'
    path = tmp_path / "too_many.toml"
    path.write_text(too_many, encoding="utf-8")
    with pytest.raises(CardDataError, match=r"too_many\.toml.*'Crash'.*count.*13 Shocks.*0\.\.12"):
        load_game("runway", players=2, cards=path)
    path.write_text(TEXT.replace("count = 6", "count = -1"), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"too_many\.toml.*count"):
        load_game("runway", players=2, cards=path)


def test_r9_scenarios_tuck_from_the_files_shocks():
    """The scenario builder places the file's Shocks: tucking more than there are is a
    clear error."""
    game = load_game("runway", players=3, variant=_variant(1))
    deals = ("Conference Badge", "Board Seat")
    s = from_setup(game, hands=HANDS3, bench=BENCH, deals=deals, shocks_under={"Board Seat": 1})
    assert s.next_shocks == [44]
    with pytest.raises(ValueError, match=r"more Shocks tucked than the game has \(1\)"):
        from_setup(game, hands=HANDS3, bench=BENCH, deals=deals, shocks_under={"Board Seat": 2})


def test_r9_variant_change_is_applied_through_the_card_loader():
    """The variant's change reaches the loaded cards (not just the variant record)."""
    change = CardChange(PATH, 2)
    game = load_game(
        "runway", players=2, variant=Variant("runway", "two", "two", changes=(change,))
    )
    assert game.cards.shock_cards == (44, 45)


@settings(max_examples=15, deadline=None)
@given(
    count=st.integers(min_value=SHOCK_RANGE[0], max_value=SHOCK_RANGE[1]),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_r9_any_shock_count_plays_the_harness(count, players, seed):
    """Property: any count in the range plays a whole game within the bound (24 n
    decisions, 12 Deals closed), with cards conserved, resampling and no leak (the
    harness), and every Shock accounted for at the end."""
    game = load_game("runway", players=players, variant=_variant(count))
    state = random_game(game, seed, seed + 1, 24 * players, checks_every=4)
    assert state.info()["rounds"] == 12
    left = sum(1 for x in state.deal_deck if x in SHOCK_CARDS)
    assert left + len(state.spent_shocks) == count


@pytest.mark.parametrize("count", [0, 10, 12])
def test_r9_encoding_keeps_its_size_and_range(count):
    """The adapters' vector has the same size whatever the Shock count; its divisors are
    read from the card file, so every value stays in [0, 1]."""
    game = load_game("runway", players=3, variant=_variant(count))
    box = load_game("runway", players=3)
    names = feature_names(game)
    assert len(names) == len(feature_names(box))
    assert f"deal_in_play[shocks/{max(1, count)}]" in names
    assert f"table[deal_deck/{12 + count}]" in names
    state = game.new_initial_state(3)
    rng = random.Random(0)
    while not state.is_terminal():
        vec = encode_state(state, state.current_player())
        assert len(vec) == len(names) and vec.min() >= 0.0 and vec.max() <= 1.0
        state.apply_action(rng.choice(state.legal_actions()))
