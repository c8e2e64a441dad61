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

from cardlab.games.supercomputer.tables import cell_xy

if TYPE_CHECKING:
    from cardlab.games.supercomputer.state import SuperComputerState

PHASE_NAMES = ("choose_build", "pick", "place", "over")


def action_label(s: SuperComputerState, a: int) -> str:
    g, t = s.game, s.t
    if 0 <= a < g.place0:
        return f"pick {t.names[a]}"
    if g.place0 <= a < g.scrap_action:
        x, y = cell_xy(a - g.place0)
        k = s.placing[s.cur] if s.phase == 2 else -1
        what = t.types[k] if k >= 0 else "part"
        return f"{what} at ({x},{y})"
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
        "log": [format_event(s, e) for e in s.log],
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


def format_event(s: SuperComputerState, e: tuple[Any, ...]) -> str:
    t = s.t
    kind = e[0]
    if kind == "round":
        return f"round {e[1] + 1}: parts and builds reshuffled and dealt"
    if kind == "keep":
        return f"seat {e[1]} kept a build and put the other under the deck"
    if kind == "reveal":
        shown = ", ".join(f"seat {q} revealed {t.names[k]}" for q, k in enumerate(e[2]))
        return f"all picked; hands passed {'left' if e[1] == 1 else 'right'}; {shown}"
    if kind == "place":
        x, y = cell_xy(e[3])
        return f"seat {e[1]} attached {t.names[e[2]]} at ({x},{y})"
    if kind == "scrap":
        why = "chose to scrap" if e[3] else "could not attach, scrapped"
        return f"seat {e[1]} {why} {t.names[e[2]]}"
    if kind == "race_win":
        return f"seat {e[1]} won the build {t.build_names[e[2]]}"
    if kind == "race_tie":
        return f"build {t.build_names[e[1]]} discarded: met by seats {list(e[2])} together"
    if kind == "score":
        builds = ", ".join(f"{n} {'met' if m else 'unmet'} {p:+d}" for n, p, m in e[6])
        return (
            f"round {e[2] + 1} score seat {e[1]}: green {e[3]:+d}, scrap {e[4]:+d}, "
            f"builds {e[5]:+d} ({builds or 'none'}) = {e[3] + e[4] + e[5]:+d}"
        )
    return "game over"


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
