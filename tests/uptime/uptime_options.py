"""Shared by the UPTIME property tests that range over every rule option: one strategy
drawing any value of every option (read from the game, so a new option is covered the
day it is declared) and a loader that skips combinations the game refuses."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

import cardlab
from cardlab.core.errors import OptionError
from cardlab.games.uptime.rules import UptimeGame

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, object]:
    """Any value of every UPTIME option."""
    return {spec.name: draw(st.sampled_from(spec.allowed)) for spec in UptimeGame.option_specs}


def load(players: int, options: dict[str, object]):
    """The game with these options; a combination the game refuses (e.g. a deal the deck
    cannot make) is not a test case."""
    try:
        return cardlab.load_game("uptime", players=players, **options)
    except OptionError:
        assume(False)
        raise  # pragma: no cover - assume(False) does not return
