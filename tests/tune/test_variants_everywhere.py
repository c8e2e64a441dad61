"""A variant reaches every place a game is made: the print sheets print its cards
(the same faces the table draws), and the CLI commands take `--variant`."""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from cardlab.art import game_art
from cardlab.cli import app
from cardlab.games import load_game

VARIANT = """game = "runway"
title = "Cheap charter"
[options]
shock_effect = "none"
[[changes]]
path = "deals[Bank Charter].score"
value = 2
why = "Bank Charter won too often for what it asks."
"""


@pytest.fixture
def variant_file(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "cheap.toml"
    path.write_text(VARIANT)
    return path


def test_faces_follow_the_variant(variant_file) -> None:  # type: ignore[no-untyped-def]
    game = load_game("runway", variant=variant_file)
    faces = {f.name: f for f in game_art("runway").faces(game.cards, game.options)}
    assert faces["Bank Charter"].score == 2
    assert game.options["shock_effect"] == "none"


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_print_takes_a_variant(variant_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "cheap.pdf"
    result = CliRunner().invoke(
        app, ["print", "runway", "--variant", str(variant_file), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 10_000


@pytest.mark.parametrize("command", [["bench", "runway", "--players", "3"]])
def test_commands_take_a_variant(variant_file, command) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(app, [*command, "--variant", str(variant_file), "--json"])
    assert result.exit_code == 0, result.output


def test_a_bad_variant_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "runway"\n[[changes]]\npath = "deals[Nope].score"\nvalue = 2\n')
    result = CliRunner().invoke(app, ["bench", "runway", "--variant", str(bad)])
    assert result.exit_code == 2
    assert "Nope" in result.output
    unknown = CliRunner().invoke(app, ["bench", "runway", "--variant", "no-such-variant"])
    assert unknown.exit_code == 2 and "no packaged variant" in unknown.output
