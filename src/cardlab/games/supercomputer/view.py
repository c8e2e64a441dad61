"""What each seat may know: observation, zones, hidden ids and resampling.

Knowledge in a draft (S3): a seat saw every hand it held. `knowers[q]` is the
bitmask of seats that know seat q's current hand exactly: each passer and each
receiver joins it, and revealed picks keep it exact. While q's pick of this
turn is pending, those seats know only the union "q's hand plus q's pick", not
which card was picked, so all of those cards count as hidden (their names are
shown, as a pool, because that union is genuinely known).

The public log uses card names, never ids: parts and builds return to hidden
decks between rounds, and an id in the log would then reveal a hidden card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.moves import Move
from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab.core.trail import EMPTY_TRAIL, Trail
from cardlab.games.supercomputer.actions import cell_xy
from cardlab.games.supercomputer.cards import HAND_SIZE, MAX_PLAYERS

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState


def action_label(s: SuperComputerState, a: int) -> str:
    """Unique among the legal actions of any state (property-tested): picks name the
    part (part names are unique in a card set, validated), placements the revealed
    part and the cell, builds their name."""
    layout, t = s.game.actions, s.tables
    kind = layout.kind(a)
    if kind == "pick":
        return f"pick {t.part_names[a]}"
    if kind == "keep":
        return f"keep build {t.build_names[layout.build(a)]}"
    if kind is None:
        return f"unknown action {a}"
    k = s.part_to_place(s.to_move) if s.decision_kind() == "place" else None
    what = t.part_names[k] if k is not None else "part"
    if kind == "scrap":
        return f"scrap {what}"
    x, y = cell_xy(layout.cell(a))
    return f"place {what} at ({x},{y})"


def describe_action(s: SuperComputerState, a: int) -> Move:
    """What `a` does, for programs (touch play, the replay, the adapters): the part it
    picks from the seat's hand or places, the build it keeps, by id, and the cell."""
    layout, t = s.game.actions, s.tables
    kind = layout.kind(a)
    if kind == "pick":
        return Move("pick", cards=(t.part_ids[a],), costly=True)
    if kind == "keep":
        return Move("keep_build", cards=(t.build_ids[layout.build(a)],), costly=True)
    if kind is None:
        return Move("unknown")
    k = s.part_to_place(s.to_move) if s.decision_kind() == "place" else None
    part = (t.part_ids[k],) if k is not None else ()
    if kind == "scrap":
        return Move("scrap", cards=part, costly=True)
    return Move("place", cards=part, cells=(cell_xy(layout.cell(a)),))


def pick_number(s: SuperComputerState) -> int:
    """The draft pick under way in the round, 1-based (the observation's `turn`)."""
    return min(s.turn + 1, HAND_SIZE)


def decision_text(s: SuperComputerState) -> str:
    q, kind = s.to_move, s.decision_kind()
    if kind == "choose_build":
        return f"seat {q} keeps one of two builds (the other goes under the build deck)"
    if kind == "pick":
        return f"seat {q} picks a part in secret (turn {s.turn + 1} of {HAND_SIZE})"
    if kind == "place":
        return f"seat {q} places {s.tables.part_names[s.to_place[q]]}"
    return "game over"


def knows(s: SuperComputerState, p: int, q: int) -> bool:
    return bool(s.hand_knowers[q] >> p & 1)


def observation(s: SuperComputerState, p: int) -> dict[str, Any]:
    """What seat p may know: the public view, the hands p knows, and "you"."""
    return _view(s, p)


def public_observation(s: SuperComputerState) -> dict[str, Any]:
    """What everyone (players and spectators) may know, "seat": None: no "you" (hand,
    pending pick, build offer, kept and returned builds) and no other seat's hand,
    which only the seats that held it know (a spectator held none)."""
    return _view(s, None)


