"""Tunables for SUPER COMPUTER: connector colours, copies per part and build
points are tunables; a variant changing them plays everywhere, and bad values are
refused with errors naming the file, the change and what is allowed (S1, S2)."""

from __future__ import annotations

import pytest

from cardlab import CardDataError
from cardlab.core.variants import VariantError, parse_variant
from cardlab.games import game_info, load_game
from cardlab.games.supercomputer.cards import BUILDS_FILE, COLOURS, PARTS_FILE
from cardlab.lab.tune.space import search_space
from cardlab.testing import check_game

INFO = game_info("supercomputer")


def _variant(*changes: tuple[str, object], source: str = "v.toml"):  # type: ignore[no-untyped-def]
    data = {
        "game": "supercomputer",
        "changes": [{"path": p, "value": v, "why": "test"} for p, v in changes],
    }
    return parse_variant(data, source, INFO)


RECOLOURED = (
    ("parts[USB Hub].count", 3),
    ("parts[Core X8 CPU].count", 0),
    ("parts[32 GB RAM].count", 2),
    ("parts[ATX Motherboard].north", "none"),
    ("parts[Quantum 12 CPU].west", "purple"),
    ("parts[USB Hub].north", "red"),
)


@pytest.mark.parametrize(
    "players", [2, 5]
)  # the fewest and the most; every count: test_conformance
def test_a_variant_with_colours_and_counts_passes_the_contract(players: int) -> None:
    game = load_game("supercomputer", players=players, variant=_variant(*RECOLOURED))
    check_game(game)
    t = game.tables
    hubs = [n for n in t.part_names if n.startswith("USB Hub")]
    assert hubs == ["USB Hub", "USB Hub #2", "USB Hub #3"]
    assert "Core X8 CPU" not in t.part_names
    assert t.num_parts == 35 + 2 + 1 - 1
    # a copy is the card again: same type, colours (the changed ones) and points
    a, b = t.part_index["USB Hub"], t.part_index["USB Hub #3"]
    assert t.edges[a] == t.edges[b] and t.edges[a][0] == COLOURS.index("red")
    assert t.green[a] == t.green[b] and t.part_types[a] == t.part_types[b]
    assert t.edges[t.part_index["ATX Motherboard"]][0] == 0
    assert t.edges[t.part_index["Quantum 12 CPU"]][3] == COLOURS.index("purple")


def test_copies_follow_the_file_order_and_every_load_numbers_them_alike() -> None:
    one = load_game("supercomputer", players=4, variant=_variant(*RECOLOURED)).tables
    two = load_game("supercomputer", players=4, variant=_variant(*RECOLOURED)).tables
    assert one.part_ids == two.part_ids and one.part_names == two.part_names
    i = one.part_names.index("USB Hub")
    assert one.part_names[i : i + 3] == ("USB Hub", "USB Hub #2", "USB Hub #3")
    assert one.part_ids[i : i + 3] == (f"sc{i:02d}", f"sc{i + 1:02d}", f"sc{i + 2:02d}")


def test_everything_built_from_the_cards_counts_copies() -> None:
    """Encoding sizes, card faces (print sheets) and the observation follow the deck."""
    from cardlab.games.supercomputer import art, encoding

    plain = load_game("supercomputer", players=4)
    more = load_game("supercomputer", players=4, variant=_variant(("parts[USB Hub].count", 3)))
    faces = [f.name for f in art.faces(more.cards)]
    assert faces.count("USB Hub #2") == 1 and faces.count("USB Hub #3") == 1
    assert len(faces) == len(art.faces(plain.cards)) + 2
    assert encoding.size(more) > encoding.size(plain)
    assert more.num_distinct_actions == plain.num_distinct_actions + 2


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("parts[USB Hub].north", "pink"), ["parts[USB Hub].north", "black, red, blue"]),
        (("parts[ATX Motherboard].east", 3), ["ATX Motherboard", "none, black"]),
        # a CPU is a 4-way part: its edges may not be bare
        (("parts[Core X8 CPU].south", "none"), ["Core X8 CPU", "allowed: black, red"]),
        (("parts[USB Hub].count", 4), ["parts[USB Hub].count", "0..3"]),
        (("parts[USB Hub].count", -1), ["0..3"]),
        (("parts[USB Hub].count", "two"), ["must be a number"]),
    ],
)
def test_bad_colours_and_counts_in_a_variant_are_refused(
    change: tuple[str, object], words: list[str]
) -> None:
    with pytest.raises(VariantError) as err:
        _variant(change, source="mine.toml")
    message = str(err.value)
    assert "mine.toml: changes[0]" in message
    for word in words:
        assert word in message


