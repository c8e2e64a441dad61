"""Card data as a spreadsheet: every game's card file round-trips through CSV exactly,
an edited sheet becomes a card file the game plays with, and a bad cell is refused
naming the sheet's row and column."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.core.errors import CardDataError
from cardlab.games import all_infos, load_game
from cardlab.sheets.commands import import_sheet
from cardlab.sheets.sheet import SheetError, read_csv, to_rows, write_csv

GAMES_WITH_CARDS = [i.name for i in all_infos() if i.asset("cards") is not None]


def packaged(game: str) -> Path:
    path = next(i for i in all_infos() if i.name == game).asset("cards")
    assert path is not None
    return path


@pytest.mark.parametrize("game", GAMES_WITH_CARDS)
def test_every_card_file_round_trips_through_csv_exactly(game, tmp_path):
    doc = tomllib.loads(packaged(game).read_text(encoding="utf-8"))
    out = io.StringIO()
    write_csv(doc, out)
    sheet = tmp_path / "cards.csv"
    sheet.write_text(out.getvalue(), encoding="utf-8")
    assert read_csv(out.getvalue(), doc) == doc
    again = tomllib.loads(import_sheet(game, sheet, packaged(game)))
    assert again == doc


def test_the_sheet_is_one_row_a_card_entry_with_lists_in_one_cell():
    doc = tomllib.loads(packaged("uptime").read_text(encoding="utf-8"))
    columns, rows = to_rows(doc)
    assert columns[0] == "section"
    storage = next(r for r in rows if r.get("name") == "Storage")
    assert storage["section"] == "component"
    assert storage["cost"] == "Silicon; Rare-Earth"
    assert any(r["section"] == "[patch]" for r in rows)  # a single table keeps its form


def test_an_edited_sheet_is_played_by_the_game(tmp_path):
    runner = CliRunner()
    sheet, out = tmp_path / "uptime.csv", tmp_path / "mine.toml"
    got = runner.invoke(app, ["cards", "uptime", "export", "--csv", str(sheet)])
    assert got.exit_code == 0, got.output
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    for row in rows:
        if row["name"] == "Workstation":
            row["points"] = "9"
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    got = runner.invoke(app, ["cards", "uptime", "import", "--csv", str(sheet), "--out", str(out)])
    assert got.exit_code == 0, got.output
    game = load_game("uptime", 3, cards=str(out))
    table = game.table  # type: ignore[attr-defined]
    workstation = table.name.index("Workstation")
    assert table.value[workstation] == 9


def _sheet_with(tmp_path: Path, game: str, name: str, column: str, value: str) -> Path:
    doc = tomllib.loads(packaged(game).read_text(encoding="utf-8"))
    buf = io.StringIO()
    write_csv(doc, buf)
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    for row in rows:
        if row["name"] == name:
            row[column] = value
    path = tmp_path / f"{game}.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize(
    ("game", "name", "column", "value", "row", "said"),
    [
        ("uptime", "Copper", "count", "lots", 3, "whole number"),  # not a number
        ("uptime", "Copper", "count", "99", 3, "outside the allowed range"),  # the game's rule
        ("runway", "Seed Round", "score", "true", None, "score"),  # a number wanted
    ],
)
def test_a_bad_cell_is_refused_naming_its_row_and_column(
    tmp_path, game, name, column, value, row, said
):
    sheet = _sheet_with(tmp_path, game, name, column, value)
    with pytest.raises(CardDataError) as caught:
        import_sheet(game, sheet, packaged(game))
    text = str(caught.value)
    assert said in text, text
    if row is not None:
        assert f"row {row}, column {column!r}" in text, text
    else:
        assert f"column {column!r}" in text, text
    assert "tmp" not in text.replace(str(tmp_path), ""), text  # no private temp file named


def test_a_sheet_without_the_section_column_is_refused():
    with pytest.raises(SheetError, match="first column must be 'section'"):
        read_csv("name,count\nSilicon,6\n", {})


def test_the_command_refuses_an_unknown_action_and_a_missing_sheet():
    runner = CliRunner()
    got = runner.invoke(app, ["cards", "uptime", "frobnicate"])
    assert got.exit_code == 2 and "export or import" in got.output
    got = runner.invoke(app, ["cards", "uptime", "import"])
    assert got.exit_code == 2 and "--csv" in got.output


@pytest.mark.parametrize("game", GAMES_WITH_CARDS)
def test_an_xlsx_workbook_round_trips_too(game, tmp_path):
    """A spreadsheet saves .xlsx: export to a workbook (numbers as numbers) and import it."""
    runner = CliRunner()
    book = tmp_path / f"{game}.xlsx"
    got = runner.invoke(app, ["cards", game, "export", "--csv", str(book)])
    assert got.exit_code == 0, got.output
    doc = tomllib.loads(packaged(game).read_text(encoding="utf-8"))
    assert tomllib.loads(import_sheet(game, book, packaged(game))) == doc


def test_a_workbook_edited_cell_is_read_with_its_row_and_column(tmp_path):
    import openpyxl

    runner = CliRunner()
    book = tmp_path / "uptime.xlsx"
    runner.invoke(app, ["cards", "uptime", "export", "--csv", str(book)])
    wb = openpyxl.load_workbook(book)
    ws = wb.worksheets[0]
    header = [c.value for c in ws[1]]
    ws.cell(row=3, column=header.index("count") + 1, value=2.0)  # Copper, stored as a float
    wb.save(book)
    with pytest.raises(CardDataError, match=r"row 3, column 'count'.*outside the allowed range"):
        import_sheet("uptime", book, packaged("uptime"))