def _view(s: SuperComputerState, p: int | None) -> dict[str, Any]:
    """One builder for both views, so the public part can never drift from a seat's:
    with p None, every private part is left out."""
    t = s.tables
    pv, bv = t.part_views, t.build_views
    players = []
    for q in range(s.num_players):
        entry: dict[str, Any] = {
            "seat": q,
            "hand_size": len(s.hands[q]),
            "has_picked": s.pending_picks[q] >= 0,
            "computer": [
                {"x": cell_xy(c)[0], "y": cell_xy(c)[1], "card": pv[k]}
                for c, k in sorted(s.computers[q].items())
            ],
            "placing": pv[s.to_place[q]] if s.to_place[q] >= 0 else None,
            "scrap": [pv[k] for k in s.scrap_piles[q]],
            "builds_held": len(s.kept_builds[q]) + len(s.build_offers[q]),
            "builds_revealed": [bv[b] for b in s.revealed_builds[q]],
            "race_won": [bv[b] for b in s.race_won[q]],
            "four_way_attached": s.four_way_attached[q],
            "scrapped_total": s.scrapped_count[q],
        }
        if p is not None and q != p and knows(s, p, q):
            if s.pending_picks[q] >= 0:  # known pool; which card was picked stays secret
                entry["known_hand_and_pick"] = sorted(
                    t.part_names[k] for k in s.hands[q] + [s.pending_picks[q]]
                )
            else:
                entry["known_hand"] = [pv[k] for k in s.hands[q]]
        players.append(entry)
    obs: dict[str, Any] = {
        "game": "supercomputer",
        "seat": p,
        "num_players": s.num_players,
        "current_player": s.to_move,
        "decision": decision_text(s),
        "phase": s.decision_kind(),
        "round": s.round_index + 1,
        "turn": pick_number(s),
        "scores": s.points[:],
        "options": dict(s.game.options),
        "passing": "left" if s.game.pass_direction[s.round_index] == 1 else "right",
        "log": log_entries(s),
        "players": players,
        "race": [bv[b] for b in s.race_builds],
        "build_deck_size": len(s.build_deck),
        "part_deck_size": len(s.part_deck),
        "set_aside": [pv[k] for k in _set_aside(s)],
    }
    if p is not None:
        obs["you"] = {
            "hand": [pv[k] for k in s.hands[p]],
            "pending_pick": pv[s.pending_picks[p]] if s.pending_picks[p] >= 0 else None,
            "build_offer": [bv[b] for b in s.build_offers[p]],
            "builds": [bv[b] for b in s.kept_builds[p]],
            "returned_build": [bv[b] for b in s.returned_builds[p]],
        }
    return obs


SCRAP_WHY = {
    "no_match": "no empty cell beside the computer would connect it",
    "clash": "every cell where it would connect has a touching edge that does not match",
    "case": "it would fit only outside the case (levers case_width, case_height)",
    "chosen": "chosen",
}
"""Why a part was scrapped (S4, S5), as the log says it."""

DECIDED_BY = {
    None: "points",
    "fewest_4way": "fewest 4-way parts attached",
    "fewest_scrapped": "fewest parts scrapped",
    "shared": "shared: tied on points, 4-way parts and scrap",
}
"""The S8 tie-break level that decided, in words."""


class LogNarration:
    """The public log narrated up to some event: `log_entries` narrates each event once
    and keeps the entries here, so an observation costs the events since the last one
    narrated instead of the whole game again.

    Immutable: the state holds one in its `log_memo` slot and its clones share it (a
    clone narrates its own new events into a new one, never into this one); an
    observation hands out copies of the entries, never these. `mark` is the log (a
    persistent trail, cardlab.core.trail) as it stood when narrated: it covers a log
    that is `mark` or grew from it (clones and deep copies share the trail's cells; a
    log built anew, or rebuilt by a pickle, is other cells, so it is narrated afresh).
    The rest is what the narration carries from one event to the next: the round, the
    pick and each seat's game total. It is a cache, so it does not travel: a pickled
    state takes an empty one (rebuilt at the next observation), a deep copy shares it."""

    __slots__ = ("mark", "entries", "round", "pick", "totals")

    def __init__(
        self,
        mark: Trail = EMPTY_TRAIL,
        entries: tuple[dict[str, Any], ...] = (),
        rnd: int = 0,
        pick: int = 0,
        totals: tuple[int, ...] = (),
    ) -> None:
        self.mark = mark
        self.entries = entries
        self.round = rnd
        self.pick = pick
        self.totals = totals

    def covers(self, log: Trail) -> bool:
        """Whether this narrates `log` or an earlier state of it (the same trail cells),
        of one event or more (an empty one, as unpickled, has no totals yet: narrating
        starts afresh). The walk back is over the events since, narrated next anyway
        (a trail keeps no length: only a log built anew is walked whole)."""
        mark = self.mark
        if mark.rest is None:
            return False
        cell = log
        while cell is not mark:
            rest = cell.rest
            if rest is None:
                return False
            cell = rest
        return True

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (LogNarration, ())

    def __copy__(self) -> LogNarration:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> LogNarration:
        return self


def _copy_round(e: dict[str, Any]) -> dict[str, Any]:
    out = e.copy()
    out["race"] = e["race"][:]
    return out


def _copy_reveal(e: dict[str, Any]) -> dict[str, Any]:
    out = e.copy()
    out["picks"] = [pick.copy() for pick in e["picks"]]
    return out