def _packaged() -> str:
    return PARTS_FILE.read_text(encoding="utf-8")


def test_bad_counts_and_copy_names_in_a_card_file_are_refused(tmp_path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(_packaged().replace("count = 1", "count = 9", 1))
    with pytest.raises(CardDataError, match=r"bad\.toml: card 'Core X8 CPU'.*'count'.*5"):
        load_game("supercomputer", players=4, cards=f)
    f.write_text(_packaged().replace("count = 1", "count = -1", 1))
    with pytest.raises(CardDataError, match=r"card 'Core X8 CPU'.*'count'"):
        load_game("supercomputer", players=4, cards=f)
    # "USB Hub" twice would name its second copy "USB Hub #2": a name the file uses
    text = _packaged().replace('name = "Power Hub"', 'name = "USB Hub #2"', 1)
    text = text.replace('name = "USB Hub"\ntype = "Hub"', 'name = "USB Hub"\ntype = "Hub"', 1)
    i = text.index('name = "USB Hub"')
    j = text.index("count = 1", i)
    f.write_text(text[:j] + "count = 2" + text[j + len("count = 1") :])
    with pytest.raises(CardDataError, match=r"bad\.toml: card 'USB Hub #2'.*copy 2 of 'USB Hub'"):
        load_game("supercomputer", players=4, cards=f)


def test_a_file_without_counts_holds_one_copy_of_each() -> None:
    import tomllib

    data = tomllib.loads(_packaged())
    assert all(p["count"] == 1 for p in data["parts"])  # written out, so the tuner may change it
    plain = load_game("supercomputer", players=4)
    assert plain.tables.num_parts == len(data["parts"])


def test_set_checks_count_copies(tmp_path) -> None:
    """S2 checks run on the deck with its copies: a build whose only part is left out
    cannot be met, a second copy makes one meetable, and too few parts are refused."""
    # The set has exactly 28 parts without the <4 mark: leaving one out is too few...
    with pytest.raises(CardDataError, match=r"27 parts without the <4 flag; 4 players need 28"):
        load_game("supercomputer", players=4, variant=_variant(("parts[Case Fan].count", 0)))
    # ...unless another part gets a second copy.
    hub = ("parts[USB Hub].count", 2)
    game = load_game(
        "supercomputer", players=4, variant=_variant(("parts[Case Fan].count", 0), hub)
    )
    # Mining Rig needs the 1000 W PSU, of which the set has one.
    with pytest.raises(CardDataError, match=r"'Mining Rig'.*1x PSU 1000 W.*never be met"):
        load_game("supercomputer", players=4, variant=_variant(("parts[1000 W PSU].count", 0), hub))
    # 4 CPUs at 2-4 players: three without the <4 mark, so a second copy of one is needed
    four = tmp_path / "builds.toml"
    four.write_text(
        BUILDS_FILE.read_text(encoding="utf-8")
        + '\n[[builds]]\nname = "Quad"\nbonus = [5, 6, 7]\npenalty = [-1, -2, -3]\n'
        + '[[builds.requires]]\ntype = "CPU"\ncount = 4\n'
    )
    with pytest.raises(CardDataError, match=r"'Quad'.*only 3 of the parts used at 2-4"):
        load_game("supercomputer", players=4, cards=four)
    game = load_game(
        "supercomputer",
        players=4,
        cards=four,
        variant=_variant(("parts[Atom Lite CPU].count", 2)),
    )
    assert game.tables.build_names[-1] == "Quad"
    check_game(game)


def test_the_tuner_searches_colours_and_counts() -> None:
    params = {p.name: p for p in search_space(INFO)}
    edge = params["cards:parts[ATX Motherboard].west"]
    assert edge.baseline == "none" and set(edge.values()) == set(COLOURS)
    cpu = params["cards:parts[Core X8 CPU].north"]
    assert "none" not in cpu.values() and cpu.baseline == "black"
    count = params["cards:parts[USB Hub].count"]
    assert count.baseline == 1 and count.values() == [0, 1, 2, 3]
    words = [p for p in params.values() if p.choices and not p.is_option]
    assert len(words) == 4 * 35
    assert "cards:builds[Gaming Rig].bonus[0]" in params
