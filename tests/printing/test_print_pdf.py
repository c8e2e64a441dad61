"""The printed PDF itself: pages, every card exactly once, exact geometry,
greyscale-distinct RUNWAY kinds, PNG artifacts, and clear errors."""

from __future__ import annotations

import importlib
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from printcheck import GAMES, TextLine, px, render_page, text_lines
from pypdf import PdfReader

from cardlab.art import CardTextOverflowError, game_art
from cardlab.art.face import Face
from cardlab.core.errors import CardDataError
from cardlab.games import game_info, load_game
from cardlab.printing import print_game
from cardlab.printing.layout import CROP_GAP, CROP_LENGTH, SheetLayout
from cardlab.printing.paper import paper_named


def id_pattern(faces: list[Face]) -> re.Pattern[str]:
    """The game's card ids as printed: its fixed-width tokens (two letters, two digits),
    with the letters the game's own faces use (no list of games here)."""
    prefixes = sorted({re.sub(r"\d+$", "", f.id) for f in faces})
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, prefixes))})\d\d\b")


PAGE_SIZE_PT = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}


def data_names(game: str) -> Counter[str]:
    """Card names and how often each occurs, read from the engine's own card data
    (its `cards.deck_names`, every physical card once per copy), not from the art."""
    cards_module = importlib.import_module(f"{game_info(game).package}.cards")
    return Counter(cards_module.deck_names(load_game(game).cards))


def slots_text(pdf: Path, paper: str, pages: range) -> dict[tuple[int, int], list[TextLine]]:
    """Text lines of the face pages grouped by the card slot they fall in."""
    layout = SheetLayout(paper_named(paper))
    out: dict[tuple[int, int], list[TextLine]] = {}
    for line in text_lines(pdf):
        if line.page not in pages:
            continue
        cx, cy = line.centre
        for i in range(9):
            box = layout.slot(i)
            if box.x < cx < box.x + box.w and box.y < cy < box.y + box.h:
                out.setdefault((line.page, i), []).append(line)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_page_and_card_counts(printed, game: str) -> None:  # type: ignore[no-untyped-def]
    pdf = printed(game)
    faces = game_art(game).faces(load_game(game).cards)
    face_pages = math.ceil(len(faces) / 9)
    back_kinds = {f.back for f in faces}
    reader = PdfReader(pdf)
    # the default duplex order: cover, blank, then each face sheet and its own backs
    assert len(reader.pages) == 2 + 2 * face_pages
    assert back_kinds <= set(game_art(game).BACKS)
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            PAGE_SIZE_PT["a4"], abs=0.01
        )


@pytest.mark.parametrize(
    ("game", "cards", "pages"),
    [
        ("uptime", 54, 14),  # cover, blank, 6 face sheets each followed by its backs
        ("runway", 54, None),
    ],
)
def test_a_rulebook_deck_prints_whole(printed, game: str, cards: int, pages: int | None) -> None:  # type: ignore[no-untyped-def]
    """These two rulebooks each list a 54-card deck: all of it is printed, 9 to a sheet."""
    pdf = printed(game)
    faces = game_art(game).faces(load_game(game).cards)
    assert (len(faces), math.ceil(len(faces) / 9)) == (cards, 6)
    if pages is not None:
        assert len(PdfReader(pdf).pages) == pages


