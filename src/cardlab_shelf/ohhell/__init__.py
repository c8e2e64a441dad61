"""OH HELL on the reference shelf: bid exactly the tricks you will take."""
