"""The UPTIME game: player counts, rule options (rulings U4, U10, U13, U14) and card data.

The forward model lives in `state.py`; scoring in `scoring.py`; what players
read in `view.py`; determinization in `resample.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from cardlab.core.game import Game
from cardlab.core.options import OptionSpec
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import CardTable, load_cards
from cardlab.games.uptime.state import UptimeState


class UptimeGame(Game):
    """UPTIME for 2-4 players (2 players: the rulebook's variant, U16)."""

    name: ClassVar[str] = "uptime"
    title: ClassVar[str] = "UPTIME"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "patch_cost",
            (1, 0),
            "raw materials it costs to claim a Patch from the Build Row",
            "U4",
        ),
        OptionSpec(
            "raise_requires_computer",
            (False, True),
            "whether raisers, like the opener, must own a Computer",
            "U10",
        ),
        OptionSpec(
            "stall_end",
            (True, False),
            "end after a round with an empty Supply Deck and no claim (false: hard round cap, 'stalled')",
            "U13",
        ),
        OptionSpec(
            "router_rule",
            ("per_computer", "one_router_per_computer"),
            "Router points: every Router counts every Computer, or each Computer attaches to one Router",
            "U14",
        ),
        OptionSpec(
            "supply_reshuffle",
            (False, True),
            "designer option, not in the rulebook: when a draw finds the Supply Deck empty, "
            "shuffle the supply discard into a new Supply Deck (U3 says never)",
            "designer",
        ),
        OptionSpec(
            "row_sweep",
            (False, True),
            "designer option, not in the rulebook: when nothing in the Build Row is claimable "
            "by you, a turn may send its unreserved cards to the Build Deck bottom and refill",
            "designer",
        ),
    )

    table: CardTable

    def load_cards(self, path: Path | None) -> CardTable:
        self.table = load_cards(path)
        return self.table

    def new_initial_state(self, seed: int = 0) -> UptimeState:
        return UptimeState(self, seed)

    @property
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS
