"""The conformance check every cardlab game passes, shipped with cardlab so a
game in its own package can prove itself (as PettingZoo ships `api_test`).

`check_game(game)` runs everything; the single properties are importable for a
game's own Hypothesis tests (`random_game`, `check_replay_and_clone`, ...). A
failure names its check and the seed and actions that reproduce it
(`replay(game, seed, actions)` rebuilds that state)."""

from cardlab.testing.botview import check_bot_view, same_input
from cardlab.testing.checks import (
    all_ids,
    check_conservation,
    check_decision_kind,
    check_fresh_lists,
    check_illegal_refused,
    check_labels,
    check_no_leak,
    check_play_within_bounds,
    check_replay_and_clone,
    check_resample,
    check_state,
    random_game,
    snapshot,
)
from cardlab.testing.conformance import CheckReport, check_game
from cardlab.testing.explore import explore
from cardlab.testing.failures import ConformanceError, Replay, replay
from cardlab.testing.redeal import RedealStats, check_constraints

__all__ = [
    "CheckReport",
    "ConformanceError",
    "RedealStats",
    "Replay",
    "all_ids",
    "check_bot_view",
    "check_conservation",
    "check_constraints",
    "check_decision_kind",
    "check_fresh_lists",
    "check_game",
    "check_illegal_refused",
    "check_labels",
    "check_no_leak",
    "check_play_within_bounds",
    "check_replay_and_clone",
    "check_resample",
    "check_state",
    "explore",
    "random_game",
    "replay",
    "same_input",
    "snapshot",
]
