"""What a table may be made of: fixed by the server's own command line, never by a client.

A client names a game, a player count, rule options (only the game's declared
option names) and optionally a variant *by name* from the server's list. Card
files and variant files reach the server only from `cardlab serve --cards PATH
--variant PATH` and from the variants packaged with each game
(`GameInfo.variants_dir()/*.toml`); no request can make the server open a file.

Errors sent to clients go through `scrub`, so no server path ever reaches them."""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.core import Game
from cardlab.core.errors import CardlabError
from cardlab.core.registry import UnknownGameError, game_info
from cardlab.core.variants import Variant, load_variant, parse_variant
from cardlab.web.catalog import Catalog

log = logging.getLogger("cardlab.web")

RESERVED = frozenset({"cards", "variant"})
"""Game constructor arguments that are not rule options: a client may never pass them."""

_ABS_PATH = re.compile(r"(?<![\w.:/])(?:[A-Za-z]:)?[/\\][^\s'\"`,;()]+")


def scrub(text: str, known: Iterable[tuple[str, str]] = ()) -> str:
    """`text` with every known server path replaced by its public name, and anything
    else shaped like an absolute path replaced by "(server file)"."""
    for path, name in sorted(known, key=lambda kv: -len(kv[0])):
        if path:
            text = text.replace(path, name)
    return _ABS_PATH.sub("(server file)", text)


@dataclass(frozen=True)
class Offer:
    """A variant the server offers for one game."""

    name: str
    variant: Variant

    def describe(self) -> dict[str, Any]:
        """What the lobby shows: the variant's name and words, the rule options it sets
        (so the option fields can show the variant's settings), those it sets at one
        player count only, and how many card numbers it changes."""
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.variant.title,
            "about": self.variant.about,
            "options": dict(self.variant.options),
            "card_changes": len(self.variant.changes),
        }
        # The game's recommended ruleset (marked in the file, or named so in its title)
        # and its finding; keys only when set, so a plain variant's JSON is unchanged.
        if self.variant.recommended or "recommended" in self.variant.title.lower():
            out["recommended"] = True
        if self.variant.finding:
            out["finding"] = self.variant.finding
        # `[players.N.options]`: what the variant sets differently at N players, so the
        # option fields show the value the table will play at the count chosen (the
        # server applies the same merge, `Variant.options_for`). JSON keys are strings.
        by_count = {str(n): dict(o) for n, o in sorted(self.variant.per_players.items()) if o}
        if by_count:
            out["options_by_players"] = by_count
        return out


