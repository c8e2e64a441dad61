"""Record random RUNWAY games as replayable fixtures (tests/runway/data/recorded_games.json).

Run once against a known-good engine; `test_runway_replays.py` then replays every
recorded history and checks that the engine still plays the same game: the same
seat to move and the same legal actions at every step, the same end zones and the
same lab summary. Options are written out in full (the defaults of the day), so a
later change of a default does not change what a record means.

    PYTHONPATH=src python tests/runway/record_games.py
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import cardlab

OUT = Path(__file__).with_name("data") / "recorded_games.json"
OPTION_SETS = [
    {"shock_effect": "hype_down", "two_player_last_seat": "catch_up", "last_seat": "catch_up"},
    {"shock_effect": "hype_down", "two_player_last_seat": "alternate", "last_seat": "catch_up"},
    {"shock_effect": "none", "two_player_last_seat": "catch_up", "last_seat": "rotate"},
    {
        "shock_effect": "reward_minus_one",
        "two_player_last_seat": "catch_up",
        "last_seat": "catch_up",
    },
]
SUMMARY_KEYS = (
    "end_reason",
    "tiebreak",
    "rounds",
    "turns",
    "decisions",
    "acquired",
    "deals_won",
    "deals_dumped",
    "sectors_locked",
    "lock_points",
    "ride_points",
    "sector_bonus",
    "hype",
    "reputation",
)


def trace_digest(steps: list[tuple[int, list[int]]]) -> str:
    return hashlib.sha256(json.dumps(steps).encode()).hexdigest()


def play(players: int, options: dict[str, str], seed: int) -> dict[str, object]:
    game = cardlab.load_game("runway", players=players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed * 7 + players)
    steps: list[tuple[int, list[int]]] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        steps.append((state.current_player(), legal))
        state.apply_action(rng.choice(legal))
    info = state.info()
    return {
        "players": players,
        "options": options,
        "seed": seed,
        "history": state.history(),
        "trace_sha256": trace_digest(steps),
        "zones": state.zones(),
        "returns": state.returns(),
        "winners": state.winners(),
        "summary": {k: info[k] for k in SUMMARY_KEYS},
    }


def main() -> None:
    records = [
        play(players, options, seed)
        for players in (2, 3, 4)
        for options in OPTION_SETS
        for seed in range(5)
    ]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(records, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(records)} games -> {OUT}")


if __name__ == "__main__":
    main()
