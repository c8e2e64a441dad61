"""`check_game`: the conformance check every cardlab game passes, as
PettingZoo's `api_test` is for environments.

    from cardlab.testing import check_game
    check_game(MyGame(2))          # one player count
    check_game("mygame")           # every player count of a registered game

It plays random games to the end checking, in every state: cards conserved,
legal actions in range with unique labels, fresh lists, no hidden card id in
any seat's observation or the public view, illegal actions (and floats, bools,
strings) refused with nothing changed, resampling that keeps the seat's
observation, legal actions and labels and depends only on what the seat knows,
redeals that keep the game's declared `public_constraints`, decision kinds the
GameInfo declares. Over the run: redeals that move hidden cards (not the true
state handed back). Then a coverage-guided hunt for rare crashes (`explore`,
about `explore_seconds` per player count), replay determinism, clone
independence, the game's declared bounds (max_game_length, utility_bounds) and
its narrative (view.narrate / final_table, whose parts add up to the returns)
when the game provides them.

A failure raises `ConformanceError` naming its check (``[resample] ...``) and,
when it happened in a game, the seed and actions that reproduce it
(`cardlab.testing.replay(game, seed, actions)`).
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from types import ModuleType

from cardlab.core import Game
from cardlab.core.narrative import FinalTable, NarrativeLine
from cardlab.core.plugin import GameInfo
from cardlab.testing.checks import (
    check_play_within_bounds,
    check_replay_and_clone,
    expect,
    random_game,
)
from cardlab.testing.explore import explore
from cardlab.testing.failures import ConformanceError, checking, replaying
from cardlab.testing.redeal import MIN_SAMPLES, RedealStats

DEFAULT_EXPLORE_SECONDS = 1.0
"""The rare-crash hunt's budget per player count (`check_game(explore_seconds=)`)."""

DEFAULT_DECISION_CAP = 100_000
"""The cap on one game's decisions when the game declares no max_game_length()."""


@dataclass
class CheckReport:
    """What `check_game` checked (each name once per game it played), and what it
    could not check because the game does not offer it yet."""

    game: str
    players: list[int] = field(default_factory=list)
    games_played: int = 0
    decisions: int = 0
    explored_games: int = 0
    explored_decisions: int = 0
    redeals: RedealStats = field(default_factory=RedealStats)
    checked: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)

    def note(self, what: str) -> None:
        if what not in self.checked:
            self.checked.append(what)


def check_game(
    game: Game | GameInfo | str,
    *,
    games: int = 3,
    seed: int = 0,
    checks_every: int = 1,
    require: tuple[str, ...] = (),
    explore_seconds: float = DEFAULT_EXPLORE_SECONDS,
) -> CheckReport:
    """Check `game` against the cardlab game API; raise ConformanceError on the first
    breach. A Game instance is checked at its player count; a GameInfo or a registered
    game's name at every player count it supports. `require` names optional parts that
    must be present ("bounds", "narrative"); without it a missing part is reported in
    `CheckReport.skipped`. `explore_seconds` is the rare-crash hunt's time per
    player count (0: one explored game)."""
    if isinstance(game, Game):
        instances = [game]
        name = game.name
    else:
        info = game if isinstance(game, GameInfo) else _info(game)
        cls = info.game_class()
        instances = [cls(n) for n in range(info.min_players, info.max_players + 1)]
        name = info.name
    report = CheckReport(game=name)
    for instance in instances:
        report.players.append(instance.num_players)
        _check_instance(instance, games, seed, checks_every, explore_seconds, report)
    if report.redeals.eligible < MIN_SAMPLES:
        report.skipped["redeal_varies"] = (
            f"only {report.redeals.eligible} states with hidden cards in two or more places"
        )
    else:
        report.note("redeal_varies")
    for part in require:
        expect(part not in report.skipped, f"{name}: {part}: {report.skipped.get(part)}")
    return report


def _info(name: str) -> GameInfo:
    from cardlab.games import game_info

    return game_info(name)