@pytest.mark.parametrize("game", GAMES)
def test_every_card_appears_exactly_once_with_its_name(printed, game: str) -> None:  # type: ignore[no-untyped-def]
    pdf = printed(game)
    faces = game_art(game).faces(load_game(game).cards)
    face_pages = range(3, 3 + 2 * math.ceil(len(faces) / 9), 2)  # duplex: odd pages from 3
    slots = slots_text(pdf, "a4", face_pages)
    name_of = {f.id: f.name for f in faces}
    card_id = id_pattern(faces)
    seen: Counter[str] = Counter()
    names_shown: Counter[str] = Counter()
    for key, lines in slots.items():
        ids = [m for line in lines for m in card_id.findall(line.text)]
        assert len(ids) == 1, (key, [line.text for line in lines])
        seen[ids[0]] += 1
        ordered = [line.text for line in sorted(lines, key=lambda t: (t.y0, t.x0))]
        pairs = [f"{a} {b}" for a, b in zip(ordered, ordered[1:], strict=False)]
        shown = {n for n in set(name_of.values()) if n in ordered or n in pairs}
        assert name_of[ids[0]] in shown, (ids[0], ordered)
        names_shown.update(shown)
    assert seen == Counter({f.id: 1 for f in faces})
    assert names_shown == data_names(game)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_drawn_crop_marks_and_card_edges_sit_at_the_exact_millimetres(printed, paper: str) -> None:  # type: ignore[no-untyped-def]
    dpi = 300
    pdf = printed("runway", paper)
    page = PdfReader(pdf).pages[2]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
        PAGE_SIZE_PT[paper], abs=0.01
    )
    img = render_page(pdf, 3, dpi, f"runway-{paper}-geometry", grey=True)
    layout = SheetLayout(paper_named(paper))
    b = layout.block

    def ink(x: float, y: float) -> int:
        return int(img.getpixel((px(x, dpi), px(y, dpi))))  # type: ignore[arg-type]

    mid_top = b.y - CROP_GAP - CROP_LENGTH / 2
    mid_left = b.x - CROP_GAP - CROP_LENGTH / 2
    for x in layout.cut_xs:  # vertical cut lines: marks above and below, 0.6 mm either side blank
        for y in (mid_top, b.y + b.h + CROP_GAP + CROP_LENGTH / 2):
            assert ink(x, y) < 100 and ink(x - 0.6, y) > 200 and ink(x + 0.6, y) > 200, (x, y)
        assert ink(x, b.y - CROP_GAP / 2) > 200  # the gap between block and mark is blank
    for y in layout.cut_ys:
        for x in (mid_left, b.x + b.w + CROP_GAP + CROP_LENGTH / 2):
            assert ink(x, y) < 100 and ink(x, y - 0.6) > 200 and ink(x, y + 0.6) > 200, (x, y)
    for i in range(9):  # each card's outline lies on its slot edge (page 3: white Capital cards)
        box = layout.slot(i)
        assert ink(box.x + 0.15, box.y + 44) < 100 and ink(box.x + 1.5, box.y + 44) > 200, i
    assert ink(b.x - 0.5, b.y + 44) > 200


@pytest.mark.parametrize("game", GAMES)
def test_first_pages_render_to_png_artifacts(printed, game: str) -> None:  # type: ignore[no-untyped-def]
    pdf = printed(game)
    for number in (1, 2, 3, len(PdfReader(pdf).pages)):
        img = render_page(pdf, number, 100, f"{game}-a4-p{number}")
        assert img.size == (math.ceil(210 / 25.4 * 100), math.ceil(297 / 25.4 * 100))
        darkest, lightest = img.convert("L").getextrema()
        assert darkest < 60 and lightest > 240  # something is drawn on white paper


