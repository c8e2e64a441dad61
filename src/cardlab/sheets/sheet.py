"""Card data as a spreadsheet: any game's TOML card file to CSV and back.

Designers keep cards in a sheet (nanDECK, Component Studio and Screentop all read
one), so every game's card file round-trips through CSV without code of its own. One
row a card entry: the first column, ``section``, names the file's list the entry
belongs to (``parts``, ``component``, ``deals``), the other columns are the entries'
fields, the union over the file, in the order they first appear. A list value (a
Component's cost, a part's green numbers) is one cell with its items joined by ``; ``.
A single table (UPTIME's ``[patch]``) is a row whose section is written ``[patch]``;
top-level values are rows of section ``=`` with the value's name in ``name`` and the
value in ``value``.

A cell is read back with the type the same field has in the template file (the
packaged cards, or the file the sheet was exported from): a count stays a number, a
single-item cost stays a list. Errors name the sheet's row and column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import openpyxl
import openpyxl.styles
import tomli_w

from cardlab.core.errors import CardDataError

SECTION = "section"
"""The first column: which list of the card file a row belongs to."""
TOP = "="
"""The section of a top-level value of the card file (``name`` and ``value`` columns)."""
JOIN = "; "
"""How a list value's items are joined in one cell."""


class SheetError(CardDataError):
    """A sheet that cannot become a card file; names the row (1 is the header) and column,
    in its message and in `cells` ((row, column) pairs) for a page that marks them."""

    def __init__(self, message: str, cells: tuple[tuple[int, str], ...] = ()) -> None:
        super().__init__(message)
        self.cells = cells


def to_rows(doc: dict[str, Any]) -> tuple[list[str], list[dict[str, str]]]:
    """The sheet of a parsed card file: its columns and one row a card entry."""
    columns: list[str] = [SECTION]
    rows: list[dict[str, str]] = []

    def add(section: str, entry: dict[str, Any]) -> None:
        row = {SECTION: section}
        for key, value in entry.items():
            if isinstance(value, dict):
                raise CardDataError(
                    f"section {section!r}: field {key!r} is a table inside a card; "
                    "a sheet holds one value a cell"
                )
            if key not in columns:
                columns.append(key)
            row[key] = _cell(value)
        rows.append(row)

    for key, value in doc.items():
        if isinstance(value, list) and all(isinstance(v, dict) for v in value) and value:
            for entry in value:
                add(key, entry)
        elif isinstance(value, dict):
            add(f"[{key}]", value)
        else:
            add(TOP, {"name": key, "value": value})
    return columns, rows


def write_csv(doc: dict[str, Any], out: io.TextIOBase | Any) -> None:
    """Write the sheet of `doc` as CSV to the text stream `out`."""
    columns, rows = to_rows(doc)
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def read_csv(text: str, template: dict[str, Any], source: str = "sheet") -> dict[str, Any]:
    """The card file (parsed form) a CSV sheet says, typed after `template`."""
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or reader.fieldnames[0] != SECTION:
        raise SheetError(
            f"{source}: row 1: the first column must be {SECTION!r} (which list of the card "
            f"file a row belongs to), not {(reader.fieldnames or [''])[0]!r}"
        )
    return from_rows(list(reader), template, source)


def from_rows(
    rows: Sequence[dict[str, str | None]], template: dict[str, Any], source: str = "sheet"
) -> dict[str, Any]:
    """The card file the rows say; each row's cells typed as the template's same field."""
    doc: dict[str, Any] = {}
    for number, row in enumerate(rows, start=2):  # row 1 is the header
        extra = row.get(None)  # type: ignore[call-overload]
        if extra:
            raise SheetError(f"{source}: row {number}: more cells than the header has columns")
        section = (row.get(SECTION) or "").strip()
        cells = {k: v for k, v in row.items() if k not in (SECTION, None) and v not in (None, "")}
        if not section:
            if cells:
                raise SheetError(f"{source}: row {number}, column {SECTION!r}: empty")
            continue  # a blank line
        if section == TOP:
            name = (cells.get("name") or "").strip()
            if not name:
                raise SheetError(
                    f"{source}: row {number}, column 'name': a top-level value needs a name"
                )
            like = template.get(name)
            doc[name] = _value(cells.get("value") or "", like, source, number, "value")
            continue
        single = section.startswith("[") and section.endswith("]")
        key = section[1:-1] if single else section
        like_entry = _template_entry(template.get(key), cells.get("name"))
        entry = {
            col: _value(text or "", like_entry.get(col), source, number, col)
            for col, text in cells.items()
        }
        if single:
            if key in doc:
                raise SheetError(
                    f"{source}: row {number}: a second row for the single table [{key}]"
                )
            doc[key] = entry
        else:
            doc.setdefault(key, []).append(entry)
    return doc


