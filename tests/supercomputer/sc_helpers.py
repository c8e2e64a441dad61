"""Shared helpers for the SUPER COMPUTER scenario tests (plain functions, no fixtures)."""

import cardlab
from cardlab.games.supercomputer.actions import xy_cell


def game(players=4, **options):
    return cardlab.load_game("supercomputer", players=players, **options)


def first_set(players=4, **options):
    """The game with the first card set (the packaged variant "first_set"): the S4
    scenario tests name its parts for their edges (e.g. the Core X8 CPU's green north),
    and recorded games were played with it. The rules are the same for every set."""
    return cardlab.load_game("supercomputer", players=players, variant="first_set", **options)


def part(g, name):
    """Part index of the named part in the packaged card set."""
    return g.tables.part_names.index(name)


def build(g, name):
    return g.tables.build_names.index(name)


def cells(*xys):
    return sorted(xy_cell(x, y) for x, y in xys)


def pick_first_all(state):
    """Every seat picks the first card of its hand (ends the pick phase)."""
    while state.decision_kind() == "pick":
        state.apply_action(state.legal_actions()[0])


def finish_builds(state):
    """Every seat keeps the first offered build (choose_one)."""
    while state.decision_kind() == "choose_build":
        state.apply_action(state.legal_actions()[0])


def parts_meeting(g, b):
    """Parts that together meet every requirement of build b (first matches per type)."""
    out = []
    for accepts, count in g.tables.requirements[b]:
        out += [k for k in g.tables.all_parts if accepts[k]][:count]
    return out
