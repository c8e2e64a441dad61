"""Hand-made positions: a general set-up builder and the rulebook's sample turn.

Tests and the playtest lab use these instead of poking at state fields. The
builder places every card of the box (54 with the packaged card file), so a built state obeys the same
conservation and hidden-information rules as a dealt one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cardlab.games.runway.actions import DEAL0, NUM_CAPITAL
from cardlab.games.runway.cards import RunwayCards
from cardlab.games.runway.rules import RunwayGame
from cardlab.games.runway.state import RunwayState

SAMPLE_SEATS = ("Ana", "Bo", "Cam")
"""Seats of the sample turn: Ana 0 (the youngest, last to pitch), Bo 1, Cam 2."""


def card(cards: RunwayCards, label: str) -> int:
    """The Capital card named like "Network 3" (kind name and printed number)."""
    if label in cards.capital_names:
        return cards.capital_names.index(label)
    names = [k.name for k in cards.kinds]
    raise ValueError(
        f"no Capital card {label!r}; kinds: {', '.join(names)}, numbers as printed (1-8 in the box)"
    )


def from_setup(
    game: RunwayGame,
    *,
    hands: Sequence[Sequence[str]],
    bench: Sequence[str],
    pile_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    deals: Sequence[str] = (),
    shocks_under: Mapping[str, int] | None = None,
    last_seat: int = 0,
    hype: int = 0,
    reputation: Sequence[int] | None = None,
    footholds: Sequence[Sequence[int]] | None = None,
    footholds_left: Sequence[int] | None = None,
    already_closed: Sequence[str] = (),
    seed: int = 0,
) -> RunwayState:
    """A state at the start of a Deal, laid out by hand.

    hands/bench/pile_top name Capital cards ("Cash 7"); pile_top[0] is the top
    of the draw pile and the Capital cards not named anywhere lie beneath it in
    id order; `discard` cards lie face-up in the discard. `deals` names Deals in flip order (first in play, second next);
    the other Deals follow in card-file order. `shocks_under` tucks that many
    Shocks under a named Deal; the other Shocks lie at the bottom of the Deal
    deck, under the last Deal, so they never come up. The state's generator
    (used only for later reshuffles) is seeded with `seed`.

    To start mid-game: `reputation` per seat, `footholds` per seat per Sector
    (in Sector order), `footholds_left` per seat, and `already_closed` Deals
    that count as closed (laid in the Dumped pile, out of the Deal deck).
    """
    if len(hands) != game.num_players:
        raise ValueError(f"{game.num_players} players need {game.num_players} hands")
    s = RunwayState.blank(game, random.Random(seed).getrandbits(64))
    cards = game.cards
    placed: list[int] = []
    for p, hand in enumerate(hands):
        s.hands[p] = sorted(card(cards, x) for x in hand)
        placed += s.hands[p]
    s.bench = [card(cards, x) for x in bench]
    top = [card(cards, x) for x in pile_top]
    s.discard = [card(cards, x) for x in discard]
    placed += s.bench + top + s.discard
    if len(set(placed)) != len(placed):
        raise ValueError("a Capital card is placed twice in the set-up")
    rest = [c for c in range(NUM_CAPITAL) if c not in placed]
    s.draw_pile = list(reversed(rest)) + list(reversed(top))  # the end of the list is the top
    shocks_under = dict(shocks_under or {})
    closed = [cards.deal_index(name) for name in already_closed]
    s.dumped = [DEAL0 + i for i in closed]
    s.deals_closed = len(closed)
    s.deals_to_flip -= len(closed)
    order = [cards.deal_index(name) for name in deals]
    if set(order) & set(closed):
        raise ValueError("a Deal is both to be flipped and already closed")
    order += [i for i in range(len(cards.deals)) if i not in order and i not in closed]
    sequence: list[int] = []
    shocks = list(reversed(cards.shock_cards))  # pop() hands them out in id order
    for i in order:
        for _ in range(shocks_under.pop(cards.deals[i].name, 0)):
            if not shocks:
                raise ValueError(f"more Shocks tucked than the game has ({len(cards.shock_cards)})")
            sequence.append(shocks.pop())
        sequence.append(DEAL0 + i)
    if shocks_under:
        raise ValueError(f"no such Deal to tuck Shocks under: {sorted(shocks_under)}")
    sequence += reversed(shocks)
    s.deal_deck = list(reversed(sequence))
    s.last_seat = last_seat
    s.hype = hype
    if reputation is not None:
        s.reputation = list(reputation)
        s.points_before = tuple(reputation)
    if footholds is not None:
        s.footholds = [list(f) for f in footholds]
        s.sectors_locked = [sum(1 for x in f if x >= 2) for f in footholds]
    if footholds_left is not None:
        s.footholds_left = list(footholds_left)
    s.start_first_deal()
    return s


def sample_turn_state(game: RunwayGame | None = None) -> RunwayState:
    """The rulebook's sample turn, ready to play (R12).

    Conference Badge (Social, 3) is in play and Board Seat (Social, 4) is next;
    Hype 0. Ana (seat 0) pitches last, so the order is Bo, Cam, Ana. Bo holds
    Network 3; Cam holds neither Network nor Cash; the Bench shows Cash 7, so
    Cam can pass and trade toward it; Ana holds Network 7. The script that
    follows is in tests/runway/test_runway_sample_turn.py and SAMPLE_SCRIPT.
    """
    game = game or RunwayGame(3)
    if game.num_players != 3:
        raise ValueError("the sample turn is for 3 players (Ana, Bo, Cam)")
    return from_setup(
        game,
        hands=[
            ["Network 7", "Network 1", "Tech 6", "Talent 6", "Tech 7", "Talent 7"],  # Ana
            ["Network 3", "Network 5", "Tech 1", "Tech 2", "Talent 1", "Talent 2"],  # Bo
            ["Tech 3", "Tech 4", "Tech 5", "Talent 3", "Talent 4", "Talent 5"],  # Cam
        ],
        bench=["Cash 7", "Cash 2", "Tech 8"],
        pile_top=["Talent 8"],
        deals=["Conference Badge", "Board Seat"],
        last_seat=0,
    )


SAMPLE_SCRIPT = (
    (1, "pitch Network 3"),  # Bo pitches Network 3
    (2, "pass"),  # Cam has neither Network nor Cash and passes...
    (2, "trade Tech 3 for Bench Cash 7"),  # ...trading toward a Cash 7
    (0, "pitch Network 7"),  # Ana pitches Network 7 and wins Conference Badge for 3
    # Board Seat comes forward; Cam (fewest Reputation, tie broken clockwise) pitches last
    (0, "pitch Network 1"),
    (1, "pitch Network 5"),
    (2, "pitch Cash 7"),  # Cam's Cash 7 wins Board Seat for 4 - 1 = 3
)
"""(seat, action label prefix) for each decision of the sample turn."""


def play_script(state: RunwayState, script: Sequence[tuple[int, str]] = SAMPLE_SCRIPT) -> None:
    """Apply scripted decisions by label, checking that the right seat decides."""
    for seat, label in script:
        if state.current_player() != seat:
            raise AssertionError(
                f"expected seat {seat} to decide {label!r}, but it is seat {state.current_player()}"
            )
        matches = [a for a in state.legal_actions() if state.action_to_string(a).startswith(label)]
        if len(matches) != 1:
            raise AssertionError(f"{label!r} matches {len(matches)} legal actions of seat {seat}")
        state.apply_action(matches[0])
