"""The options every lab command shares, and its one way to fail.

A module of its own at the bottom of the command layer, so each command module
(`commands`, `report_commands`, `bench`, `calibrate`) imports it, and `commands`
registers the others without any of them importing `commands` back."""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Rule option name=value (repeatable).")
]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", "-w", help="Worker processes (default: CPU count).")
]
CardsOpt = Annotated[
    str | None,
    typer.Option("--cards", help="A card data file to play instead of the packaged one."),
]
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        help="A variant to play: a .toml file or the name of one the game ships (e.g. lab).",
    ),
]
BackendOpt = Annotated[str, typer.Option("--backend", help="local (processes) or ray.")]
RayOpt = Annotated[
    str | None, typer.Option("--ray-address", help="Join this Ray cluster (e.g. ray://host:10001).")
]


def fail(message: object) -> NoReturn:
    """One clear line on stderr, exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)
