"""UPTIME's Component costs as a designer's knob (not a ruling; U2 stays the default).

Rulebook: "A Component (CPU, RAM, Storage, Motherboard, PSU, Case) costs the 2 raw
materials printed on its card." U2 reads the packaged deck as the six different pairs of
the four materials. A designer's file or variant may change a cost, and two types may
share a pair; a cost must still name two different materials of the file. Everything
that reads a cost (legality, payment, personas, print faces) follows the card data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import cardlab
from cardlab.art import game_art
from cardlab.core.errors import CardDataError
from cardlab.core.variants import VariantError, load_variant
from cardlab.games import game_info
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import PACKAGED, load_cards
from cardlab.games.uptime.scenarios import arrange
from cardlab.lab.tune.space import search_space
from cardlab.testing import check_game

MATERIALS = ("Silicon", "Copper", "Polymer", "Rare-Earth")
U2 = {
    "CPU": ("Silicon", "Copper"),
    "RAM": ("Silicon", "Polymer"),
    "Storage": ("Silicon", "Rare-Earth"),
    "Motherboard": ("Copper", "Polymer"),
    "PSU": ("Copper", "Rare-Earth"),
    "Case": ("Polymer", "Rare-Earth"),
}

# Every type but Case costs Silicon + Copper or Polymer + Rare-Earth: two pairs repeated
# three times, Silicon in two types only and Copper in four.
REPEATED = {
    "RAM": (None, "Copper"),
    "Storage": ("Polymer", None),
    "Motherboard": ("Silicon", None),
    "PSU": ("Silicon", "Copper"),
}


def _variant_file(tmp_path: Path, changes: dict[str, tuple[str | None, str | None]]) -> Path:
    lines = ['game = "uptime"', 'title = "Costs"']
    for name, slots in changes.items():
        for slot, value in enumerate(slots):
            if value is None:
                continue
            lines += [
                "",
                "[[changes]]",
                f'path = "component[{name}].cost[{slot}]"',
                f'value = "{value}"',
                'why = "a test of the Component cost knob"',
            ]
    path = tmp_path / "costs.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_packaged_costs_are_still_u2():
    """U2: the packaged file gives each Component type a different pair (all six pairs)."""
    t = load_cards()
    got = {
        name: tuple(t.material_names[m] for m in pair)
        for name, pair in zip(t.component_names, t.component_cost, strict=True)
    }
    assert got == U2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_variant_with_repeated_pairs_keeps_the_game_contract(tmp_path, players):
    variant = load_variant(_variant_file(tmp_path, REPEATED), game_info("uptime"))
    game = cardlab.load_game("uptime", players=players, variant=variant)
    t = game.table
    pairs = [frozenset(t.material_names[m] for m in p) for p in t.component_cost]
    assert len(set(pairs)) == 3  # repeated pairs are allowed
    assert pairs.count(frozenset({"Silicon", "Copper"})) == 3
    report = check_game(game, games=2, seed=players)
    assert report.players == [players]
    faces = {f.name: f for f in game_art("uptime").faces(game.cards, game.options)}
    assert faces["PSU"].cost == "Silicon + Copper"  # the print face shows the changed cost


def _names(s, cards) -> list[str]:
    return [s.table.name[c] for c in cards]


def test_legality_and_payment_follow_a_changed_cost(tmp_path):
    """A PSU changed to Silicon + Copper (CPU's pair too) is claimable with those two and
    paid with them; U2's PSU (Copper + Rare-Earth) is not claimable from that hand."""
    variant = load_variant(_variant_file(tmp_path, REPEATED), game_info("uptime"))
    game = cardlab.load_game("uptime", players=3, variant=variant)
    s = arrange(game, hands={0: ["Silicon", "Copper", "Polymer"]}, row=["PSU", "Case"])
    labels = [s.action_to_string(a) for a in s.legal_actions()]
    assert "Requisition PSU from slot 1 (pay Silicon, Copper)" in labels
    assert not any(lbl.startswith("Requisition Case") for lbl in labels)  # no Rare-Earth
    s.apply_action(A.REQ + 0)
    assert _names(s, s.tableau[0]) == ["PSU"]
    assert _names(s, s.hand[0]) == ["Polymer"]
    assert sorted(_names(s, s.supply_discard)) == ["Copper", "Silicon"]
    u2 = arrange(
        cardlab.load_game("uptime", players=3), hands={0: ["Silicon", "Copper"]}, row=["PSU"]
    )
    assert A.REQ + 0 not in u2.legal_actions()


@pytest.mark.parametrize(
    ("changes", "pattern"),
    [
        (
            {"CPU": ("Copper", None)},
            r"card 'CPU' \(component\[0\]\).*field 'cost'.*names 'Copper' twice.*2 different",
        ),
        (
            {"Case": (None, "Polymer")},
            r"card 'Case' \(component\[5\]\).*field 'cost'.*names 'Polymer' twice",
        ),
    ],
)
def test_a_cost_naming_one_material_twice_is_refused(tmp_path, changes, pattern):
    """Rulebook: "costs the 2 raw materials printed on its card": two different ones."""
    variant = load_variant(_variant_file(tmp_path, changes), game_info("uptime"))
    with pytest.raises(CardDataError, match=pattern):
        cardlab.load_game("uptime", players=3, variant=variant)


def test_a_card_file_cost_naming_one_material_twice_names_file_card_and_field(tmp_path):
    text = PACKAGED.read_text().replace(
        'cost = ["Copper", "Rare-Earth"]', 'cost = ["Rare-Earth", "Rare-Earth"]'
    )
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(
        CardDataError, match=r"mine\.toml: card 'PSU' \(component\[4\]\): field 'cost'.*twice"
    ):
        cardlab.load_game("uptime", players=2, cards=path)


def test_a_variant_cost_that_is_not_a_material_is_refused_when_read(tmp_path):
    path = tmp_path / "costs.toml"
    path.write_text(
        'game = "uptime"\n[[changes]]\npath = "component[RAM].cost[1]"\nvalue = "Gold"\n'
        'why = "no such material"\n'
    )
    with pytest.raises(
        VariantError,
        match=r"costs\.toml: changes\[0\].*component\[RAM\]\.cost\[1\].*'Gold'.*"
        r"Silicon, Copper, Polymer, Rare-Earth",
    ):
        load_variant(path, game_info("uptime"))


def test_the_tuner_sees_every_cost_slot_with_the_materials_as_choices():
    params = {p.name: p for p in search_space(game_info("uptime"))}
    for name, pair in U2.items():
        for slot in range(2):
            p = params[f"cards:component[{name}].cost[{slot}]"]
            assert p.values() == list(MATERIALS)
            assert p.baseline == pair[slot]


def test_a_tuner_trial_with_one_material_twice_fails_and_a_repeated_pair_plays():
    """The tuner may propose CPU = Copper + Copper: the card check refuses it and the trial's
    game is kept as an error (not a crash); CPU = Polymer + Copper (Motherboard's pair) plays."""
    from cardlab.core.variants import CardChange, Variant
    from cardlab.lab.tune.evaluate import play_trial_game

    def trial(material: str):
        change = CardChange("component[CPU].cost[0]", material)
        variant = Variant(game="uptime", name="t", title="t", changes=(change,))
        return play_trial_game("uptime", 3, variant, 0, 0)

    bad = trial("Copper")
    assert bad.end_reason == "error" and bad.error is not None
    assert "CPU" in bad.error and "Copper" in bad.error and "twice" in bad.error
    good = trial("Polymer")
    assert good.error is None and good.end_reason != "error" and good.rounds > 0
