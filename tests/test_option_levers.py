"""Rule levers in the core (issue 24 item 1): an option that changes a rule, with its
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
