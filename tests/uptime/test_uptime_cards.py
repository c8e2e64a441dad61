"""UPTIME card data (U1, U2), bad card files and rule options."""

from pathlib import Path

import pytest

import cardlab
from cardlab.core.errors import CardDataError, OptionError, PlayerCountError
from cardlab.games.uptime.cards import PACKAGED, load_cards

GOOD = PACKAGED.read_text()


def test_u1_composition_54_cards_with_fixed_width_ids():
    """U1: Supply 26 (6 of each material + 2 Twists), Build 28, 54 in all."""
    t = load_cards()
    assert t.count == 54 and t.num_supply == 26
    assert list(t.ids) == [f"up{i:02d}" for i in range(54)]
    names = list(t.name)
    for m in ("Silicon", "Copper", "Polymer", "Rare-Earth"):
        assert names.count(m) == 6
    assert names.count("Power Surge") == names.count("Supply Shortage") == 1
    for c in ("Workstation", "Blade", "Tower", "Mainframe"):
        assert names.count(c) == 1
    assert names.count("Patch") == 2 and names.count("Cable") == 2 and names.count("Router") == 2
    for comp in t.component_names:
        assert names.count(comp) == 2
    contracts = sorted(t.value[c] for c in range(54) if t.kind[c] == 6)
    assert contracts == [4, 5, 5, 6, 6, 7]


def test_u2_component_costs_are_the_six_different_pairs():
    """U2: each Component type costs a different pair of the four materials."""
    t = load_cards()
    pairs = {frozenset(p) for p in t.component_cost}
    assert len(pairs) == 6 and all(len(p) == 2 for p in pairs)


def test_a_designer_file_may_repeat_a_pair(tmp_path):
    """U2 is the packaged file's reading, not a check: CPU may cost RAM's pair (the Component
    cost knob, docs/rules/uptime.md); each type keeps its own index and name."""
    path = _write(
        tmp_path, GOOD.replace('cost = ["Silicon", "Copper"]', 'cost = ["Silicon", "Polymer"]')
    )
    t = cardlab.load_game("uptime", players=3, cards=path).table
    assert t.component_cost[0] == t.component_cost[1]
    assert t.component_names[:2] == ("CPU", "RAM")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "my_cards.toml"
    path.write_text(text)
    return path


def test_designer_file_is_loaded_by_cards_option(tmp_path):
    path = _write(tmp_path, GOOD.replace('name = "Campus Helpdesk"', 'name = "Bakery POS"'))
    game = cardlab.load_game("uptime", players=3, cards=path)
    assert "Bakery POS" in game.table.name


@pytest.mark.parametrize(
    ("old", "new", "pattern"),
    [
        ("value = 7", 'value = "lots"', r"my_cards\.toml.*'Weather Supercluster'.*value"),
        ('ability = "tower"', 'ability = "turbo"', r"my_cards\.toml.*'Tower'.*ability"),
        (
            'cost = ["Silicon", "Copper"]',
            'cost = ["Silicon", "Gold"]',
            r"my_cards\.toml.*'CPU'.*cost.*Gold",
        ),
        (
            'cost = ["Silicon", "Copper"]',
            'cost = ["Silicon", "Silicon"]',
            r"'CPU'.*cost.*names 'Silicon' twice.*2 different",
        ),
        (
            'name = "Silicon"\ncount = 6',
            'name = "Silicon"\ncount = 11',
            r"my_cards\.toml.*'Silicon' \(material\[0\]\).*'count'.*11 .*range 3\.\.10",
        ),
        (
            'name = "Copper"\ncount = 6',
            'name = "Copper"\ncount = 2',
            r"my_cards\.toml.*'Copper' \(material\[1\]\).*'count'.*2 .*range 3\.\.10",
        ),
        (
            'name = "Patch"\ncount = 2',
            'name = "Patch"\ncount = 5',
            r"my_cards\.toml.*'Patch' \(patch\).*'count'.*5 .*range 0\.\.4",
        ),
        (
            'name = "Patch"\ncount = 2',
            'name = "Patch"\ncount = -1',
            r"'Patch' \(patch\).*'count'.*-1 .*range 0\.\.4",
        ),
        ('kind = "router"', 'kind = "cable"', r"field 'network'.*2 Cables and 2 Routers"),
        ('effect = "supply_shortage"', 'effect = "power_surge"', r"field 'twist'"),
    ],
)
def test_bad_card_file_names_file_card_and_field(tmp_path, old, new, pattern):
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(CardDataError, match=pattern):
        cardlab.load_game("uptime", players=3, cards=path)


def test_missing_contract_and_unknown_field(tmp_path):
    text = GOOD[: GOOD.rindex("[[contract]]")]
    with pytest.raises(CardDataError, match=r"field 'contract'.*6 Contracts"):
        load_cards(_write(tmp_path, text))
    with pytest.raises(CardDataError, match=r"'Blade'.*colour"):
        load_cards(
            _write(tmp_path, GOOD.replace('ability = "blade"', 'ability = "blade"\ncolour = 1'))
        )


def test_options_defaults_are_the_rulings():
    """U3, U4, U10, U13, U14, U16: the ruling is each option's default (U3, revised: the supply
    discard is reshuffled into an empty Supply Deck; U16: the rulebook's deal of 4); the
    designer option row_sweep defaults off."""
    game = cardlab.load_game("uptime")
    assert game.num_players == 4
    assert game.options == {
        "patch_cost": 1,
        "raise_requires_computer": False,
        "stall_end": True,
        "router_rule": "per_computer",
        "supply_reshuffle": True,
        "row_sweep": False,
        "starting_hand": 4,
        # the rule levers default to the rule as written
        "hand_limit": 0,
        "trade_in": 0,
        "leftover_rate": 3,
        "computer_points": 0,
        "draw_cards": 2,
        "pass_cards": 1,
        "row_size": 4,
        "later_seat_bonus": 0,
        "row_conveyor": 0,
    }


def test_unknown_option_and_bad_value_name_the_allowed_values():
    with pytest.raises(OptionError, match=r"no rule option 'patch_price'.*patch_cost"):
        cardlab.load_game("uptime", patch_price=0)
    with pytest.raises(OptionError, match=r"'router_rule'.*per_computer, one_router_per_computer"):
        cardlab.load_game("uptime", router_rule="all")
    with pytest.raises(OptionError, match=r"'patch_cost'.*1, 0"):
        cardlab.load_game("uptime", patch_cost=2)


def test_player_counts():
    """UPTIME is 3-4 players with a 2-player variant (U16); 1 or 5 is refused."""
    for n in (2, 3, 4):
        assert cardlab.load_game("uptime", players=n).num_players == n
    for n in (1, 5):
        with pytest.raises(PlayerCountError, match="2-4"):
            cardlab.load_game("uptime", players=n)
