"""UPTIME's designer knobs for `cardlab tune`: the starting hand (option `starting_hand`,
U16) and the counts of each raw material and of Patches (relaxed from U1 within declared
ranges). The packaged deck stays U1's 54 cards; a variant that changes the knobs plays
under the full game contract; a count out of range, or a deck too lean to deal, is refused
with an error that names the file, the card or option, and what is allowed.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab.art import game_art
from cardlab.core.errors import CardDataError, OptionError
from cardlab.core.variants import VariantError, load_variant
from cardlab.games import game_info
from cardlab.games.uptime import actions as A
from cardlab.games.uptime.cards import MATERIAL, MATERIAL_COUNT, PACKAGED, PATCH, PATCH_COUNT
from cardlab.games.uptime.scenarios import arrange
from cardlab.lab.tune.space import search_space
from cardlab.testing import all_ids, check_conservation, check_game, check_state

MATERIALS = ("Silicon", "Copper", "Polymer", "Rare-Earth")
HANDS = (4, 2, 3, 5, 6)


def _variant_text(counts: dict[str, int], patches: int | None, hand: int | None) -> str:
    lines = ['game = "uptime"', 'title = "Knobs"', "", "[options]"]
    if hand is not None:
        lines.append(f"starting_hand = {hand}")
    for name, count in counts.items():
        lines += [
            "",
            "[[changes]]",
            f'path = "material[{name}].count"',
            f"value = {count}",
            'why = "a test of the material knob"',
        ]
    if patches is not None:
        lines += ["", "[[changes]]", 'path = "patch.count"', f"value = {patches}", 'why = "test"']
    return "\n".join(lines) + "\n"


def _variant(tmp_path: Path, counts: dict[str, int], patches: int | None, hand: int | None):
    path = tmp_path / "knobs.toml"
    path.write_text(_variant_text(counts, patches, hand))
    return load_variant(path, game_info("uptime"))


def _dealt(state) -> Counter[int]:
    """Cards each seat got from the opening deal (Twists replaced, U6), from the public log."""
    while state.decision_kind() != "turn":  # a Power Surge dealt at setup: its choices
        state.apply_action(state.legal_actions()[0])
    got: Counter[int] = Counter()
    for event in state.observation(0)["events"]:
        if event.get("why") == "deal":
            assert event["count"] == event["wanted"], "the Supply ran short during the deal"
            got[event["seat"]] += event["count"]
    return got


def test_u16_starting_hand_default_is_the_rulebook_deal():
    """U16. Rulebook, Setup: "Shuffle the Supply Deck; deal each player 4 cards as a starting
    hand." 2-player variant: "Deal 5 starting cards instead of 4." The option's default
    (4) is that reading: 4 cards each at 3-4 players, 5 with two."""
    for players, expected in ((2, 5), (3, 4), (4, 4)):
        game = cardlab.load_game("uptime", players=players)
        assert game.options["starting_hand"] == 4 and game.starting_hand == expected
        for seed in range(8):
            got = _dealt(game.new_initial_state(seed))
            assert [got[p] for p in range(players)] == [expected] * players


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("hand", HANDS)
def test_starting_hand_option_deals_that_many_one_more_with_two_players(players, hand):
    """Option starting_hand (U16): that many cards each, one more with two players (the
    rulebook's 2-player deal is one card more than the standard one)."""
    try:
        game = cardlab.load_game("uptime", players=players, starting_hand=hand)
    except OptionError:
        assert players * hand + 2 > 24  # only a deal the 24 materials cannot cover
        return
    expected = hand + 1 if players == 2 else hand
    for seed in range(6):
        got = _dealt(game.new_initial_state(seed))
        assert [got[p] for p in range(players)] == [expected] * players


def test_a_deal_the_supply_cannot_cover_is_refused_with_the_numbers():
    """6 cards to 4 seats plus a Power Surge's 2 is 26 > the 24 packaged materials."""
    with pytest.raises(OptionError, match=r"starting_hand=6 with 4 players.*at least 26.*has 24"):
        cardlab.load_game("uptime", players=4, starting_hand=6)
    with pytest.raises(OptionError, match=r"'starting_hand' cannot be 7.*4, 2, 3, 5, 6"):
        cardlab.load_game("uptime", players=3, starting_hand=7)


def test_a_lean_variant_names_itself_when_it_cannot_deal(tmp_path):
    variant = _variant(tmp_path, dict.fromkeys(MATERIALS, 3), None, 4)
    with pytest.raises(OptionError, match=r"at least 18 raw materials.*knobs\.toml has 12"):
        cardlab.load_game("uptime", players=4, variant=variant)
    assert cardlab.load_game("uptime", players=2, variant=variant).starting_hand == 5


@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(st.integers(*MATERIAL_COUNT), min_size=4, max_size=4),
    patches=st.integers(*PATCH_COUNT),
    hand=st.sampled_from(HANDS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31 - 1),
)
def test_the_supply_is_never_short_at_the_deal(
    tmp_path_factory, counts, patches, hand, players, seed
):
    """For every allowed count, hand and player count: either the game is refused (the
    deck cannot cover the deal) or every seat gets its full starting hand."""
    variant = _variant(
        tmp_path_factory.mktemp("v"), dict(zip(MATERIALS, counts, strict=True)), patches, hand
    )
    per_seat = hand + 1 if players == 2 else hand
    try:
        game = cardlab.load_game("uptime", players=players, variant=variant)
    except OptionError:
        assert players * per_seat + 2 > sum(counts)
        return
    assert sum(1 for k in game.table.kind if k == MATERIAL) == sum(counts)
    assert sum(1 for k in game.table.kind if k == PATCH) == patches
    got = _dealt(game.new_initial_state(seed))
    assert [got[p] for p in range(players)] == [per_seat] * players


