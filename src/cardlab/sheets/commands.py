"""`cardlab cards GAME export|import`: a game's card file as a CSV sheet and back.

Import validates the sheet by loading the game with it at every player count, so a
designer hears about a bad cell (named by row and column) before a table or a run
does, and the card file it writes is one every command accepts (`--cards FILE`)."""

from __future__ import annotations

import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Annotated

import typer

from cardlab.core.errors import CardDataError, CardlabError
from cardlab.games import game_info, load_game
from cardlab.sheets.sheet import (
    pointed,
    read_csv,
    read_sheet_file,
    sheet_to_toml,
    write_csv,
    write_xlsx,
)


def card_file(game: str, cards: Path | None) -> Path:
    """The card file to export or to type a sheet after: `cards`, else the packaged one."""
    if cards is not None:
        return cards
    path = game_info(game).asset("cards")
    if path is None:
        raise CardlabError(f"game {game!r} has no card file to export")
    return path


def load_toml(path: Path) -> dict[str, object]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(f"{path}: not a readable TOML card file: {exc}") from exc


def import_sheet(game: str, sheet: Path, template: Path) -> str:
    """The TOML card file `sheet` says, checked by loading `game` with it at every
    player count; a refusal names the sheet's row and column where it can."""
    text = read_sheet_file(sheet)
    doc = read_csv(text, load_toml(template), str(sheet))
    toml_text = sheet_to_toml(doc)
    info = game_info(game)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.toml"
        path.write_text(toml_text, encoding="utf-8")
        for players in range(info.min_players, info.max_players + 1):
            try:
                load_game(game, players, cards=str(path))
            except CardDataError as exc:
                # said of the sheet, not of the file it was turned into for the check
                told = CardDataError(str(exc).replace(f"{path}: ", ""), exc.locations)
                at = f" (at {players} players)" if players != info.min_players else ""
                raise pointed(told, text, f"{sheet}{at}") from None
    return toml_text


def register(app: typer.Typer) -> None:
    @app.command("cards")
    def cards_command(
        game: Annotated[str, typer.Argument(help="Game name (see `cardlab games`).")],
        action: Annotated[
            str, typer.Argument(help="export (card file -> CSV) or import (CSV -> card file).")
        ],
        csv_path: Annotated[
            Path | None,
            typer.Option(
                "--csv",
                help="export: the sheet to write, CSV or .xlsx by its suffix (default: CSV "
                "on standard output); import: the sheet to read (.csv or .xlsx).",
            ),
        ] = None,
        cards: Annotated[
            Path | None,
            typer.Option(
                "--cards",
                help="export: the card file to export; import: the card file whose field "
                "types the sheet follows (default: the packaged cards).",
            ),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option("--out", help="import: the card file to write (default GAME-cards.toml)."),
        ] = None,
    ) -> None:
        """A game's cards as a spreadsheet (CSV) and back: `export` writes one row a card,
        `import` reads a sheet, checks it with the game at every player count and writes
        the card file every command takes as `--cards`."""
        try:
            template = card_file(game, cards)
            if action == "export":
                doc = load_toml(template)
                if csv_path is None:
                    write_csv(doc, sys.stdout)
                elif csv_path.suffix.lower() == ".xlsx":
                    write_xlsx(doc, csv_path)
                    typer.echo(f"wrote {csv_path} from {template}")
                else:
                    with csv_path.open("w", encoding="utf-8", newline="") as fh:
                        write_csv(doc, fh)
                    typer.echo(f"wrote {csv_path} from {template}")
                return
            if action == "import":
                if csv_path is None:
                    raise CardlabError("import needs the sheet to read: --csv FILE")
                toml_text = import_sheet(game, csv_path, template)
                target = out or Path(f"{game}-cards.toml")
                target.write_text(toml_text, encoding="utf-8")
                typer.echo(
                    f"wrote {target}: a valid {game} card file (play it with --cards {target})"
                )
                return
            raise CardlabError(f"unknown action {action!r}: export or import")
        except CardlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
