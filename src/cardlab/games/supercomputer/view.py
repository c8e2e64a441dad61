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

import random
from typing import TYPE_CHECKING, Any

from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine
from cardlab.games.supercomputer.tables import cell_xy

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState

PHASE_NAMES = ("choose_build", "pick", "place", "over")


def action_label(s: SuperComputerState, a: int) -> str:
    """Unique among the legal actions of any state (property-tested): picks name the
    part (part names are unique in a card set, validated), placements the revealed
    part and the cell, builds their name."""
    g, t = s.game, s.t
    if 0 <= a < g.place0:
        return f"pick {t.names[a]}"
    if g.place0 <= a < g.scrap_action:
        x, y = cell_xy(a - g.place0)
        k = s.placing[s.cur] if s.phase == 2 else -1
        what = t.names[k] if k >= 0 else "part"
        return f"place {what} at ({x},{y})"
    if a == g.scrap_action:
        k = s.placing[s.cur] if s.phase == 2 else -1
        return f"scrap {t.names[k]}" if k >= 0 else "scrap"
    if g.build0 <= a < g.num_distinct_actions:
        return f"keep build {t.build_names[a - g.build0]}"
    return f"unknown action {a}"


def decision_text(s: SuperComputerState) -> str:
    q, t = s.cur, s.t
    if s.phase == 0:
        return f"seat {q} keeps one of two builds (the other goes under the build deck)"
    if s.phase == 1:
        return f"seat {q} picks a part in secret (turn {s.turn + 1} of 7)"
    if s.phase == 2:
        return f"seat {q} places {t.names[s.placing[q]]}"
    return "game over"


def _knows(s: SuperComputerState, p: int, q: int) -> bool:
    return bool(s.knowers[q] >> p & 1)


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
    t = s.t
    pv, bv = t.part_views, t.build_views
    players = []
    for q in range(s.n):
        entry: dict[str, Any] = {
            "seat": q,
            "hand_size": len(s.hands[q]),
            "has_picked": s.picks[q] >= 0,
            "computer": [
                {"x": cell_xy(c)[0], "y": cell_xy(c)[1], "card": pv[k]}
                for c, k in sorted(s.grids[q].items())
            ],
            "placing": pv[s.placing[q]] if s.placing[q] >= 0 else None,
            "scrap": [pv[k] for k in s.scrap[q]],
            "builds_held": len(s.kept[q]) + len(s.offer[q]),
            "builds_revealed": [bv[b] for b in s.shown[q]],
            "race_won": [bv[b] for b in s.race_won[q]],
            "four_way_attached": s.fourway[q],
            "scrapped_total": s.scrapped[q],
        }
        if p is not None and q != p and _knows(s, p, q):
            if s.picks[q] >= 0:  # known pool; which card was picked stays secret
                entry["known_hand_and_pick"] = sorted(t.names[k] for k in s.hands[q] + [s.picks[q]])
            else:
                entry["known_hand"] = [pv[k] for k in s.hands[q]]
        players.append(entry)
    obs: dict[str, Any] = {
        "game": "supercomputer",
        "seat": p,
        "num_players": s.n,
        "current_player": s.cur,
        "decision": decision_text(s),
        "phase": PHASE_NAMES[s.phase],
        "round": s.rnd + 1,
        "turn": min(s.turn + 1, 7),
        "scores": s.score[:],
        "options": dict(s.game.options),
        "passing": "left" if s.game.pass_step[s.rnd] == 1 else "right",
        "log": log_entries(s),
        "players": players,
        "race": [bv[b] for b in s.race],
        "build_deck_size": len(s.bdeck),
        "part_deck_size": len(s.deck),
        "set_aside": [pv[k] for k in _set_aside(s)],
    }
    if p is not None:
        obs["you"] = {
            "hand": [pv[k] for k in s.hands[p]],
            "pending_pick": pv[s.picks[p]] if s.picks[p] >= 0 else None,
            "build_offer": [bv[b] for b in s.offer[p]],
            "builds": [bv[b] for b in s.kept[p]],
            "returned_build": [bv[b] for b in s.returned[p]],
        }
    return obs