@pytest.mark.parametrize(
    ("counts", "patches", "hand"),
    [
        ({"Silicon": 9, "Copper": 3, "Polymer": 8, "Rare-Earth": 10}, 4, 5),
        ({"Silicon": 4, "Copper": 4, "Polymer": 4, "Rare-Earth": 5}, 0, 3),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_variant_with_other_counts_keeps_the_game_contract(
    tmp_path, counts, patches, hand, players
):
    """The card data, not a constant, sizes everything: ids, zones, the action space, the
    observation vector, the bounds; cardlab.testing.check_game plays it through."""
    variant = _variant(tmp_path, counts, patches, hand)
    game = cardlab.load_game("uptime", players=players, variant=variant)
    total = sum(counts.values()) + 2 + 28 - 2 + patches
    assert game.table.count == total and len(game.table.ids) == total
    assert game.table.num_supply == sum(counts.values()) + 2
    assert game.num_distinct_actions == A.NUM_ACTIONS + max(0, sum(counts.values()) - 24)
    report = check_game(game, games=2, seed=players)
    assert report.players == [players]
    faces = game_art("uptime").faces(game.cards, game.options)  # the print sheets' cards
    assert [f.id for f in faces] == list(game.table.ids)
    assert sum(f.name == "Patch" for f in faces) == patches


@settings(max_examples=15, deadline=None)
@given(
    counts=st.lists(st.integers(*MATERIAL_COUNT), min_size=4, max_size=4),
    patches=st.integers(*PATCH_COUNT),
    hand=st.sampled_from((4, 2, 3)),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31 - 1),
    action_seed=st.integers(0, 2**31 - 1),
)
def test_other_counts_conserve_cards_and_end_in_bounds(
    tmp_path_factory, counts, patches, hand, players, seed, action_seed
):
    """Conservation (every card in exactly one zone), no leak, resampling and the length
    bound hold for any allowed deck, with play that prefers claims and bids (to reach
    auctions, Patches and Networks) over Draw/Pass."""
    variant = _variant(
        tmp_path_factory.mktemp("v"), dict(zip(MATERIALS, counts, strict=True)), patches, hand
    )
    try:
        game = cardlab.load_game("uptime", players=players, variant=variant)
    except OptionError:
        return  # a deck too lean for this deal (the test above pins that refusal)
    rng = random.Random(action_seed)
    state = game.new_initial_state(seed)
    expected = all_ids(state)
    steps = 0
    while not state.is_terminal():
        if steps % 3 == 0:
            check_state(state, rng, expected)
        legal = state.legal_actions()
        busy = [a for a in legal if a > A.PASS]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.8 else legal))
        steps += 1
        assert steps <= game.max_game_length()
    check_conservation(state, expected)
    assert len(state.winners()) == 1


