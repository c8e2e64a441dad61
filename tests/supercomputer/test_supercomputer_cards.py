"""Card files (S1, S2, S10): the packaged set, the sample computer, and bad files
reported by file, card and field."""

from pathlib import Path

import pytest
from sc_helpers import build, game, part

from cardlab import CardDataError
from cardlab.games.supercomputer.cards import BUILDS_FILE, PARTS_FILE

# S10: the documented sample computer (docs/rules/supercomputer.md, supercomputer_sample.svg),
# in the order it is built: (x, y, part name).
SAMPLE = [
    (0, 0, "Core X8 CPU"),
    (0, -1, "32 GB RAM"),
    (1, 0, "24 GB GPU"),
    (-1, 0, "ATX Motherboard"),
    (0, 1, "1000 W PSU"),
    (1, 1, "Liquid Loop"),
    (0, 2, "4 TB NVMe"),
]


def test_sample_computer_scores_30_40_50():
    """S10: the sample computer is legal, placed part by part, and scores 30 / 40 / 50
    in rounds 1 / 2 / 3 (green values plus the Gaming Rig build bonus)."""
    g = game()
    s = g.new_initial_state(0)
    grid = {}
    for x, y, name in SAMPLE:
        k = part(g, name)
        s.set_computer(0, grid)
        legal = s.legal_cells(0, k)
        cell = g.place_action(x, y) - g.actions.first_place
        assert cell in legal, f"{name} at ({x},{y}) is not a legal placement"
        grid[(x, y)] = k
    t = g.tables
    rig = build(g, "Gaming Rig")
    parts = list(grid.values())
    assert t.met(rig, parts)
    totals = [sum(t.green[k][r] for k in parts) + t.bonus[rig][r] for r in range(3)]
    assert totals == [30, 40, 50]


def test_sample_scenario_scored_by_the_engine():
    """S10: the scenario module the lab's claim calls places the same sample through the
    engine's placement rule and scores it with the engine's round scoring: 30 / 40 / 50."""
    from cardlab.games.supercomputer import scenarios

    assert [tuple(x) for x in scenarios.SAMPLE] == SAMPLE
    assert scenarios.sample_computer_scores() == [30, 40, 50]


def _packaged(path: Path) -> str:
    return path.read_text()


def test_designer_file_with_only_builds_keeps_packaged_parts(tmp_path):
    """cards=PATH: a section the file leaves out keeps the packaged cards."""
    f = tmp_path / "mine.toml"
    f.write_text(_packaged(BUILDS_FILE))
    g = game(4, cards=f)
    assert g.tables.num_parts == 35 and g.tables.num_builds == 14


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        (
            'north = "black"',
            'north = "orange"',
            r"bad\.toml.*'Core X8 CPU'.*north.*'none', 'black'",
        ),
        ("green = [4, 5, 6]", "green = [4, 5]", r"bad\.toml.*'Core X8 CPU'.*green"),
        ("red = [-2, -3, -4]", "red = [2, 3, 4]", r"bad\.toml.*'Core X8 CPU'.*red"),
        ('size = 16\nunit = "GB"', "size = 16", r"bad\.toml.*'16 GB RAM'.*unit"),
    ],
)
def test_bad_part_is_named_by_file_card_and_field(tmp_path, old, new, match):
    """S1: a bad part card names the file, the card and the field."""
    text = _packaged(PARTS_FILE)
    assert old in text
    f = tmp_path / "bad.toml"
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(CardDataError, match=match):
        game(4, cards=f)


def test_four_way_parts_need_four_connectors(tmp_path):
    """S1: CPU and Hub are 4-way: a Hub with a bare edge is refused, naming the card."""
    text = _packaged(PARTS_FILE)
    hub = text.index('name = "USB Hub"')
    bad = text[:hub] + text[hub:].replace('south = "black"', 'south = "none"', 1)
    f = tmp_path / "bad.toml"
    f.write_text(bad)
    with pytest.raises(CardDataError, match=r"'USB Hub'.*4-way.*every edge"):
        game(4, cards=f)


def test_bad_build_requirement_names_the_build(tmp_path):
    """S1/S7: a requirement with a size but no unit names the build card."""
    text = _packaged(BUILDS_FILE).replace('size = 16\nunit = "GB"', "size = 16", 1)
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(CardDataError, match=r"bad\.toml.*'Home Office PC'.*requires"):
        game(4, cards=f)


