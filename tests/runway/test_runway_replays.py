"""Same seed, same game: recorded random games replay identically.

`data/recorded_games.json` was written by `record_games.py` against the engine as it
stood before the layout refactor, with every option spelled out (so the
old default `two_player_last_seat=catch_up` is recorded explicitly). Each history must
replay with the same seat to move and the same legal actions at every step, and end
with the same zones, returns, winners and lab summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from record_games import SUMMARY_KEYS, trace_digest

import cardlab

RECORDS = json.loads((Path(__file__).with_name("data") / "recorded_games.json").read_text())


@pytest.mark.parametrize(
    "record",
    RECORDS,
    ids=[f"{r['players']}p-{r['options']['last_seat']}-{r['seed']}" for r in RECORDS],
)
def test_recorded_game_replays_identically(record):
    game = cardlab.load_game("runway", players=record["players"], **record["options"])
    state = game.new_initial_state(record["seed"])
    steps = []
    for action in record["history"]:
        steps.append((state.current_player(), state.legal_actions()))
        state.apply_action(action)
    assert state.is_terminal()
    assert trace_digest(steps) == record["trace_sha256"]
    assert state.zones() == record["zones"]
    assert state.returns() == record["returns"]
    assert state.winners() == record["winners"]
    info = state.info()
    assert {k: info[k] for k in SUMMARY_KEYS} == record["summary"]


def test_the_engine_shuffle_draws_like_random_shuffle():
    """state.shuffle is random.Random.shuffle without the per-card method calls: the
    same generator state gives the same order (so the same seed deals the same game)."""
    import random

    from cardlab.core.rng import shuffle

    for seed in range(200):
        for size in (0, 1, 2, 3, 18, 32, 40):
            expected, got = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            a.shuffle(expected)
            shuffle(b, got)
            assert got == expected and a.random() == b.random()
