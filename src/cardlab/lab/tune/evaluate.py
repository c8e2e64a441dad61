"""Play one trial's games and measure what the rulebook promises.

A trial plays `games` games of the variant on the same seeds as every other
trial (so two trials differ by their rules, not their luck), with a mix of
the game's personas rotated through the seats. Each game is boiled down to a
few facts; `metrics` turns them into the figures the objectives score:

- `stall_share`: games that ended by a stall rule or a cap, not by the rules' end;
- `tiebreak_share`: games whose winner was decided by the tie-break, not points;
- `first_seat_edge`: the first seat's win share minus a fair 1/N;
- `minutes` (quick, slow): estimated table time from the game's decision kinds
  (the guessed ranges of its `GameInfo`: seconds per decision and per option,
  simultaneous kinds charged once per round of picks, not once per seat) plus
  its overhead per round (shuffling, scoring);
- `box_miss`: how far the minutes range lies outside the rulebook's box time,
  as a share of the box time (0 when the ranges overlap);
- `dead_draw_share`: of the games whose Draw says whether it takes anything, those in
  which it takes nothing at a third or more of the decisions it is offered at: Draw
  dead for the last third of the game or longer (`DrawWatch`; absent, not 0, for a game
  whose moves give no such Draw: the figure has no data there).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cardlab.agents import kinds_for_game, parse_agent_spec, play_game
from cardlab.core import GameState
from cardlab.core.plugin import GameInfo
from cardlab.core.registry import game_info, load_game
from cardlab.core.variants import Variant
from cardlab.lab.seeds import agent_seed, game_seed
from cardlab.lab.simulate import lead_changes
from cardlab.lab.tune.objectives import file_target_rows, game_file_targets

STALL_WORDS = ("stall", "cap")
"""An end reason with one of these words is a game the rules did not end."""
DRAW_KIND = "draw"
"""The `Move.kind` (`GameState.describe_action`) of a game's Draw."""
DRY_FLAG = "supply_empty"
"""The flag in a Draw's `Move.extra` that says the draw source is empty: the Draw takes
nothing (UPTIME: `supply_dry()`, the Supply Deck and, under its reshuffle, the supply
discard both empty)."""
DEAD_DRAW_PART = 3
"""A game counts toward `dead_draw_share` when its Draw takes nothing at 1/3 or more of
the decisions it is offered at (`dry * DEAD_DRAW_PART >= offered`)."""


def persona_mix(game: str) -> list[str]:
    """The bots a trial seats: every persona of the game and greedy (no random
    play, which hides the rules, and no ISMCTS, which is too slow per trial)."""
    kinds = [k for k in kinds_for_game(game) if k not in ("random", "ismcts")]
    return kinds or ["random"]


@dataclass
class GameFacts:
    seed: int
    first_player: int
    winners: list[int]
    end_reason: str
    tiebreak: str | None
    rounds: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    options_seen: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    scores: list[float] = field(default_factory=list)
    """Each seat's final points (the share of seats ending at 0 reads them)."""
    lead_changes: int = 0
    """How often the sole leader on points changed, decision by decision (the lab's
    `simulate.lead_changes` rule; in a lowest-wins game the fewest points lead)."""
    draw_offers: int = 0
    """Decisions at which the mover was offered a Draw that says whether it takes
    anything (0: the game gives no such Draw, so no data for `dead_draw_share`)."""
    dry_draw_offers: int = 0
    """Of those, the decisions at which that Draw would take nothing."""

    @property
    def draw_dead(self) -> bool | None:
        """Draw took nothing at a third or more of its offers; None without a Draw counter."""
        if self.draw_offers <= 0:
            return None
        return self.dry_draw_offers * DEAD_DRAW_PART >= self.draw_offers