class Offers:
    """The server's card files (per game) and variants (per game, by name)."""

    def __init__(
        self,
        catalog: Catalog,
        cards: Iterable[str] = (),
        variants: Iterable[str] = (),
        packaged: bool = True,
        used_by: Any = None,
    ) -> None:
        """`used_by(path)`: the games whose stored tables were made with the card file
        at `path` (the store's `games_with_cards`), to know whose file a bare PATH
        that no longer loads is."""
        self.catalog = catalog
        self.cards: dict[str, Path] = {}
        self.broken: dict[str, str] = {}
        """Games whose card file did not load at start: why (new tables are refused
        while it still does not load; the server serves everything else)."""
        self._used_by = used_by
        self.variants: dict[str, dict[str, Offer]] = {name: {} for name in catalog.names()}
        for spec in cards:
            self._add_cards(spec)
        if packaged:
            for game in catalog.names():
                for path in sorted(_packaged_dir(game).glob("*.toml")):
                    try:
                        self._add_variant(path)
                    except CardlabError as exc:
                        log.warning("packaged variant not offered: %s", exc)
        for variant in variants:
            self._add_variant(Path(variant))

    # -- start-up (errors here go to the operator and may name paths) ----------------
    def _add_cards(self, spec: str) -> None:
        game, sep, path = spec.partition("=")
        if sep and game in self.catalog.names():
            self.cards[game] = Path(path).resolve()
            try:
                self._check(game, cards=Path(path))
            except CardlabError as exc:
                self._broken(game, str(exc))
            return
        fits = []
        problems = []
        for name in self.catalog.names():
            try:
                self._check(name, cards=Path(spec))
                fits.append(name)
            except CardlabError as exc:
                problems.append(f"{name}: {exc}")
        owners = set(self._used_by(spec)) if not fits and self._used_by is not None else set()
        owners &= set(self.catalog.names())
        for name in sorted(owners):  # the file of tables we hold: serve the rest
            self.cards[name] = Path(spec).resolve()
            self._broken(name, next((p for p in problems if p.startswith(f"{name}: ")), ""))
        if not fits and not owners:
            raise CardlabError(
                f"--cards {spec}: not a card file of any game served ("
                + "; ".join(problems)
                + "); write GAME=PATH to name the game"
            )
        for name in fits:
            self.cards[name] = Path(spec).resolve()

    def _broken(self, game: str, problem: str) -> None:
        self.broken[game] = problem
        log.warning(
            "the card file for %s does not load (%s); new %s tables are refused until it "
            "does, tables in progress keep the cards they were made with",
            game,
            problem,
            game,
        )

    def _add_variant(self, path: Path) -> None:
        info = _info(_variant_game(path))
        variant = load_variant(path, info)
        if variant.game not in self.catalog.names():
            raise CardlabError(f"{path}: variant of {variant.game!r}, a game this server lacks")
        self._check(variant.game, variant=variant)
        self.variants[variant.game][variant.name] = Offer(variant.name, variant)

    def _check(self, game: str, **kwargs: Any) -> None:
        cls = self.catalog.game_class(game)
        default = getattr(cls, "default_players", cls.min_players)
        # A variant is checked against the game's own cards when the server's file is broken.
        cards = kwargs.get("cards", None if game in self.broken else self.cards.get(game))
        cls(default, cards=cards, variant=kwargs.get("variant"))

    # -- per request ------------------------------------------------------------------
    def describe(self, game: str) -> list[dict[str, Any]]:
        return [offer.describe() for offer in self.variants.get(game, {}).values()]

    def variant(self, game: str, name: Any) -> Variant | None:
        """The variant a request names (None, "" or "as written" for none); 4xx text otherwise."""
        if name in (None, "", "as written"):
            return None
        offered = self.variants.get(game, {})
        if not isinstance(name, str) or name not in offered:
            names = ", ".join(offered) or "none"
            raise CardlabError(f"unknown variant {str(name)[:40]!r} for {game}; variants: {names}")
        return offered[name].variant

    def make(
        self,
        game: str,
        players: Any,
        options: dict[str, Any],
        variant: Variant | None,
        cards: str | None = None,
    ) -> Game:
        """The game for a table; `cards` is a path the server chose (stored settings)."""
        cls = self.catalog.game_class(game)
        names = {spec.name for spec in cls.option_specs}
        for key in options:
            if key in RESERVED or key not in names:
                known = ", ".join(sorted(names)) or "none"
                raise CardlabError(
                    f"unknown option {str(key)[:40]!r} for {game}; its options are: {known}"
                )
        path = cards if cards is not None else self.cards.get(game)
        return cls(players, cards=path, variant=variant, **options)

    def known_paths(self) -> list[tuple[str, str]]:
        """(server path, public name) pairs that `scrub` replaces in client-facing text."""
        pairs = [(str(p), f"the server's {g} card file") for g, p in self.cards.items()]
        for offers in self.variants.values():
            for offer in offers.values():
                pairs.append((offer.variant.source, f"variant {offer.name!r}"))
                pairs.append((str(Path(offer.variant.source).resolve()), f"variant {offer.name!r}"))
        return pairs


def variant_settings(variant: Variant | None) -> dict[str, Any]:
    """How a table's variant is stored: its name and its whole text (restores exactly)."""
    if variant is None:
        return {}
    return {"variant": variant.name, "variant_toml": variant.to_toml()}


def stored_variant(settings: dict[str, Any]) -> Variant | None:
    text = settings.get("variant_toml")
    if not text:
        return None
    name = settings.get("variant") or "variant"
    return parse_variant(tomllib.loads(text), f"{name}.toml", _info_or_none(tomllib.loads(text)))


def _info_or_none(data: dict[str, Any]) -> Any:
    game = data.get("game")
    return _info(game) if isinstance(game, str) else None


def _variant_game(path: Path) -> str | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # load_variant reports it with the file name
    game = data.get("game")
    return game if isinstance(game, str) else None


def _info(game: str | None) -> Any:
    if game is None:
        return None

    try:
        return game_info(game)
    except UnknownGameError:
        return None


def _packaged_dir(game: str) -> Path:
    info = _info(game)
    if info is None:
        return Path("/nonexistent-cardlab-variants")
    try:
        return Path(info.variants_dir())
    except ModuleNotFoundError:
        return Path("/nonexistent-cardlab-variants")
