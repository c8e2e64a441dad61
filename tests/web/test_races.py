"""A bot's move is applied only while the seat is still that bot's
and the table is still at the step it searched. Before the fix, handing a seat to a
bot and straight back let the bot's move land after the seat was human again
(the bot move, now `TableBots.move`, did not re-check after `await _decide`); the turn timer's move could
land on a seat just handed to a bot."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from web_support import toy_catalog

from cardlab.web.hub import Hub
from cardlab.web.sockets import HUMAN
from cardlab.web.store import Store
from cardlab.web.table import Table

BOT = {"kind": "bot", "agent": "greedy", "params": {}, "human": True, "reclaim": True}
TRIALS = 60


def _watch(hub: Hub, landed: list[str]) -> None:
    """Record every move committed for a seat whose current holder did not make it."""
    append = hub.store.append_action

    def checked(table_id: str, seq: int, seat: int, action: int, by: str) -> None:
        table = hub.tables[table_id]
        if by == "bot" and not table.is_bot(seat):
            landed.append(f"step {seq}: a bot's move for seat {seat}, now a human's")
        if by == "timer" and table.is_bot(seat):
            landed.append(f"step {seq}: a timer's move for seat {seat}, now a bot's")
        append(table_id, seq, seat, action, by)

    hub.store.append_action = checked  # type: ignore[method-assign]


def _slow_bots(table: Table, rng: random.Random) -> None:
    """A slow-ish bot: each decision takes a few loop passes and up to 3 ms."""
    decide = table._decide

    async def slow(*args: Any, **kwargs: Any) -> int:
        await asyncio.sleep(rng.random() * 0.003)
        return await decide(*args, **kwargs)

    table._decide = slow  # type: ignore[method-assign]


async def _trials(db: Path, spec: dict[str, Any], body) -> list[str]:
    hub = Hub(Store(db), toy_catalog(), bot_delay=0)
    landed: list[str] = []
    rng = random.Random(23)
    _watch(hub, landed)
    try:
        for _ in range(TRIALS):
            made = hub.create(spec, client=f"c{rng.random()}")
            table = hub.tables[made["table"]]
            _slow_bots(table, rng)
            await body(table, rng)
            await table.stop()
    finally:
        await hub.stop()
        hub.store.close()
    return landed


HUMANS = {"game": "highcard", "players": 2, "seats": [{"kind": "human"}] * 2}


def test_hand_to_bot_and_straight_back_never_lets_the_bots_move_land(tmp_path):
    async def hand_and_back(table: Table, rng: random.Random) -> None:
        seat = table.state.current_player()
        await table.set_seat(seat, BOT)
        for _ in range(rng.randrange(1, 6)):  # the bot starts deciding
            await asyncio.sleep(0)
        await table.set_seat(seat, HUMAN)  # reclaim (or the host's hand-back)
        await asyncio.sleep(0.006)  # the slow bot's search ends

    landed = asyncio.run(_trials(tmp_path / "t.db", HUMANS, hand_and_back))
    assert landed == []


def test_a_turn_timer_move_never_lands_on_a_seat_just_handed_to_a_bot(tmp_path):
    spec = {**HUMANS, "turn_seconds": 0.002}

    async def race_the_clock(table: Table, rng: random.Random) -> None:
        seat = table.state.current_player()
        await asyncio.sleep(rng.random() * 0.004)
        await table.set_seat(seat, BOT)
        await asyncio.sleep(0.006)

    landed = asyncio.run(_trials(tmp_path / "t.db", spec, race_the_clock))
    assert landed == []


def test_set_seat_refuses_a_change_the_seat_no_longer_fits(tmp_path):
    """reclaim and hand_back check the seat is a bot's under the same lock as the change."""

    async def main() -> str:
        hub = Hub(Store(tmp_path / "t.db"), toy_catalog(), bot_delay=0)
        try:
            table = hub.tables[hub.create(HUMANS)["table"]]
            from cardlab.web.table import Refused

            try:
                await table.set_seat(0, HUMAN, expect_bot=True)
            except Refused as exc:
                return str(exc)
            return "accepted"
        finally:
            await hub.stop()
            hub.store.close()

    assert "not played by a bot" in asyncio.run(main())
