"""Fixed positions and fixed-seed ISMCTS settings whose decisions must not change
when the search is made faster ("the same seed gives the same decisions
before and after").

`record()` plays each case and returns the decision and the root's visit counts
and mean values; `tests/agents/data/ismcts_decisions.json` holds what the search
as it was before the speed work gives (the frozen copy in ismcts_reference.py,
commit 40a59ed), written by running this module:

    PYTHONPATH=src python tests/agents/ismcts_positions.py > tests/agents/data/ismcts_decisions.json

The first record was taken with the unmodified ismcts.py itself, before any
change to it; the engines have changed since (new logs, labels, rules), so it is
re-taken with the frozen copy when they do. A position is named by the actions
played from the deal and the legal actions there (`fingerprint`), so a record
taken on other engine behaviour says so instead of failing as a search change.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from cardlab.agents.bench import sample_positions
from cardlab.agents.play import agent_view
from cardlab.core import Game, GameState
from cardlab.games import game_info, list_games, load_game

DATA = Path(__file__).parent / "data" / "ismcts_decisions.json"
PLAYERS = (2, 4)
POSITIONS = 3
SETTINGS: list[dict[str, Any]] = [
    {"iterations": 200, "rollout": "random"},
    {"iterations": 150, "c": 1.2, "rollout_depth": None, "normalise": False, "rollout": "random"},
]
"""Uniform rollouts (the default when the record was taken), which the frozen copy plays."""
MAST_DATA = Path(__file__).parent / "data" / "ismcts_mast_decisions.json"
MAST_SETTINGS: list[dict[str, Any]] = [
    {"iterations": 200},
    {"iterations": 150, "rollout_depth": None, "epsilon": 0.3},
]
"""MAST rollouts (the default since): recorded from the plain build when MAST came in
(`python tests/agents/ismcts_positions.py --mast`, CARDLAB_PURE=1), so the compiled build
must decide as the plain one did."""


def cases() -> list[tuple[str, int]]:
    """The games cardlab ships (not test games other test folders register in-process)."""
    shipped = [g for g in list_games() if game_info(g).package.startswith("cardlab.games.")]
    return [(name, n) for name in sorted(shipped) for n in PLAYERS]


def positions(game: Game) -> list[GameState]:
    return sample_positions(game, POSITIONS, seed=1, every=7)


def fingerprint(state: GameState) -> str:
    """The engine's behaviour around this position, as far as cheaply seen: the
    actions that led here, the legal actions, and the legal actions after each of
    them in a few redeals. If this changes, the engine changed, and the recorded
    decisions no longer say anything about the search."""
    me = state.current_player()
    seen: list[object] = [state.history(), state.legal_actions()]
    for seed in range(3):
        world = state.resample_from_infostate(me, seed)
        for action in world.legal_actions():
            child = world.clone()
            child.apply_action(action)
            seen.append(child.legal_actions())
    return hashlib.sha256(json.dumps(seen).encode()).hexdigest()[:16]


def decide(agent: Any, state: GameState, index: int) -> dict[str, Any]:
    view = agent_view(state, state.current_player(), random.Random(1000 + index))
    action = agent.step(view)
    search = agent.last_search
    return {
        "action": action,
        "visits": {str(a): v for a, v in sorted(search.visits.items())},
        "values": {str(a): v for a, v in sorted(search.values.items())},
        "iterations": search.iterations,
    }


def record(make: Any, settings_list: list[dict[str, Any]] = SETTINGS) -> dict[str, Any]:
    """`make(seed, **settings)` -> an ISMCTS agent; its decisions on every case."""
    out: dict[str, Any] = {}
    for name, n in cases():
        game = load_game(name, players=n)
        for i, state in enumerate(positions(game)):
            for k, settings in enumerate(settings_list):
                key = f"{name}-{n}p-pos{i}-set{k}"
                out[key] = {
                    "history": state.history(),
                    "fingerprint": fingerprint(state),
                    "settings": settings,
                    **decide(make(seed=17 + i, **settings), state, i),
                }
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from ismcts_reference import ReferenceISMCTS

    if "--mast" in sys.argv:
        from cardlab.agents.ismcts import ISMCTSAgent

        json.dump(record(ISMCTSAgent, MAST_SETTINGS), sys.stdout, indent=1)
    else:
        json.dump(record(ReferenceISMCTS), sys.stdout, indent=1)
    sys.stdout.write("\n")
