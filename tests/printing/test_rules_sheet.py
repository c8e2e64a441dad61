"""`cardlab print GAME --variant V` (and `-o` with a lever set) ends with a one-page
rules sheet of the changes in rulebook language: each lever's
passage and its changed rule, each card change with its why; no sheet as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from printcheck import require_poppler, text_lines
from pypdf import PdfReader
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.games import register_game, unregister_game
from cardlab.newgame import template_game

INFO = template_game("printlever", title="Print Lever")

VARIANT = """game = "printlever"
title = "Bonus rounds"
about = "Rounds pay a bonus."

[options]
round_bonus = 4
sabotage = true

[options_why]
round_bonus = "tie-breaks decide 30% -> 9% [5, 15] at 2 players, 200 games, paired seeds"

[[changes]]
path = "rounds"
value = 4
why = "games 2.1 -> 3.0 minutes [2.9, 3.1] at 2 players, 200 games, paired seeds"
"""


@pytest.fixture(autouse=True)
def _registered():  # type: ignore[no-untyped-def]
    register_game(INFO)
    yield
    unregister_game("printlever")


def _pages(pdf: Path) -> dict[int, str]:
    out: dict[int, list[str]] = {}
    for line in text_lines(pdf):
        out.setdefault(line.page, []).append(line.text)
    return {page: " ".join(lines) for page, lines in out.items()}


def test_a_variant_prints_its_rules_sheet_last(tmp_path: Path) -> None:  # R7
    require_poppler()
    variant = tmp_path / "bonus.toml"
    variant.write_text(VARIANT)
    plain, changed = tmp_path / "plain.pdf", tmp_path / "bonus.pdf"
    for args, out in (([], plain), (["--variant", str(variant)], changed)):
        result = CliRunner().invoke(app, ["print", "printlever", *args, "--out", str(out)])
        assert result.exit_code == 0, result.output
    n = len(PdfReader(plain).pages)
    assert len(PdfReader(changed).pages) >= n + 1
    pages = _pages(changed)
    last = pages[max(pages)]
    assert "Rules sheet: Bonus rounds" in last
    # the lever: the passage it changes and the rule in words, with the value
    assert "Changes: R2: the highest value scores its value." in last
    assert "The round's winner scores its card's value plus 4." in last
    assert "tie-breaks decide 30% -> 9% [5, 15]" in last
    # a plain option and the card change with its why and the value as written
    assert "Rule option: sabotage = true" in last
    assert "rounds is 4 (as written: 3)" in last and "games 2.1 -> 3.0 minutes" in last
    assert f"page {max(pages)}: the rules sheet" in pages[1]
    assert "Rules sheet" not in " ".join(_pages(plain).values())


def test_o_with_a_lever_prints_the_sheet_and_a_bad_value_is_refused(tmp_path: Path) -> None:
    require_poppler()
    out = tmp_path / "o.pdf"
    ok = CliRunner().invoke(app, ["print", "printlever", "-o", "round_bonus=2", "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    last = _pages(out)[len(PdfReader(out).pages)]
    assert "Print Lever with rule options" in last
    assert "The round's winner scores its card's value plus 2." in last
    bad = CliRunner().invoke(app, ["print", "printlever", "-o", "round_bonus=9", "--out", str(out)])
    assert bad.exit_code == 2 and "any whole number from 0 to 5" in bad.output


PER_COUNT = VARIANT.replace(
    "[[changes]]",
    """[players.3.options]
round_bonus = 2

[players.3.options_why]
round_bonus = "at 3 players a bonus of 4 let the leader run away"

[[changes]]""",
)


@pytest.mark.parametrize("players", [2, 3])
def test_the_sheet_lists_every_player_counts_settings(tmp_path: Path, players: int) -> None:
    """One sheet serves the box at every count: the settings for all counts, then each
    `[players.N.options]` as "At N players: ...", with its why, whichever count the
    game was made for."""
    from cardlab.core.registry import load_game
    from cardlab.printing.rules_sheet import rule_changes

    variant = tmp_path / "percount.toml"
    variant.write_text(PER_COUNT)
    game = load_game("printlever", players=players, variant=str(variant))
    assert game.options["round_bonus"] == (2 if players == 3 else 4)
    entries = {e.heading: " ".join(e.lines) for e in rule_changes(game)}
    assert "Rule change: round_bonus = 4" in entries
    at_three = entries["At 3 players: Rule change: round_bonus = 2"]
    assert "plus 2." in at_three and "let the leader run away" in at_three
    assert "tie-breaks decide 30%" in entries["Rule change: round_bonus = 4"]


def test_a_sheet_too_long_with_its_whys_keeps_the_rules_and_points_to_them() -> None:
    """UPTIME's recommended rules (13 changes, long measured whys) fit one page by
    leaving the reasons to the variant file, never by dropping a rule."""
    from cardlab.core.registry import load_game
    from cardlab.printing.paper import PAPERS
    from cardlab.printing.rules_sheet import rule_changes, rules_sheet_page

    game = load_game("uptime", players=3, variant="lab")
    svg = rules_sheet_page(next(iter(PAPERS.values())), "UPTIME", game, 15, 15)
    assert "is written in lab.toml" in svg
    for entry in rule_changes(game):
        assert entry.heading.replace("&", "&amp;") in svg
