"""Rule levers in the core: an option that changes a rule, with its
passage and purpose, and integer levers that take any whole number in their range."""

from __future__ import annotations

import pytest

from cardlab.core.errors import OptionError
from cardlab.core.options import OptionSpec, lever, levers, resolve_options


def _hand_limit() -> OptionSpec:
    return lever(
        "hand_limit",
        (0, 6, 8),
        "cards a seat may keep at the end of its turn (0: no limit)",
        passage="Setup and turn: the rulebook sets no hand limit",
        purpose="stop hoarding",
        low=0,
        high=20,
    )


def test_a_lever_defaults_to_the_rule_as_written_and_says_what_it_changes() -> None:
    spec = _hand_limit()
    assert spec.default == 0 and spec.is_lever and spec.ruling == "lever"
    assert spec.lever is not None and spec.lever.purpose == "stop hoarding"
    plain = OptionSpec("stall_end", (True, False), "doc", "U13")
    assert levers([plain, spec]) == (spec,)


def test_an_integer_lever_takes_any_whole_number_in_its_range() -> None:
    spec = _hand_limit()
    assert spec.parse("7") == 7 and spec.parse(13) == 13 and spec.parse(6) == 6
    for bad in ("21", -1, 7.0, True, "seven"):
        with pytest.raises(OptionError, match="any whole number from 0 to 20"):
            spec.parse(bad)
    assert resolve_options("g", [spec], {"hand_limit": "9"}) == {"hand_limit": 9}


def test_a_badly_declared_lever_is_refused_at_import() -> None:
    with pytest.raises(ValueError, match="integers"):
        OptionSpec("x", ("a",), "doc", low=0, high=3)
    with pytest.raises(ValueError, match="above"):
        OptionSpec("x", (1,), "doc", low=3, high=1)
    with pytest.raises(ValueError, match="both"):
        OptionSpec("x", (1,), "doc", low=3)


def test_a_lever_may_say_its_rule_as_a_sentence() -> None:
    spec = lever(
        "hand_limit",
        (0, 6),
        "cards a seat may keep",
        passage="Turn",
        purpose="stop hoarding",
        low=0,
        high=20,
        says="At the end of your turn, discard down to {value} cards.",
    )
    assert spec.lever is not None
    assert spec.lever.rule_text(7) == "At the end of your turn, discard down to 7 cards."
    assert _hand_limit().lever.rule_text(7, "hand limit") == "hand limit: 7"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="only \\{value\\}"):
        lever("x", (0,), "doc", passage="p", purpose="q", says="keep {limit} cards")


def test_levers_are_rule_options_to_the_commands(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """-o takes any whole number in an int lever's range (bench: a command that makes a
    game), refuses one outside it naming the range; a variant's bad lever value is
    refused when the file is read, naming the file, the option and the range."""
    from typer.testing import CliRunner

    from cardlab.cli import app
    from cardlab.core.variants import VariantError, load_variant
    from cardlab.games import register_game, unregister_game
    from cardlab.newgame import template_game

    info = template_game("leverbench")
    register_game(info)
    try:
        run = ["bench", "leverbench", "--seconds", "0.05", "--runs", "1", "--json"]
        ok = CliRunner().invoke(app, [*run, "-o", "round_bonus=4"])
        assert ok.exit_code == 0, ok.output
        bad = CliRunner().invoke(app, [*run, "-o", "round_bonus=6"])
        assert bad.exit_code == 2 and "any whole number from 0 to 5" in " ".join(bad.output.split())
        path = tmp_path / "lev.toml"
        path.write_text('game = "leverbench"\n[options]\nround_bonus = 4\n')
        assert load_variant(path, info).options == {"round_bonus": 4}
        path.write_text('game = "leverbench"\n[options]\nround_bonus = -1\n')
        with pytest.raises(VariantError, match=r"lev\.toml: \[options\]: .*round_bonus.*0 to 5"):
            load_variant(path, info)
        path.write_text(
            'game = "leverbench"\n[options]\nround_bonus = 4\n[options_why]\nsabotage = "x"\n'
        )
        with pytest.raises(VariantError, match="'sabotage', which \\[options\\] does not set"):
            load_variant(path, info)
    finally:
        unregister_game("leverbench")


def test_gate_takes_o_for_one_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """gate, like report, takes rule options and levers with -o (one game's rules)."""
    from typer.testing import CliRunner

    from cardlab.cli import app

    every = CliRunner().invoke(app, ["gate", "all", "-o", "x=1"])
    assert every.exit_code == 2 and "give the game's name" in every.output
    gate = ["gate", "runway", "--games", "2", "--ladder-games", "0", "--probe-games", "2"]
    bad = CliRunner().invoke(app, [*gate, "--quiet", "--out", str(tmp_path), "-o", "nope=1"])
    assert bad.exit_code == 2 and "no rule option 'nope'" in " ".join(bad.output.split())
