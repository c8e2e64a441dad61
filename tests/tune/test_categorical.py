"""Categorical tunables: a card value that is a word from a fixed set (a connector
colour), checked by variant files and searched by the tuner; and the single-change
schedule when a game has far more single changes than the budget."""

from __future__ import annotations

import dataclasses

import pytest

from cardlab.core.plugin import Tunable
from cardlab.core.variants import VariantError, parse_variant
from cardlab.lab.tune.space import Parameter
from cardlab.lab.tune.study import schedule_singles, single_changes


def _info_with_words():  # type: ignore[no-untyped-def]
    from tunetoy import GAME_INFO

    return dataclasses.replace(
        GAME_INFO,
        tunables=(
            *GAME_INFO.tunables,
            Tunable("cards:deck.finish", about="card finish", choices=("matte", "gloss")),
        ),
    )


def _change(value: object) -> dict[str, object]:
    return {"game": "tunetoy", "changes": [{"path": "deck.finish", "value": value}]}


def test_a_word_in_its_choices_is_accepted(tunetoy: str) -> None:
    variant = parse_variant(_change("gloss"), "v.toml", _info_with_words())
    assert variant.changes[0].value == "gloss"


@pytest.mark.parametrize("value", ["satin", 3, True])
def test_a_value_outside_the_choices_names_file_path_and_choices(
    tunetoy: str, value: object
) -> None:
    with pytest.raises(VariantError) as err:
        parse_variant(_change(value), "mine.toml", _info_with_words())
    message = str(err.value)
    for word in ("mine.toml", "changes[0]", "'deck.finish'", "matte, gloss"):
        assert word in message


def test_numbers_are_still_range_checked_beside_words(tunetoy: str) -> None:
    data = {"game": "tunetoy", "changes": [{"path": "deck.size", "value": 99}]}
    with pytest.raises(VariantError, match="4..40"):
        parse_variant(data, "v.toml", _info_with_words())


def test_a_tunable_needs_a_sane_range_and_distinct_choices() -> None:
    with pytest.raises(ValueError, match="low"):
        Tunable("cards:x", 5, 1)
    with pytest.raises(ValueError, match="twice"):
        Tunable("cards:x", choices=("a", "a"))


def _many_words() -> list[Parameter]:
    """Two options and 140 five-colour edges, like SUPER COMPUTER's card set."""
    colours = ("none", "black", "red", "blue", "green")
    params = [
        Parameter("option:a", False, choices=(False, True)),
        Parameter("option:b", "x", choices=("x", "y", "z")),
    ]
    params += [
        Parameter(f"cards:parts[{i}].{edge}", "red", choices=colours)
        for i in range(35)
        for edge in ("north", "east", "south", "west")
    ]
    return params


def test_every_choice_of_a_word_is_a_single_change() -> None:
    singles = single_changes(_many_words())
    assert {"cards:parts[0].north": "none"} in singles
    assert len(singles) == 3 + 140 * 4  # every colour but the baseline, per edge


def test_a_small_budget_samples_across_every_parameter() -> None:
    params = _many_words()
    picked = schedule_singles(params, 60, seed=1)
    assert len(picked) == 60
    assert picked[:3] == [{"option:a": True}, {"option:b": "y"}, {"option:b": "z"}]
    names = [next(iter(c)) for c in picked[3:]]
    assert len(set(names)) == 57  # one value per parameter before any second value
    assert len({n.split(".")[0] for n in names}) > 20  # spread over the parts, not the first few
    assert schedule_singles(params, 60, seed=1) == picked  # deterministic for a seed
    assert schedule_singles(params, 60, seed=2) != picked  # another seed samples others


def test_a_budget_past_every_parameter_takes_second_values() -> None:
    params = _many_words()
    picked = schedule_singles(params, 3 + 140 + 10, seed=0)
    assert len(picked) == 153
    assert len({next(iter(c)) for c in picked[3:]}) == 140
    assert len({tuple(c.items())[0] for c in picked}) == 153  # no change twice


def test_when_everything_fits_the_order_is_unchanged() -> None:
    params = _many_words()[:4]
    assert schedule_singles(params, 100, seed=9) == single_changes(params)
