"""What players say after a game: a short, skippable survey per human seat.

At the end of a table game each human seat may answer four questions: how much fun
(1-5), how the length felt, a rule that confused them, anything else. Answers are
kept with the game record (SQLite, beside the tables), never sent to another seat,
and summed up per game, and per design version the tables dealt, for the designer
beside what the same tables show of play: the humans' and the bots' points, wins and
game length, so a designer reads where people differ from the bots the lab judges by
(the design page lists each version's beside its claims' verdicts).

One answer a seat a table: answering again replaces it (a player who changes their
mind), and only a seated human at a finished table may answer."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardlab.web.reports import operator_allowed
from cardlab.web.store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback_games (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    game TEXT NOT NULL,
    play TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS feedback (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    game TEXT NOT NULL,
    fun INTEGER,
    length TEXT,
    confusing TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""

LENGTHS = ("too_short", "right", "too_long")
"""How the game's length felt (the survey's second question)."""


class SurveyAnswer(BaseModel):
    """One seat's answers; every field may be left out (the survey is skippable)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    fun: int | None = Field(default=None, ge=1, le=5)
    length: Literal["too_short", "right", "too_long"] | None = None
    confusing: str = Field(default="", max_length=200)
    text: str = Field(default="", max_length=1000)


class SurveyRefused(ValueError):
    """A survey answer the server does not keep, with why (sent back to that seat only)."""


