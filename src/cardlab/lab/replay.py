"""`cardlab replay`: play a cited lab game again, exactly, and tell it.

A lab game is fixed by its run's spec (game, seats, options, variant, card file)
and its index in the run: the game's seed and every bot's seed derive from the
run seed and the index (`cardlab.lab.seeds`), the seating from the index
(`simulate.seating`). So a game cited by a report (its seed) or stored as a
Parquet row of `cardlab simulate --out` replays with the same bots in the same
seats on the same deal, and its narrative (the game's `view.narrate`, through
`cardlab.story`) is printed from the spectator's view of the final state.

A card or variant file that changed since the run would deal another game: its
sha256 is checked against the one recorded, and a mismatch is an error naming
the file. `cardlab play ... --seed S` is not a replay: it seats a human."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab import story
from cardlab.agents import play_game
from cardlab.core import CardlabError
from cardlab.lab.seeds import game_seed
from cardlab.lab.simulate import SimSpec, load_checked, make_agents, make_spec, seating, spec_game
from cardlab.lab.storage import read_records


@dataclass
class Replayed:
    """One replayed game: where it came from, who sat where, how it ended, its story."""

    spec: SimSpec
    index: int
    seed: int
    seats: list[str]
    returns: list[float]
    winners: list[int]
    observation: dict[str, Any]
    recorded: list[float] | None = None
    """The returns the run recorded for this game (a Parquet row), to compare with."""
    steps: list[Any] | None = None
    """With `reveal`: every decision with every zone as it stood (`Step`)."""
    names: dict[str, str] | None = None
    """Card id -> name, as the seats' views named them."""
    final_zones: dict[str, list[str]] | None = None


def command(report_dir: str | Path, seed: int, players: int | None = None) -> str:
    """The replay command a report prints for one of its games (`players`: a game of a
    player-count run rather than the main run)."""
    extra = "" if players is None else f" --players {players}"
    return f"cardlab replay {shlex.quote(str(report_dir))} --seed {seed}{extra}"


SEARCH_GAMES = 100_000
"""Without `--games`, a game seed is looked up among the first this many games of a run."""


def settings_command(spec: SimSpec, seed: int) -> str:
    """The replay command for game `seed` of a run given by its settings rather than a
    report directory: a claim's probe (its own seats, options, player count or card
    file) or an arm of a comparison. It names everything that fixes the game: game,
    player count, seats, run seed and games, the options that differ from the game's
    defaults under the variant, the variant and the card file; `from_settings` reads it
    back. Checked here: the printed options, variant and cards load the same resolved
    options as `spec` (else the command would deal another game)."""
    defaults = load_checked(spec.game, spec.players, {}, spec.cards, spec.variant).options
    given = {k: v for k, v in spec.options if defaults.get(k, object()) != v}
    again = load_checked(spec.game, spec.players, given, spec.cards, spec.variant).options
    if dict(again) != spec.options_dict:
        raise CardlabError(
            f"{spec.game}: the run's options {spec.options_dict} cannot be given on a command "
            "line (they do not load back)"
        )
    parts = [
        "cardlab replay",
        spec.game,
        f"--players {spec.players}",
        "--agents " + shlex.quote(",".join(spec.agents)),
        f"--run-seed {spec.seed}",
        f"--games {spec.games}",
        f"--seed {seed}",
    ]
    parts += [f"-o {shlex.quote(f'{k}={_opt(v)}')}" for k, v in sorted(given.items())]
    if spec.variant:
        parts.append(f"--variant {shlex.quote(spec.variant)}")
    if spec.cards:
        parts.append(f"--cards {shlex.quote(spec.cards)}")
    return " ".join(parts)


def _opt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def from_settings(
    game: str,
    players: int | None,
    agents: str,
    run_seed: int,
    games: int | None,
    options: dict[str, Any],
    cards: str | None,
    variant: str | None,
    seed: int | None = None,
    index: int | None = None,
) -> tuple[SimSpec, int]:
    """The run and index of one game given by its run's settings (`settings_command`):
    by game seed (looked up among the run's `games`, or the first `SEARCH_GAMES`) or by
    index. The game depends on the run's settings and the index only, never on how
    many games the run played, so `games` only bounds the look-up."""
    if (index is None) == (seed is None):
        raise CardlabError(f"{game}: give the game by --seed or by --index (one of them)")
    if games is not None and games < 1:
        raise CardlabError(f"--games must be at least 1, not {games}")
    bound = games or SEARCH_GAMES
    spec = make_spec(game, players, agents, run_seed, bound, options, cards, variant)
    if index is not None:
        if index < 0 or index >= bound:
            raise CardlabError(f"{game}: --index {index} is not a game of a {bound}-game run")
        return spec, index
    assert seed is not None
    found = _index_of(spec, seed)
    if found is None:
        raise CardlabError(
            f"{game}: seed {seed} is not one of the first {bound:,} games of run seed "
            f"{run_seed} (give the run's --run-seed and --games as the report printed them)"
        )
    return spec, found