def test_unmeetable_build_and_too_few_parts_are_refused(tmp_path):
    """S2 cross-card checks: enough parts for 4 and 5 players; every build meetable."""
    f = tmp_path / "bad.toml"
    f.write_text(_packaged(BUILDS_FILE).replace("size = 16", "size = 999", 1))
    with pytest.raises(CardDataError, match=r"'Home Office PC'.*can never be met"):
        game(4, cards=f)
    text = _packaged(PARTS_FILE)
    cut = text.index('name = "Riser Cable"') - len("[[parts]]\n")
    f.write_text(text[:cut])  # 27 base parts left
    with pytest.raises(CardDataError, match=r"27 parts without the <4 flag; 4 players need 28"):
        game(4, cards=f)
    with pytest.raises(CardDataError, match="no .*parts.* and no .*builds"):
        (tmp_path / "empty.toml").write_text("")
        game(4, cards=tmp_path / "empty.toml")


def _one_build(requires: str, name: str = "Impossible Box") -> str:
    """A builds section: the packaged builds plus one of our own."""
    return _packaged(BUILDS_FILE) + (
        f'\n[[builds]]\nname = "{name}"\nbonus = [5, 6, 7]\npenalty = [-1, -2, -3]\n{requires}'
    )


def _req(type_: str, count: int, extra: str = "") -> str:
    return f'[[builds.requires]]\ntype = "{type_}"\ncount = {count}\n{extra}'


@pytest.mark.parametrize(
    ("requires", "match"),
    [
        # 8 parts in all, but a seat attaches at most its 7 picks a round.
        (
            _req("CPU", 2) + _req("RAM", 3) + _req("Storage", 3),
            r"bad\.toml: card 'Impossible Box': field 'requires': 8 parts in all.*at most 7",
        ),
        # 4 CPUs: the packaged set has 4, but one (Threadripper) is a "<4" part.
        (
            _req("CPU", 4),
            r"bad\.toml: card 'Impossible Box': field 'requires\[0\]': only 3 of the parts "
            r"used at 2-4 players match 4x CPU",
        ),
        # A size only the 5-player cards have (the 16 GB GPU carries "<4").
        (
            _req("RAM", 1) + _req("GPU", 1, 'size = 16\nunit = "GB"\n'),
            r"'Impossible Box': field 'requires\[1\]': only 0 of the parts used at 2-4 "
            r"players match 1x GPU 16 GB",
        ),
        # A type no part has.
        (_req("Printer", 1), r"'Impossible Box': field 'requires\[0\]': no 1 parts"),
    ],
)
def test_builds_no_set_of_parts_can_meet_are_refused(tmp_path, requires, match):
    """S2, S6: a build that no set of parts can meet at every player
    count is an error naming the file, the build and the requirement."""
    f = tmp_path / "bad.toml"
    f.write_text(_one_build(requires))
    with pytest.raises(CardDataError, match=match):
        game(4, cards=f)
    ok = tmp_path / "ok.toml"
    ok.write_text(_one_build(_req("CPU", 3) + _req("RAM", 4)))  # 7 parts, 3 base CPUs
    assert game(2, cards=ok).tables.build_names[-1] == "Impossible Box"


def test_duplicate_names_are_refused(tmp_path):
    """Names identify cards in labels and the log: two parts (or builds) of one name
    are refused, naming the file, the card, the field and both positions."""
    text = _packaged(PARTS_FILE).replace('name = "Power Hub"', 'name = "USB Hub"', 1)
    f = tmp_path / "dupes.toml"
    f.write_text(text)
    with pytest.raises(
        CardDataError, match=r"dupes\.toml: card 'USB Hub': field 'name': parts\[3\] and parts\[5\]"
    ):
        game(4, cards=f)
    f.write_text(_packaged(BUILDS_FILE).replace('name = "Workstation"', 'name = "Gaming Rig"', 1))
    with pytest.raises(
        CardDataError, match=r"card 'Gaming Rig': field 'name': builds\[0\] and builds\[1\]"
    ):
        game(4, cards=f)


def test_packaged_parts_file_named_in_its_errors(tmp_path):
    """A designer's builds-only file that breaks a packaged part's count is reported
    against the designer's file (the builds), not the packaged parts."""
    f = tmp_path / "mine.toml"
    f.write_text(_one_build(_req("CPU", 4)))
    with pytest.raises(CardDataError, match=r"mine\.toml: card 'Impossible Box'"):
        game(3, cards=f)
