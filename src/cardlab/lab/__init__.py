"""The playtest lab: simulate many games, measure them, check the rulebooks' claims.

Modules: `seeds` (per-game seeds), `simulate` (one game -> one record),
`backends` (local processes or Ray), `storage` (Parquet + DuckDB), `metrics`,
`timemodel` (seconds per decision as ranges, from each game's GameInfo), `calibrate`
(fits them on recorded play), `verdicts` (claim kinds and verdicts), `claims` (the
registry; each game's claims live in its own `claims.py`), `impact` (card experiments),
`skill` (ladder cells), `findings` (the report's ranked headline), `report` (report.json),
`html` + `templates/` (report.html), `summary` (summary.md), `gate`, `bench`,
`commands` (the CLI). docs/lab.md documents the report and its JSON fields."""
