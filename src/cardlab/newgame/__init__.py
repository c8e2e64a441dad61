"""`cardlab new-game NAME --out DIR`: scaffold an installable, working game.

The template (``template/*.tmpl``) is a complete small two-to-four-player game
("lay one secret card a round, the highest scores") under the one layout, with
its pyproject (the ``cardlab.games`` entry point), card file, rules document
(``rules.md``), the table's view script (``web/view.js``), both found by
`GameInfo`'s defaults and shipped as package data, and tests that run
`cardlab.testing.check_game`. A designer changes it into theirs;
cardlab's own tests scaffold it too, as their only toy game: its options
`sabotage` (a decision out of turn) and `may_pass` (a no-op pass, an end by
stalling) and `scenarios.position` (hand-made positions with a known best move)
give the agents, lab, adapter and web tests what they need."""

from __future__ import annotations

import functools
import keyword
import re
from importlib import resources
from pathlib import Path

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import SCORE_DIRECTIONS, GameInfo

PROJECT_FILES = {"pyproject.toml", "README.md"}
"""Template files that go to the project root; the rest go into the package."""

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{1,30}$")


def _template_files() -> list[tuple[str, str]]:
    """(relative path without .tmpl, text) of every template file."""
    root = resources.files(__package__) / "template"
    out: list[tuple[str, str]] = []

    def walk(node: object, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):  # type: ignore[attr-defined]
            if child.is_dir():
                if child.name != "__pycache__":
                    walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".tmpl"):
                out.append((prefix + child.name[: -len(".tmpl")], child.read_text("utf-8")))

    walk(root, "")
    return out


def check_name(name: str) -> None:
    if not NAME_PATTERN.match(name) or keyword.iskeyword(name):
        raise CardlabError(
            f"game name {name!r}: use 2-31 lowercase letters, digits or _, starting with a "
            "letter (it becomes the Python package and the registry name)"
        )


def cardlab_source() -> str:
    """Where a new game's author installs cardlab from (its README and pyproject say
    so): the checkout this cardlab runs from, when it runs from one (an editable
    install or a source tree), else a placeholder to replace."""
    import cardlab

    root = Path(cardlab.__file__).resolve().parents[2]
    pyproject = root / "pyproject.toml"
    if pyproject.exists() and 'name = "cardlab"' in pyproject.read_text("utf-8"):
        return str(root)
    return "/path/to/cardlab"


DIRECTION_WORDS: dict[str, dict[str, str]] = {
    "highest": {
        "{{win_rule}}": "Most points wins; a tie is broken by most rounds taken, then shared.",
        "{{win_short}}": "most points win",
        "{{r4}}": "the most points wins; a tie goes to most rounds taken, then is shared.",
        "{{r5}}": "that seat loses 1 point (points may go below zero).",
        "{{pitch}}": "Lay one secret card a round; the highest card scores its value.",
        "{{sabotage_about}}": "choose a seat to lose a point",
    },
    "lowest": {
        "{{win_rule}}": "Points are penalties: the fewest points win; a tie is broken by "
        "fewest rounds taken, then shared.",
        "{{win_short}}": "the fewest points win",
        "{{r4}}": "the fewest points wins (points are penalties: a round taken costs its "
        "card's value); a tie goes to fewest rounds taken, then is shared.",
        "{{r5}}": "that seat takes 1 penalty point.",
        "{{pitch}}": "Lay one secret card a round; the highest card takes its value in "
        "penalty points, and the fewest points win.",
        "{{sabotage_about}}": "choose a seat to take a penalty point",
    },
}
"""The template's words for each score direction (`GameInfo.score_direction`)."""


def check_direction(name: str, score_direction: str) -> None:
    if score_direction not in SCORE_DIRECTIONS:
        raise CardlabError(
            f"game {name!r}: --score-direction (GameInfo.score_direction) must be "
            f"{' or '.join(repr(d) for d in SCORE_DIRECTIONS)}, not {score_direction!r}"
        )


def scaffold(
    name: str, out: str | Path, title: str | None = None, score_direction: str = "highest"
) -> Path:
    """Write the template game `name` into the new directory `out`; returns `out`.

    `score_direction` "lowest" makes the template a penalty-point game (the highest
    card takes its value as penalty points, the fewest points win), declared in its
    GameInfo so every report, ladder, final table and RL reward reads it."""
    check_name(name)
    check_direction(name, score_direction)
    target = Path(out)
    if target.exists() and any(target.iterdir()):
        raise CardlabError(f"{target} exists and is not empty; choose a new directory")
    words = {
        "{{cardlab_source}}": cardlab_source(),
        "{{pkg}}": name,
        "{{Class}}": "".join(part.capitalize() for part in name.split("_")),
        "{{title}}": title or name.replace("_", " ").upper(),
        "{{score_direction}}": score_direction,
        **DIRECTION_WORDS[score_direction],
    }
    for rel, text in _template_files():
        for token, value in words.items():
            text = text.replace(token, value)
        if rel in PROJECT_FILES:
            path = target / rel
        elif rel.startswith("tests/"):
            path = target / "tests" / rel.removeprefix("tests/").replace("game", name, 1)
        else:
            path = target / "src" / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return target


def import_scaffold(project: str | Path) -> GameInfo:
    """The GameInfo of a scaffolded project, imported from its directory without
    installing it (tests, notebooks); `register_game` it to use it by name."""
    import importlib
    import sys

    src = Path(project) / "src"
    packages = [p for p in src.iterdir() if (p / "rules.py").exists()]
    if len(packages) != 1:
        raise CardlabError(f"{src}: expected one game package with a rules.py")
    if str(src) not in sys.path:
        sys.path.insert(0, str(src))
    info = importlib.import_module(f"{packages[0].name}.rules").GAME_INFO
    if not isinstance(info, GameInfo):
        raise CardlabError(f"{packages[0]}/rules.py: GAME_INFO is not a GameInfo")
    return info


@functools.cache
def template_game(
    name: str, title: str | None = None, score_direction: str = "highest"
) -> GameInfo:
    """The template game, scaffolded as `name` into a new temporary directory
    (removed when the process exits) and imported: the toy game of cardlab's own
    tests, and a quick start in a notebook. Once per name and process (the package
    is imported under `name`); `register_game` the result to use it by name."""
    import atexit
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix=f"cardlab-{name}-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return import_scaffold(scaffold(name, root / name, title, score_direction))