def test_bids_above_24_with_a_rich_supply(tmp_path):
    """With more than 24 raw materials a bid may exceed 24 (U10: any bid backed by materials
    in hand); the higher bids are numbered after SWEEP so the packaged numbers stay put."""
    variant = _variant(tmp_path, dict.fromkeys(MATERIALS, 10), None, None)
    game = cardlab.load_game("uptime", players=3, variant=variant)
    assert game.num_distinct_actions == A.NUM_ACTIONS + 16
    hand = [m for m in MATERIALS for _ in range(7)]  # 28 materials
    s = arrange(game, hands={0: hand}, tableaus={0: ["Blade"]}, row=["Campus Helpdesk"])
    s.apply_action(A.BID_SLOT + 0)
    legal = s.legal_actions()
    assert [A.bid_amount(a) for a in legal] == list(range(1, 29))
    assert legal == sorted(legal) and A.SWEEP not in legal
    assert s.action_to_string(A.bid_action(27)) == "Open the bidding at 27 materials"
    expected = all_ids(s)
    s.apply_action(A.bid_action(27))
    assert s.auction_high_bid == 27
    while s.decision_kind() == "raise_or_pass":
        s.apply_action(A.BID_PASS)
    while s.decision_kind() == "pay":  # the winner pays 27 materials, card by card
        s.apply_action(s.legal_actions()[0])
    check_conservation(s, expected)
    assert s.contracts[0] == 1 and s.material_count(0) == 1


@pytest.mark.parametrize(
    ("path", "value", "pattern"),
    [
        ("material[Silicon].count", 11, r"knobs\.toml: changes\[0\].*Silicon.*11.*range 3\.\.10"),
        ("material[Copper].count", 2, r"changes\[0\].*Copper.*2.*range 3\.\.10"),
        ("patch.count", 5, r"changes\[0\].*patch\.count.*5.*range 0\.\.4"),
    ],
)
def test_a_variant_count_out_of_range_is_refused(tmp_path, path, value, pattern):
    file = tmp_path / "knobs.toml"
    file.write_text(
        f'game = "uptime"\n[[changes]]\npath = "{path}"\nvalue = {value}\nwhy = "too far"\n'
    )
    with pytest.raises(VariantError, match=pattern):
        load_variant(file, game_info("uptime"))


def test_a_card_file_count_out_of_range_names_file_card_and_range(tmp_path):
    """The relaxed U1 check: a count outside its range is still refused, by file and card."""
    text = PACKAGED.read_text().replace(
        'name = "Rare-Earth"\ncount = 6', 'name = "Rare-Earth"\ncount = 12'
    )
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(CardDataError, match=r"mine\.toml: card 'Rare-Earth'.*count.*12.*3\.\.10"):
        cardlab.load_game("uptime", players=3, cards=path)


