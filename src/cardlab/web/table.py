"""One live table: the true state, its seats, its bots and its clock.

All changes to a table go through `Table.submit`, which checks the seat, the
sequence number and legality, applies the action, commits it to the store and
only then wakes the broadcaster. A driver task per table plays the bot seats
(paced by `bot_delay` so humans can follow) and the turn timer.

Bot moves of all tables take turns (`BotTurns`): at most one a pass of the
event loop, so a human's click, read at every pass, never waits behind a whole
round of bot moves. A bot whose decisions cost little CPU decides on the loop
(a thread hop and the GIL hand-offs cost more than a greedy move); a searching
bot (ISMCTS) decides in the server's bounded pool of worker processes
(`botpool.py`), so its search never holds the lock the loop needs; any other
bot not yet known to be quick decides in a worker thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import shlex
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from cardlab.agents import agent_view, make_agent
from cardlab.agents.base import Agent
from cardlab.core import Game, GameState
from cardlab.core.rng import derived_seed
from cardlab.web import views
from cardlab.web.botpool import BotPool
from cardlab.web.catalog import ISMCTS_STRENGTHS
from cardlab.web.store import Store, TableRecord
from cardlab.web.undo import REDEALS, forecast, verdict

log = logging.getLogger("cardlab.web")

CHECKPOINT_EVERY = 25
"""Replays keep a cloned state every this many actions so stepping back is cheap."""


STRONG_ITERATIONS = ISMCTS_STRENGTHS["strong"]
"""An ISMCTS seat with this many iterations or more uses all of the bot pool's workers."""

INLINE_BOT_SECONDS = 0.002
"""A bot seat whose recent decisions each took less CPU than this decides on the event loop."""


class Refused(Exception):
    """An action or request the table refuses; the message goes back to the sender."""


PLAY_KINDS = frozenset({"act", "undo", "hand_to_bot", "reclaim", "hand_back", "allow_reclaim"})
"""Messages that change the game or who plays it: refused once the table is closed."""

AROUND_KINDS = frozenset({"chat", "mute", "rematch", "revoke", "replay", "survey"})
"""Messages around a game: a finished table still answers them (its replay, the
rematch, the chat, links the host replaces, the players' after-game survey); a table
closed before its end does not."""

IDLE_CLOSED = (
    "this table is closed: nobody was at it, so it was closed after standing idle; "
    "start a new one from the lobby"
)
"""Why a table closed before its game ended refuses what would change it."""


class BotTurns:
    """One queue for the bot moves of every table of a server: each waiting move
    is let go on its own pass of the event loop, in arrival order, so the loop
    reads sockets (human clicks) between any two bot moves."""

    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._runner: asyncio.Task[None] | None = None

    async def turn(self) -> None:
        loop = asyncio.get_running_loop()
        runner = self._runner
        if runner is None or runner.done() or runner.get_loop() is not loop:
            self._waiting = deque()
            self._runner = loop.create_task(self._run(), name="bot-turns")
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append(done)
        await done

    async def _run(self) -> None:
        while True:
            while self._waiting:
                done = self._waiting.popleft()
                if not done.done():  # a stopped table's wait is cancelled
                    done.set_result(None)
                    await asyncio.sleep(0)  # the next move waits for the next pass
            await asyncio.sleep(0)
            if not self._waiting:
                self._runner = None
                return


def simultaneous_kinds(game: Game) -> frozenset[str]:
    """Decision kinds every seat takes at once at a real table (SUPER COMPUTER's picks):
    the game's `GameInfo` says so; a game class may also declare `simultaneous_kinds`.
    The engine still takes them one seat at a time, in increasing seat order."""
    declared = getattr(type(game), "simultaneous_kinds", None)
    if declared is not None:
        return frozenset(declared)
    from cardlab.games import UnknownGameError, game_info

    try:
        info = game_info(game.name)
    except UnknownGameError:
        return frozenset()
    return frozenset(k.name for k in info.decision_kinds if k.simultaneous)


