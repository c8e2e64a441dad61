"""Variants: a designer's small change to a game, as a TOML file.

A variant is rule options plus changes to numbers in the packaged card data,
each change with the reason for it, so a playtest result can be replayed and
read later::

    game = "uptime"
    title = "UPTIME, lab variant"
    about = "What the lab found and what this changes."

    [options]
    supply_reshuffle = true

    [options_why]
    supply_reshuffle = "stalls 96% -> 4% [2, 7] at 4 players, 400 games, paired seeds"

    [[changes]]
    path = "contracts[Edge Contract].value"
    value = 5
    why = "Contracts were worth more than two Computers."

`[options_why]` (optional) gives an option's reason, as `why` does a card change's.

`[players.3.options]` (and `[players.3.options_why]`) override `[options]` at that
player count only, for a lever whose best value depends on how many play (a
command's own ``-o`` still wins over both); `Variant.options_for` is the one place
that merges them.

A `path` walks the parsed card TOML: keys separated by dots, ``[3]`` for a
list item by index and ``[Some Name]`` for the list item whose ``name`` is
that. Changes are applied to the raw data before it is validated, so the card
file's own checks still hold for the changed cards.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import tomllib
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import CardDataError, CardlabError, OptionError

if TYPE_CHECKING:
    from cardlab.core.plugin import GameInfo


class VariantError(CardlabError):
    """A variant file that cannot be used; the message names the file and the key."""


class VariantOptionError(VariantError, OptionError):
    """A variant's [options] entry the game does not allow (an option error too, so
    code that catches bad options catches it)."""


@dataclass(frozen=True)
class CardChange:
    path: str
    value: Any
    why: str = ""


@dataclass(frozen=True)
class Variant:
    game: str
    name: str
    title: str
    about: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    changes: tuple[CardChange, ...] = ()
    source: str = ""
    sha256: str = ""
    options_why: dict[str, str] = field(default_factory=dict)
    # The game's recommended ruleset (the lobby offers it first and its Play button
    # plays it), and one line on what the lab found about the rules as written.
    recommended: bool = False
    finding: str = ""
    # Options (and their whys) that override `options` at one player count.
    per_players: dict[int, dict[str, Any]] = field(default_factory=dict)
    per_players_why: dict[int, dict[str, str]] = field(default_factory=dict)

    def options_for(self, players: int) -> dict[str, Any]:
        """The options this variant sets at `players` players: `[options]`, then
        that count's `[players.N.options]` over them."""
        return {**self.options, **self.per_players.get(players, {})}

    def to_toml(self) -> str:
        """The variant as a TOML file (round-trips through `parse_variant`)."""
        lines = [f"game = {_toml(self.game)}", f"title = {_toml(self.title)}"]
        if self.about:
            lines.append(f"about = {_toml(self.about)}")
        if self.recommended:
            lines.append("recommended = true")
        if self.finding:
            lines.append(f"finding = {_toml(self.finding)}")
        lines += ["", "[options]"]
        lines += [f"{k} = {_toml(v)}" for k, v in self.options.items()]
        if self.options_why:
            lines += ["", "[options_why]"]
            lines += [f"{k} = {_toml(v)}" for k, v in self.options_why.items()]
        for count in sorted(set(self.per_players) | set(self.per_players_why)):
            lines += ["", f"[players.{count}.options]"]
            lines += [f"{k} = {_toml(v)}" for k, v in self.per_players.get(count, {}).items()]
            if self.per_players_why.get(count):
                lines += ["", f"[players.{count}.options_why]"]
                lines += [f"{k} = {_toml(v)}" for k, v in self.per_players_why[count].items()]
        for change in self.changes:
            lines += ["", "[[changes]]"]
            if change.why:
                lines.append(f"# {change.why}")
            lines += [f"path = {_toml(change.path)}", f"value = {_toml(change.value)}"]
            if change.why:
                lines.append(f"why = {_toml(change.why)}")
        return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


_TOP_KEYS = {
    "game",
    "title",
    "about",
    "options",
    "options_why",
    "changes",
    "recommended",
    "finding",
    "players",
}


