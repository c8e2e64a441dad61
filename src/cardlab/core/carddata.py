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
    """Validate already-parsed card data; errors name the card and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [_describe(data, err) for err in exc.errors()[:5]]
        more = len(exc.errors()) - len(problems)
        tail = f" (and {more} more)" if more > 0 else ""
        raise CardDataError(f"{source}: " + "; ".join(problems) + tail) from None


def _describe(data: Any, err: Any) -> str:
    loc = tuple(err.get("loc", ()))
    msg = str(err.get("msg", "invalid"))
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