class DrawWatch:
    """Counts, decision by decision, the offers of a Draw and the dry ones.

    A game tells the lab about its Draw through its moves, not a label: a legal move
    described (`describe_action`) with kind `draw` and a boolean `extra["supply_empty"]`.
    A game with no such move gives no count, so its `dead_draw_share` has no data (it
    is not read as a Draw that never runs dry).

    Describing every legal action at every decision made a game without a Draw's trial
    nearly twice as slow (RUNWAY 3p, 100 games, CPU time, best of 4: 0.97 s against
    0.56 s unwatched; 0.60 s with the limit below; UPTIME's within the noise), so the
    search is kept per decision kind: the action found to be the Draw at a kind is asked
    first there, and a kind that has not offered a Draw is searched only at its first
    `SCAN_LIMIT` decisions of the game (UPTIME offers its Draw at every main turn, the
    first one included). A Draw a kind first offers later than that is missed, which
    reads as no data, never as a Draw that stays alive."""

    SCAN_LIMIT = 5

    def __init__(self) -> None:
        self.offered = 0
        self.dry = 0
        self._known: dict[str, int] = {}
        self._scans: Counter[str] = Counter()
        self._off = False

    def see(self, state: GameState, legal: list[int]) -> None:
        if self._off:
            return
        try:
            move = self._draw(state, legal)
        except Exception:  # a move the game cannot describe: no count, the game still plays
            self._off = True
            self.offered = self.dry = 0  # a count of part of the game would mislead
            return
        flag = None if move is None else move.extra.get(DRY_FLAG)
        if isinstance(flag, bool):
            self.offered += 1
            self.dry += flag

    def _draw(self, state: GameState, legal: list[int]) -> Any:
        kind = state.decision_kind()
        known = self._known.get(kind)
        if known is not None and known in legal:
            move = state.describe_action(known)
            if move.kind == DRAW_KIND:
                return move
        if known is None and self._scans[kind] >= self.SCAN_LIMIT:
            return None
        self._scans[kind] += 1
        for a in legal:
            if a != known:
                move = state.describe_action(a)
                if move.kind == DRAW_KIND:
                    self._known[kind] = a
                    return move
        return None


def play_trial_game(
    game_name: str,
    players: int,
    variant: Variant,
    run_seed: int,
    index: int,
    agents: tuple[str, ...] = (),
) -> GameFacts:
    """One game; `agents` (specs such as ``ismcts:iterations=200``) rotate through
    the seats game by game, so every seat position meets every agent."""
    seed = game_seed(run_seed, index)
    mix = list(agents) or persona_mix(game_name)
    seats = [mix[(index + s) % len(mix)] for s in range(players)]
    kinds: Counter[str] = Counter()
    options: Counter[str] = Counter()
    first = [-1]
    trace: list[list[float]] = []
    sign = -1.0 if getattr(game_info(game_name), "lowest_wins", False) else 1.0
    draws = DrawWatch()

    def watch(state: GameState, seat: int, action: int) -> None:
        trace.append([sign * float(x) for x in state.scores()])
        if first[0] < 0:
            first[0] = seat
        kind = state.decision_kind()
        kinds[kind] += 1
        legal = state.legal_actions()
        options[kind] += len(legal)
        draws.see(state, legal)

    try:
        game = load_game(game_name, players=players, variant=variant)
        bots = [parse_agent_spec(k).make(agent_seed(seed, s)) for s, k in enumerate(seats)]
        result = play_game(game, bots, seed=seed, on_action=watch)
    except Exception as exc:  # a variant that breaks the engine is a failed trial, kept
        return GameFacts(
            seed,
            first[0],
            [],
            "error",
            None,
            decisions=dict(kinds),
            options_seen=dict(options),
            error=repr(exc),
        )
    info: dict[str, Any] = result.info  # the game's own facts (`GameState.info`)
    return GameFacts(
        seed=seed,
        first_player=int(info.get("first_player", first[0])),
        winners=[int(w) for w in result.winners],
        end_reason=str(info.get("end_reason", "")),
        tiebreak=None if info.get("tiebreak") is None else str(info.get("tiebreak")),
        rounds=int(info.get("rounds", 0) or 0),
        decisions=dict(kinds),
        options_seen=dict(options),
        scores=[float(x) for x in result.returns],
        lead_changes=lead_changes([*trace, [sign * float(x) for x in result.returns]]),
        draw_offers=draws.offered,
        dry_draw_offers=draws.dry,
    )


def play_trial(
    game_name: str,
    players: int,
    variant: Variant,
    run_seed: int,
    games: int,
    agents: tuple[str, ...] = (),
) -> list[GameFacts]:
    """Every game of one trial (a top-level function: it runs in workers)."""
    return [play_trial_game(game_name, players, variant, run_seed, i, agents) for i in range(games)]


def game_minutes(info: GameInfo, facts: GameFacts, players: int) -> tuple[float, float]:
    """(quick, slow) minutes of one game at a real table, from its decisions."""
    quick = slow = 0.0
    for kind_name, count in facts.decisions.items():
        kind = info.decision_kind(kind_name)
        if kind is None:
            lo, hi, opt_lo, opt_hi, simultaneous = 5.0, 15.0, 0.0, 0.0, False
        else:
            (lo, hi), (opt_lo, opt_hi) = kind.seconds, kind.per_option
            simultaneous = kind.simultaneous
        mean_options = facts.options_seen.get(kind_name, 2 * count) / max(1, count)
        extra = max(0.0, mean_options - 2)
        n = count / players if simultaneous else count
        quick += n * (lo + extra * opt_lo)
        slow += n * (hi + extra * opt_hi)
    over_lo, over_hi = info.round_overhead_seconds
    quick += facts.rounds * over_lo
    slow += facts.rounds * over_hi
    return quick / 60.0, slow / 60.0