def load_variant(path: str | Path, info: GameInfo | None = None) -> Variant:
    """Read and check a variant file; errors name the file and the key."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise VariantError(f"{p}: cannot read variant file: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise VariantError(f"{p}: not a valid TOML variant file: {exc}") from None
    return parse_variant(data, str(p), info, sha256=hashlib.sha256(raw).hexdigest())


def parse_variant(
    data: dict[str, Any], source: str, info: GameInfo | None = None, sha256: str = ""
) -> Variant:
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise VariantError(
            f"{source}: unknown key {unknown[0]!r}; a variant has {', '.join(sorted(_TOP_KEYS))}"
        )
    game = data.get("game")
    if not isinstance(game, str):
        raise VariantError(f"{source}: key 'game' must name the game (e.g. \"uptime\")")
    if info is not None and game != info.name:
        raise VariantError(f"{source}: key 'game' is {game!r}, but this is {info.name!r}")
    title = data.get("title", Path(source).stem)
    options, whys = _options_and_whys(data, source, "[options]", info)
    per_players, per_players_why = _parse_players(data.get("players", {}), source, info)
    recommended = data.get("recommended", False)
    if not isinstance(recommended, bool):
        raise VariantError(f"{source}: key 'recommended' must be true or false")
    finding = data.get("finding", "")
    if not isinstance(finding, str):
        raise VariantError(f"{source}: key 'finding' must be one line of text")
    changes = []
    for i, item in enumerate(data.get("changes", [])):
        where = f"{source}: changes[{i}]"
        if not isinstance(item, dict) or "path" not in item or "value" not in item:
            raise VariantError(f"{where}: a change needs 'path' and 'value' (and a 'why')")
        extra = sorted(set(item) - {"path", "value", "why"})
        if extra:
            raise VariantError(f"{where}: unknown key {extra[0]!r}; a change has path, value, why")
        change = CardChange(str(item["path"]), item["value"], str(item.get("why", "")))
        if info is not None:
            _check_range(change, info, where)
        changes.append(change)
    return Variant(
        game=game,
        name=Path(source).stem,
        title=str(title),
        about=str(data.get("about", "")),
        options=dict(options),
        changes=tuple(changes),
        source=source,
        sha256=sha256,
        options_why=dict(whys),
        recommended=recommended,
        finding=finding,
        per_players=per_players,
        per_players_why=per_players_why,
    )


def _parse_players(
    table: Any, source: str, info: GameInfo | None
) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, str]]]:
    """`[players.N.options]` / `[players.N.options_why]`: N a player count the game
    allows, each option checked as `[options]` is (errors name the file and key)."""
    if not isinstance(table, dict):
        raise VariantError(f"{source}: key 'players' must be tables [players.N.options]")
    options: dict[int, dict[str, Any]] = {}
    whys: dict[int, dict[str, str]] = {}
    for key, sub in table.items():
        where = f"{source}: [players.{key}]"
        if not str(key).isdigit():
            raise VariantError(f"{where}: {key!r} is not a player count (e.g. [players.3.options])")
        count = int(key)
        if info is not None and not info.min_players <= count <= info.max_players:
            raise VariantError(
                f"{where}: {info.name} is for {info.min_players}-{info.max_players} players, "
                f"not {count}"
            )
        if not isinstance(sub, dict):
            raise VariantError(f"{where}: must hold 'options' (and 'options_why')")
        extra = sorted(set(sub) - {"options", "options_why"})
        if extra:
            raise VariantError(f"{where}: unknown key {extra[0]!r}; it has options, options_why")
        opts, why = _options_and_whys(sub, where, f"[players.{count}.options]", info)
        options[count] = dict(opts)
        if why:
            whys[count] = dict(why)
    return options, whys


def _options_and_whys(
    table: dict[str, Any], where: str, name: str, info: GameInfo | None
) -> tuple[dict[str, Any], dict[str, str]]:
    """A table's `options` (each checked against the game) and `options_why` (a
    reason per option it sets): the one reading of `[options]` and of
    `[players.N.options]`, so both give the same errors."""
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise VariantError(f"{where}: key 'options' must be a table of rule options")
    if info is not None:
        _check_options(options, info, f"{where}: {name}", prefix="")
    whys = table.get("options_why", {})
    if not isinstance(whys, dict) or not all(isinstance(v, str) for v in whys.values()):
        raise VariantError(f"{where}: key 'options_why' must be a table of option = \"why\"")
    stray = sorted(set(whys) - set(options))
    if stray:
        raise VariantError(
            f"{where}: options_why gives a reason for {stray[0]!r}, which {name} does not set"
        )
    return options, whys


def _check_options(
    options: dict[str, Any], info: GameInfo, source: str, prefix: str = " [options]:"
) -> None:
    """Each option is one the game declares, with a value it allows: a listed value,
    or for an integer lever any whole number in its range (the error names the
    file, the option and what it allows, the range included)."""
    from cardlab.core.options import resolve_options

    try:
        specs = info.game_class().option_specs
    except Exception:  # a game whose engine does not import: the game load will say why
        return
    try:
        resolve_options(info.name, specs, options)
    except OptionError as exc:
        raise VariantOptionError(f"{source}:{prefix} {exc}") from None


def _check_range(change: CardChange, info: GameInfo, where: str) -> None:
    """A change to a value the game declares tunable must stay in its range (a
    number) or be one of its choices (a word)."""
    for tunable in info.tunables:
        if tunable.target == f"cards:{change.path}":
            value = change.value
            if tunable.choices:
                if not isinstance(value, str) or value not in tunable.choices:
                    raise VariantError(
                        f"{where}: {change.path!r} = {value!r} is not an allowed choice; "
                        f"allowed: {', '.join(tunable.choices)}"
                    )
                continue
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise VariantError(f"{where}: {change.path!r} must be a number, not {value!r}")
            if not tunable.low <= value <= tunable.high:
                raise VariantError(
                    f"{where}: {change.path!r} = {value} is outside its allowed range "
                    f"{tunable.low:g}..{tunable.high:g}"
                )


_SEGMENT = re.compile(r"([^.\[\]]+)|\[([^\]]*)\]")


def split_path(path: str) -> list[str | int | tuple[str, str]]:
    """``a.b[2].c[Name]`` -> ["a", "b", 2, "c", ("name", "Name")]."""
    out: list[str | int | tuple[str, str]] = []
    pos = 0
    text = path.strip()
    while pos < len(text):
        if text[pos] == ".":
            pos += 1
            continue
        m = _SEGMENT.match(text, pos)
        if m is None:
            raise CardDataError(f"card change path {path!r}: cannot read it at {text[pos:]!r}")
        if m.group(1) is not None:
            out.append(m.group(1))
        else:
            inner = m.group(2).strip()
            out.append(int(inner) if inner.lstrip("-").isdigit() else ("name", inner))
        pos = m.end()
    if not out:
        raise CardDataError(f"card change path {path!r} is empty")
    return out


def apply_change(data: Any, change: CardChange) -> bool:
    """Set the value at `change.path` in `data` (in place). False when the path's
    first key is not in `data` (the change belongs to another file of the game)."""
    parts = split_path(change.path)
    if not isinstance(data, dict) or parts[0] not in data:
        return False
    node = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(part, tuple):
            if not isinstance(node, list):
                raise CardDataError(f"card change {change.path!r}: [{part[1]}] needs a list")
            match = [x for x in node if isinstance(x, dict) and x.get("name") == part[1]]
            if not match:
                names = ", ".join(str(x.get("name")) for x in node if isinstance(x, dict))
                raise CardDataError(
                    f"card change {change.path!r}: no card named {part[1]!r} (cards: {names})"
                )
            if last:
                raise CardDataError(f"card change {change.path!r} must end at a field")
            node = match[0]
            continue
        if isinstance(part, int):
            if not isinstance(node, list) or not -len(node) <= part < len(node):
                raise CardDataError(f"card change {change.path!r}: no item [{part}]")
            if last:
                node[part] = change.value
            else:
                node = node[part]
            continue
        if not isinstance(node, dict) or (part not in node and not last):
            raise CardDataError(f"card change {change.path!r}: no field {part!r}")
        if last:
            if part not in node:
                raise CardDataError(f"card change {change.path!r}: no field {part!r}")
            node[part] = change.value
        else:
            node = node[part]
    return True


_ACTIVE: ContextVar[tuple[tuple[CardChange, ...], set[int]] | None] = ContextVar(
    "cardlab_card_changes", default=None
)


@contextlib.contextmanager
def applying(changes: Sequence[CardChange]) -> Iterator[None]:
    """Apply `changes` to every card file loaded inside the block (by
    `core.carddata.load_card_file`); at the end, a change that matched no file is
    an error naming its path."""
    if not changes:
        yield
        return
    used: set[int] = set()
    token = _ACTIVE.set((tuple(changes), used))
    try:
        yield
    finally:
        _ACTIVE.reset(token)
    missing = [c.path for i, c in enumerate(changes) if i not in used]
    if missing:
        raise CardDataError(f"card change {missing[0]!r} matches no field of the card files")


def apply_active(data: Any) -> None:
    """Called by the card-file loader on freshly parsed data."""
    active = _ACTIVE.get()
    if active is None:
        return
    changes, used = active
    for i, change in enumerate(changes):
        if apply_change(data, change):
            used.add(i)


def get_value(data: Any, path: str) -> Any:
    """The value at `path` in parsed card data (raises CardDataError if absent)."""
    node = data
    for part in split_path(path):
        if isinstance(part, tuple):
            match = [x for x in node if isinstance(x, dict) and x.get("name") == part[1]]
            if not isinstance(node, list) or not match:
                raise CardDataError(f"card path {path!r}: no card named {part[1]!r}")
            node = match[0]
        elif isinstance(part, int):
            if not isinstance(node, list) or not -len(node) <= part < len(node):
                raise CardDataError(f"card path {path!r}: no item [{part}]")
            node = node[part]
        else:
            if not isinstance(node, dict) or part not in node:
                raise CardDataError(f"card path {path!r}: no field {part!r}")
            node = node[part]
    return node


def packaged_card_data(package_dir: Path) -> list[dict[str, Any]]:
    """The parsed packaged card files of a game (every ``*.toml`` beside its code)."""
    docs = []
    for path in sorted(package_dir.glob("*.toml")):
        docs.append(tomllib.loads(path.read_text(encoding="utf-8")))
    return docs


def packaged_value(package_dir: Path, path: str) -> Any:
    """The packaged value at card path `path`, from whichever card file has its first key."""
    first = split_path(path)[0]
    for doc in packaged_card_data(package_dir):
        if first in doc:
            return get_value(doc, path)
    raise CardDataError(f"card path {path!r}: no packaged card file has {first!r}")
