"""The rulebook-claims gate.

Each game's `claims.py` (its package under the one layout, found through its
`GameInfo`) registers its claims with `@claim(id, text, kind=...)`: the id is
stable (designers track it across rule versions), the text is the rulebook
passage tested, the kind is `design` (simulation can refute it: the gate's
score) or `invariant` (the engine guarantees it: a regression check), and the
function plays what it needs through the `LabContext` and returns a `Verdict`
computed from those games (see `cardlab.lab.verdicts`: holds, fails,
needs_data, untestable; `resting_on` for a ruling that changes it). Nothing here
writes a verdict in: a claim that cannot be measured returns `untestable`
with the reason, and a probe that raises is reported as untestable with the
error (so one broken probe never hides the others)."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardlab.core.registry import game_info, list_games
from cardlab.lab.context import LabContext
from cardlab.lab.findings import first_seed
from cardlab.lab.replay import settings_command
from cardlab.lab.verdicts import (
    DESIGN,
    FAILS,
    HOLDS,
    INVARIANT,
    KINDS,
    NEEDS_DATA,
    UNTESTABLE,
    VERDICTS,
    Verdict,
    judged,
    needs_data,
    untestable,
    verdict,
)

__all__ = [
    "DESIGN",
    "FAILS",
    "HOLDS",
    "INVARIANT",
    "KINDS",
    "NEEDS_DATA",
    "UNTESTABLE",
    "VERDICTS",
    "Claim",
    "Verdict",
    "claim",
    "claims_for",
    "evaluate",
    "judged",
    "needs_data",
    "untestable",
    "verdict",
]


@dataclass(frozen=True)
class Claim:
    """A rulebook claim: `kind` is `design` (simulation can refute it) or `invariant`
    (the engine guarantees it: a regression check); `circular` says why a design
    claim cannot fail as tested (e.g. we designed the cards to meet it)."""

    id: str
    text: str
    check: Callable[[LabContext], Verdict]
    kind: str = DESIGN
    circular: str = ""


_CLAIMS: dict[str, list[Claim]] = {}


def claim(
    claim_id: str, text: str, kind: str = DESIGN, circular: str = ""
) -> Callable[[Callable[[LabContext], Verdict]], Any]:
    if kind not in KINDS:
        raise ValueError(f"claim {claim_id}: kind must be one of {KINDS}, not {kind!r}")

    def wrap(fn: Callable[[LabContext], Verdict]) -> Callable[[LabContext], Verdict]:
        game = claim_id.split(".", 1)[0]
        registry = _CLAIMS.setdefault(game, [])
        registry[:] = [c for c in registry if c.id != claim_id]  # a reload replaces
        registry.append(Claim(claim_id, text, fn, kind, circular))
        return fn

    return wrap


def claims_for(game: str) -> list[Claim]:
    """The claims of `game`: importing its `claims` module registers them; a game
    without one has none (its report has no claims section)."""
    game_info(game).module("claims")
    return list(_CLAIMS.get(game, []))


def games_with_claims() -> list[str]:
    """Every discovered game that declares at least one claim."""
    return [g for g in list_games() if claims_for(g)]


def evaluate(ctx: LabContext, only: list[str] | None = None) -> list[dict[str, Any]]:
    """Every claim of the context's game, in report.json's shape:
    `{id, text, kind, verdict, evidence, rests_on, with_rulings, note, circular}`
    (docs/lab.md, "Claims")."""
    out = []
    for c in claims_for(ctx.game):
        if only and c.id not in only:
            continue
        start = time.perf_counter()
        ctx.probe_errors = []
        ctx.used = []
        try:
            v = c.check(ctx)
        except Exception as exc:  # a broken probe is reported, never hidden
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            v = untestable(
                f"the probe raised {type(exc).__name__}: {exc}",
                where=f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}",
            )
        if ctx.probe_errors:  # engine errors met while probing: shown, with seeds
            v.evidence["probe_errors"] = len(ctx.probe_errors)
            v.evidence["probe_error_examples"] = ctx.probe_errors[:5]
        v.evidence["probe_s"] = round(time.perf_counter() - start, 2)
        row = {"id": c.id, "text": c.text, "kind": c.kind, **v.as_dict()}
        cited = replay_of_cited_seed(ctx, row)
        if cited:
            row["replay"] = cited
        row["circular"] = c.circular
        if c.circular and not v.note:
            row["note"] = f"circular: {c.circular}"
        out.append(row)
    return out


def replay_of_cited_seed(ctx: LabContext, row: dict[str, Any]) -> dict[str, Any] | None:
    """The `cardlab replay` command(s) for the game seed a claim's evidence cites first
    (the one the report's findings show, `findings.first_seed`): the claim's own
    `cited_replay` ({seed, commands}) when it names them, else every run the claim read
    (`ctx.used`) that holds a game with that seed, by its settings
    (`replay.settings_command`). Several runs when the seed names a game in several arms
    of a paired probe (or, the runs sharing a run seed, at several player counts: each
    command names its count); None when no run the claim read played it (a probe that
    plays its own games, like UPTIME's pass-only players or SUPER COMPUTER's placement
    study: the seed is then shown without a command)."""
    evidence = row.get("evidence", {})
    seed = first_seed(evidence)
    if seed is None:
        return None
    named = evidence.get("cited_replay")
    if isinstance(named, dict) and named.get("seed") == seed and named.get("commands"):
        return {"seed": seed, "commands": list(named["commands"])}
    held = {spec for (spec, _observer), result in ctx._cache.items() if _holds(result, seed)}
    commands = []
    for spec in ctx.used:
        if spec not in held:
            continue
        try:
            commands.append(settings_command(spec, seed))
        except Exception:  # an option a command line cannot give: no command, never a wrong one
            continue
    return {"seed": seed, "commands": list(dict.fromkeys(commands))} if commands else None


def _holds(result: Any, seed: int) -> bool:
    return any(_seed_of(r) == seed for r in result.records)


def _seed_of(record: Any) -> Any:
    return record.get("seed") if isinstance(record, dict) else getattr(record, "seed", None)
