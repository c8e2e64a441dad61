"""UPTIME's cost marks read without colour: each material has its own
shape and its initial inside, on the cost pips of every Component and on each raw
material's own face, in the art the table shows and the printer prints."""

from __future__ import annotations

import re

import cardlab
from cardlab.art import game_art
from cardlab.games.uptime.art import MATERIAL_SHAPES, material_mark

SHAPE_TAG = {"square": "<rect", "circle": "<circle", "triangle": "<polygon", "diamond": "<polygon"}


def faces():
    game = cardlab.load_game("uptime", players=3)
    return game, game_art("uptime").faces(game.cards, game.options)


def test_every_material_has_its_own_shape_and_letter():
    game, _ = faces()
    names = game.cards.material_names
    assert len(set(MATERIAL_SHAPES[: len(names)])) == len(names)
    initials = [n[0].upper() for n in names]
    assert len(set(initials)) == len(names), initials  # a letter tells each apart
    marks = [material_mark(m, 10, 10, 2.6, initials[m]) for m in range(len(names))]
    assert len(set(re.sub(r'fill="#[0-9a-f]+"', "", mk) for mk in marks)) == len(names)
    for m, mark in enumerate(marks):
        # the shape, not only the colour: strip the fills and it still differs
        assert mark.startswith(SHAPE_TAG[MATERIAL_SHAPES[m]]), mark
        assert f">{initials[m]}</text>" in mark


def test_component_costs_carry_a_lettered_mark_per_material():
    game, all_faces = faces()
    names = game.cards.material_names
    components = [f for f in all_faces if f.kind == "Component"]
    assert components
    for face in components:
        svg = game_art("uptime").card_svg(face)
        letters = [names[m][0].upper() for m in face.materials]
        assert face.marks == tuple(letters)
        for letter in letters:
            assert f">{letter}</text>" in svg, (face.name, letter)
        # the cost in words too ("Silicon + Copper"): colour is never the only signal
        assert face.cost == " + ".join(names[m] for m in face.materials)


def test_each_raw_material_face_shows_its_mark():
    game, all_faces = faces()
    names = game.cards.material_names
    for face in (f for f in all_faces if f.kind == "raw material"):
        (m,) = face.materials
        svg = game_art("uptime").card_svg(face)
        assert SHAPE_TAG[MATERIAL_SHAPES[m]] in svg
        assert f">{names[m][0].upper()}</text>" in svg


def test_each_letter_contrasts_with_its_mark():
    """The letter is black or white, whichever reads better: at least 4.5:1 (WCAG AA)
    on every material colour, so it reads in greyscale too."""
    from cardlab.games.uptime.art import MATERIAL_PALETTE, _ink_on

    def lum(colour: str) -> float:
        def ch(c: int) -> float:
            v = c / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)

    for fill in MATERIAL_PALETTE:
        ink = "#000000" if _ink_on(fill) == "#000" else "#ffffff"
        hi, lo = sorted((lum(fill), lum(ink)), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, (fill, ink)
