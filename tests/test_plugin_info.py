"""One declaration per game: a `GameInfo` takes what the Game
class already says, refuses to say it differently, and resolves only the files it
declares, never outside the game's package; a plugin's personas and art are its
own and reach the bots, the lobby's bot list, the table's card faces and print."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from cardlab.agents import kinds_for_game, make_agent, play_game  # noqa: E402
from cardlab.core.errors import CardlabError  # noqa: E402
from cardlab.core.game import Game  # noqa: E402
from cardlab.core.plugin import DERIVED, GameInfo  # noqa: E402
from cardlab.core.registry import game_info, list_games, load_game, register_game  # noqa: E402
from plugin_support import ART_MARK, plugin  # noqa: E402


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[GameInfo]:
    with plugin(tmp_path, "infotoy", personas=True, art=True) as info:
        yield info


@pytest.fixture
def plain_toy(tmp_path: Path) -> Iterator[GameInfo]:
    with plugin(tmp_path, "plaintoy") as info:
        yield info


@pytest.mark.parametrize("name", list_games())
def test_a_shipped_games_info_is_its_game_class(name: str) -> None:
    info = game_info(name)
    cls = info.game_class()
    for attr in DERIVED:
        assert getattr(info, attr) == getattr(cls, attr, info.min_players), attr
    assert info.package == cls.__module__.rpartition(".")[0]


def test_the_shipped_rules_modules_say_nothing_twice() -> None:
    """The three GAME_INFOs leave name, title, package and player counts to the class."""
    root = Path(__file__).parents[1] / "src" / "cardlab" / "games"
    for rules in sorted(root.glob("*/rules.py")):
        text = rules.read_text("utf-8")
        declaration = text[text.index("GAME_INFO = GameInfo(") :]
        declaration = declaration[: declaration.index("\n)\n")]
        for field in (*DERIVED, "package"):
            assert f"\n    {field}=" not in declaration, f"{rules.parent.name}: {field}"


def test_a_game_info_takes_name_title_and_players_from_the_class(toy: GameInfo) -> None:
    cls = toy.game_class()
    bare = GameInfo(game=toy.game)
    assert (bare.name, bare.title, bare.package) == ("infotoy", cls.title, "infotoy")
    assert (bare.min_players, bare.max_players, bare.default_players) == (2, 4, 2)
    assert bare.rulebook == "rules.md" and bare.view_script == "web/view.js"


class _Bare(Game):
    """A Game class that says only what it must (never instantiated here)."""

    name = "bare"
    title = "Bare"
    min_players = 3
    max_players = 5


class _Chosen(_Bare):
    default_players = 4


class _Nameless(_Bare):
    name = ""
    title = ""


def test_the_package_is_the_class_modules_package_or_the_module_if_it_is_one() -> None:
    tune = Path(__file__).parent / "tune"
    sys.path.insert(0, str(tune))
    try:
        import tunetoy  # the class lives in the package's __init__

        assert tunetoy.GAME_INFO.package == "tunetoy"
        assert tunetoy.GAME_INFO.package_dir() == tune / "tunetoy"
    finally:
        sys.path.remove(str(tune))


def test_default_players_comes_from_the_class_else_min_players() -> None:
    assert GameInfo(game=f"{__name__}:_Bare").default_players == 3
    assert GameInfo(game=f"{__name__}:_Chosen").default_players == 4
    assert GameInfo(game=f"{__name__}:_Bare", default_players=5).default_players == 5
    with pytest.raises(ValueError, match="default_players 6 is outside 3-5"):
        GameInfo(game=f"{__name__}:_Bare", default_players=6)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("title", "Another Title", "'INFOTOY (plugin toy)'"),
        ("max_players", 6, "4"),
        ("default_players", 3, "2"),
        ("name", "infotoy", None),
    ],
)
def test_a_declaration_that_contradicts_the_class_is_refused(
    toy: GameInfo, field: str, value: object, says: str | None
) -> None:
    info = dataclasses.replace(toy, **{field: value})
    if says is None:  # the same value said again is allowed (older GameInfos)
        info.check_game_class()
        return
    with pytest.raises(CardlabError) as err:
        register_game(info)
    message = str(err.value)
    assert f"GameInfo.{field} is {value!r}" in message and f"says {says}" in message
    assert "leave it out of the GameInfo" in message
    assert game_info("infotoy") is toy  # the refused declaration replaced nothing


def test_a_class_that_does_not_say_its_name_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"_Nameless: the Game class must say its name, title"):
        GameInfo(game=f"{__name__}:_Nameless")
    with pytest.raises(ValueError, match="must be 'module:Class'"):
        GameInfo(game="just_a_module")


def test_assets_resolve_inside_the_package_only(toy: GameInfo, tmp_path: Path) -> None:
    root = toy.package_dir().resolve()
    assert toy.asset("rulebook") == root / "rules.md"
    assert toy.asset("view_script") == root / "web" / "view.js"
    assert toy.asset("cards") == root / "cards.toml"
    assert toy.asset("howto") is None  # the template has no howto.md: none, not an error
    assert dataclasses.replace(toy, view_script="").asset("view_script") is None
    secret = tmp_path / "secret.md"
    secret.write_text("outside", "utf-8")
    for outside in ("../../../secret.md", str(secret), "web/../../x.md"):
        with pytest.raises(ValueError, match="is outside its package"):
            dataclasses.replace(toy, rulebook=outside).asset("rulebook")
    (root / "linked.md").symlink_to(secret)  # a link inside pointing out is outside too
    with pytest.raises(ValueError, match="'linked.md' is outside its package"):
        dataclasses.replace(toy, rulebook="linked.md").asset("rulebook")


@pytest.mark.parametrize("which", ["secrets", "../rules.md", "game", "pitch", "personas"])
def test_only_declared_asset_names_resolve(toy: GameInfo, which: str) -> None:
    with pytest.raises(ValueError, match="is not a game asset"):
        toy.asset(which)
    with pytest.raises(ValueError, match="is not a game module"):
        toy.module("os")


def test_a_plugins_personas_are_registered_and_offered_to_it_only(
    toy: GameInfo, plain_toy: GameInfo
) -> None:
    from cardlab.web.catalog import Catalog

    assert "infotoy_lowball" in kinds_for_game("infotoy")
    assert "infotoy_lowball" not in kinds_for_game("plaintoy")
    for shipped in ("uptime", "runway", "supercomputer"):
        if shipped in list_games():
            assert "infotoy_lowball" not in kinds_for_game(shipped)
    # a game without personas is offered the generic kinds: the same as the other toy's
    assert set(kinds_for_game("plaintoy")) == set(kinds_for_game("infotoy")) - {"infotoy_lowball"}
    bots = {b["kind"] for b in Catalog().describe("infotoy")["bots"]}
    assert "infotoy_lowball" in bots and {"random", "greedy"} <= bots
    assert "infotoy_lowball" not in {b["kind"] for b in Catalog().describe("plaintoy")["bots"]}
    game = load_game("infotoy", players=2)
    result = play_game(game, [make_agent("infotoy_lowball", seed=0), make_agent("random")], 1)
    assert len(result.history) == game.max_game_length()


def test_a_plugins_art_is_what_the_table_and_print_use(toy: GameInfo, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from cardlab.art import game_art
    from cardlab.printing import print_game
    from cardlab.web import art
    from cardlab.web.catalog import Catalog

    assert game_art("infotoy").__name__ == "infotoy.art"
    catalog = Catalog({"infotoy": toy.game_class()})
    index = art.art_index(catalog, "infotoy")
    cards = load_game("infotoy", players=2).cards.cards
    assert index == {"cards": sorted(c.id for c in cards), "backs": ["Card"]}
    assert f"{ART_MARK} {cards[0].id}" in (art.card_svg(catalog, "infotoy", cards[0].id) or "")
    pytest.importorskip("cairosvg")
    pdf = print_game("infotoy", out=tmp_path / "infotoy.pdf")
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert f"{ART_MARK} {cards[0].id}" in text and f"{ART_MARK} back" in text


def test_a_plugin_without_art_gets_the_plain_face(plain_toy: GameInfo) -> None:
    from cardlab.art import PlainArt, game_art
    from cardlab.web import art
    from cardlab.web.catalog import Catalog

    assert isinstance(game_art("plaintoy"), PlainArt)
    catalog = Catalog({"plaintoy": plain_toy.game_class()})
    card = load_game("plaintoy", players=2).cards.cards[0]
    svg = art.card_svg(catalog, "plaintoy", card.id) or ""
    assert card.name in svg and card.id in svg and ART_MARK not in svg
    assert "PLAINTOY (plugin toy)" in (art.card_svg(catalog, "plaintoy", "back-Card") or "")