def row_of(
    rows_by_section: dict[str, list[int]], location: Sequence[object]
) -> tuple[int, str] | None:
    """The sheet row and column of a card-file location (``("parts", 3, "north")``),
    given each section's row numbers in order; None when it names no cell."""
    if len(location) >= 3 and isinstance(location[1], int):
        numbers = rows_by_section.get(str(location[0]), [])
        if 0 <= location[1] < len(numbers):
            return numbers[location[1]], str(location[2])
    if len(location) >= 2:
        numbers = rows_by_section.get(f"[{location[0]}]", [])
        if numbers:
            return numbers[0], str(location[1])
    return None


def section_rows(text: str) -> dict[str, list[int]]:
    """Each section's sheet row numbers, in order (for `row_of`)."""
    out: dict[str, list[int]] = {}
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        section = (row.get(SECTION) or "").strip()
        if section:
            out.setdefault(section, []).append(number)
    return out


def pointed(err: CardDataError, text: str, source: str) -> SheetError:
    """`err` (a card file's validation failure) told by the sheet's rows and columns."""
    rows = section_rows(text)
    found = [row_of(rows, loc) for loc in getattr(err, "locations", ())]
    cells = tuple(x for x in found if x)
    where = "; ".join(f"row {r}, column {c!r}" for r, c in cells)
    detail = str(err)
    message = f"{source}: {where}: {detail}" if where else f"{source}: {detail}"
    return SheetError(message, cells=cells)


def sheet_to_toml(doc: dict[str, Any]) -> str:
    """The TOML text of a card file read from a sheet."""
    return tomli_w.dumps(doc)


def read_sheet_file(path: Path) -> str:
    """A sheet's CSV text: a .csv file (UTF-8, a spreadsheet's byte-order mark allowed)
    or the first worksheet of an .xlsx workbook a spreadsheet saved."""
    if path.suffix.lower() == ".xlsx":
        return xlsx_to_csv(path)
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SheetError(f"{path}: cannot read the sheet: {exc}") from exc


def xlsx_to_csv(path: Path) -> str:
    """The first worksheet of an .xlsx workbook as CSV text (every cell as the text it
    shows: a whole number a spreadsheet stored as 6.0 reads 6)."""
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 (openpyxl raises many kinds for a bad file)
        raise SheetError(f"{path}: not a readable .xlsx workbook: {exc}") from exc
    try:
        sheet = book.worksheets[0]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for row in sheet.iter_rows(values_only=True):
            writer.writerow(["" if v is None else _xlsx_text(v) for v in row])
        return out.getvalue()
    finally:
        book.close()


def _xlsx_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def write_xlsx(doc: dict[str, Any], path: Path) -> None:
    """Write the sheet of `doc` as an .xlsx workbook (numbers as numbers, the header bold)."""
    columns, rows = to_rows(doc)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "cards"
    sheet.append(columns)
    for cell in sheet[1]:
        cell.font = openpyxl.styles.Font(bold=True)
    for row in rows:
        sheet.append([_typed(row.get(c, "")) for c in columns])
    sheet.freeze_panes = "B2"
    book.save(path)


def _typed(text: str) -> object:
    """A cell for a workbook: a number stays a number, so a spreadsheet sums it."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


# ---- cells ------------------------------------------------------------------------------
def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return JOIN.join(_cell(v) for v in value)
    return str(value)


def _template_entry(entries: Any, name: str | None) -> dict[str, Any]:
    """The template's entry to type a row after: the one of the same name, else the
    section's first (a card the designer added), else none (every cell read as it looks)."""
    if isinstance(entries, dict):
        return entries
    if not isinstance(entries, list) or not entries:
        return {}
    for entry in entries:
        if isinstance(entry, dict) and name is not None and entry.get("name") == name:
            return entry
    merged: dict[str, Any] = {}
    for entry in entries:
        if isinstance(entry, dict):
            for k, v in entry.items():
                merged.setdefault(k, v)
    return merged


def _value(text: str, like: Any, source: str, row: int, column: str) -> Any:
    text = text.strip()
    try:
        if isinstance(like, list):
            items = [t.strip() for t in text.split(";")] if text else []
            item_like = like[0] if like else None
            return [_scalar(t, item_like) for t in items if t != ""]
        return _scalar(text, like)
    except ValueError as exc:
        raise SheetError(
            f"{source}: row {row}, column {column!r}: {exc}", cells=((row, column),)
        ) from None


def _scalar(text: str, like: Any) -> Any:
    if isinstance(like, bool):
        low = text.lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise ValueError(f"should be true or false, got {text!r}")
    if isinstance(like, int):
        try:
            return int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise ValueError(f"should be a whole number, got {text!r}") from None
            if number.is_integer():
                return int(number)  # a spreadsheet's "6.0"
            raise ValueError(f"should be a whole number, got {text!r}") from None
    if isinstance(like, float):
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"should be a number, got {text!r}") from None
    if isinstance(like, str):
        return text
    return _guess(text)


def _guess(text: str) -> Any:
    """A cell of a field the template does not have: a number if it reads as one."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def round_trip_problems(doc: dict[str, Any], again: dict[str, Any]) -> Iterable[str]:
    """Where a card file and its sheet read back differ (empty when the sheet is faithful)."""
    for key in sorted(set(doc) | set(again)):
        if doc.get(key) != again.get(key):
            yield key
