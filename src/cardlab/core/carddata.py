"""Load card data files (TOML) and validate them with pydantic, so that a
designer's mistake is reported by file, card and field rather than as a crash
deep inside a game."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cardlab.core.errors import CardDataError
from cardlab.core.variants import apply_active

M = TypeVar("M", bound=BaseModel)


def load_card_file(path: Path, model: type[M]) -> M:
    """Parse `path` as TOML and validate it against `model`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CardDataError(f"{path}: cannot read card file: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(f"{path}: not a valid TOML card file: {exc}") from exc
    apply_active(data)  # a variant's card changes, when one is being loaded
    return validate_card_data(data, model, str(path))


def validate_card_data(data: Any, model: type[M], source: str) -> M:
    """Validate already-parsed card data; errors name the card and the field.

    A number field given `true`/`false` is refused first: pydantic's lax mode would
    read it as 1/0, a card value the designer never wrote. A bound or type error on a
    number says the number wanted and the value given ("should be a whole number from
    2 to 5, got 9")."""
    booleans = _booleans_as_numbers(data, model, ())
    problems = [
        _describe(data, {"loc": loc, "msg": f"should be {wanted}, got {_shown(value)}"})
        for loc, wanted, value in booleans
    ]
    if problems:
        raise CardDataError(
            f"{source}: " + "; ".join(problems[:5]),
            locations=tuple(tuple(loc) for loc, _, _ in booleans),
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [_describe(data, err, model) for err in exc.errors()[:5]]
        more = len(exc.errors()) - len(problems)
        tail = f" (and {more} more)" if more > 0 else ""
        raise CardDataError(
            f"{source}: " + "; ".join(problems) + tail,
            locations=tuple(tuple(err.get("loc", ())) for err in exc.errors()),
        ) from None


_NUMBER_ERRORS = {
    "greater_than_equal",
    "greater_than",
    "less_than_equal",
    "less_than",
    "int_type",
    "int_parsing",
    "int_from_float",
    "float_type",
    "float_parsing",
}


def _field_at(model: Any, loc: tuple[Any, ...]) -> Any:
    """The pydantic FieldInfo at `loc` (str keys through models, int keys through
    lists), or None where the path leaves the models."""
    import typing

    current: Any = model
    info = None
    for key in loc:
        if isinstance(key, int):
            args = typing.get_args(current)
            current = args[0] if args else None
            continue
        fields = getattr(current, "model_fields", None)
        if not isinstance(fields, dict) or key not in fields:
            return None
        info = fields[key]
        current = info.annotation
        origin = typing.get_origin(current)
        if origin is not None and origin not in (list, tuple):
            inner = [a for a in typing.get_args(current) if a is not type(None)]
            current = inner[0] if len(inner) == 1 else current
    return info


def _number_wanted(info: Any) -> str | None:
    """'a whole number from 2 to 5' for a bounded int field, None when not a number."""
    ann = getattr(info, "annotation", None)
    if ann is bool or ann not in (int, float):
        return None
    low = high = None
    for m in getattr(info, "metadata", ()):
        low = getattr(m, "ge", low) if getattr(m, "ge", None) is not None else low
        high = getattr(m, "le", high) if getattr(m, "le", None) is not None else high
        if getattr(m, "gt", None) is not None:
            low = f"above {m.gt}"
        if getattr(m, "lt", None) is not None:
            high = f"below {m.lt}"
    kind = "a whole number" if ann is int else "a number"
    if low is not None and high is not None:
        lo = low if isinstance(low, str) else f"from {low}"
        hi = high if isinstance(high, str) else f"to {high}"
        return f"{kind} {lo} {hi}"
    if low is not None:
        return f"{kind} {low}" if isinstance(low, str) else f"{kind} from {low}"
    if high is not None:
        return f"{kind} {high}" if isinstance(high, str) else f"{kind} up to {high}"
    return kind


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _booleans_as_numbers(
    data: Any, model: Any, loc: tuple[Any, ...]
) -> list[tuple[tuple[Any, ...], str, Any]]:
    """Every number field whose value is `true`/`false`: (its path, the number wanted,
    the value given)."""
    out: list[tuple[tuple[Any, ...], str, Any]] = []
    fields = getattr(model, "model_fields", None)
    if not isinstance(fields, dict) or not isinstance(data, dict):
        return out
    import typing

    for key, info in fields.items():
        name = info.alias or key
        if name not in data:
            continue
        value = data[name]
        wanted = _number_wanted(info)
        if wanted is not None and isinstance(value, bool):
            out.append(((*loc, name), wanted, value))
            continue
        ann = info.annotation
        if typing.get_origin(ann) in (list, tuple) and isinstance(value, list):
            args = typing.get_args(ann)
            sub = args[0] if args else None
            for i, item in enumerate(value):
                out += _booleans_as_numbers(item, sub, (*loc, name, i))
        elif hasattr(ann, "model_fields"):
            out += _booleans_as_numbers(value, ann, (*loc, name))
    return out


def _describe(data: Any, err: Any, model: Any = None) -> str:
    loc = tuple(err.get("loc", ()))
    msg = str(err.get("msg", "invalid"))
    if err.get("type") in _NUMBER_ERRORS and model is not None:
        wanted = _number_wanted(_field_at(model, loc))
        if wanted is not None:
            msg = f"should be {wanted}, got {_shown(err.get('input'))}"
    card_desc = ""
    field_parts: list[str] = []
    node = data
    i = 0
    while i < len(loc):
        key = loc[i]
        if isinstance(node, dict) and key in node:
            child = node[key]
            at_top = i == 0  # only a top-level list (e.g. `cards`, `parts`) holds cards
            if at_top and isinstance(child, list) and len(loc) > 1 and isinstance(loc[1], int):
                idx = loc[i + 1]
                item = child[idx] if 0 <= idx < len(child) else None
                name = item.get("name") if isinstance(item, dict) else None
                card_desc = f"card {name!r} ({key}[{idx}])" if name else f"{key}[{idx}]"
                node = item
                field_parts = []
                i += 2
                continue
            node = child
        else:
            node = None
        field_parts.append(str(key))
        i += 1
    where = card_desc or "file"
    field = ".".join(field_parts)
    return f"{where}: field {field!r}: {msg}" if field else f"{where}: {msg}"