def _copy_race_tie(e: dict[str, Any]) -> dict[str, Any]:
    out = e.copy()
    out["seats"] = e["seats"][:]
    return out


def _copy_score(e: dict[str, Any]) -> dict[str, Any]:
    out = e.copy()
    out["attached"] = [a.copy() for a in e["attached"]]
    out["scrapped"] = [a.copy() for a in e["scrapped"]]
    builds = []
    for b in e["builds"]:
        b = b.copy()
        b["requires"] = b["requires"][:]
        builds.append(b)
    out["builds"] = builds
    return out


def _copy_end(e: dict[str, Any]) -> dict[str, Any]:
    out = e.copy()
    out["winners"] = e["winners"][:]
    out["scores"] = e["scores"][:]
    return out


COPY_NESTED = {
    "round": _copy_round,
    "reveal": _copy_reveal,
    "race_tie": _copy_race_tie,
    "score": _copy_score,
    "end": _copy_end,
}
"""A fresh copy of each log entry that holds lists (of names, seats or dicts), all the way
down; the others hold only strings and numbers and are copied by `dict.copy`."""


def log_entries(s: SuperComputerState) -> list[dict[str, Any]]:
    """The public log as structured entries, card names only (never ids): each has
    `kind`, `round`, `pick` (the turn of the round, 0 before the first reveal), the
    event's own fields and `text`, the readable sentence `narrate` also gives.

    Each event is narrated once (`LogNarration`, kept on the state and shared by its
    clones); every call returns fresh copies, so a caller may change what it gets."""
    log = s.log
    memo = getattr(s, "log_memo", None)  # absent on a state unpickled from an older build
    if not isinstance(memo, LogNarration) or not memo.covers(log):
        memo = LogNarration(totals=(0,) * s.num_players)
    if memo.mark is not log:  # events since the narration (or all, when fresh)
        memo = _narrate_from(s, memo)
        s.log_memo = memo
    out = []
    for e in memo.entries:
        nested = COPY_NESTED.get(e["kind"])
        out.append(e.copy() if nested is None else nested(e))
    return out


def _narrate_from(s: SuperComputerState, memo: LogNarration) -> LogNarration:
    """`memo` extended by the entries of the events after the ones it covers."""
    t, g, log = s.tables, s.game, s.log
    out: list[dict[str, Any]] = []
    rnd, turn = memo.round, memo.pick
    totals = list(memo.totals)
    for event in log.since(memo.mark):
        kind = event[0]
        entry: dict[str, Any] = {"kind": kind}
        if kind == "round":
            _, rnd, race = event
            turn = 0
            entry["passing"] = "left" if g.pass_direction[rnd] == 1 else "right"
            entry["builds"] = g.options["builds"]
            entry["race"] = [t.build_names[b] for b in race]
        elif kind == "keep":
            _, entry["seat"] = event
        elif kind == "reveal":
            _, direction, revealed = event
            turn += 1
            entry["passing"] = "left" if direction == 1 else "right"
            entry["picks"] = [{"seat": q, "part": t.part_names[k]} for q, k in enumerate(revealed)]
        elif kind == "place":
            _, q, k, cell = event
            x, y = cell_xy(cell)
            entry.update(seat=q, part=t.part_names[k], type=t.part_types[k], x=x, y=y)
        elif kind == "scrap":
            _, q, k, reason = event
            entry.update(seat=q, part=t.part_names[k], reason=reason, points=t.red[k][rnd])
        elif kind == "race_win":
            _, q, b = event
            entry.update(seat=q, build=t.build_names[b], points=t.bonus[b][rnd])
        elif kind == "race_tie":
            _, b, seats = event
            entry.update(build=t.build_names[b], seats=list(seats))
        elif kind == "score":
            _, q, _, green, red, bonus, builds, attached, scrapped = event
            total = green + red + bonus
            totals[q] += total
            entry.update(
                seat=q,
                attached=[{"part": n, "points": p} for n, p in attached],
                scrapped=[{"part": n, "points": p} for n, p in scrapped],
                builds=[
                    {
                        "build": n,
                        "requires": list(t.requirement_labels[t.build_index[n]]),
                        "met": m,
                        "points": p,
                    }
                    for n, p, m in builds
                ],
                parts_points=green,
                scrap_points=red,
                build_points=bonus,
                round_points=total,
                game_points=totals[q],
            )
        else:  # "end"
            _, winners, level = event
            entry.update(winners=list(winners), decided_by=level, scores=totals[:])
        entry["round"] = rnd + 1
        entry["pick"] = turn
        entry["text"] = sentence(entry)
        out.append(entry)
    return LogNarration(log, memo.entries + tuple(out), rnd, turn, tuple(totals))


