"""Card data (R2) and rule options: validation errors name file, card and field."""

import pathlib
import tomllib

import pytest

from cardlab import CardDataError, OptionError, load_game
from cardlab.games.runway.cards import PACKAGED

TEXT = PACKAGED.read_text(encoding="utf-8")


def test_r2_packaged_deals():
    """R2: 12 Deals, three per Sector, score 2-5, Hype 0-3, with Conference Badge
    (Social, 3) and Board Seat (Social, 4); four Sector table cards in play."""
    game = load_game("runway", players=3)
    cards = game.cards
    assert len(cards.deals) == 12
    assert sorted(cards.deal_sector) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert all(2 <= d.score <= 5 and 0 <= d.hype <= 3 for d in cards.deals)
    by_name = {d.name: d for d in cards.deals}
    assert (by_name["Conference Badge"].sector, by_name["Conference Badge"].score) == ("Social", 3)
    assert (by_name["Board Seat"].sector, by_name["Board Seat"].score) == ("Social", 4)
    assert cards.sectors == ("FinTech", "Social", "DeepTech", "Marketplace")
    assert len(cards.shock_names) == 6
    state = game.new_initial_state(0)
    assert state.zones()["public:sectors"] == ["rw50", "rw51", "rw52", "rw53"]


def test_capital_kinds_differ_by_colour_mark_and_name():
    """Rulebook: every Capital kind reads by colour, line-mark and printed name."""
    kinds = load_game("runway", players=2).cards.kinds
    for field in ("name", "colour", "line_mark", "symbol"):
        assert len({getattr(k, field) for k in kinds}) == 4


def _write(tmp_path, text):
    path = tmp_path / "my_cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_designer_file_is_used(tmp_path):
    """cards=PATH loads a designer's own file."""
    path = _write(tmp_path, TEXT.replace('name = "Chip Fab"', 'name = "Quantum Fab"'))
    game = load_game("runway", players=2, cards=path)
    assert "Quantum Fab" in [d.name for d in game.cards.deals]


def test_bad_field_names_file_card_and_field(tmp_path):
    path = _write(
        tmp_path,
        TEXT.replace(
            'name = "Chip Fab"\nsector = "DeepTech"\nscore = 5',
            'name = "Chip Fab"\nsector = "DeepTech"\nscore = 9',
        ),
    )
    with pytest.raises(CardDataError, match=r"my_cards\.toml.*'Chip Fab'.*score"):
        load_game("runway", players=2, cards=path)


def test_unknown_sector_names_card_and_field(tmp_path):
    path = _write(
        tmp_path,
        TEXT.replace(
            'name = "Chip Fab"\nsector = "DeepTech"', 'name = "Chip Fab"\nsector = "Biotech"'
        ),
    )
    with pytest.raises(CardDataError, match=r"my_cards\.toml.*'Chip Fab'.*sector.*Biotech"):
        load_game("runway", players=2, cards=path)


def test_cross_card_counts_are_checked(tmp_path):
    data = tomllib.loads(TEXT)
    # a fourth FinTech Deal in place of a Social one
    path = _write(
        tmp_path,
        TEXT.replace(
            'name = "Viral Launch"\nsector = "Social"', 'name = "Viral Launch"\nsector = "FinTech"'
        ),
    )
    with pytest.raises(CardDataError, match=r"my_cards\.toml.*deals.*FinTech"):
        load_game("runway", players=2, cards=path)
    assert data["shocks"] == [{"name": "Shock", "count": 6}]
    path = _write(tmp_path, TEXT.replace("count = 6", "count = 13"))
    with pytest.raises(CardDataError, match=r"my_cards\.toml.*'Shock'.*count"):
        load_game("runway", players=2, cards=path)
    path = _write(tmp_path, TEXT.replace('colour = "blue"', 'colour = "green"'))
    with pytest.raises(CardDataError, match=r"capital_kinds\[1\].*colour"):
        load_game("runway", players=2, cards=path)


def test_missing_file(tmp_path):
    with pytest.raises(CardDataError, match="nope.toml"):
        load_game("runway", players=2, cards=pathlib.Path(tmp_path / "nope.toml"))


def test_options_defaults_are_the_rulings():
    """R9, R10: the ruling is each option's default (R10 revised: at 2 players the
    last seat alternates)."""
    game = load_game("runway", players=2)
    assert game.options == {
        "shock_effect": "hype_down",
        "two_player_last_seat": "alternate",
        "last_seat": "catch_up",
        # the levers default to the rules as written: R7's -1, R11's +1
        "cash_penalty": 1,
        "breadth_bonus": 1,
    }


def test_unknown_option_and_bad_value_name_the_allowed_values():
    with pytest.raises(OptionError, match=r"no rule option 'shocks'.*shock_effect"):
        load_game("runway", players=3, shocks="none")
    with pytest.raises(OptionError, match=r"'shock_effect'.*hype_down, none, reward_minus_one"):
        load_game("runway", players=3, shock_effect="explode")


def test_player_counts():
    """2, 3 and 4 players; others refused."""
    for n in (2, 3, 4):
        assert load_game("runway", players=n).new_initial_state(1).num_players == n
    with pytest.raises(ValueError, match="2-4 players"):
        load_game("runway", players=5)
