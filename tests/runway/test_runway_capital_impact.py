"""Card impact by experiment for RUNWAY's Capital cards.

A Capital kind's printed numbers are card data (`capital_kinds[K].numbers`, 1-8 in the
box); the lab's experiments change them: per kind its top card prints 0, and Cash as a
whole prints one less. Capital cards are dealt, not acquired, so the holders are the
seats dealt the card at set-up, replayed from each game's seed (the same seats with and
without the change). See docs/rules/runway.md, "Card impact".
"""

from __future__ import annotations

import copy
import json
import pathlib
import random
import tomllib

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from runway_kit import act
from typer.testing import CliRunner

from cardlab import CardDataError, load_game
from cardlab.agents import make_agent
from cardlab.agents.play import agent_view
from cardlab.cli import app
from cardlab.core.variants import apply_change
from cardlab.games.runway import claims
from cardlab.games.runway.cards import PACKAGED
from cardlab.games.runway.scenarios import card
from cardlab.games.runway.scoring import closing_winner
from cardlab.lab.findings import headline_findings
from cardlab.testing import check_game

TEXT = PACKAGED.read_text(encoding="utf-8")
DATA = tomllib.loads(TEXT)
KINDS = ("Cash", "Network", "Tech", "Talent")


def _changed(tmp_path, ablation):  # type: ignore[no-untyped-def]
    data = copy.deepcopy(DATA)
    for change in ablation.changes:
        assert apply_change(data, change)
    path = tmp_path / "changed.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return data, path


def _capital(label: str):  # type: ignore[no-untyped-def]
    return next(a for a in claims.ablations(DATA) if a.label == label)


def test_packaged_capital_numbers_are_the_box():
    """Rulebook: 'numbers 1-8' of each kind; a file without `numbers` is the same box."""
    game = load_game("runway", players=3)
    assert [k.numbers for k in game.cards.kinds] == [(1, 2, 3, 4, 5, 6, 7, 8)] * 4
    assert game.cards.capital_number == tuple(c % 8 + 1 for c in range(32))
    assert game.cards.capital_names[7] == "Cash 8" and game.cards.capital_names[31] == "Talent 8"