def _check_instance(
    game: Game,
    games: int,
    seed: int,
    checks_every: int,
    explore_seconds: float,
    report: CheckReport,
) -> None:
    try:
        limit = game.max_game_length()
        bounded = True
    except NotImplementedError as exc:
        limit, bounded = DEFAULT_DECISION_CAP, False
        report.skipped["bounds"] = str(exc)
    info = _registered_info(game)
    view = info.module("view") if info is not None else _view_module(game)
    kinds = frozenset(k.name for k in info.decision_kinds) if info is not None else None
    if not kinds:
        kinds = None
        report.skipped["decision_kinds"] = "the game has no GameInfo declaring decision_kinds"
    stats = RedealStats()  # judged per player count: a bug at one count is not averaged away
    for i in range(games):
        stats.seed = seed + i
        state = random_game(game, seed + i, seed * 7919 + i, limit, checks_every, stats, kinds)
        report.games_played += 1
        report.decisions += len(state.history())
        for what in ("conservation", "labels", "fresh_lists", "hidden_cards", "illegal_refused"):
            report.note(what)
        report.note("resample")
        report.note("bot_view")
        if kinds is not None:
            report.note("decision_kinds")
        if hasattr(state, "public_constraints"):
            report.note("public_constraints")
        with replaying(game, seed + i, state.history()), checking("narrative"):
            _check_narrative(game, state, view, report)
        check_replay_and_clone(game, seed + i, seed * 7919 + i + 1)
        report.note("replay_and_clone")
    found = explore(
        game, seconds=explore_seconds, seed=seed, max_decisions=limit, stats=stats, kinds=kinds
    )
    report.explored_games += found.games
    report.explored_decisions += found.decisions
    report.note("explore")
    verdict = stats.verdict()
    if verdict is not None:
        raise ConformanceError(
            f"{game.name} at {game.num_players} players: {verdict}",
            check="redeal_varies",
            replay=stats.replay,
        )
    report.redeals.eligible += stats.eligible
    report.redeals.varied += stats.varied
    report.redeals.bot_views += stats.bot_views
    report.redeals.bot_worlds += stats.bot_worlds
    if bounded:
        try:
            game.utility_bounds()
        except NotImplementedError as exc:
            report.skipped["bounds"] = str(exc)
            return
        check_play_within_bounds(game, random_games=max(games, 5))
        report.note("bounds")


def _registered_info(game: Game) -> GameInfo | None:
    """The GameInfo of `game`'s class: the registered one, else the ``GAME_INFO``
    beside the class (rules.py under the one layout), else None."""
    from cardlab.games import all_infos

    cls = type(game)
    for info in all_infos():
        if info.name == game.name and info.game_class() is cls:
            return info
    beside = getattr(sys.modules.get(cls.__module__), "GAME_INFO", None)
    if isinstance(beside, GameInfo) and beside.game_class() is cls:
        return beside
    return None


def _view_module(game: Game) -> ModuleType | None:
    """The game's `view` module beside the module that defines its Game class
    (for a game with no GameInfo)."""
    cls = type(game)
    package = cls.__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.view")
    except ModuleNotFoundError as err:
        if err.name == f"{package}.view":
            return None
        raise


def _check_narrative(
    game: Game, state: object, view: ModuleType | None, report: CheckReport
) -> None:
    from cardlab.core import GameState

    assert isinstance(state, GameState)
    narrate = getattr(view, "narrate", None)
    final_table = getattr(view, "final_table", None)
    if not callable(narrate) or not callable(final_table):
        report.skipped["narrative"] = (
            "the game's view module offers no narrate(observation) and final_table(observation)"
        )
        return
    for obs in [state.observation(p) for p in range(game.num_players)]:
        lines = narrate(obs)
        expect(
            all(isinstance(line, NarrativeLine) for line in lines),
            "narrate() returns NarrativeLine items",
        )
        log = obs.get("log")
        if isinstance(log, list):
            expect(
                all(0 <= line.index < max(len(log), 1) for line in lines),
                "a narrative line points outside the observation's log",
            )
        json.dumps([line.to_json() for line in lines])
        table = final_table(obs)
        expect(isinstance(table, FinalTable), "final_table() returns a FinalTable")
        # FinalTable itself refuses parts that do not add up to a row's total
        totals = {row.seat: row.total for row in table.rows}
        returns = state.returns()
        expect(
            sorted(totals) == list(range(game.num_players)),
            f"final_table() rows for seats {sorted(totals)}",
        )
        expect(
            all(abs(totals[p] - returns[p]) < 1e-9 for p in totals),
            f"final_table() totals {totals} are not the returns {returns}",
        )
        expect(
            sorted(table.winners) == sorted(state.winners()),
            f"final_table() winners {table.winners} are not winners() {state.winners()}",
        )
        json.dumps(table.to_json())
    report.note("narrative")