def _check_files(spec: SimSpec, cards_sha256: str, variant_sha256: str, where: str) -> None:
    """The card and variant files must be the bytes the run played."""
    if spec.cards and cards_sha256 and spec.cards_sha256 != cards_sha256:
        raise CardlabError(
            f"{where}: the card file {spec.cards} changed since the run (sha256 "
            f"{cards_sha256[:12]}... recorded, {spec.cards_sha256[:12]}... now): it would "
            "deal another game"
        )
    if spec.variant and variant_sha256 and spec.variant_sha256 != variant_sha256:
        raise CardlabError(
            f"{where}: the variant {spec.variant} changed since the run (sha256 "
            f"{variant_sha256[:12]}... recorded, {spec.variant_sha256[:12]}... now)"
        )


def _index_of(spec: SimSpec, seed: int) -> int | None:
    return next((i for i in range(spec.games) if game_seed(spec.seed, i) == seed), None)


def from_report(
    directory: str | Path, seed: int, players: int | None = None
) -> tuple[SimSpec, int]:
    """The run and index of game `seed` in a report: its main run, or with `players` the
    run at that count (the player-count runs share the main run's seed, so one game seed
    names a game at every count: the count picks which)."""
    path = Path(directory) / "report.json"
    try:
        report = json.loads(path.read_text())
        s = report["settings"]
    except (OSError, json.JSONDecodeError, KeyError) as exc:
        raise CardlabError(f"{path}: not a cardlab report ({exc})") from None
    runs = [(s["players"], s["games"])]
    runs += [(pc["players"], pc["games"]) for pc in report.get("player_counts", [])]
    wanted = s["players"] if players is None else players
    if wanted not in {n for n, _ in runs}:
        raise CardlabError(
            f"{path}: no run at {wanted} players (runs at {sorted({n for n, _ in runs})})"
        )
    for n, games in dict.fromkeys(runs):
        if n != wanted:
            continue
        spec = make_spec(
            report["game"],
            n,
            s["agents"],
            s["seed"],
            games,
            # the options as given (the resolved ones may depend on the player count)
            s["options_given"] if "options_given" in s else s.get("options") or {},
            s.get("cards"),
            s.get("variant"),
        )
        index = _index_of(spec, seed)
        if index is not None:
            _check_files(spec, s.get("cards_sha256", ""), s.get("variant_sha256", ""), str(path))
            return spec, index
    counts = ", ".join(f"{p}p x{g}" for p, g in dict.fromkeys(runs) if p == wanted)
    raise CardlabError(
        f"{path}: seed {seed} is not a game of this report's {wanted}-player run ({counts}, run seed "
        f"{s['seed']}); a claim's probe game replays with the `cardlab replay {report['game']} ...` "
        "command its row prints (its own settings)"
    )