def metrics(info: GameInfo, players: int, facts: list[GameFacts]) -> dict[str, Any]:
    """The figures the objectives score, with the counts behind them."""
    ok = [f for f in facts if f.error is None]
    n = len(ok)
    errors = len(facts) - n
    if n == 0:
        return {"games": 0, "errors": errors, "error": facts[0].error if facts else "no games"}
    stalls = sum(1 for f in ok if any(w in f.end_reason.lower() for w in STALL_WORDS))
    tiebreaks = sum(1 for f in ok if f.tiebreak not in (None, "", "points"))
    first_wins = sum(
        1.0 / len(f.winners) for f in ok if f.first_player >= 0 and f.first_player in f.winners
    )
    minutes = [game_minutes(info, f, players) for f in ok]
    quick = sum(m[0] for m in minutes) / n
    slow = sum(m[1] for m in minutes) / n
    box = info.box_minutes.get(players)
    if box is None:
        box_miss = 0.0
    else:
        lo, hi = box
        if slow < lo:
            box_miss = (lo - slow) / lo
        elif quick > hi:
            box_miss = (quick - hi) / hi
        else:
            box_miss = 0.0
    edge = first_wins / n - 1.0 / players
    seats = [x for f in ok for x in f.scores]
    out = {
        "games": n,
        "errors": errors,
        "stall_share": stalls / n,
        "tiebreak_share": tiebreaks / n,
        "first_seat_win_share": first_wins / n,
        "first_seat_edge": edge,
        "first_seat_edge_ci95": 1.96 * math.sqrt(max(1e-12, (1 / players) * (1 - 1 / players) / n)),
        "minutes": [round(quick, 2), round(slow, 2)],
        "minutes_sd": round(_sd([(a + b) / 2 for a, b in minutes]), 3),
        "box_minutes": list(box) if box else None,
        "box_miss": box_miss,
        "mean_decisions": sum(sum(f.decisions.values()) for f in ok) / n,
        "end_reasons": dict(Counter(f.end_reason for f in ok).most_common()),
        "seats": len(seats),
        "zero_seat_share": sum(1 for x in seats if x == 0) / len(seats) if seats else 0.0,
        "no_lead_change_share": sum(1 for f in ok if f.lead_changes == 0) / n,
    }
    drawn = [f for f in ok if f.draw_dead is not None]
    out["draw_games"] = len(drawn)
    if drawn:  # no Draw counter in any game: the figure is left out (no data), not 0
        out["dead_draw_share"] = sum(1 for f in drawn if f.draw_dead) / len(drawn)
        out["dry_draw_offer_share"] = sum(f.dry_draw_offers for f in drawn) / sum(
            f.draw_offers for f in drawn
        )

    out["file_targets"] = file_target_rows(game_file_targets(info), out)
    return out


def _sd(values: list[float]) -> float:
    """Sample spread of per-game minutes (the power of a box-time change needs it)."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def game_targets(
    info: GameInfo, players: int, variant: Variant, run_seed: int, games: int
) -> list[dict[str, Any]]:
    """The game's own design targets, when its claims module offers them.

    A game may define ``tune_targets(players, variant, run_seed, games)`` in its
    `claims.py`, returning one dict per target: ``id``, ``text``, ``threshold``,
    ``value`` (what was measured) and ``miss`` (0 when it holds, about 1 when far
    off). The tuner adds the misses to the shared targets' (`objectives.misses`),
    so a search can aim at what the rulebook promises about this game, not only
    at game length and seat balance. (SUPER COMPUTER: its placement
    targets.)"""
    claims = info.module("claims")
    hook = getattr(claims, "tune_targets", None) if claims is not None else None
    if hook is None:
        return []
    out: list[dict[str, Any]] = hook(players, variant, run_seed, games)
    return out


def evaluate(
    game_name: str,
    players: int,
    variant: Variant,
    run_seed: int,
    games: int,
    agents: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Play and measure one trial: the shared figures, then the game's own targets
    (on the game's own seats; skipped when the trial's games failed)."""
    info = game_info(game_name)
    facts = play_trial(game_name, players, variant, run_seed, games, agents)
    m = metrics(info, players, facts)
    if m.get("games") and not m.get("errors"):
        try:
            m["game_targets"] = game_targets(info, players, variant, run_seed, games)
        except Exception as exc:  # a variant that breaks the game's own study: a failed trial
            m["errors"] = games
            m["error"] = repr(exc)
    return m