def parse_answer(msg: dict[str, Any]) -> SurveyAnswer:
    """The answer in a socket message ``{"type": "survey", ...}``; SurveyRefused naming
    the field and what it takes."""
    fields = {k: v for k, v in msg.items() if k != "type"}
    try:
        answer = SurveyAnswer.model_validate(fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "survey"
        raise SurveyRefused(f"survey field {where!r}: {err.get('msg', 'invalid')}") from None
    return SurveyAnswer(
        fun=answer.fun,
        length=answer.length,
        confusing=" ".join(answer.confusing.split()),
        text=" ".join(answer.text.split()),
    )


def table_play(
    game: Any, seed: int, seats: list[dict[str, Any]], history: list[int]
) -> dict[str, Any]:
    """How a finished table game went, seat by seat: human or bot, points, whether it
    won, its decisions and the kinds of its moves (from the engine's move descriptions,
    replayed from the seed: what a person chose, in the words a program reads)."""
    state = game.new_initial_state(seed)
    kinds: list[dict[str, int]] = [{} for _ in seats]
    decisions = [0] * len(seats)
    for action in history:
        seat = state.current_player()
        if 0 <= seat < len(seats) and len(state.legal_actions()) > 1:
            kind = state.describe_action(action).kind
            kinds[seat][kind] = kinds[seat].get(kind, 0) + 1
            decisions[seat] += 1
        state.apply_action(action)
    returns = [float(x) for x in state.returns()]
    winners = set(state.winners())
    return {
        "seats": [
            {
                "human": spec.get("kind") == "human",
                "points": returns[s] if s < len(returns) else None,
                "won": s in winners,
                "decisions": decisions[s],
                "kinds": kinds[s],
            }
            for s, spec in enumerate(seats)
        ],
        "length": len(history),
    }


class Feedback:
    """The survey answers in the server's database (its own table, the store's connection)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.run_script(SCHEMA)

    def record(
        self, table_id: str, seat: int, game: str, answer: SurveyAnswer, play: dict[str, Any]
    ) -> None:
        """Keep `seat`'s answer (replacing an earlier one) and the game's play summary."""
        self.store.run(
            "INSERT OR REPLACE INTO feedback_games VALUES (?,?,?)",
            (table_id, game, json.dumps(play)),
        )
        self.store.run(
            "INSERT OR REPLACE INTO feedback VALUES (?,?,?,?,?,?,?,?)",
            (
                table_id,
                seat,
                game,
                answer.fun,
                answer.length,
                answer.confusing,
                answer.text,
                time.time(),
            ),
        )

    def answered(self, table_id: str, seat: int) -> bool:
        rows = self.store.run(
            "SELECT 1 FROM feedback WHERE table_id=? AND seat=?", (table_id, seat)
        )
        return bool(rows)

    def summary(self, game: str) -> dict[str, Any]:
        """What players said of `game`, and how its finished table games went for the
        human seats against the bot seats (points, wins, length): the designer's page.
        `versions` has the same, one entry a design version the tables dealt (the
        table's record names it; `version` None: the game's own cards)."""
        rows = self.store.run(
            "SELECT f.fun, f.length, f.confusing, f.text, "
            "json_extract(t.settings, '$.design_version'), "
            "json_extract(t.settings, '$.design_version_id') FROM feedback f "
            "LEFT JOIN tables t ON t.id = f.table_id WHERE f.game=? ORDER BY f.at",
            (game,),
        )
        games = self.store.run(
            "SELECT g.play, json_extract(t.settings, '$.design_version'), "
            "json_extract(t.settings, '$.design_version_id') FROM feedback_games g "
            "LEFT JOIN tables t ON t.id = g.table_id WHERE g.game=?",
            (game,),
        )
        plays = [(json.loads(r[0]), r[1]) for r in games]
        numbers = {r[4]: r[5] for r in rows} | {r[1]: r[2] for r in games}
        labels = list(dict.fromkeys([*(r[4] for r in rows), *(p[1] for p in plays)]))
        versions = []
        for label in labels:
            versions.append(
                {
                    "version": numbers.get(label),
                    "label": label or "the game's cards (no design version)",
                    **_answers([r for r in rows if r[4] == label]),
                    "play": _play([p for p, lab in plays if lab == label]),
                }
            )
        return {
            "game": game,
            **_answers(rows),
            "play": _play([p for p, _ in plays]),
            "versions": versions,
        }


def _answers(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """The survey answers summed up: fun, how the length felt, confusions, comments."""
    funs = [r[0] for r in rows if r[0] is not None]
    return {
        "answers": len(rows),
        "fun": {
            "answered": len(funs),
            "mean": round(statistics.mean(funs), 2) if funs else None,
            "histogram": {str(k): funs.count(k) for k in range(1, 6)},
        },
        "length": {k: sum(1 for r in rows if r[1] == k) for k in LENGTHS},
        "confusing": [r[2] for r in rows if r[2]],
        "comments": [r[3] for r in rows if r[3]],
    }


def _play(plays: list[dict[str, Any]]) -> dict[str, Any]:
    """Human seats against bot seats in answered table games: points, their spread, win
    share, decisions a seat and the share of each kind of move."""
    sides: dict[str, list[dict[str, Any]]] = {"humans": [], "bots": []}
    for play in plays:
        for seat in play["seats"]:
            sides["humans" if seat["human"] else "bots"].append(seat)

    def side(seats: list[dict[str, Any]]) -> dict[str, Any]:
        points = [float(x["points"]) for x in seats if x["points"] is not None]
        kinds: dict[str, int] = {}
        for x in seats:
            for k, n in x["kinds"].items():
                kinds[k] = kinds.get(k, 0) + n
        total = sum(kinds.values())
        return {
            "seats": len(seats),
            "mean_points": round(statistics.mean(points), 2) if points else None,
            "spread": round(statistics.pstdev(points), 2) if len(points) > 1 else None,
            "win_share": round(sum(x["won"] for x in seats) / len(seats), 3) if seats else None,
            "decisions_per_seat": round(statistics.mean(x["decisions"] for x in seats), 1)
            if seats
            else None,
            "move_kinds": {k: round(n / total, 3) for k, n in sorted(kinds.items())}
            if total
            else {},
        }

    return {
        "games": len(plays),
        "mean_length": round(statistics.mean(p["length"] for p in plays), 1) if plays else None,
        "humans": side(sides["humans"]),
        "bots": side(sides["bots"]),
    }


def survey_frame(saved: bool, note: str = "") -> str:
    """The answer to a seat's survey message: for that seat's socket only."""
    return json.dumps({"type": "survey", "saved": saved, "note": note})


def answer_survey(
    feedback: Feedback, table: Any, seat: int | None, role: str, msg: dict[str, Any]
) -> str:
    """Keep a seat's survey answer; the frame to send back to that seat alone.

    Only a seated human at a finished game answers (a bot, a spectator or the host has
    nothing to say here); SurveyRefused says why not."""
    if role != "seat" or seat is None:
        raise SurveyRefused("only a player at the table answers its survey")
    seats = table.record.seats
    if not 0 <= seat < len(seats) or seats[seat].get("kind") != "human":
        raise SurveyRefused("only a human seat answers the survey")
    if not table.state.is_terminal():
        raise SurveyRefused("the survey opens when the game is over")
    answer = parse_answer(msg)
    play = table_play(table.game, table.record.seed, seats, table.state.history())
    feedback.record(table.id, seat, table.record.game, answer, play)
    return survey_frame(
        True, "Thanks: your answers are kept for the designer (no other seat sees them)."
    )


def summary_answer(
    feedback: Feedback, game: str, games: list[str], authorization: str | None, operator: str
) -> tuple[int, dict[str, Any]]:
    """The lobby's `GET /api/feedback/{game}`: the players' answers are the designer's,
    so only the operator token reads them (status, body)."""
    why = operator_allowed(authorization, operator)
    if why is not None:
        return 401, {
            "error": why.replace("starting a playtest run", "reading players' answers"),
            "operator": True,
        }
    if game not in games:
        return 404, {"error": f"no game {game!r}; games: {', '.join(games)}"}
    return 200, feedback.summary(game)
