"""The reference shelf: traditional card games whose rules are in the public domain,
written as ordinary cardlab plugins (one package each under the one layout, found by
entry point like any third-party game), so the lab can measure games people already
love with the same bots and metrics as a new design.

Two helpers are shared by the shelf's games and by nothing else: `deck` (the standard
52-card deck's card file) and `deal` (a redeal that keeps what the table has seen)."""
