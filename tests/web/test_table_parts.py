"""Each part of a table does its one job, seen through the `Table` the server uses:
the clock (`table_clock`), the undo book (`table_undo`), the held simultaneous
choices (`table_held`) and the bots (`table_bots`). Tables here are built straight
on a store, no server, so each check is quick."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

from web_support import toy_catalog

import cardlab.web.table_clock as table_clock
import cardlab.web.table_undo as table_undo
from cardlab.agents import agent_view, make_agent
from cardlab.core import GameState
from cardlab.web.offers import Offers
from cardlab.web.store import Store, TableRecord
from cardlab.web.table import Table

HUMAN = {"kind": "human", "name": "h"}
BOT = {"kind": "bot", "agent": "random", "params": {}, "name": "r"}


def make_table(
    tmp_path: Path,
    seats: list[dict[str, Any]],
    game: str = "highcard",
    settings: dict[str, Any] | None = None,
    store: Store | None = None,
) -> Table:
    rec = TableRecord(
        id="t1",
        game=game,
        players=len(seats),
        options={},
        seed=2**63 + 11,
        seats=[dict(s) for s in seats],
        settings=settings or {},
    )
    if store is None:
        store = Store(tmp_path / "t.db")
        store.create_table(rec, {})
    return Table(rec, Offers(toy_catalog()).make(game, len(seats), {}, None), store, 0.0)


def play(table: Table, seat: int, action: int | None = None, by: str = "human") -> int:
    """`seat` submits `action` (default: its first option) at the table's step."""
    options = table.options_for(seat) if by == "human" else table.state.legal_actions()
    chosen = options[0] if action is None else action
    asyncio.run(table.submit(seat, chosen, table.seq, by=by))
    return chosen


# -- the clock --------------------------------------------------------------------------
def test_the_clock_runs_for_a_human_decision_at_a_timed_table_only(tmp_path):
    timed = make_table(tmp_path, [HUMAN, BOT], settings={"turn_seconds": 30})
    timed.clock.arm()
    left = timed.public_info()["turn_left"]
    assert left is not None and 29 <= left <= 30
    play(timed, 0)
    assert timed.state.current_player() == 1
    assert timed.public_info()["turn_left"] is None, "no clock while a bot decides"
    untimed = make_table(tmp_path / "u", [HUMAN, HUMAN])
    untimed.clock.arm()
    assert untimed.public_info()["turn_left"] is None


def test_the_timers_move_is_greedys_on_a_redeal_else_a_legal_move_of_the_tables_seed(
    tmp_path, monkeypatch, caplog
):
    table = make_table(tmp_path, [HUMAN, HUMAN])
    seat, seq = 0, 0
    legal = table.state.legal_actions()
    assert len(legal) > 1
    view = agent_view(table.state, seat, random.Random(table.bot_seed(seat, seq, "timer-view")))
    greedy = make_agent("greedy", seed=table.bot_seed(seat, seq, "timer")).step(view)
    assert table.timer_move(seat, seq) == greedy

    def broken(kind: str, **kwargs: Any) -> Any:
        raise RuntimeError("no greedy today")

    monkeypatch.setattr(table_clock, "make_agent", broken)
    with caplog.at_level(logging.ERROR, logger="cardlab.web"):
        # the seed of each step picks (the position stays; only the seeds change)
        picks = {q: table.timer_move(seat, q) for q in range(12)}
    assert picks == {q: legal[table.bot_seed(seat, q, "timer") % len(legal)] for q in picks}
    assert len(set(picks.values())) > 1
    assert any("greedy failed on a timer move" in r.getMessage() for r in caplog.records)


def test_a_think_time_starts_no_earlier_than_the_seat_connected(tmp_path, monkeypatch):
    table = make_table(tmp_path, [HUMAN, HUMAN])
    recorded: list[tuple[Any, ...]] = []
    monkeypatch.setattr(table.store, "record_decision", lambda *args: recorded.append(args))
    table.clock.offered_at = time.time() - 600  # offered long ago, while nobody was there
    table.connected_since[0] = time.time() - 5  # the hub's note that seat 0 came back
    play(table, 0)
    [(game, kind, options, seconds, players)] = recorded
    assert (game, kind, options, players) == ("highcard", "pick", 3, 2)
    assert 5 <= seconds < 60, "counted from the connection, not from the offer"