def _seats(seats: list[int]) -> str:
    names = [f"seat {q}" for q in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pts(p: int) -> str:
    return f"{p:+d}" if p else "0"


def _score_sentence(e: dict[str, Any]) -> str:
    attached = ", ".join(f"{a['part']} {_pts(a['points'])}" for a in e["attached"])
    parts = f"parts {_pts(e['parts_points'])}" + (f" ({attached})" if attached else "")
    scrapped = ", ".join(f"{a['part']} {_pts(a['points'])}" for a in e["scrapped"])
    scrap = f"scrap {_pts(e['scrap_points'])}" + (f" ({scrapped})" if scrapped else "")
    builds = [
        f"{b['build']} [{', '.join(b['requires'])}] {'met' if b['met'] else 'not met'} "
        f"{_pts(b['points'])}"
        for b in e["builds"]
    ]
    build = (
        "build "
        + (", ".join(builds) if builds else "none")
        + (f" = {_pts(e['build_points'])}" if len(builds) > 1 else "")
    )
    return (
        f"Seat {e['seat']} scores round {e['round']}: {parts}; {scrap}; {build}. "
        f"Round {_pts(e['round_points'])}, game total {e['game_points']}."
    )


def sentence(e: dict[str, Any]) -> str:
    """One readable sentence for a log entry, from its fields alone."""
    kind = e["kind"]
    if kind == "round":
        if e["builds"] == "public_race":
            builds = "face-up builds to race for: " + (", ".join(e["race"]) or "none")
        elif e["builds"] == "keep_both":
            builds = "each seat is dealt 2 builds and keeps both"
        else:
            builds = "each seat is dealt 2 builds and keeps 1 in secret"
        return (
            f"Round {e['round']} begins: every part is reshuffled and 7 dealt to each seat; "
            f"{builds}; hands pass {e['passing']}."
        )
    if kind == "keep":
        return f"Seat {e['seat']} keeps one build in secret and puts the other under the deck."
    if kind == "reveal":
        shown = "; ".join(f"seat {p['seat']} {p['part']}" for p in e["picks"])
        return f"Pick {e['pick']} revealed: {shown}. The hands passed {e['passing']}."
    if kind == "place":
        if (e["x"], e["y"]) == (0, 0):  # S4: the round's first part defines (0,0)
            return f"Seat {e['seat']} starts its computer with {e['part']} at (0,0)."
        return f"Seat {e['seat']} attaches {e['part']} at ({e['x']},{e['y']})."
    if kind == "scrap":
        why = SCRAP_WHY.get(e["reason"], e["reason"])
        if e["reason"] == "chosen":
            return (
                f"Seat {e['seat']} chooses to scrap {e['part']} ({_pts(e['points'])} at round end)."
            )
        return (
            f"Seat {e['seat']} cannot attach {e['part']}: {why}. "
            f"It is scrap ({_pts(e['points'])} at round end)."
        )
    if kind == "race_win":
        return (
            f"Seat {e['seat']} is the only one to meet the face-up build {e['build']} "
            f"and wins it ({_pts(e['points'])} at round end)."
        )
    if kind == "race_tie":
        return f"Face-up build {e['build']} is discarded: {_seats(e['seats'])} met it on the same turn."
    if kind == "score":
        return _score_sentence(e)
    winners, scores = e["winners"], e["scores"]
    best = max(scores) if scores else 0
    who = _seats(winners)
    if e["decided_by"] is None:
        return f"Game over: {who} wins with {best} points."
    if e["decided_by"] == "shared":
        return f"Game over: tied on {best} points, 4-way parts and scrap; {who} share the win (S8)."
    return f"Game over: tied on {best} points; {who} wins on {DECIDED_BY[e['decided_by']]} (S8)."


def group_of(e: dict[str, Any]) -> str:
    """The narrative group of a log entry: "Round 2", "Round 2, pick 3", ..."""
    kind, r = e["kind"], e["round"]
    if kind == "end":
        return "Game over"
    if kind == "score":
        return f"Round {r}, scoring"
    if kind == "round" or (kind == "keep" and e["pick"] == 0):
        return f"Round {r}"
    return f"Round {r}, pick {e['pick']}"


def narrate(observation: dict[str, Any]) -> list[NarrativeLine]:
    """Every public event of the observation's log as a readable line (core.narrative)."""
    return [
        NarrativeLine(index=i, group=group_of(e), text=sentence(e), seat=e.get("seat"))
        for i, e in enumerate(observation["log"])
    ]


ROUND_COLUMNS = ("parts", "scrap", "build")


def _tie_counts(observation: dict[str, Any]) -> str:
    """The S8 counts of the seats tied on points, for the tie-break line."""
    scores, players = observation["scores"], observation["players"]
    tied = [q for q, v in enumerate(scores) if v == max(scores)]
    return "; ".join(
        f"seat {q}: {players[q]['four_way_attached']} 4-way attached, "
        f"{players[q]['scrapped_total']} scrapped"
        for q in tied
    )


def final_table(observation: dict[str, Any]) -> FinalTable:
    """Per seat and round: green of attached parts, red of scrap, build bonus or
    penalty; the columns add up to the score. The winners and what decided (S8)."""
    n = observation["num_players"]
    columns = tuple(f"R{r} {c}" for r in (1, 2, 3) for c in ROUND_COLUMNS)
    parts = [[0] * len(columns) for _ in range(n)]
    winners: tuple[int, ...] = ()
    decided = "not over"
    for e in observation["log"]:
        if e["kind"] == "score":
            base = (e["round"] - 1) * len(ROUND_COLUMNS)
            row = parts[e["seat"]]
            row[base : base + 3] = [e["parts_points"], e["scrap_points"], e["build_points"]]
        elif e["kind"] == "end":
            winners = tuple(e["winners"])
            decided = DECIDED_BY[e["decided_by"]]
    players = observation["players"]
    if decided not in ("points", "not over"):
        decided = f"{decided} ({_tie_counts(observation)})"
    rows = tuple(
        FinalRow(
            seat=q,
            name=f"Seat {q}",
            parts=tuple(float(v) for v in parts[q]),
            total=float(observation["scores"][q]),
        )
        for q in range(n)
    )
    notes = (
        "4-way parts attached: "
        + ", ".join(f"seat {q} {players[q]['four_way_attached']}" for q in range(n)),
        "parts scrapped: "
        + ", ".join(f"seat {q} {players[q]['scrapped_total']}" for q in range(n)),
    )
    return FinalTable(columns, rows, winners, decided, notes)


def _set_aside(s: SuperComputerState) -> list[int]:
    """S2: for 2-4 players the "<4" parts are set aside, face up, for the whole game."""
    if s.num_players == MAX_PLAYERS:
        return []
    base = set(s.tables.base_parts)
    return [k for k in s.tables.all_parts if k not in base]


def zones(s: SuperComputerState) -> dict[str, list[str]]:
    pid, bid = s.tables.part_ids, s.tables.build_ids
    z: dict[str, list[str]] = {
        "hidden:deck": [pid[k] for k in s.part_deck],
        "public:set_aside": [pid[k] for k in _set_aside(s)],
        "hidden:build_deck": [bid[b] for b in s.build_deck],
        "public:race": [bid[b] for b in s.race_builds],
        "public:race_discard": [bid[b] for b in s.race_discard],
    }
    for q in range(s.num_players):
        z[f"private:{q}:hand"] = [pid[k] for k in s.hands[q]]
        z[f"private:{q}:pick"] = [pid[s.pending_picks[q]]] if s.pending_picks[q] >= 0 else []
        z[f"public:placing:{q}"] = [pid[s.to_place[q]]] if s.to_place[q] >= 0 else []
        z[f"public:computer:{q}"] = [pid[k] for k in s.computers[q].values()]
        z[f"public:scrap:{q}"] = [pid[k] for k in s.scrap_piles[q]]
        z[f"private:{q}:build_offer"] = [bid[b] for b in s.build_offers[q]]
        z[f"private:{q}:builds"] = [bid[b] for b in s.kept_builds[q]]
        z[f"public:builds_revealed:{q}"] = [bid[b] for b in s.revealed_builds[q]]
        z[f"public:race_won:{q}"] = [bid[b] for b in s.race_won[q]]
    return z


def hidden_card_ids(s: SuperComputerState, p: int) -> set[str]:
    """Cards p cannot place: decks (except the build p itself put under the deck),
    other seats' builds, and other hands p has not held or whose pick is pending."""
    pid, bid = s.tables.part_ids, s.tables.build_ids
    hidden = {pid[k] for k in s.part_deck}
    hidden.update(bid[b] for b in s.build_deck if b not in s.returned_builds[p])
    for q in range(s.num_players):
        if q == p:
            continue
        hidden.update(bid[b] for b in s.build_offers[q] + s.kept_builds[q])
        if not knows(s, p, q) or s.pending_picks[q] >= 0:
            hidden.update(pid[k] for k in s.hands[q])
            if s.pending_picks[q] >= 0:
                hidden.add(pid[s.pending_picks[q]])
    return hidden
