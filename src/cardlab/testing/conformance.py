"""`check_game`: the conformance check every cardlab game passes, as
PettingZoo's `api_test` is for environments.

    from cardlab.testing import check_game
    check_game(MyGame(2))          # one player count
    check_game("mygame")           # every player count of a registered game

It plays random games to the end checking, in every state: cards conserved,
legal actions in range with unique labels, fresh lists, no hidden card id in
any seat's observation or the public view, illegal actions (and floats, bools,
strings) refused with nothing changed, resampling that keeps the seat's
observation, legal actions and labels and depends only on what the seat knows.
Then: replay determinism, clone independence, the game's declared bounds
(max_game_length, utility_bounds) and its narrative (view.narrate /
final_table, whose parts add up to the returns) when the game provides them.
"""

from __future__ import annotations

import importlib
import json
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
) -> CheckReport:
    """Check `game` against the cardlab game API; raise ConformanceError on the first
    breach. A Game instance is checked at its player count; a GameInfo or a registered
    game's name at every player count it supports. `require` names optional parts that
    must be present ("bounds", "narrative"); without it a missing part is reported in
    `CheckReport.skipped`."""
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
        _check_instance(instance, games, seed, checks_every, report)
    for part in require:
        expect(part not in report.skipped, f"{name}: {part}: {report.skipped.get(part)}")
    return report


def _info(name: str) -> GameInfo:
    from cardlab.games import game_info

    return game_info(name)


def _check_instance(
    game: Game, games: int, seed: int, checks_every: int, report: CheckReport
) -> None:
    try:
        limit = game.max_game_length()
        bounded = True
    except NotImplementedError as exc:
        limit, bounded = DEFAULT_DECISION_CAP, False
        report.skipped["bounds"] = str(exc)
    view = _view_module(game)
    for i in range(games):
        state = random_game(game, seed + i, seed * 7919 + i, limit, checks_every)
        report.games_played += 1
        report.decisions += len(state.history())
        for what in ("conservation", "labels", "fresh_lists", "hidden_cards", "illegal_refused"):
            report.note(what)
        report.note("resample")
        _check_narrative(game, state, view, report)
        check_replay_and_clone(game, seed + i, seed * 7919 + i + 1)
        report.note("replay_and_clone")
    if bounded:
        try:
            game.utility_bounds()
        except NotImplementedError as exc:
            report.skipped["bounds"] = str(exc)
            return
        check_play_within_bounds(game, random_games=max(games, 5))
        report.note("bounds")


def _view_module(game: Game) -> ModuleType | None:
    """The game's `view` module under the one layout: through its registered
    GameInfo, else beside the module that defines its Game class."""
    from cardlab.games import all_infos

    cls = type(game)
    for info in all_infos():
        if info.name == game.name and info.game_class() is cls:
            return info.module("view")
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
