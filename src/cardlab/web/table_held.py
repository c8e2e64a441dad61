"""Simultaneous decisions at a table: every seat chooses at once (SUPER COMPUTER's
picks), while the engine still takes the seats one at a time, in increasing seat
order. A seat that chooses before the engine reaches it has its choice held (in the
store too, so a restart keeps it) and shown to it alone until the engine plays it;
the other seats only learn that it has chosen."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from cardlab.core import Game, GameState
from cardlab.core.registry import UnknownGameError, game_info
from cardlab.web import views
from cardlab.web.store import Store

log = logging.getLogger("cardlab.web")


def simultaneous_kinds(game: Game) -> frozenset[str]:
    """Decision kinds every seat takes at once at a real table (SUPER COMPUTER's picks):
    the game's `GameInfo` says so; a game class may also declare `simultaneous_kinds`.
    The engine still takes them one seat at a time, in increasing seat order."""
    declared = getattr(type(game), "simultaneous_kinds", None)
    if declared is not None:
        return frozenset(declared)
    try:
        info = game_info(game.name)
    except UnknownGameError:
        return frozenset()
    return frozenset(k.name for k in info.decision_kinds if k.simultaneous)


class HeldTable(Protocol):
    """What a table's held choices read of their table."""

    @property
    def id(self) -> str: ...
    @property
    def closed(self) -> str | None: ...
    @property
    def store(self) -> Store: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seq(self) -> int: ...
    def is_bot(self, seat: int) -> bool: ...


class HeldChoices:
    """The simultaneous decision in progress: where its batch began, each seat's
    early choice held until the engine reaches it, and what each seat may choose
    meanwhile (`options_for`). Apart from the table because it is the one place the
    table looks past the engine's current seat; nothing here changes the state."""

    def __init__(self, table: HeldTable, kinds: frozenset[str]) -> None:
        self._table = table
        self.kinds = kinds
        self.batch_start: int | None = None
        self._last_decision: tuple[str, int] | None = None
        self.held: dict[int, int] = {}
        self._labels: dict[int, str] = {}
        self._options_cache: tuple[int, dict[int, GameState | None]] = (-1, {})

    def track(self) -> None:
        """After each action: note whether the decision offered now opens a new
        simultaneous batch (a kind the game declares simultaneous, with seats taken
        in increasing order; a repeat or lower seat starts the next batch)."""
        state = self._table.state
        if state.is_terminal():
            self.batch_start, self._last_decision = None, None
            return
        kind, cur = state.decision_kind(), state.current_player()
        if kind not in self.kinds:
            self.batch_start = None
        elif (
            self.batch_start is None
            or self._last_decision is None
            or (self._last_decision[0] != kind or self._last_decision[1] >= cur)
        ):
            self.batch_start = self._table.seq
            self.held.clear()
        self._last_decision = (kind, cur)

    def reset(self) -> None:
        """The state is rebuilt from its log: no batch is known until it is replayed."""
        self.batch_start, self._last_decision = None, None
        self.held.clear()
        self._options_cache = (-1, {})

    def restore(self) -> None:
        """After the log is replayed (server start): the stored early choices that still
        fit the batch in progress are held again; the others are dropped."""
        t = self._table
        for seat, batch, action in t.store.load_held(t.id):
            if batch == self.batch_start and not t.is_bot(seat):
                ahead = self.ahead(seat)
                if ahead is not None and action in ahead.legal_actions():
                    self.held[seat] = action
                    self._labels[seat] = ahead.action_to_string(action)
                    continue
            t.store.drop_held(t.id, seat)

    def hold(self, seat: int, action: int) -> None:
        """Keep `seat`'s early choice (checked legal by the table) until its turn."""
        t = self._table
        assert self.batch_start is not None
        ahead = self.ahead(seat)
        t.store.hold(t.id, seat, self.batch_start, action)
        self._labels[seat] = ahead.action_to_string(action) if ahead else ""
        self.held[seat] = action

    def drop(self, seat: int) -> None:
        """The seat went to a bot: the bot decides in its turn, the choice is void."""
        if self.held.pop(seat, None) is not None:
            self._table.store.drop_held(self._table.id, seat)

    def next_held(self) -> tuple[int, int] | None:
        """The seat the engine waits for and its held choice, taken out, when it has
        one (the table then plays it); None when it has not."""
        t = self._table
        state = t.state
        if state.is_terminal() or self.batch_start is None:
            return None
        seat = state.current_player()
        action = self.held.pop(seat, None)
        if action is None:
            return None
        if action not in state.legal_actions():  # cannot happen for a true
            log.error("table %s: held choice of seat %d no longer legal", t.id, seat)
            t.store.drop_held(t.id, seat)
            return None
        return seat, action

    def chosen(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's own held choice (for its frame alone), or None."""
        if seat is None or seat not in self.held:
            return None
        return {"action": self.held[seat], "label": self._labels.get(seat, "")}

    def options_for(self, seat: int) -> list[int]:
        """The actions `seat` may send now: its legal moves when the engine waits for
        it, or, during a simultaneous decision, the moves it will have when the engine
        reaches it (see `ahead`)."""
        t = self._table
        state = t.state
        if t.closed is not None or state.is_terminal() or t.is_bot(seat):
            return []
        if seat in self.held:
            return []
        if state.current_player() == seat:
            return list(state.legal_actions())
        ahead = self.ahead(seat)
        return list(ahead.legal_actions()) if ahead is not None else []

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        """What the frame of `seat` offers: every move it may send now, with labels."""
        if seat is None:
            return []
        options = self.options_for(seat)
        if not options:
            return []
        state = self._table.state
        source = state if state.current_player() == seat else self.ahead(seat)
        assert source is not None
        return views.legal_moves(source, list(options))

    def ahead(self, seat: int) -> GameState | None:
        """A scratch copy of the state at `seat`'s turn in the simultaneous decision in
        progress (the seats before it play their held choice or any legal move: in a
        simultaneous decision their choices cannot change this seat's options), or
        None when the seat has no decision in it. Server side only; cached per step."""
        t = self._table
        if self.batch_start is None or seat < t.state.current_player():
            return None
        seq, cache = self._options_cache
        if seq != t.seq:
            cache = {}
            self._options_cache = (t.seq, cache)
        if seat in cache:
            return cache[seat]
        scratch: GameState | None = t.state.clone()
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
