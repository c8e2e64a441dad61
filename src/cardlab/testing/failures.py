"""How a conformance failure reads: the check's own name, what broke, and the
seed and actions that reproduce it.

Every check runs inside `checking(name)`, so a failure (or an exception the
game raised while the check ran) carries the name of the check that was
running, never the name of one that ran before it. The loops that play games
(`random_game`, the explorer, the bounds and replay checks) attach a `Replay`:
the game, the seed and the action list, which `replay()` turns back into the
state where the failure happened."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from cardlab.core import Game, GameState


@dataclass(frozen=True)
class Replay:
    """The seed and the actions (from the initial state) that lead to a failure."""

    game: str
    players: int
    options: dict[str, object]
    seed: int
    actions: tuple[int, ...]

    @classmethod
    def of(cls, game: Game, seed: int, actions: Sequence[int]) -> Replay:
        return cls(type(game).__name__, game.num_players, dict(game.options), seed, tuple(actions))

    def __str__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return (
            f"seed {self.seed}, actions {list(self.actions)}\n"
            f"  reproduce: cardlab.testing.replay({self.game}({self.players}{opts}), "
            f"{self.seed}, {list(self.actions)})"
        )


class ConformanceError(AssertionError):
    """A game broke the cardlab game API contract: `check` names the check that
    caught it, `replay` (when a game was being played) how to get there again."""

    def __init__(
        self, message: str, *, check: str | None = None, replay: Replay | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.check = check
        self.replay = replay

    def __str__(self) -> str:
        head = f"[{self.check}] {self.message}" if self.check else self.message
        return f"{head}\n  replay: {self.replay}" if self.replay else head


@contextmanager
def checking(name: str) -> Iterator[None]:
    """Run one check: its failures, and anything the game raises meanwhile, are
    reported under `name` (the innermost check that was running wins)."""
    try:
        yield
    except ConformanceError as err:
        if err.check is None:
            err.check = name
        raise
    except Exception as exc:  # the game crashed while this check ran
        raise ConformanceError(f"{type(exc).__name__}: {exc}", check=name) from exc


@contextmanager
def replaying(game: Game, seed: int, actions: Sequence[int]) -> Iterator[None]:
    """Attach the replay (seed, actions as they stand when it fails) to a failure
    inside; `actions` is read when the failure happens, so pass the live list."""
    try:
        yield
    except ConformanceError as err:
        if err.replay is None:
            err.replay = Replay.of(game, seed, actions)
        raise


def replay(game: Game, seed: int, actions: Sequence[int]) -> GameState:
    """The state a failure's replay names: `seed`'s initial state after `actions`
    (the last one may be the action that crashed: it is applied, so it raises)."""
    state = game.new_initial_state(seed)
    for action in actions:
        state.apply_action(action)
    return state
