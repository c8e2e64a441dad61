"""Two checks on what a redeal (`resample_from_infostate`) does with the cards a
seat cannot see, beside `check_resample` (which checks what it must keep).

**redeal_varies**: a resampler must redeal something. One that returns the true
state passes every keep-check and lets a bot see every hand. So at each player
count, for every (state, seat) where the seat has hidden cards in two or more places
(two zones, or two cards in one zone, where order can tell), the check notes
whether either of two redeals (two seeds) put the hidden cards anywhere other
than where they truly are. A fair redeal of such a state reproduces the truth
at most half the time per seed, so both redeals do at most a quarter of the
time: at least 3/4 of the states should differ. The check fails when fewer
than `MIN_VARIED_SHARE` (1/4) of at least `MIN_SAMPLES` (10) such states did:
a resampler that returns the truth scores 0, and a game may still have up to
two thirds of its states pinned by what is public (a redeal with one
consistent world) before the check would call a fair one unfair.

**public_constraints**: a game whose public information rules worlds out (a
shown void in a trick game, cards known to be in the deck) declares it with an
optional method on its state::

    def public_constraints(self, player: int) -> dict[str, dict[str, list[str]]]:
        # zone key -> {"has": card ids it must hold, "lacks": card ids it must not}
        return {"private:2:hand": {"lacks": ["oh07", "oh08"]}}

The check calls it on every state it checks, for every seat: the true state
must satisfy it (else the declaration is wrong), and so must every redeal for
that seat (else the resampler ignores public information)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardlab.core import GameState
from cardlab.testing.failures import ConformanceError, Replay

MIN_SAMPLES = 10
"""States (with a seat's hidden cards in two or more places) needed to judge."""
MIN_VARIED_SHARE = 0.25
"""The least share of those states whose redeal must differ from the truth."""


@dataclass
class RedealStats:
    """How often redeals differed from the truth where they could (redeal_varies)."""

    eligible: int = 0
    varied: int = 0
    seed: int = 0
    """The seed of the game being played (set by the loops that play)."""
    first_unvaried: str = ""
    """Where the first redeal that kept the truth was seen (for the message)."""
    replay: Replay | None = None
    """How to reach that state again."""
    bot_views: int = 0
    """Views handed to a bot compared over two choices its seat cannot tell apart
    (bot_view)."""
    bot_worlds: int = 0
    """Views handed to a bot compared whole over two redealt worlds (resample)."""

    def share(self) -> float:
        return self.varied / self.eligible if self.eligible else 0.0

    def verdict(self) -> str | None:
        """None when the redeals varied enough (or too few states to tell), else why not."""
        if self.eligible < MIN_SAMPLES or self.share() >= MIN_VARIED_SHARE:
            return None
        return (
            f"redeals kept every hidden card where it truly is in {self.eligible - self.varied} "
            f"of {self.eligible} states where the seat had hidden cards in two or more places "
            f"(at least {MIN_VARIED_SHARE:.0%} must differ; a fair redeal differs in about 3/4): "
            f"resample_from_infostate returns the true hidden cards (first: {self.first_unvaried})"
        )


def _hidden_layout(zones: dict[str, list[str]], hidden: set[str]) -> dict[str, list[str]]:
    return {
        key: [cid for cid in ids if cid in hidden]
        for key, ids in zones.items()
        if any(cid in hidden for cid in ids)
    }


def note_redeals(
    stats: RedealStats,
    state: GameState,
    player: int,
    hidden: set[str],
    truth: dict[str, list[str]],
    redeals: list[dict[str, list[str]]],
) -> None:
    """Count (state, player) for redeal_varies if its hidden cards could lie otherwise
    (`truth` and `redeals` are `zones()` of the state and of its redeals for `player`)."""
    if len(hidden) < 2:
        return
    stats.eligible += 1
    layout = _hidden_layout(truth, hidden)
    if any(_hidden_layout(r, hidden) != layout for r in redeals):
        stats.varied += 1
    elif not stats.first_unvaried:
        stats.first_unvaried = f"seat {player} after {len(state.history())} actions"
        stats.replay = Replay.of(state.game, stats.seed, state.history())


def constraints_of(state: GameState, player: int) -> dict[str, dict[str, list[str]]] | None:
    """The game's declared public constraints for `player`, None if it declares none."""
    hook = getattr(state, "public_constraints", None)
    if not callable(hook):
        return None
    got: Any = hook(player)
    if not isinstance(got, dict):
        raise ConformanceError(f"public_constraints({player}) returned {type(got).__name__}")
    zones = set(state.zones())
    for key, rule in got.items():
        if key not in zones:
            raise ConformanceError(f"public_constraints({player}) names no zone {key!r}")
        if not isinstance(rule, dict) or set(rule) - {"has", "lacks"}:
            raise ConformanceError(
                f"public_constraints({player})[{key!r}] must be a dict with 'has' and/or 'lacks'"
            )
    return got


def violation(world: GameState, constraints: dict[str, dict[str, list[str]]]) -> str | None:
    """The first constraint `world` breaks, in words, or None."""
    zones = world.zones()
    for key, rule in constraints.items():
        held = set(zones.get(key, []))
        missing = sorted(set(rule.get("has", [])) - held)
        if missing:
            return f"{key} lacks {missing}, which it must hold"
        banned = sorted(set(rule.get("lacks", [])) & held)
        if banned:
            return f"{key} holds {banned}, which public information rules out"
    return None


def check_constraints(state: GameState, player: int, redeals: list[GameState]) -> None:
    """The truth and every redeal for `player` satisfy the declared constraints."""
    constraints = constraints_of(state, player)
    if constraints is None:
        return
    wrong = violation(state, constraints)
    if wrong:
        raise ConformanceError(
            f"seat {player}: the true state breaks its own public_constraints: {wrong}"
        )
    for world in redeals:
        wrong = violation(world, constraints)
        if wrong:
            raise ConformanceError(
                f"seat {player}'s redeal contradicts public information: {wrong}"
            )