def test_the_tuner_sees_the_five_knobs():
    names = {p.name: p for p in search_space(game_info("uptime"))}
    for c in ("CPU", "RAM", "Storage", "Motherboard", "PSU", "Case"):
        p = names[f"cards:component[{c}].count"]
        assert p.baseline == 2 and p.values() == [2, 3, 4]
    for c in ("Workstation", "Blade", "Tower", "Mainframe"):
        p = names[f"cards:computer[{c}].count"]
        assert p.baseline == 1 and p.values() == [1, 2, 3]
    assert names["option:starting_hand"].values() == list(HANDS)
    for m in MATERIALS:
        p = names[f"cards:material[{m}].count"]
        assert p.baseline == 6 and p.values() == list(range(3, 11))
    assert names["cards:patch.count"].baseline == 2
    assert names["cards:patch.count"].values() == [0, 1, 2, 3, 4]


def test_the_packaged_deck_is_still_u1():
    """U1: the packaged file keeps 6 of each material and 2 Patches (54 cards)."""
    game = cardlab.load_game("uptime", players=random.choice([2, 3, 4]))
    assert game.table.count == 54 and game.num_distinct_actions == 61


def test_a_refused_deal_is_a_failed_tune_trial_not_a_crash():
    """The tuner may propose starting_hand=6 at 4 players; the game refuses it and the
    trial is kept as failed (every game an error), with the refusal's message."""
    from cardlab.core.variants import Variant
    from cardlab.lab.tune.evaluate import metrics, play_trial_game

    variant = Variant(game="uptime", name="t", title="t", options={"starting_hand": 6})
    facts = play_trial_game("uptime", 4, variant, 0, 0)
    assert facts.end_reason == "error" and facts.rounds == 0
    assert facts.error is not None and "at least 26 raw materials" in facts.error
    figures = metrics(game_info("uptime"), 4, [facts])
    assert figures["games"] == 0 and figures["errors"] == 1


def test_computer_copies_are_a_card_knob(tmp_path):
    """Each Computer may come 1-3 times (U1 prints one of each): the Build Deck grows by the
    copies, every copy is a Computer of its ability, and 0 or 4 copies are refused naming
    the card and the field."""
    text = PACKAGED.read_text(encoding="utf-8")
    two = tmp_path / "two.toml"
    two.write_text(
        text.replace(
            'ability = "tower"\npoints = 5\ncount = 1', 'ability = "tower"\npoints = 5\ncount = 2'
        )
    )
    game = cardlab.load_game("uptime", players=4, cards=str(two))
    table = game.table
    towers = [c for c in range(table.count) if table.name[c] == "Tower"]
    assert len(towers) == 2 and table.count == 55
    for bad in ("0", "4"):
        path = tmp_path / f"bad{bad}.toml"
        path.write_text(
            text.replace(
                'ability = "tower"\npoints = 5\ncount = 1',
                f'ability = "tower"\npoints = 5\ncount = {bad}',
            )
        )
        with pytest.raises(CardDataError, match=r"card 'Tower' \(computer\[2\]\): field 'count'"):
            cardlab.load_game("uptime", players=4, cards=str(path))


def test_component_copies_are_a_card_knob(tmp_path):
    """Each Component type may come 2-4 times (U1 prints 2): a Computer spends three, so
    more Computers need more Components to be built; 1 or 5 copies are refused."""
    text = PACKAGED.read_text(encoding="utf-8")
    old = 'name = "CPU"\ncost = ["Silicon", "Copper"]\ncount = 2'
    assert old in text
    three = tmp_path / "three.toml"
    three.write_text(text.replace(old, old[:-1] + "3"), encoding="utf-8")
    table = cardlab.load_game("uptime", players=4, cards=str(three)).table
    assert [table.name[c] for c in range(table.count)].count("CPU") == 3
    assert table.count == 55
    for bad in ("1", "5"):
        path = tmp_path / f"bad{bad}.toml"
        path.write_text(text.replace(old, old[:-1] + bad), encoding="utf-8")
        with pytest.raises(CardDataError, match=r"card 'CPU' \(component\[0\]\): field 'count'"):
            cardlab.load_game("uptime", players=4, cards=str(path))
