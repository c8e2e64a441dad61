"""A plugin built the way a third party builds one, for the plugin tests.

`cardlab new-game` writes the template game into a temporary folder; the test
adds the optional parts it is about (its own rules text, a persona, card art)
or removes one (the view script), then imports the package without installing
it and registers its `GameInfo` in-process. Nothing of the plugin lives in
cardlab's tree, so whatever the lobby, the table, the bots or the printer show
of it can only have come from the plugin's own package."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardlab.agents import base as agents_base
from cardlab.core.plugin import GameInfo
from cardlab.core.registry import register_game, unregister_game
from cardlab.newgame import import_scaffold, scaffold

MINIMAL_DROPS = ("encoding.py", "scenarios.py", "render.py")
"""The template's optional modules (besides rules.md and web/view.js) a minimal
plugin goes without."""

ART_MARK = "PLUGIN-OWN-ART"
"""Printed on every face the toy's art module draws (and on no plain face)."""

RULES_MARK = "Only this plugin's rulebook says this"
"""A sentence in the toy's own rules.md, found in no file of cardlab."""

PERSONAS = '''"""{title}'s persona: lays its lowest-numbered legal action (a test bot)."""

from cardlab.agents.base import Agent, register_agent


@register_agent("{name}_lowball")
class Lowball(Agent):
    kind = "{name}_lowball"

    def step(self, state):
        return min(state.legal_actions())
'''

ART = '''"""{title}'s card faces: the plain face's records, its own drawing."""

from cardlab.art.plain import PlainArt
from cardlab.art.svg import CardArt, text

_PLAIN = PlainArt("{title}")
TITLE = _PLAIN.TITLE
BACKS = _PLAIN.BACKS


def faces(cards, options=None):
    return _PLAIN.faces(cards, options)


def card_art(face):
    return CardArt(face.name, text(30, 40, "{mark} " + face.id, 4))


def card_svg(face):
    return card_art(face).svg()


def back_art(back):
    return CardArt(back, text(30, 40, "{mark} back", 4))
'''


@contextmanager
def plugin(
    root: Path,
    name: str,
    *,
    rules: bool = True,
    view: bool = True,
    personas: bool = False,
    art: bool = False,
    minimal: bool = False,
) -> Iterator[GameInfo]:
    """Scaffold `name` under `root` with the parts asked for, register it, and on
    leaving unregister it, forget its modules and its persona kinds (a persona left
    in the agent registry without its module would pass for a generic kind).

    `minimal` keeps only the required parts (rules.py, actions, state, view,
    resample, scoring, cards): no rules document, view script, render, encoding,
    scenarios or tests."""
    project = scaffold(name, root / name, title=f"{name.upper()} (plugin toy)")
    package = project / "src" / name
    if minimal:
        rules, view = False, False
        for optional in MINIMAL_DROPS:
            (package / optional).unlink()
        for test in (project / "tests").iterdir():
            test.unlink()
    title = f"{name.upper()} (plugin toy)"
    if rules:
        (package / "rules.md").write_text(f"# {title}: rules\n\n{RULES_MARK}.\n", "utf-8")
    else:
        (package / "rules.md").unlink()
    if not view:
        (package / "web" / "view.js").unlink()
        (package / "web").rmdir()
    if personas:
        (package / "personas.py").write_text(PERSONAS.format(name=name, title=title), "utf-8")
    if art:
        (package / "art.py").write_text(ART.format(title=title, mark=ART_MARK), "utf-8")
    importlib.invalidate_caches()
    info = import_scaffold(project)
    register_game(info)
    kinds_before = set(agents_base._KINDS)
    try:
        yield info
    finally:
        unregister_game(name)
        for kind in set(agents_base._KINDS) - kinds_before:
            if kind.startswith(f"{name}_"):
                del agents_base._KINDS[kind]
        for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[module]
        src = str(project / "src")
        if src in sys.path:
            sys.path.remove(src)