def test_bad_capital_numbers_name_file_kind_and_field(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(TEXT.replace("numbers = [1, 2, 3, 4, 5, 6, 7, 8]", "numbers = [1, 1, 3]", 1))
    with pytest.raises(CardDataError, match=r"bad\.toml.*numbers"):
        load_game("runway", players=2, cards=path)
    path.write_text(
        TEXT.replace("numbers = [1, 2, 3, 4, 5, 6, 7, 8]", "numbers = [1, 2, 3, 4, 5, 6, 7, 7]", 1)
    )
    with pytest.raises(CardDataError, match=r"bad\.toml.*'Cash'.*numbers.*repeats"):
        load_game("runway", players=2, cards=path)
    path.write_text(
        TEXT.replace("numbers = [1, 2, 3, 4, 5, 6, 7, 8]", "numbers = [1, 2, 3, 4, 5, 6, 7, 10]", 1)
    )
    with pytest.raises(CardDataError, match=r"bad\.toml.*numbers"):
        load_game("runway", players=2, cards=path)


def test_every_capital_kind_has_its_experiment_and_cash_a_whole_kind_one():
    """The declared experiments: the 12 Deals, then each kind's top card printing 0,
    then every Cash card one lower; a Capital row names its holders by the deal."""
    ablations = claims.ablations(DATA)
    labels = [a.label for a in ablations]
    assert labels[:12] == [d["name"] for d in DATA["deals"]]
    assert labels[12:] == [f"{k} 8" for k in KINDS] + ["every Cash card"]
    for a in ablations[12:]:
        assert a.holder_seats is not None and a.holders_are.startswith("seats dealt")
        assert "holders: the seats dealt" in a.change


@pytest.mark.parametrize("kind", KINDS)
def test_top_card_experiment_changes_the_card_file_as_declared(tmp_path, kind):
    """'K 8 prints 0': the changed file differs from the packaged one in that one
    number only, loads, keeps every id and deals the same hands from the same seed."""
    ablation = _capital(f"{kind} 8")
    data, path = _changed(tmp_path, ablation)
    diff = [
        (k["name"], i, a, b)
        for k, old in zip(data["capital_kinds"], DATA["capital_kinds"], strict=True)
        for i, (a, b) in enumerate(zip(old["numbers"], k["numbers"], strict=True))
        if a != b
    ]
    assert diff == [(kind, 7, 8, 0)]
    changed = load_game("runway", players=3, cards=path)
    box = load_game("runway", players=3)
    assert changed.cards.capital_names.count(f"{kind} 0") == 1
    assert f"{kind} 8" not in changed.cards.capital_names
    a, b = changed.new_initial_state(4), box.new_initial_state(4)
    assert a.hands == b.hands and a.zones() == b.zones()
    seats = ablation.holder_seats(_record(3, 4))
    top = card(box.cards, f"{kind} 8")
    assert seats == [p for p, hand in enumerate(b.hands) if top in hand]


def test_cash_one_lower_changes_every_cash_card(tmp_path):
    ablation = _capital("every Cash card")
    data, path = _changed(tmp_path, ablation)
    assert data["capital_kinds"][0]["numbers"] == list(range(8))
    assert [k["numbers"] for k in data["capital_kinds"][1:]] == [list(range(1, 9))] * 3
    game = load_game("runway", players=2, cards=path)
    assert game.cards.capital_names[:8] == tuple(f"Cash {n}" for n in range(8))
    hands = game.new_initial_state(12).hands
    rich = [p for p, h in enumerate(hands) if sum(1 for c in h if c < 8) >= 2]
    assert ablation.holder_seats(_record(2, 12)) == rich


def test_r6_printed_numbers_decide_the_close(tmp_path):
    """R6 reads the printed number: with Cash 8 printing 0, the Cash 0 (the card that
    was Cash 8) loses to a Network 1 match on a Social Deal, and labels call it Cash 0."""
    _, path = _changed(tmp_path, _capital("Cash 8"))
    game = load_game("runway", players=3, cards=path)
    hands = [
        ["Cash 0", "Tech 1", "Tech 2", "Talent 1", "Talent 2", "Talent 3"],
        ["Network 1", "Tech 3", "Tech 4", "Talent 4", "Talent 5", "Talent 6"],
        ["Tech 5", "Tech 6", "Tech 7", "Tech 8", "Talent 7", "Talent 8"],
    ]
    from cardlab.games.runway.scenarios import from_setup

    s = from_setup(
        game,
        hands=hands,
        bench=["Cash 7", "Cash 1", "Cash 2"],
        deals=("Conference Badge", "Board Seat"),
        last_seat=2,
    )
    labels = [s.action_to_string(a) for a in s.legal_actions()]
    assert "pitch Cash 0 (cash)" in labels
    act(s, "pitch Cash 0")
    act(s, "pitch Network 1")
    act(s, "pass")
    act(s, "skip")
    won = s.observation(0)["deals_won"]
    assert [d["name"] for d in won[1]] == ["Conference Badge"] and won[0] == []


def test_personas_read_the_printed_numbers(tmp_path):
    """The generalist sees the Cash 0 for what it prints: pitching last behind a
    Network 1 it cannot win with it, so it does not pitch it to win."""
    _, path = _changed(tmp_path, _capital("Cash 8"))
    game = load_game("runway", players=3, cards=path)
    from cardlab.games.runway.personas import _winning

    s = build_with(game)
    act(s, "pitch Network 1")
    act(s, "pass")
    act(s, "skip")
    assert s.current_player() == 2
    legal = s.legal_actions()
    zero = card(game.cards, "Cash 0")
    assert zero in legal and zero not in _winning(s, legal)
    bot = make_agent("generalist", seed=1)
    choice = bot.step(agent_view(s, 2, random.Random(0)))
    assert choice != zero


def build_with(game):  # type: ignore[no-untyped-def]
    from cardlab.games.runway.scenarios import from_setup

    return from_setup(
        game,
        hands=[
            ["Network 1", "Tech 3", "Tech 4", "Talent 4", "Talent 5", "Talent 6"],
            ["Tech 1", "Tech 2", "Talent 1", "Talent 2", "Talent 3", "Tech 5"],
            ["Cash 0", "Tech 6", "Tech 7", "Tech 8", "Talent 7", "Talent 8"],
        ],
        bench=["Cash 7", "Cash 1", "Cash 2"],
        deals=("Conference Badge", "Board Seat"),
        last_seat=2,
    )


@pytest.mark.parametrize("players", [2, 4])
def test_changed_capital_numbers_pass_the_conformance_check(tmp_path, players):
    """Both kinds of Capital change keep the game API contract (unique labels, hidden
    cards, replay) at the smallest and largest table."""
    for label in ("Network 8", "every Cash card"):
        _, path = _changed(tmp_path, _capital(label))
        check_game(load_game("runway", players=players, cards=path), games=1, checks_every=5)


class _Record:
    def __init__(self, players: int, seed: int) -> None:
        self.players, self.seed = players, seed


def _record(players: int, seed: int) -> _Record:
    return _Record(players, seed)


def test_report_lists_capital_experiments_and_flags_only_through_them(tmp_path):
    """`cardlab report runway` runs every Capital experiment on the report's seats (the
    baseline's seeds) with holders named by the deal, and shows them in report.json and
    report.html; a Capital card appears among the headline findings only through its own
    experiment, and never in the correlation table (Capital cards are not acquired)."""
    out = tmp_path / "report"
    args = "--games 8 --side-games 4 --probe-games 4 --ablation-games 8 --ladder-games 0"
    result = CliRunner().invoke(
        app, ["report", "runway", *args.split(), "--workers", "1", "--quiet", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    impact = report["card_impact"]
    rows = {r["label"]: r for r in impact["ablations"]}
    html = (out / "report.html").read_text(encoding="utf-8")
    for label in [f"{k} 8" for k in KINDS] + ["every Cash card"]:
        row = rows[label]
        assert "error" not in row, row
        assert row["holders"].startswith("seats dealt")
        assert row["base"]["holder_seats"] == row["changed"]["holder_seats"] > 0
        assert len(row["holder_win_rate_delta_ci95"]) == 2
        written = tomllib.loads(pathlib.Path(row["cards"]).read_text(encoding="utf-8"))
        assert written["capital_kinds"] != DATA["capital_kinds"]
        assert f"<td>{label}<div" in html and row["change"] in html
    assert "dealt" in impact["extra"] and "dealt, not acquired" in html
    capital = {f"{k} {n}" for k in KINDS for n in range(10)}
    assert not capital & set(report["main"]["content"]["cards"])

    def card_findings(rep):  # type: ignore[no-untyped-def]
        return [f["title"] for f in headline_findings(rep) if f["title"].startswith("Card")]

    clear = {label for label, r in rows.items() if r["reading"] == "clear effect"}
    assert set(card_findings(report)) <= {f"Card effect: {label}" for label in clear}
    for row in impact["ablations"]:
        row["reading"] = "no clear effect"
    assert card_findings(report) == []
    rows["Cash 8"]["reading"] = "clear effect"
    assert card_findings(report) == ["Card effect: Cash 8"]


NUMBERS = st.lists(
    st.lists(st.integers(min_value=0, max_value=9), min_size=8, max_size=8, unique=True),
    min_size=4,
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(
    numbers=NUMBERS,
    sector=st.integers(min_value=0, max_value=3),
    pitched=st.lists(st.integers(min_value=0, max_value=31), max_size=4, unique=True),
)
def test_r6_any_printed_numbers_decide_by_the_rule(numbers, sector, pitched):
    """Property (R6) over any printed numbers a card file may give: the winner is the
    highest printed number among matches and Cash, a match beating Cash on equal numbers,
    the later pitch a true tie; no competing pitch: Dumped."""
    table = tuple(n for kind in numbers for n in kind)
    pitches = [(seat, c) for seat, c in enumerate(pitched)]
    seat, won = closing_winner(pitches, sector, table)
    competing = [
        (table[c], c // 8 == sector, i) for i, (_, c) in enumerate(pitches) if c // 8 in (sector, 0)
    ]
    if not competing:
        assert (seat, won) == (-1, -1)
        return
    best = max(competing)  # number, then match over Cash, then the later pitch
    assert (seat, won) == pitches[best[2]]