def test_runway_capital_kinds_differ_in_greyscale(printed) -> None:  # type: ignore[no-untyped-def]
    """The line-mark band of each kind, seen in greyscale: the number of rules
    and the length of the dark runs along a rule tell all four kinds apart."""
    from cardlab.games.runway.art import MARK_BAND_H, MARK_BAND_Y

    dpi = 200
    pdf = printed("runway")
    layout = SheetLayout(paper_named("a4"))
    cards = load_game("runway").cards
    features = {}
    for k, kind in enumerate(cards.kinds):
        first = k * 8  # rw00, rw08, rw16, rw24 are number 1 of each kind
        page, slot = 3 + 2 * (first // 9), first % 9  # duplex: face sheets on odd pages
        box = layout.slot(slot)
        area = (box.x + 8, box.y + MARK_BAND_Y - 0.3, 47, MARK_BAND_H - 0.2)
        band = render_page(pdf, page, dpi, f"runway-grey-mark-{kind.role}", grey=True, area=area)
        w, h = band.size
        dark = [[band.getpixel((x, y)) < 110 for x in range(w)] for y in range(h)]  # type: ignore[operator]
        row_ink = [sum(r) for r in dark]
        rules = sum(1 for y in range(h) if row_ink[y] and (y == 0 or not row_ink[y - 1]))
        best = dark[max(range(h), key=row_ink.__getitem__)]
        runs, n = [], 0
        for v in [*best, False]:
            if v:
                n += 1
            elif n:
                runs.append(n)
                n = 0
        median_run_mm = sorted(runs)[len(runs) // 2] * 25.4 / dpi
        features[kind.line_mark] = (rules, median_run_mm)
    assert len(features) == 4
    marks = list(features)
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            (ra, la), (rb, lb) = features[a], features[b]
            assert ra != rb or max(la, lb) > 2 * min(la, lb), (a, b, features)
    # and each pattern reads as what it claims to be
    assert features["double"][0] == 2 * features["solid"][0]
    assert features["solid"][1] > 40 and features["dotted"][1] < 1.2 < features["dashed"][1] < 5


def test_cover_lists_contents_and_every_page_is_numbered(printed) -> None:  # type: ignore[no-untyped-def]
    pdf = printed("runway")
    lines = text_lines(pdf)
    total = len(PdfReader(pdf).pages)
    cover = [t.text for t in lines if t.page == 1]
    assert "54 cards" in cover
    assert any("Capital deck: 32 cards (32 Capital)" in t for t in cover)
    assert any("Deal deck: 22 cards (12 Deal, 6 Shock, 4 Sector)" in t for t in cover)
    assert any("bar is 100 mm" in t for t in cover)
    for number in range(1, total + 1):
        shown = [t.text for t in lines if t.page == number]
        assert any(t.startswith(f"page {number} of {total}") for t in shown), (number, shown)


def test_bad_card_data_gets_the_engines_error(tmp_path: Path) -> None:
    from cardlab.games.runway.cards import PACKAGED

    bad = tmp_path / "bad.toml"
    bad.write_text(PACKAGED.read_text().replace("score = 5", "score = 9", 1))
    with pytest.raises(CardDataError) as engine:
        load_game("runway", cards=bad)
    with pytest.raises(CardDataError) as printing:
        print_game("runway", cards=bad, out=tmp_path / "x.pdf")
    assert str(printing.value) == str(engine.value)
    assert "Bank Charter" in str(printing.value) and not (tmp_path / "x.pdf").exists()


def test_card_text_too_long_for_its_face_is_reported_by_name(tmp_path: Path) -> None:
    from cardlab.games.runway.cards import PACKAGED

    long_name = "Series A Mega Round With Strategic Sovereign Wealth Co-Investors"
    wordy = tmp_path / "wordy.toml"
    wordy.write_text(PACKAGED.read_text().replace('"Seed Round"', f'"{long_name}"'))
    with pytest.raises(CardTextOverflowError, match=f"card '{long_name}': name does not fit"):
        print_game("runway", cards=wordy, out=tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_every_game_in_the_repository_is_printed() -> None:
    """Guard: the parametrised tests above print every discovered game, and a game of
    the repository that fails to register is a failure here, never a skip."""
    assert {"uptime", "runway", "supercomputer", "hearts", "war"} <= set(GAMES), GAMES
    for game in GAMES:
        assert load_game(game).cards is not None, game


def test_print_command_writes_the_pdf_and_reports_bad_input(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardlab.cli import app

    out = tmp_path / "rw.pdf"
    result = CliRunner().invoke(app, ["print", "runway", "--paper", "letter", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(out).pages) == 14  # cover, blank, 6 faces + 6 backs
    bad = CliRunner().invoke(app, ["print", "runway", "--paper", "a3", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown paper 'a3'" in bad.output


def test_printed_faces_follow_the_rule_options(tmp_path: Path) -> None:
    """U4: with patch_cost=0 the Patch card prints a free claim; a bad option is refused."""
    from typer.testing import CliRunner

    from cardlab.cli import app

    default = print_game("uptime", out=tmp_path / "default.pdf")
    free = print_game("uptime", out=tmp_path / "free.pdf", options={"patch_cost": "0"})
    free_text = " ".join(line.text for line in text_lines(free))
    default_text = " ".join(line.text for line in text_lines(default))
    assert "patch_cost=0" in free_text and "patch_cost=0" not in default_text
    bad = CliRunner().invoke(
        app, ["print", "uptime", "-o", "patch_cost=7", "--out", str(tmp_path / "x.pdf")]
    )
    assert bad.exit_code == 2 and "patch_cost" in bad.output