def from_parquet(
    path: str | Path, index: int | None = None, seed: int | None = None
) -> tuple[SimSpec, int, list[float]]:
    """The run, index and recorded returns of one row of a stored run."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
        spec_json = meta[b"cardlab.spec"]
    except (OSError, KeyError) as exc:
        raise CardlabError(f"{path}: not a run written by cardlab simulate --out ({exc})") from None
    data = json.loads(spec_json)
    recorded = SimSpec(
        **{**data, "agents": tuple(data["agents"]), "options": tuple(map(tuple, data["options"]))}
    )
    records = read_records(path)
    if (index is None) == (seed is None):
        raise CardlabError(f"{path}: give the game by --index or by --seed (one of them)")
    row = next((r for r in records if (r.index == index if seed is None else r.seed == seed)), None)
    if row is None:
        what = f"index {index}" if seed is None else f"seed {seed}"
        raise CardlabError(f"{path}: no game with {what} (the run has {len(records)} rows)")
    spec = make_spec(
        recorded.game,
        recorded.players,
        list(recorded.agents),
        recorded.seed,
        recorded.games,
        recorded.options_dict,
        recorded.cards,
        recorded.variant,
    )
    _check_files(spec, recorded.cards_sha256, recorded.variant_sha256, str(path))
    return spec, row.index, list(row.scores)


@dataclass
class Step:
    """One decision of a revealed replay: who chose what, and every zone (hands, decks,
    the table) as it stood when they chose."""

    number: int
    seat: int
    label: str
    zones: dict[str, list[str]]


def replay(
    spec: SimSpec, index: int, recorded: list[float] | None = None, reveal: bool = False
) -> Replayed:
    """Play game `index` of `spec` as the run played it (`simulate.play_one`'s seats and
    seeds) and keep the spectator's view of its end. `reveal`: also keep, at every
    decision, every zone of the true state (each hand, each deck in order) and the names
    every seat's view gave its cards: the designer's omniscient view of a lab game (a
    live table's games are never replayed: they are not lab runs)."""
    seed = game_seed(spec.seed, index)
    game = spec_game(spec)
    seen: list[Any] = []
    steps: list[Step] = []
    names: dict[str, str] = {}

    def watch(state: Any, seat: int, action: int) -> None:
        if not seen:
            seen.append(state)  # the live state play_game mutates: its end at the end
        if reveal:
            for p in range(spec.players):
                _learn_names(state.observation(p), names)
            steps.append(Step(len(steps) + 1, seat, state.action_to_string(action), state.zones()))

    result = play_game(game, make_agents(spec, seed, index), seed=seed, on_action=watch)
    state = seen[0] if seen else game.new_initial_state(seed)
    if reveal:
        _learn_names(state.public_observation(), names)
        for p in range(spec.players):
            _learn_names(state.observation(p), names)
    return Replayed(
        spec,
        index,
        seed,
        seating(spec, index),
        [float(x) for x in result.returns],
        [int(w) for w in result.winners],
        state.public_observation(),
        recorded,
        steps if reveal else None,
        names,
        state.zones() if reveal else None,
    )


def _learn_names(node: Any, names: dict[str, str]) -> None:
    """Card names from a view: every `{"id": ..., "name": ...}` in it (a seat's own hand,
    the table). A card no seat ever saw keeps its id."""
    if isinstance(node, dict):
        cid, name = node.get("id"), node.get("name")
        if isinstance(cid, str) and isinstance(name, str):
            names.setdefault(cid, name)
        for value in node.values():
            _learn_names(value, names)
    elif isinstance(node, list):
        for value in node:
            _learn_names(value, names)


def _zone_line(zone: str, cards: list[str], names: dict[str, str]) -> str:
    shown = ", ".join(names.get(c, c) for c in cards) if cards else "(empty)"
    return f"{zone} ({len(cards)}): {shown}"


def reveal_text(game: Replayed) -> str:
    """The game step by step with everything shown: before each decision, every zone
    that changed since the last step (all of them at the first): each seat's hand, each
    deck in the order the engine keeps it, the table; then the seat's choice. Cards are named as the seats'
    own views named them (the id where no seat ever saw the card)."""
    steps = game.steps or []
    names = game.names or {}
    lines = [
        "REVEALED: every hand and deck is shown (a lab game, never a live table's)",
        "",
    ]
    last: dict[str, list[str]] = {}
    for step in steps:
        changed = {z: c for z, c in step.zones.items() if last.get(z) != c}
        if changed:
            lines += [f"    {_zone_line(z, c, names)}" for z, c in changed.items()]
        who = game.seats[step.seat] if 0 <= step.seat < len(game.seats) else "?"
        lines.append(f"{step.number:>4}. seat {step.seat} ({who}): {step.label}")
        last = step.zones
    if game.final_zones is not None:
        changed = {z: c for z, c in game.final_zones.items() if last.get(z) != c}
        lines += ["", "at the end:"] + [
            f"    {_zone_line(z, c, names)}" for z, c in changed.items()
        ]
    return "\n".join(lines)


def text(game: Replayed) -> str:
    """The replayed game told in plain text: its settings, the narrative, the final table."""
    spec = game.spec
    lines = [
        f"{spec.game}, {spec.players} players, game {game.index} of run seed {spec.seed} "
        f"(game seed {game.seed})",
        "seats: " + ", ".join(f"{i}: {a}" for i, a in enumerate(game.seats)),
        "rules: " + (", ".join(f"{k}={v}" for k, v in spec.options) or "as written"),
        f"variant: {spec.variant} (sha256 {spec.variant_sha256})"
        if spec.variant
        else "variant: none",
        f"cards: {spec.cards} (sha256 {spec.cards_sha256})" if spec.cards else "cards: packaged",
        "",
    ]
    for group, rows in story.grouped(story.narrate(spec.game, game.observation)):
        if group:
            lines.append(f"== {group}")
        lines += [f"  {row.text}" for row in rows]
    table = story.final_table(spec.game, game.observation)
    if table is not None:
        lines += ["", "Final table: " + " | ".join(("seat", *table.columns, "total"))]
        lines += [
            "  " + " | ".join((r.name, *(f"{x:g}" for x in r.parts), f"{r.total:g}"))
            for r in table.rows
        ]
        lines.append(f"  decided by {table.decided_by}" if table.decided_by else "")
    lines += [
        "",
        f"returns {game.returns}; winners {game.winners}",
    ]
    if game.recorded is not None:
        same = game.recorded == game.returns
        lines.append(
            "the recorded returns match" if same else f"DIFFERS from the recorded {game.recorded}"
        )
    return "\n".join(lines)