# -- the undo book ----------------------------------------------------------------------
def test_the_undo_verdict_is_reached_once_and_only_when_asked(tmp_path, monkeypatch):
    table = make_table(tmp_path, [HUMAN, HUMAN, HUMAN])
    calls: list[int] = []
    real = table_undo.forecast

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(table_undo, "forecast", counted)
    play(table, 0)
    assert calls == [], "a move costs no redeals until its undo is asked about"
    assert table.why_no_undo(0) is None
    assert table.why_no_undo(0) is None
    assert "not the table's last move" in (table.why_no_undo(1) or "")
    assert len(calls) == 1


def test_an_undo_goes_one_step_back_only(tmp_path):
    table = make_table(tmp_path, [HUMAN, HUMAN, HUMAN])
    play(table, 0)
    play(table, 1)
    assert table.why_no_undo(1) is None
    asyncio.run(table.undo(1))
    assert table.seq == 1 and table.state.current_player() == 1
    # seat 0's move is the last one again, but the undo that uncovered it takes nothing more
    assert "not the table's last move" in (table.why_no_undo(0) or "")


# -- held simultaneous choices ----------------------------------------------------------
def test_a_held_choice_is_its_seats_alone_and_void_once_a_bot_takes_the_seat(tmp_path):
    table = make_table(tmp_path, [HUMAN, HUMAN, HUMAN], game="highcard_together")
    pick = play(table, 2)  # before its turn in seat order: held, not applied
    assert table.seq == 0 and table.held == {2: pick}
    assert table.chosen(2) is not None and table.chosen(2)["action"] == pick  # type: ignore[index]
    assert table.chosen(0) is None and table.options_for(2) == []
    assert [seat for seat, _, _ in table.store.load_held(table.id)] == [2]
    asyncio.run(table.set_seat(2, BOT, expect_bot=False))
    assert table.held == {} and table.store.load_held(table.id) == []
    assert table.chosen(2) is None


def test_a_stored_choice_for_another_batch_is_dropped_on_restart(tmp_path):
    table = make_table(tmp_path, [HUMAN, HUMAN, HUMAN], game="highcard_together")
    legal = table.options_for(2)
    table.store.hold(table.id, 2, 5, legal[0])  # a batch that is not the one in progress
    again = make_table(tmp_path, [HUMAN, HUMAN, HUMAN], "highcard_together", store=table.store)
    again.replay_log()
    assert again.held == {} and again.store.load_held(again.id) == []
    assert again.options_for(2) == legal


# -- the bots ---------------------------------------------------------------------------
def test_a_bot_move_for_a_step_the_table_has_left_is_not_even_decided(tmp_path):
    table = make_table(tmp_path, [BOT, BOT])
    asked: list[int] = []

    async def decide(seat: int, view: GameState, seq: int | None = None) -> int:
        asked.append(seat)
        return view.legal_actions()[0]

    table._decide = decide  # type: ignore[method-assign]
    asyncio.run(table.bots.move(0, 5))
    assert asked == [] and table.seq == 0
    asyncio.run(table.bots.move(0, 0))
    assert asked == [0] and table.seq == 1


def test_a_seat_handed_to_a_new_bot_is_trusted_again_after_its_old_bot_failed(tmp_path, caplog):
    table = make_table(tmp_path, [BOT, BOT])
    asked: list[int] = []

    async def broken(seat: int, view: GameState, seq: int | None = None) -> int:
        raise RuntimeError("this bot is broken")

    async def decide(seat: int, view: GameState, seq: int | None = None) -> int:
        asked.append(seat)
        return view.legal_actions()[0]

    table._decide = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="cardlab.web"):
        asyncio.run(table.bots.move(0, 0))
    assert table.seq == 1, "greedy played for the failed bot"
    assert any("greedy plays for it" in r.getMessage() for r in caplog.records)
    table._decide = decide  # type: ignore[method-assign]
    asyncio.run(table.set_seat(0, {"agent": "greedy"}, expect_bot=True))
    while table.seq < 4:  # until seat 0 decides with more than one card in hand
        seat = table.state.current_player()
        asyncio.run(table.bots.move(seat, table.seq))
    assert 0 in asked, "the new bot decides for itself"
