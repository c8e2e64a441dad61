"""The contract checks, one property each, usable on their own (a game's
Hypothesis tests call them with drawn seeds) or all together by `check_game`.

They use only the public game API, so they hold every engine to the same
contract. A failure raises `ConformanceError` (an AssertionError, so pytest
shows it as a failed test) whose message says what broke and where; run by
`check_state` / `random_game`, it also names the check and carries the seed and
actions that reproduce it (`cardlab.testing.failures`)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from cardlab.core import Game, GameState, IllegalActionError
from cardlab.testing.botview import check_bot_view, same_input
from cardlab.testing.failures import ConformanceError, checking, replaying
from cardlab.testing.moves import check_moves
from cardlab.testing.redeal import RedealStats, check_constraints, note_redeals


def expect(ok: object, message: str) -> None:
    if not ok:
        raise ConformanceError(message)


def snapshot(state: GameState) -> str:
    """Everything observable about a state, as one string, to detect any change."""
    n = state.game.num_players
    return json.dumps(
        {
            "obs": [state.observation(p) for p in range(n)],
            "zones": state.zones(),
            "history": state.history(),
            "player": state.current_player(),
            "terminal": state.is_terminal(),
            "legal": [] if state.is_terminal() else state.legal_actions(),
        },
        sort_keys=True,
    )


def all_ids(state: GameState) -> list[str]:
    return sorted(i for ids in state.zones().values() for i in ids)


def check_conservation(state: GameState, expected: list[str]) -> None:
    """Every card is in exactly one zone, and none was lost or invented."""
    ids = all_ids(state)
    dupes = [i for i, c in Counter(ids).items() if c > 1]
    expect(not dupes, f"cards in two places: {dupes}")
    expect(ids == expected, f"cards lost or invented: {sorted(set(expected) ^ set(ids))}")


class Seen:
    """One moment's observations, each built and serialised once for every check of
    that moment (the leak search, the JSON check, the resample and the refused-action
    comparisons): an observation carries the whole public log, so building and
    serialising it is most of what a check costs."""

    __slots__ = ("obs", "texts", "public", "public_text")

    def __init__(self, state: GameState) -> None:
        n = state.game.num_players
        self.obs = [state.observation(p) for p in range(n)]
        self.texts = [json.dumps(o) for o in self.obs]
        self.public = state.public_observation()
        self.public_text = json.dumps(self.public)


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


@lru_cache(maxsize=256)
def _pattern(hidden: frozenset[str]) -> re.Pattern[str]:
    """The whole-word pattern for ids that are not plain word tokens (rare), compiled
    once per set of ids."""
    return re.compile(r"\b(" + "|".join(re.escape(cid) for cid in sorted(hidden)) + r")\b")


def _leaked(text: str, hidden: set[str]) -> str | None:
    """The first (in id order) of `hidden` that occurs in `text` as a whole word, if any:
    the matches of ``\\bID\\b``. An id made of word characters (letters, digits, ``_``:
    the fixed-width tokens the contract asks for) is found with `str.find` and its
    neighbours tested, with no pattern built; other ids go through one compiled pattern
    per set."""
    odd = []
    for cid in sorted(hidden):
        if not cid or not (_word_char(cid[0]) and _word_char(cid[-1])):
            odd.append(cid)
            continue
        at = text.find(cid)
        size = len(cid)
        while at >= 0:
            end = at + size
            if (at == 0 or not _word_char(text[at - 1])) and (
                end == len(text) or not _word_char(text[end])
            ):
                return cid
            at = text.find(cid, at + 1)
    if odd:
        found = _pattern(frozenset(odd)).search(text)
        if found:
            return found.group(1)
    return None


def check_no_leak(state: GameState, seen: Seen | None = None) -> None:
    """No seat's observation names a card hidden from it, and the public view
    (what a spectator gets) names no card in `public_hidden_card_ids()`. The search
    is over each observation's JSON, log included, for the ids hidden *now*: an id
    the log named while the card was face up is found too once a reshuffle has hidden
    that card again (docs/plugins.md, "The leak check's rules")."""
    seen = seen or Seen(state)
    for p in range(state.game.num_players):
        leaked = _leaked(seen.texts[p], state.hidden_card_ids(p))
        expect(leaked is None, f"seat {p} sees hidden card {leaked}")
    public = seen.public
    expect(public.get("seat", "missing") is None, 'the public view has "seat": None')
    public_hidden = state.public_hidden_card_ids()
    for p in range(state.game.num_players):
        # the public view may know no more than any one seat does
        expect(state.hidden_card_ids(p) <= public_hidden, f"seat {p} hides what is public")
    leaked = _leaked(seen.public_text, public_hidden)
    expect(leaked is None, f"the public view shows hidden card {leaked}")


def _refused(state: GameState, action: Any) -> str | None:
    """Apply an action that must be refused; a message if it was not."""
    try:
        state.apply_action(action)
    except IllegalActionError:
        return None
    return f"{action!r} ({type(action).__name__}) was accepted"


def _fingerprint(state: GameState) -> tuple[Any, ...]:
    """The cheap part of `snapshot` (no observations), compared after every refusal."""
    over = state.is_terminal()
    return (state.history(), state.current_player(), over, state.zones(),
            [] if over else state.legal_actions())  # fmt: skip


def check_illegal_refused(state: GameState, rng: random.Random, seen: Seen | None = None) -> None:
    """Illegal ints, and non-ints that equal a legal action (a float, a bool),
    raise IllegalActionError and change nothing. After each refusal the history, who
    moves, the zones and the legal actions are compared; after the last, every seat's
    observation too (`seen`: the moment's observations, built once)."""
    legal = state.legal_actions()
    legal_set = set(legal)
    candidates = [a for a in range(-2, state.game.num_distinct_actions + 2) if a not in legal_set]
    wrong_type: list[Any] = [float(legal[0]), str(legal[0]), None, legal[0] == 1]
    tried = [*rng.sample(candidates, min(3, len(candidates))), *wrong_type]
    seen = seen or Seen(state)
    before = _fingerprint(state)
    for action in tried:
        problem = _refused(state, action)
        expect(problem is None, f"seat {state.current_player()}: illegal action {problem}")
        expect(_fingerprint(state) == before, f"the refused action {action!r} changed the state")
    n = state.game.num_players
    if [state.observation(p) for p in range(n)] != seen.obs:
        raise ConformanceError(
            f"the refused actions {tried!r} changed an observation (and nothing else)"
        )


def check_fresh_lists(state: GameState) -> None:
    """`legal_actions()` and `history()` are lists the caller may change freely."""
    for name in ("legal_actions", "history"):
        got = getattr(state, name)()
        expect(type(got) is list, f"{name}() returns a {type(got).__name__}, not a list")
        keep = list(got)
        got.append(-12345)
        expect(getattr(state, name)() == keep, f"changing the list {name}() returned changed it")


def check_labels(state: GameState) -> None:
    """Every legal action is in range and has a label, and no two share one (a
    person or a replay file must be able to tell every choice apart)."""
    legal = state.legal_actions()
    expect(legal, "no legal action before the end")
    expect(len(set(legal)) == len(legal), f"legal_actions() repeats an action: {legal}")
    n = state.game.num_distinct_actions
    expect(all(0 <= a < n for a in legal), f"a legal action outside range({n}): {legal}")
    labels = [state.action_to_string(a) for a in legal]
    expect(all(labels), "an action without a label")
    twins = {label for label, c in Counter(labels).items() if c > 1}
    expect(
        not twins,
        f"seat {state.current_player()} ({state.decision_kind()}): actions share labels: "
        + "; ".join(
            f"{t!r} = {[a for a, lb in zip(legal, labels, strict=True) if lb == t]}" for t in twins
        ),
    )


def check_resample(
    state: GameState,
    seed: int,
    stats: RedealStats | None = None,
    constrained: bool = True,
    seen: Seen | None = None,
) -> None:
    """A redeal for seat p keeps p's observation, the visible cards and (for the
    seat to move) the legal actions and their labels, and depends only on what
    p knows and the seed. With `stats`, counts whether the redeals moved any
    hidden card (redeal_varies); with `constrained`, checks the game's declared
    `public_constraints` on the truth and the redeals (public_constraints)."""
    truth = state.zones()
    where = {cid: key for key, ids in truth.items() for cid in ids}
    observed = seen.obs if seen is not None else None
    for p in range(state.game.num_players):
        sample = state.resample_from_infostate(p, seed)
        expect(
            sample.observation(p)
            == (observed[p] if observed is not None else state.observation(p)),
            f"resample changed seat {p}'s observation",
        )
        expect(all_ids(sample) == all_ids(state), f"seat {p}'s resample lost or invented cards")
        # What p can see stays where it was; only hidden cards move.
        hidden = state.hidden_card_ids(p)
        redealt = sample.zones()
        for key, ids in redealt.items():
            for cid in ids:
                expect(
                    cid in hidden or where[cid] == key,
                    f"seat {p}'s resample moved visible card {cid}",
                )
        expect(sample.current_player() == state.current_player(), "resample changed who moves")
        # A redeal depends only on what p knows and the seed, never on where the hidden
        # cards really lie: redealing two different worlds p cannot tell apart, with one
        # seed, gives the same world (so a bot cannot decide on what it cannot see).
        other = state.resample_from_infostate(p, seed ^ 0x5BD1E995)
        if stats is not None:
            note_redeals(stats, state, p, hidden, truth, [redealt, other.zones()])
        if constrained:
            with checking("public_constraints"):
                check_constraints(state, p, [sample, other])
        # ... in every field a bot is handed (bot_view), not only the cards' places
        differs = same_input(
            sample.resample_from_infostate(p, seed + 1),
            other.resample_from_infostate(p, seed + 1),
        )
        if stats is not None:
            stats.bot_worlds += 1
        expect(
            differs is None,
            f"seat {p}'s redeal depends on the hidden cards' true places: {differs}",
        )
        if not sample.is_terminal() and p == state.current_player():
            legal = state.legal_actions()
            expect(sample.legal_actions() == legal, f"resample changed seat {p}'s legal actions")
            expect(
                [sample.action_to_string(a) for a in legal]
                == [state.action_to_string(a) for a in legal],
                f"resample changed seat {p}'s action labels",
            )


def check_decision_kind(state: GameState, kinds: frozenset[str] | None) -> None:
    """`decision_kind()` is one of the kinds the game's GameInfo declares (the lab's
    time model and statistics are keyed by them)."""
    if kinds is None:
        return
    kind = state.decision_kind()
    expect(
        kind in kinds,
        f"seat {state.current_player()}: decision_kind() is {kind!r}, which GameInfo."
        f"decision_kinds does not declare (it declares {sorted(kinds)})",
    )


def check_state(
    state: GameState,
    rng: random.Random,
    expected: list[str],
    stats: RedealStats | None = None,
    kinds: frozenset[str] | None = None,
) -> None:
    """Every per-state check (one moment of a game, not yet over), each under its name."""
    with checking("conservation"):
        check_conservation(state, expected)
    with checking("labels"):
        check_labels(state)
    with checking("moves"):
        check_moves(state)
    with checking("decision_kinds"):
        check_decision_kind(state, kinds)
    with checking("fresh_lists"):
        check_fresh_lists(state)
    with checking("hidden_cards"):
        seen = Seen(state)  # every observation serialised (JSON) once, for every check
        check_no_leak(state, seen)
    with checking("illegal_refused"):
        check_illegal_refused(state, rng, seen)
    with checking("resample"):
        check_resample(state, rng.randrange(1 << 30), stats, seen=seen)
    with checking("bot_view"):
        # its own generator: the checks' one also picks the random game's actions
        compared = check_bot_view(state, random.Random(len(state.history())))
        if stats is not None:
            stats.bot_views += compared


def check_end(state: GameState, expected: list[str]) -> None:
    """What a finished game must offer: every card, no leak, winners, one return a seat."""
    with checking("conservation"):
        check_conservation(state, expected)
    with checking("hidden_cards"):
        check_no_leak(state)
    with checking("results"):
        expect(state.winners(), "a finished game has winners")
        expect(len(state.returns()) == state.game.num_players, "returns() has one value per seat")


def play_checked(state: GameState, action: int, check: str) -> None:
    """Apply a legal action; an exception the game raises is a failure of `check`."""
    with checking(check):
        state.apply_action(action)


def random_game(
    game: Game,
    seed: int,
    action_seed: int,
    max_decisions: int,
    checks_every: int = 1,
    stats: RedealStats | None = None,
    kinds: frozenset[str] | None = None,
) -> GameState:
    """Play one random game, checking the contract after every `checks_every` actions
    (labels and decision kinds after every action). A failure names its check and
    carries this game's seed and the actions up to it."""
    rng = random.Random(action_seed)
    trail: list[int] = []
    with replaying(game, seed, trail), checking("play"):
        state = game.new_initial_state(seed)
        expected = all_ids(state)
        while not state.is_terminal():
            if len(trail) % checks_every == 0:
                check_state(state, rng, expected, stats, kinds)
            else:
                with checking("labels"):
                    check_labels(state)
                with checking("decision_kinds"):
                    check_decision_kind(state, kinds)
            trail.append(rng.choice(state.legal_actions()))
            play_checked(state, trail[-1], "play")
            with checking("ends"):
                expect(
                    len(trail) <= max_decisions,
                    f"game did not end within {max_decisions} decisions",
                )
        check_end(state, expected)
    return state


def check_replay_and_clone(game: Game, seed: int, action_seed: int) -> None:
    """Same seed + same actions = same game; a clone is independent of its source."""
    rng = random.Random(action_seed)
    trail: list[int] = []
    with replaying(game, seed, trail), checking("replay_and_clone"):
        _replay_and_clone(game, seed, rng, trail)


def _replay_and_clone(game: Game, seed: int, rng: random.Random, trail: list[int]) -> None:
    state = game.new_initial_state(seed)
    mid: GameState | None = None
    mid_snapshot = ""
    while not state.is_terminal():
        if len(trail) == 10:
            mid = state.clone()
            mid_snapshot = snapshot(mid)
        trail.append(rng.choice(state.legal_actions()))
        state.apply_action(trail[-1])
    replay = game.new_initial_state(seed)
    for a in state.history():
        replay.apply_action(a)
    expect(state.history() == trail, "history() is not the actions applied")
    expect(snapshot(replay) == snapshot(state), "replaying the history gave another game")
    expect(
        replay.returns() == state.returns() and replay.winners() == state.winners(),
        "replaying the history gave other results",
    )
    if mid is not None:
        expect(snapshot(mid) == mid_snapshot, "playing the original changed its clone")
        # and the clone can go on by itself
        while not mid.is_terminal():
            mid.apply_action(mid.legal_actions()[0])
    again = game.new_initial_state(seed)
    expect(
        snapshot(again) == snapshot(game.new_initial_state(seed)),
        "one seed gave two initial states",
    )


def check_play_within_bounds(game: Game, random_games: int, greedy_games: int = 0) -> None:
    """Random (and greedy) games never exceed the game's own max_game_length() and
    utility_bounds() (the bounds the OpenSpiel adapter declares)."""
    low, high = game.utility_bounds()
    limit = game.max_game_length()
    results: list[tuple[int, list[int], list[float]]] = []
    for seed in range(random_games):
        rng = random.Random(seed)
        trail: list[int] = []
        with replaying(game, seed, trail), checking("bounds"):
            state = game.new_initial_state(seed)
            while not state.is_terminal() and len(trail) <= limit:
                trail.append(rng.choice(state.legal_actions()))
                state.apply_action(trail[-1])
        results.append((seed, trail, state.returns()))
    if greedy_games:
        from cardlab.agents import make_agent, play_game

        for seed in range(greedy_games):
            agents = [make_agent("greedy", seed=seed * 10 + i) for i in range(game.num_players)]
            with checking("bounds"):
                result = play_game(game, agents, seed=seed)
            results.append((seed, list(result.history), result.returns))
    for seed, actions, returns in results:
        with replaying(game, seed, actions), checking("bounds"):
            expect(
                len(actions) <= limit,
                f"a game of {len(actions)} decisions; max_game_length() is {limit}",
            )
            expect(
                all(low <= r <= high for r in returns),
                f"returns {returns} outside utility_bounds() ({low}, {high})",
            )
