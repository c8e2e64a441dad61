"""Seeds at the table: a table's seed is 64 bits from `secrets`, never sent
while the game is live, shown after the end with the command that deals the game
again; bots' generators come from the seed through sha256 (nothing a player sees
predicts them) and a restarted server makes every bot decision exactly as before."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from web_support import SeatSocket, create, seat_socket, toy_catalog

from cardlab.core.rng import derived_seed
from cardlab.web import security
from cardlab.web.offers import Offers
from cardlab.web.store import Store, TableRecord
from cardlab.web.table import Table

BIG_SEED = 2**64 - 12_345
RANDOM_BOTS = [{"kind": "bot", "agent": "random", "params": {}, "name": "r"}] * 2


def test_new_seeds_are_64_bits_and_differ():
    seeds = [security.new_seed() for _ in range(64)]
    assert all(0 <= s < 2**64 for s in seeds) and len(set(seeds)) == 64
    assert max(seeds) >= 2**63, "64 bits, not 63 (fails with probability 2**-64)"


def _record(table_id: str) -> TableRecord:
    return TableRecord(
        id=table_id,
        game="highcard",
        players=2,
        options={},
        seed=BIG_SEED,
        seats=[dict(s) for s in RANDOM_BOTS],
        settings={},
    )


def _play(db: Path, prefix: list[tuple[int, int]] = ()) -> list[int]:
    """An all-bot table from a fresh store holding `prefix` (seat, action) already:
    a server restarted after those moves. Returns the whole game's actions."""

    async def main() -> list[int]:
        store = Store(db)
        rec = _record("t1")
        store.create_table(rec, {})
        for seq, (seat, action) in enumerate(prefix):
            store.append_action(rec.id, seq, seat, action, "bot")
        game = Offers(toy_catalog()).make("highcard", 2, {}, None)
        table = Table(store.load_tables()[0], game, store, 0.0)
        assert table.record.seed == BIG_SEED, "a 64-bit seed survives the store"
        table.replay_log()
        table.start()
        deadline = time.monotonic() + 20
        while not table.state.is_terminal() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        await table.stop()
        moves = [(r.seat, r.action) for r in store.load_actions(rec.id)]
        store.close()
        return moves

    return asyncio.run(main())  # type: ignore[return-value]


def test_a_restart_mid_game_makes_the_same_bot_decisions(tmp_path):
    whole = _play(tmp_path / "a.db")
    assert len(whole) >= 4
    assert _play(tmp_path / "b.db") == whole, "same seed, same bots, same game"
    for k in (1, len(whole) // 2):
        assert _play(tmp_path / f"c{k}.db", whole[:k]) == whole, f"restart after {k} moves"


def test_bot_generators_are_keyed_hashes_of_the_seed():
    game = Offers(toy_catalog()).make("highcard", 2, {}, None)
    table = Table(_record("t2"), game, Store(":memory:"), 0.0)
    seeds = {table.bot_seed(seat, seq, "bot") for seat in (0, 1) for seq in range(20)}
    assert len(seeds) == 40, "every decision has its own generator"
    assert table.bot_seed(1, 3, "bot") == derived_seed(BIG_SEED, "web:bot:1:3")
    assert table.bot_seed(1, 3, "view") != table.bot_seed(1, 3, "bot")
    old = {BIG_SEED % 100_000 + 1, (BIG_SEED + 7919 * 3 + 1) % 2**31, BIG_SEED ^ 0x5EED}
    assert not seeds & old, "not the old arithmetic on the seed"


def _play_to_end(sock: SeatSocket) -> list[str]:
    """Every state frame of the seat to the end (a stale click is refused and retried)."""
    frames: list[str] = []
    while True:
        view = sock.recv()
        if view["type"] != "state":
            continue
        frames.append(json.dumps(view))
        if view["terminal"]:
            return frames
        if view["legal"]:
            sock.send({"type": "act", "action": view["legal"][0]["action"], "seq": view["seq"]})


def test_the_seed_is_never_in_a_live_frame_and_shown_after_the_end(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    table = client.app.state.hub.tables[made["table"]]
    seed = str(table.record.seed)
    sock = seat_socket(client, made, 0)
    spectator = SeatSocket(
        client, made["table"], {"role": "spectator", "token": made["tokens"]["spectator"]}
    )
    frames = _play_to_end(sock)
    live, final = frames[:-1], json.loads(frames[-1])
    assert live and not any(seed in f for f in live), "no live frame names the seed"
    assert not any('"seed"' in f for f in live)
    assert final["table"]["seed"] == seed
    assert f"--seed {seed}" in final["table"]["replay"]
    assert final["table"]["replay"].startswith("cardlab play highcard --players 2")
    watched = spectator.recv_until(lambda m: m["type"] == "state" and m["terminal"])
    assert watched["table"]["seed"] == seed
    assert not any(seed in f for f in spectator.frames[:-1]), "nor a spectator's"
    sock.send({"type": "replay", "step": 1})
    replay = sock.recv_until(lambda m: m["type"] == "replay")
    assert replay["table"]["seed"] == seed and "--seed" in replay["table"]["replay"]


@pytest.fixture
def roomy_client(db: Path):
    """A client that may open a table for every installed game at once (the default
    limits allow a burst of 4 and 8 live tables an address)."""
    from starlette.testclient import TestClient
    from web_support import HOSTS, close_all

    from cardlab.web.app import create_app
    from cardlab.web.limits import Limits

    limits = Limits(creates_per_minute=1000, create_burst=1000, tables_per_client=1000)
    app = create_app(db=db, catalog=toy_catalog(), bot_delay=0, limits=limits, allowed_hosts=HOSTS)
    with TestClient(app) as c:
        yield c
        close_all()


def test_the_replay_command_deals_the_same_game(roomy_client):
    """`cardlab play` with the shown command's game, players, options and seed deals
    exactly the table's cards (every zone, in order)."""
    import shlex

    from cardlab.core.options import parse_option_pairs
    from cardlab.games import list_games, load_game

    client = roomy_client

    games = [
        g
        for g in list_games()
        if g in {x["name"] for x in client.get("/api/games").json()["games"]}
    ]
    assert games
    for name in games:
        info = client.app.state.hub.catalog.game_class(name)
        seats = max(info.min_players, min(info.max_players, 3))  # HEARTS is four, WAR two
        made = create(client, game=name, players=seats, seats=[{"kind": "human"}] * seats)
        table = client.app.state.hub.tables[made["table"]]
        args = shlex.split(table.replay_command())
        assert args[:3] == ["cardlab", "play", name]
        flags = dict(zip(args[3::2], args[4::2], strict=False))
        pairs = [args[i + 1] for i, a in enumerate(args) if a == "-o"]
        game = load_game(name, players=int(flags["--players"]), **parse_option_pairs(pairs))
        dealt = game.new_initial_state(int(flags["--seed"]))
        assert int(flags["--seed"]) == table.record.seed
        assert dealt.zones() == table.state_at(0).zones(), name