SCRAP_WHY = {
    "no_match": "no empty cell beside the computer would connect it",
    "clash": "every cell where it would connect has a touching edge that does not match",
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


def log_entries(s: SuperComputerState) -> list[dict[str, Any]]:
    """The public log as structured entries, card names only (never ids): each has
    `kind`, `round`, `pick` (the turn of the round, 0 before the first reveal), the
    event's own fields and `text`, the readable sentence `narrate` also gives."""
    t, g = s.t, s.game
    out: list[dict[str, Any]] = []
    rnd, turn = 0, 0
    totals = [0] * s.n
    for e in s.log:
        kind = e[0]
        entry: dict[str, Any] = {"kind": kind}
        if kind == "round":
            rnd, turn = e[1], 0
            entry["passing"] = "left" if g.pass_step[rnd] == 1 else "right"
            entry["builds"] = g.options["builds"]
            entry["race"] = [t.build_names[b] for b in e[2]]
        elif kind == "keep":
            entry["seat"] = e[1]
        elif kind == "reveal":
            turn += 1
            entry["passing"] = "left" if e[1] == 1 else "right"
            entry["picks"] = [{"seat": q, "part": t.names[k]} for q, k in enumerate(e[2])]
        elif kind == "place":
            x, y = cell_xy(e[3])
            entry.update(seat=e[1], part=t.names[e[2]], type=t.types[e[2]], x=x, y=y)
        elif kind == "scrap":
            entry.update(seat=e[1], part=t.names[e[2]], reason=e[3], points=t.red[e[2]][rnd])
        elif kind == "race_win":
            entry.update(seat=e[1], build=t.build_names[e[2]], points=t.bonus[e[2]][rnd])
        elif kind == "race_tie":
            entry.update(build=t.build_names[e[1]], seats=list(e[2]))
        elif kind == "score":
            q = e[1]
            total = e[3] + e[4] + e[5]
            totals[q] += total
            entry.update(
                seat=q,
                attached=[{"part": n, "points": p} for n, p in e[7]],
                scrapped=[{"part": n, "points": p} for n, p in e[8]],
                builds=[
                    {
                        "build": n,
                        "requires": list(t.req_labels[t.build_index[n]]),
                        "met": m,
                        "points": p,
                    }
                    for n, p, m in e[6]
                ],
                parts_points=e[3],
                scrap_points=e[4],
                build_points=e[5],
                round_points=total,
                game_points=totals[q],
            )
        else:  # "end"
            entry.update(winners=list(e[1]), decided_by=e[2], scores=totals[:])
        entry["round"] = rnd + 1
        entry["pick"] = turn
        entry["text"] = sentence(entry)
        out.append(entry)
    return out


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
    if s.n == 5:
        return []
    base = set(s.t.base_parts)
    return [k for k in s.t.all_parts if k not in base]


def zones(s: SuperComputerState) -> dict[str, list[str]]:
    pid, bid = s.t.part_ids, s.t.build_ids
    z: dict[str, list[str]] = {
        "hidden:deck": [pid[k] for k in s.deck],
        "public:set_aside": [pid[k] for k in _set_aside(s)],
        "hidden:build_deck": [bid[b] for b in s.bdeck],
        "public:race": [bid[b] for b in s.race],
        "public:race_discard": [bid[b] for b in s.race_gone],
    }
    for q in range(s.n):
        z[f"private:{q}:hand"] = [pid[k] for k in s.hands[q]]
        z[f"private:{q}:pick"] = [pid[s.picks[q]]] if s.picks[q] >= 0 else []
        z[f"public:placing:{q}"] = [pid[s.placing[q]]] if s.placing[q] >= 0 else []
        z[f"public:computer:{q}"] = [pid[k] for k in s.grids[q].values()]
        z[f"public:scrap:{q}"] = [pid[k] for k in s.scrap[q]]
        z[f"private:{q}:build_offer"] = [bid[b] for b in s.offer[q]]
        z[f"private:{q}:builds"] = [bid[b] for b in s.kept[q]]
        z[f"public:builds_revealed:{q}"] = [bid[b] for b in s.shown[q]]
        z[f"public:race_won:{q}"] = [bid[b] for b in s.race_won[q]]
    return z


def hidden_card_ids(s: SuperComputerState, p: int) -> set[str]:
    """Cards p cannot place: decks (except the build p itself put under the deck),
    other seats' builds, and other hands p has not held or whose pick is pending."""
    pid, bid = s.t.part_ids, s.t.build_ids
    hidden = {pid[k] for k in s.deck}
    hidden.update(bid[b] for b in s.bdeck if b not in s.returned[p])
    for q in range(s.n):
        if q == p:
            continue
        hidden.update(bid[b] for b in s.offer[q] + s.kept[q])
        if not _knows(s, p, q) or s.picks[q] >= 0:
            hidden.update(pid[k] for k in s.hands[q])
            if s.picks[q] >= 0:
                hidden.add(pid[s.picks[q]])
    return hidden


def resample(s: SuperComputerState, p: int, seed: int) -> SuperComputerState:
    """Redeal what p cannot see, consistently with what p knows; re-seed the RNG."""
    rng = random.Random(seed)
    c = s.clone()
    n = s.n
    pool = list(s.deck)
    unknown = []
    for q in range(n):
        if q == p:
            continue
        if _knows(s, p, q):
            if s.picks[q] >= 0:  # p knows the union, not which card was picked
                u = sorted(s.hands[q] + [s.picks[q]])
                rng.shuffle(u)
                c.picks[q] = u[0]
                c.hands[q] = sorted(u[1:])
        else:
            unknown.append(q)
            pool.extend(s.hands[q])
            if s.picks[q] >= 0:
                pool.append(s.picks[q])
    # Sorted before shuffling: the redeal depends only on what p knows and the seed,
    # never on where the hidden cards really lie.
    pool.sort()
    rng.shuffle(pool)
    for q in unknown:
        size = len(s.hands[q])
        c.hands[q] = sorted(pool[:size])
        del pool[:size]
        if s.picks[q] >= 0:
            c.picks[q] = pool.pop()
    c.deck = pool
    # Builds: everything except what p holds, sees, or put under the deck itself.
    mine = set(s.returned[p])
    bpool = [b for b in s.bdeck if b not in mine]
    for q in range(n):
        if q != p:
            bpool.extend(s.offer[q] + s.kept[q])
    bpool.sort()
    rng.shuffle(bpool)
    c.bdeck = [b if b in mine else bpool.pop() for b in s.bdeck]
    for q in range(n):
        if q != p:
            c.offer[q] = sorted(bpool.pop() for _ in s.offer[q])
            c.kept[q] = sorted(bpool.pop() for _ in s.kept[q])
    # Which deck build each other seat put back is unknown to p: draw one per seat.
    free = [b for b in c.bdeck if b not in mine]
    rng.shuffle(free)
    for q in range(n):
        if q != p:
            c.returned[q] = [free.pop() for _ in s.returned[q]]
    c.next_seed = rng.getrandbits(64)
    c._legal = _legal_for(c)
    return c


def _legal_for(c: SuperComputerState) -> list[int]:
    g, q = c.game, c.cur
    if c.phase == 0:
        return [g.build0 + b for b in c.offer[q]]
    if c.phase == 1:
        return c.hands[q][:]
    return c._legal  # placing and game over depend only on public cards