def _searches(agent: Agent) -> bool:
    """A bot that searches (ISMCTS: an iteration budget) thinks for a long time."""
    return isinstance(getattr(agent, "iterations", None), int) or bool(
        getattr(agent, "time_ms", None)
    )


def _timed_step(agent: Agent, view: GameState) -> tuple[int, float]:
    """A decision made in a worker thread, with the CPU time it took that thread."""
    start = time.thread_time()
    action = agent.step(view)
    return action, time.thread_time() - start


class Table:
    def __init__(
        self,
        record: TableRecord,
        game: Game,
        store: Store,
        bot_delay: float,
        bot_turns: BotTurns | None = None,
        bot_pool: BotPool | None = None,
        closed: str | None = None,
    ) -> None:
        self.record = record
        # Set when the table was closed before its game ended (stood idle, or could not
        # be restored live): the reason every message that would change it is refused
        # with. A finished table is closed by its state (`closed_reason`).
        self.closed = closed
        self.game = game
        self.store = store
        self.bot_delay = bot_delay
        self.state: GameState = game.new_initial_state(record.seed)
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.connected: dict[int, int] = {}
        self.on_change: Callable[[Table], Awaitable[None]] | None = None
        self._agents: dict[int, Agent] = {}
        self._bot_cost: dict[int, float] = {}
        self.bot_turns = bot_turns
        # Bumped whenever a seat changes hands: a bot's (or the timer's) move made for
        # an earlier holder is refused under the lock.
        self.epoch: dict[int, int] = {}
        self._bot_failed: set[int] = set()
        self._checkpoints: dict[int, GameState] = {0: self.state.clone()}
        self.driver: asyncio.Task[None] | None = None
        self.turn_deadline: float | None = None
        self.bot_pool = bot_pool
        self.on_private: Callable[[Table, int], None] | None = None
        # Simultaneous decisions (see `options_for`): the batch in progress, the seats'
        # early choices held back until the engine reaches them, and when each decision
        # was offered (for the think times recorded in the store).
        self.sim_kinds = simultaneous_kinds(game)
        self.batch_start: int | None = None
        self._last_decision: tuple[str, int] | None = None
        self.held: dict[int, int] = {}
        self._held_labels: dict[int, str] = {}
        self._options_cache: tuple[int, dict[int, GameState | None]] = (-1, {})
        self.offered_at = time.time()
        self.connected_since: dict[int, float] = {}
        # The last move, if a human's: (seat, step after it); the position before it until
        # the verdict is first asked for (`_undo_verdict`), then why it cannot be undone.
        self.undo_state: tuple[int, int] | None = None
        self._undo_before: tuple[GameState, int] | None = None
        self._undo_reason: str | None = None
        self._track_decision()

    # -- identity and setup ---------------------------------------------------------
    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.record.seats

    @property
    def seq(self) -> int:
        return len(self.state.history())

    def is_bot(self, seat: int) -> bool:
        return bool(self.seats[seat]["kind"] == "bot")

    def human_seat(self, seat: int) -> bool:
        """A seat a person holds a link to (now played by them or handed to a bot)."""
        spec = self.seats[seat]
        return spec["kind"] == "human" or bool(spec.get("human"))

    def agent(self, seat: int) -> Agent:
        spec = self.seats[seat]
        if seat not in self._agents:
            params = dict(spec.get("params") or {})
            self._agents[seat] = make_agent(
                spec["agent"], seed=self.bot_seed(seat, -1, "bot"), **params
            )
        return self._agents[seat]

    def bot_seed(self, seat: int, seq: int, purpose: str) -> int:
        """The seed of one bot decision (or its redeal, or a timer's move) of `seat` at
        step `seq`: sha256 of the table's secret seed and the purpose (core.rng), so
        nothing a player sees of one decision predicts another, and a restarted
        server makes every decision again exactly as before (it depends on the seed,
        the seat and the step only, never on how many decisions came first)."""
        return derived_seed(self.record.seed, f"web:{purpose}:{seat}:{seq}")

    # -- closed tables ------------------------------------------------------------------
    def closed_reason(self) -> str | None:
        """Why nothing may change this table any more (None while it is live)."""
        if self.closed is not None:
            return self.closed
        if self.state.is_terminal():
            return "this table is closed: the game is over"
        return None

    def refusal(self, kind: str) -> str | None:
        """Why a message of `kind` is refused because the table is closed, or None: a
        finished table refuses play and seat changes, one closed before its end refuses
        everything but a look at it (sync)."""
        reason = self.closed_reason()
        if reason is None:
            return None
        if kind in PLAY_KINDS or (self.closed is not None and kind in AROUND_KINDS):
            return reason
        return None

    def replay_log(self, stored_only: bool = False) -> None:
        """Rebuild the state from the stored log (server start), then the early
        choices of the simultaneous decision in progress; `stored_only` (a closed
        table rebuilt to be looked at): the stored moves only, nothing is written."""
        if stored_only:
            for rec in self.store.load_actions(self.id):
                if rec.seq != self.seq:
                    raise RuntimeError(f"table {self.id}: action log has a gap at {rec.seq}")
                self.state.apply_action(rec.action)
                self._remember()
            self._track_decision()
            return
        self._replay(self.store.load_actions(self.id))
        for seat, batch, action in self.store.load_held(self.id):
            if batch == self.batch_start and not self.is_bot(seat):
                ahead = self._ahead(seat)
                if ahead is not None and action in ahead.legal_actions():
                    self.held[seat] = action
                    self._held_labels[seat] = ahead.action_to_string(action)
                    continue
            self.store.drop_held(self.id, seat)
        self._apply_held()

    def _replay(self, records: list[Any]) -> None:
        """Apply stored actions in order; the last one, if a human's, is judged for undo."""
        for k, rec in enumerate(records):
            if rec.seq != self.seq:
                raise RuntimeError(f"table {self.id}: action log has a gap at {rec.seq}")
            last_human = k == len(records) - 1 and rec.by == "human"
            before = self.state.clone() if last_human else None
            self.state.apply_action(rec.action)
            self._judge_undo(rec.seat, rec.action, before)
            self._remember()
            self._track_decision()

    def _judge_undo(self, seat: int, action: int, before: GameState | None) -> None:
        """After a move: remember the position before it (a human's move, `before`), to
        judge whether it may be undone when that is first asked (`_undo_verdict`)."""
        if before is None or self.state.is_terminal():
            self.undo_state, self._undo_before = None, None
            return
        self.undo_state = (seat, self.seq)
        self._undo_before = (before, action)
        self._undo_reason = None

    def _undo_verdict(self) -> str | None:
        """Why the table's last move cannot be undone (None: it can), judged once, on
        redeals of what its mover cannot see (`undo.forecast`, seeds fixed by the table,
        the seat and the step, so a restart judges the same). Judged on first asking,
        so a batch of simultaneous choices applied at once costs one verdict."""
        if self._undo_before is not None and self.undo_state is not None:
            before, action = self._undo_before
            seat, step = self.undo_state[0], self.undo_state[1] - 1
            seeds = [self.bot_seed(seat, step, f"undo{i}") for i in range(REDEALS)]
            fc = forecast(before, seat, action, self.record.players, seeds)
            self._undo_reason = verdict(fc, self.state, seat)
            self._undo_before = None
        return self._undo_reason

    # -- undo ---------------------------------------------------------------------------
    def why_no_undo(self, seat: int | None) -> str | None:
        """None when `seat` may undo its last move now; else the reason."""
        u = self.undo_state
        if seat is None:
            return "only a seat can undo its own move"
        if self.closed is not None:
            return self.closed
        if self.state.is_terminal():
            return "the game is over"
        if u is None or u[0] != seat:
            return "your last move is not the table's last move (or it was not yours to undo)"
        if u[1] != self.seq:
            return "another seat has acted since your move"
        if self.is_bot(seat):
            return "a bot plays your seat now"
        if self.held:
            return "a seat has already made its secret choice; the move stands"
        return self._undo_verdict()

    async def undo(self, seat: int) -> None:
        """Take back `seat`'s last move: delete its row from the log (one transaction,
        refused if it is not the last row) and rebuild the state from seed + log, as a
        restart would. Every seat's epoch moves on, so a bot or timer move made for
        the undone position is refused."""
        async with self.lock:
            reason = self.closed_reason() or self.why_no_undo(seat)
            if reason is not None:
                raise Refused(f"cannot undo: {reason}")
            if not self.store.delete_last_action(self.id, self.seq - 1, seat):
                raise Refused("cannot undo: the log has moved on")
            self._rebuild()
            for s in range(self.record.players):
                self.epoch[s] = self.epoch.get(s, 0) + 1
            self.undo_state, self._undo_before = None, None  # one step back only
            self._arm_timer()
        await self._announce()

    def _rebuild(self) -> None:
        self.state = self.game.new_initial_state(self.record.seed)
        self._checkpoints = {0: self.state.clone()}
        self.batch_start, self._last_decision = None, None
        self.held.clear()
        self._options_cache = (-1, {})
        self._replay(self.store.load_actions(self.id))

    # -- simultaneous decisions -------------------------------------------------------
    def _track_decision(self) -> None:
        """After each action: a new decision is offered now; note whether it opens a
        new simultaneous batch (a kind the game declares simultaneous, with seats
        taken in increasing order; a repeat or lower seat starts the next batch)."""
        self.offered_at = time.time()
        if self.state.is_terminal():
            self.batch_start, self._last_decision = None, None
            return
        kind, cur = self.state.decision_kind(), self.state.current_player()
        if kind not in self.sim_kinds:
            self.batch_start = None
        elif (
            self.batch_start is None
            or self._last_decision is None
            or (self._last_decision[0] != kind or self._last_decision[1] >= cur)
        ):
            self.batch_start = self.seq
            self.held.clear()
        self._last_decision = (kind, cur)

    def options_for(self, seat: int) -> list[int]:
        """The actions `seat` may send now: its legal moves when the engine waits for
        it, or, during a simultaneous decision, the moves it will have when the engine
        reaches it (see `_ahead`)."""
        state = self.state
        if self.closed is not None or state.is_terminal() or self.is_bot(seat):
            return []
        if seat in self.held:
            return []
        if state.current_player() == seat:
            return list(state.legal_actions())
        ahead = self._ahead(seat)
        return list(ahead.legal_actions()) if ahead is not None else []

    def _ahead(self, seat: int) -> GameState | None:
        """A scratch copy of the state at `seat`'s turn in the simultaneous decision in
        progress (the seats before it play their held choice or any legal move: in a
        simultaneous decision their choices cannot change this seat's options), or
        None when the seat has no decision in it. Server side only; cached per step."""
        if self.batch_start is None or seat < self.state.current_player():
            return None
        seq, cache = self._options_cache
        if seq != self.seq:
            cache = {}
            self._options_cache = (self.seq, cache)
        if seat in cache:
            return cache[seat]
        scratch: GameState | None = self.state.clone()
        assert scratch is not None
        kind, last = scratch.decision_kind(), -1
        while True:
            if scratch.is_terminal() or scratch.decision_kind() != kind:
                scratch = None
                break
            p = scratch.current_player()
            if p == seat:
                break
            if p > seat or p <= last:
                scratch = None
                break
            last = p
            legal = scratch.legal_actions()
            choice = self.held.get(p)
            scratch.apply_action(choice if choice in legal else legal[0])
        cache[seat] = scratch
        return scratch

    def _apply_held(self) -> None:
        """Apply held choices while the engine waits for a seat that has one."""
        while not self.state.is_terminal() and self.batch_start is not None:
            seat = self.state.current_player()
            action = self.held.pop(seat, None)
            if action is None:
                return
            if action not in self.state.legal_actions():  # cannot happen for a true
                log.error("table %s: held choice of seat %d no longer legal", self.id, seat)
                self.store.drop_held(self.id, seat)
                return
            self._commit(seat, action, "human")
            self.store.drop_held(self.id, seat)

    def public_info(self) -> dict[str, Any]:
        """Table facts every audience may see: no tokens, and the seed only once the
        game is over (it deals every hidden card), with the command that deals the
        same game again."""
        reissued = sorted(int(s) for s in self.record.settings.get("reissued", []))
        variant = getattr(self.game, "variant", None)
        info = {
            "id": self.id,
            "game": self.record.game,
            "title": getattr(self.game, "title", self.record.game),
            "variant": variant.title if variant is not None else None,
            "players": self.record.players,
            "options": self.record.options,
            "turn_seconds": self.record.settings.get("turn_seconds", 0),
            "turn_left": self._turn_left(),
            # Which seats have made their secret choice early (held): public at a real
            # table (you see who has laid a card face down), what they chose is not.
            "chosen_seats": sorted(self.held),
            # Chat seats the host muted; whether a rematch of this table was made.
            "muted": sorted(self.record.settings.get("muted", [])),
            "rematch": bool(self.record.settings.get("rematch")),
            # Seats whose link the host replaced: whoever plays one now may be the host,
            # and every audience is shown so (docs/web.md, what a host can see).
            "reissued": reissued,
            "seats": [
                {
                    "seat": i,
                    "name": s.get("name") or f"Seat {i}",
                    "kind": s["kind"],
                    "agent": s.get("agent"),
                    "connected": self.connected.get(i, 0) > 0,
                    "reissued": i in reissued,
                }
                for i, s in enumerate(self.seats)
            ],
        }
        if self.state.is_terminal():
            info["seed"] = str(self.record.seed)  # a string: 64 bits overflow a JS number
            info["replay"] = self.replay_command()
        return info

    def replay_command(self) -> str:
        """`cardlab play` with this table's game, players, options, variant and seed: it
        deals the same cards in the same order (the moves are in the table's replay)."""
        args = ["cardlab", "play", self.record.game, "--players", str(self.record.players)]
        args += ["--seed", str(self.record.seed)]
        for key, value in sorted(self.record.options.items()):
            shown = value if isinstance(value, str) else json.dumps(value)  # true, 3, 0.5
            args += ["-o", f"{key}={shown}"]
        variant = self.record.settings.get("variant")
        if variant:
            args += ["--variant", str(variant)]
        command = shlex.join(args)
        version = self.record.settings.get("design_version")
        if version:  # a design page's version: its name, never a server path
            command += f"  (add --cards with the card file of {version}, from the design page)"
        elif self.record.settings.get("cards"):  # never a server path in a frame
            command += "  (add --cards with this server's card file)"
        return command

    def _turn_left(self) -> float | None:
        if self.turn_deadline is None:
            return None
        return round(max(0.0, self.turn_deadline - time.monotonic()), 1)

    # -- the one way a state changes --------------------------------------------------
    async def submit(
        self, seat: int, action: int, expected_seq: int | None, by: str, epoch: int | None = None
    ) -> None:
        """Apply (or, for an early simultaneous choice, hold) one move; refuse with
        the reason and change nothing when it may not be made. A bot's or the
        timer's move names the step it was made for and the seat's `epoch` then: it
        is refused when the seat changed hands since (checked under the lock)."""
        async with self.lock:
            if by in ("bot", "timer"):
                self._check_holder(seat, expected_seq, by, epoch)
            held = self._apply_locked(seat, action, expected_seq, by)
        if held:
            if self.on_private is not None:
                self.on_private(self, seat)  # only this seat learns it has chosen
            return
        await self._announce()

    def _check_holder(
        self, seat: int, expected_seq: int | None, by: str, epoch: int | None
    ) -> None:
        """A machine's move is for one step and one holder of the seat: the bot that
        searched it, or (the timer) the human who let the clock run out."""
        if by == "bot" and not self.is_bot(seat):
            raise Refused(f"seat {seat} is no longer played by a bot")
        if by == "timer" and self.is_bot(seat):
            raise Refused(f"seat {seat} is played by a bot now; the timer's move is void")
        if epoch is None or epoch != self.epoch.get(seat, 0):
            raise Refused(f"seat {seat} changed hands since this {by} move was made")
        if expected_seq is None or expected_seq != self.seq:
            raise Refused(f"the {by} move was made for step {expected_seq}, not {self.seq}")

    def _apply_locked(self, seat: int, action: int, expected_seq: int | None, by: str) -> bool:
        state = self.state
        if self.closed is not None:
            raise Refused(self.closed)
        if state.is_terminal():
            raise Refused("the game is over")
        if by == "human" and self.is_bot(seat):
            raise Refused(
                f"seat {seat} is played by a bot now; "
                + (
                    "send reclaim to take it back"
                    if self.seats[seat].get("reclaim")
                    else "the host can hand it back to you"
                )
            )
        current = state.current_player()
        options = self.options_for(seat) if by == "human" else state.legal_actions()
        early = by == "human" and current != seat and bool(options)
        if by == "human" and seat in self.held:
            raise Refused("you have already chosen; waiting for the others")
        # In a simultaneous decision the options do not change while others choose,
        # so a move made on any view since the decision began is current.
        oldest = self.batch_start if self.batch_start is not None and by == "human" else self.seq
        if expected_seq is not None and not oldest <= expected_seq <= self.seq:
            raise Refused(
                f"stale move: it was made at step {expected_seq} but the table is at step "
                f"{self.seq}; nothing was applied, your view has been refreshed"
            )
        if current != seat and not early:
            raise Refused(f"it is not your decision now (waiting for seat {current})")
        if action not in options:
            raise Refused(
                f"action {action} is not one of your legal moves now; nothing was applied"
            )
        if by == "human":
            self._record_think_time(seat, len(options))
        if early:
            assert self.batch_start is not None
            ahead = self._ahead(seat)
            self.store.hold(self.id, seat, self.batch_start, action)
            self._held_labels[seat] = ahead.action_to_string(action) if ahead else ""
            self.held[seat] = action
            return True
        self._commit(seat, action, by)
        self._apply_held()
        self._arm_timer()
        return False

    def _commit(self, seat: int, action: int, by: str) -> None:
        seq = self.seq
        try:
            self.store.append_action(self.id, seq, seat, action, by)
        except sqlite3.IntegrityError:
            raise Refused(f"step {seq} was already recorded; nothing was applied") from None
        before = self.state.clone() if by == "human" else None
        self.state.apply_action(action)
        self._judge_undo(seat, action, before)
        self._remember()
        self._track_decision()

    def _record_think_time(self, seat: int, options: int) -> None:
        """A human's think time: from when the decision was offered (or the seat
        connected, if later) to the move; for `cardlab calibrate`."""
        since = max(self.offered_at, self.connected_since.get(seat, 0.0))
        kind = self.state.decision_kind()  # in a simultaneous batch: the batch's kind
        try:
            self.store.record_decision(
                self.record.game, kind, options, max(0.0, time.time() - since), self.record.players
            )
        except sqlite3.Error:
            log.exception("table %s: think time not recorded", self.id)

    def chosen(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's own held choice (for its frame alone), or None."""
        if seat is None or seat not in self.held:
            return None
        return {"action": self.held[seat], "label": self._held_labels.get(seat, "")}

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        """What the frame of `seat` offers: every move it may send now, with labels."""
        if seat is None:
            return []
        options = self.options_for(seat)
        if not options:
            return []
        source = self.state if self.state.current_player() == seat else self._ahead(seat)
        assert source is not None
        return views.legal_moves(source, list(options))

    def _arm_timer(self) -> None:
        """Start the clock for a human decision (when the table has a turn timer)."""
        seconds = self.record.settings.get("turn_seconds") or 0
        waiting = not self.state.is_terminal() and not self.is_bot(self.state.current_player())
        self.turn_deadline = time.monotonic() + seconds if seconds and waiting else None

    def _remember(self) -> None:
        if self.seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[self.seq] = self.state.clone()

    async def _announce(self) -> None:
        self.changed.set()
        if self.on_change is not None:
            await self.on_change(self)

    # -- seats changing hands ---------------------------------------------------------
    async def set_seat(
        self, seat: int, spec: dict[str, Any], expect_bot: bool | None = None
    ) -> None:
        """Change who plays `seat`. `expect_bot`: the seat must (True) or must not
        (False) be a bot's when the lock is taken, else Refused (a reclaim, hand-back
        or hand-over checked before it waited for the lock may be out of date)."""
        async with self.lock:
            closed = self.closed_reason()
            if closed is not None:
                raise Refused(closed)
            if expect_bot is not None and self.is_bot(seat) != expect_bot:
                raise Refused(
                    f"seat {seat} is not played by a bot"
                    if expect_bot
                    else f"seat {seat} is already played by a bot"
                )
            self.seats[seat] = {**self.seats[seat], **spec}
            self.epoch[seat] = self.epoch.get(seat, 0) + 1
            self._agents.pop(seat, None)
            self._bot_cost.pop(seat, None)
            self._bot_failed.discard(seat)
            if self.is_bot(seat) and self.held.pop(seat, None) is not None:
                self.store.drop_held(self.id, seat)  # the bot decides in its turn
            self.store.update_seats(self.id, self.seats)
            self._arm_timer()
        await self._announce()

    # -- replays of the finished game -------------------------------------------------
    def state_at(self, step: int) -> GameState:
        """The true state after `step` actions (server side only)."""
        history = self.state.history()
        step = max(0, min(step, len(history)))
        base = max(k for k in self._checkpoints if k <= step)
        state = self._checkpoints[base].clone()
        for action in history[base:step]:
            state.apply_action(action)
        return state

    # -- the driver: bots and the turn timer ------------------------------------------
    def start(self) -> None:
        if self.driver is None and self.closed is None:
            self.driver = asyncio.create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
            self.driver = None

    async def _drive(self) -> None:
        while not self.state.is_terminal():
            self.changed.clear()
            seat = self.state.current_player()
            seq = self.seq
            epoch = self.epoch.get(seat, 0)
            if self.is_bot(seat):
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                if self.bot_turns is not None:
                    await self.bot_turns.turn()
                await self._bot_move(seat, seq, epoch)
                continue
            if self.turn_deadline is None:
                self._arm_timer()
            timeout = None if self.turn_deadline is None else self.turn_deadline - time.monotonic()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout)
            except TimeoutError:
                await self._timed_out(seat, seq, epoch)

    async def _bot_move(self, seat: int, seq: int, epoch: int | None = None) -> None:
        epoch = self.epoch.get(seat, 0) if epoch is None else epoch
        if (
            self.seq != seq
            or self.state.current_player() != seat
            or not self.is_bot(seat)
            or self.epoch.get(seat, 0) != epoch
        ):
            return
        legal = self.state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            # Bots get a redeal of what their seat cannot see, never the true state.
            view = agent_view(self.state, seat, random.Random(self.bot_seed(seat, seq, "view")))
            try:
                if seat in self._bot_failed:  # greedy plays for it (logged once)
                    raise RuntimeError(f"the bot of seat {seat} failed before")
                action = await self._decide(seat, view, seq)
            except Exception:
                action = self._fallback_move(seat, seq, view)
        try:
            await self.submit(seat, action, seq, by="bot", epoch=epoch)
        except Refused as exc:
            log.info("table %s: bot move at step %d dropped: %s", self.id, seq, exc)

    def _fallback_move(self, seat: int, seq: int, view: GameState) -> int:
        """A bot that raised plays the quick bot's (greedy's) move; its traceback is
        logged once per table and seat, not once a move."""
        if seat not in self._bot_failed:
            self._bot_failed.add(seat)
            log.exception(
                "table %s: the %s bot of seat %d failed; greedy plays for it from now on "
                "(logged once)",
                self.id,
                self.seats[seat].get("agent"),
                seat,
            )
        try:
            return make_agent("greedy", seed=self.bot_seed(seat, seq, "fallback")).step(view)
        except Exception:
            log.debug("table %s: greedy failed too at step %d", self.id, seq, exc_info=True)
            legal = self.state.legal_actions()
            return legal[self.bot_seed(seat, seq, "fallback") % len(legal)]

    async def _decide(self, seat: int, view: GameState, seq: int | None = None) -> int:
        """The seat's bot decides on `view`: on the loop if it is known to be quick, in
        the worker process pool if it searches (ISMCTS), else in a thread. Its cost is
        the peak of recent decisions (decaying)."""
        cost = self._bot_cost.get(seat)
        if cost is not None and cost < INLINE_BOT_SECONDS:
            agent = self._reseeded(seat, seq)
            start = time.perf_counter()
            action = agent.step(view)
            spent = time.perf_counter() - start
        elif self.bot_pool is not None and _searches(self.agent(seat)):
            # A searching bot thinks in a worker process; any other bot (a few ms at
            # most) in a thread, so it never queues behind other tables' searches.
            spec = self.seats[seat]
            seed = self.bot_seed(seat, self.seq if seq is None else seq, "bot")
            params = dict(spec.get("params") or {})
            if spec["agent"] == "ismcts" and params.get("iterations", 0) >= STRONG_ITERATIONS:
                # the lobby's strongest bot searches root-parallel over every bot worker
                # (agents.parallel; `cardlab serve --bot-workers N`, default 1: plain)
                params["workers"] = self.bot_pool.workers
            action, spent = await self.bot_pool.decide(spec["agent"], params, seed, view)
        else:
            agent = self._reseeded(seat, seq)
            action, spent = await asyncio.to_thread(_timed_step, agent, view)
        self._bot_cost[seat] = max(spent, 0.8 * (cost or 0.0))
        return action

    def _reseeded(self, seat: int, seq: int | None) -> Agent:
        """The seat's agent, its generator set for this decision (`bot_seed`)."""
        agent = self.agent(seat)
        reseed = getattr(agent, "reseed", None)
        if reseed is not None:
            reseed(self.bot_seed(seat, self.seq if seq is None else seq, "bot"))
        return agent

    async def _timed_out(self, seat: int, seq: int, epoch: int | None = None) -> None:
        """The clock ran out: the quick bot (greedy) plays for the seat, from a redeal of
        what the seat cannot see, as a bot would (a random move threw away best
        cards); refused if the seat changed hands or the table moved on meanwhile."""
        if self.seq != seq or self.state.is_terminal():
            return
        action = self.timer_move(seat, seq)
        epoch = self.epoch.get(seat, 0) if epoch is None else epoch
        with contextlib.suppress(Refused):
            await self.submit(seat, action, seq, by="timer", epoch=epoch)

    def timer_move(self, seat: int, seq: int) -> int:
        """Greedy's move for `seat` at step `seq` (seeded by the table, step and seat);
        a legal move picked by that seed if greedy fails."""
        legal = self.state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = agent_view(self.state, seat, random.Random(self.bot_seed(seat, seq, "timer-view")))
        try:
            action = make_agent("greedy", seed=self.bot_seed(seat, seq, "timer")).step(view)
        except Exception:
            log.exception("table %s: greedy failed on a timer move at step %d", self.id, seq)
            action = None
        if action not in legal:
            action = legal[self.bot_seed(seat, seq, "timer") % len(legal)]
        return action
