"""Players' feedback after a table game: the survey answer is validated (every field
optional, bounded, unknown fields refused), one answer a seat a table (answering again
replaces it), kept beside the tables, and summed up per game with the humans' play
against the bots' at the same tables (points, spread, wins, move kinds)."""

from __future__ import annotations

import random

import pytest

from cardlab.games import load_game
from cardlab.web.feedback import Feedback, SurveyRefused, parse_answer, table_play
from cardlab.web.store import Store, TableRecord


def test_an_answer_is_validated_and_every_field_is_optional():
    assert parse_answer({"type": "survey"}).fun is None
    got = parse_answer(
        {"type": "survey", "fun": 4, "length": "too_long", "confusing": " the  Patch "}
    )
    assert (got.fun, got.length, got.confusing) == (4, "too_long", "the Patch")
    for bad, field in (
        ({"fun": 6}, "fun"),
        ({"fun": "5"}, "fun"),
        ({"length": "long"}, "length"),
        ({"text": "x" * 1001}, "text"),
        ({"mood": "great"}, "mood"),
    ):
        with pytest.raises(SurveyRefused, match=field):
            parse_answer({"type": "survey", **bad})


def _finished(seed: int) -> tuple[object, list[int]]:
    game = load_game("runway", 3)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state.history()


def test_answers_are_kept_one_a_seat_and_summed_up_with_the_play(tmp_path):
    store = Store(tmp_path / "t.db")
    feedback = Feedback(store)
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "agent": "greedy"},
        {"kind": "bot", "agent": "random"},
    ]
    for n, seed in enumerate((1, 2)):
        rec = TableRecord(f"t{n}", "runway", 3, {}, seed, seats, {})
        store.create_table(rec, {})
        game, history = _finished(seed)
        play = table_play(game, seed, seats, history)
        assert sum(s["decisions"] for s in play["seats"]) <= len(history)
        feedback.record(rec.id, 0, "runway", parse_answer({"fun": 2}), play)
        feedback.record(rec.id, 0, "runway", parse_answer({"fun": 4 + n, "length": "right"}), play)
    assert feedback.answered("t0", 0) and not feedback.answered("t0", 1)
    summary = feedback.summary("runway")
    assert summary["answers"] == 2  # the second answer of a seat replaced its first
    assert summary["fun"]["histogram"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 1}
    assert summary["length"]["right"] == 2
    play = summary["play"]
    assert play["games"] == 2 and play["humans"]["seats"] == 2 and play["bots"]["seats"] == 4
    assert set(play["humans"]["move_kinds"]) <= {
        "pitch",
        "pass",
        "swap",
        "blind_swap",
        "skip",
        "take",
        "blind_take",
    }
    assert abs(sum(play["bots"]["move_kinds"].values()) - 1) < 0.01
    assert feedback.summary("uptime")["answers"] == 0
    store.close()
