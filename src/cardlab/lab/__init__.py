"""The playtest lab: simulate many games, measure them, check the rulebooks' claims.

Modules: `seeds` (per-game seeds), `simulate` (one game -> one record),
`backends` (local processes or Ray), `storage` (Parquet + DuckDB), `metrics`,
`timemodel`, `report` (HTML/JSON/Markdown), `claims` (the gate), `gate`,
`bench`, `commands` (the CLI)."""
